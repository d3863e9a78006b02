// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: schedperf-results/1 import. Arbitrary bytes go through
 * the same validation as `schedperf import`; whatever is accepted is
 * written back out and read again, and must come back the same: import
 * taking in what export then drops or changes (a name that is not UTF-8, a
 * sample printed short of its digits) is a lost result, so it aborts here.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interchange/interchange.h"
#include "results/results.h"

static int same_text(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}

/* Bit for bit: -0.0 and each NaN must survive as they were read. */
static int same_values(const double *a, const double *b, size_t n)
{
	return n == 0 || memcmp(a, b, n * sizeof(*a)) == 0;
}

static int same_metric(const struct result_metric *a, const struct result_metric *b)
{
	return same_text(a->name, b->name) && same_text(a->unit, b->unit) &&
	       a->better == b->better && same_text(a->source, b->source) &&
	       result_metric_repetitions(a) == result_metric_repetitions(b) &&
	       a->nr_samples == b->nr_samples && a->nr_warmup == b->nr_warmup &&
	       same_values(a->samples, b->samples, a->nr_samples) &&
	       same_values(a->warmup, b->warmup, a->nr_warmup);
}

static int same_benchmark(const struct result_benchmark *a, const struct result_benchmark *b)
{
	if (!same_text(a->workload, b->workload) || !same_text(a->params, b->params) ||
	    a->nr_metrics != b->nr_metrics || a->nr_failed != b->nr_failed)
		return 0;
	for (size_t i = 0; i < a->nr_metrics; i++)
		if (!same_metric(&a->metrics[i], &b->metrics[i]))
			return 0;
	return 1;
}

static int same_batch(const struct result_batch *a, const struct result_batch *b)
{
	if (!same_text(a->name, b->name) || !same_text(a->started, b->started) ||
	    a->complete != b->complete || a->nr_env != b->nr_env ||
	    a->nr_benchmarks != b->nr_benchmarks)
		return 0;
	for (size_t i = 0; i < a->nr_env; i++)
		if (!same_text(a->env[i].key, b->env[i].key) ||
		    !same_text(a->env[i].value, b->env[i].value))
			return 0;
	for (size_t i = 0; i < a->nr_benchmarks; i++)
		if (!same_benchmark(&a->benchmarks[i], &b->benchmarks[i]))
			return 0;
	return 1;
}

static int same_set(const struct result_set *a, const struct result_set *b)
{
	if (a->nr_batches != b->nr_batches)
		return 0;
	for (size_t i = 0; i < a->nr_batches; i++)
		if (!same_batch(&a->batches[i], &b->batches[i]))
			return 0;
	return 1;
}

/* libFuzzer calls it; declared for -Wmissing-prototypes of make tests */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct result_set first = { NULL, 0 }, again = { NULL, 0 };
	struct error err = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	if (interchange_read_buffer("fuzz.json", (const char *)data, size, &first, &err))
		goto done;
	out = open_memstream(&text, &len);
	if (!out)
		goto done;
	if (interchange_write(out, &first, &err)) {
		fclose(out);
		goto done;
	}
	fclose(out);
	if (interchange_read_buffer("export.json", text, len, &again, &err) ||
	    !same_set(&first, &again)) {
		fprintf(stderr, "accepted by import, changed by export and import: %s\n",
			err.msg[0] ? err.msg : "the results differ");
		abort();
	}
done:
	free(text);
	result_set_release(&first);
	result_set_release(&again);
	return 0;
}
