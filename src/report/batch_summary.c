// SPDX-License-Identifier: GPL-2.0
/*
 * The short summary of one batch that 'run' and 'show' print: one line
 * per workload metric with its headline statistic, spread and count.
 */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "util/strbuf.h"
#include "util/utf8.h"
#include "util/xalloc.h"

/* @s onto @sb, each character of @encode as %HH (none when @encode is NULL). */
static void add_encoded(struct strbuf *sb, const char *s, const char *encode)
{
	for (; *s; s++) {
		if (encode && strchr(encode, *s))
			strbuf_addf(sb, "%%%02X", (unsigned char)*s);
		else
			strbuf_addch(sb, *s);
	}
}

/* "key=value" joined by @sep, the characters of @encode in keys and values as %HH. */
static char *params_join(const char *params_json, char sep, const char *encode)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *obj = json_loads(params_json, 0, NULL);
	const char *key;
	json_t *v;

	if (!json_is_object(obj)) {
		json_decref(obj);
		return strbuf_detach(&sb);
	}
	json_object_foreach(obj, key, v) {
		/* a value's control characters never reach a line: \x0d, not a return */
		char *k = utf8_escaped(key);
		char *value = utf8_escaped(json_is_string(v) ? json_string_value(v) : "?");

		if (sb.len)
			strbuf_addch(&sb, sep);
		add_encoded(&sb, k, encode);
		strbuf_addch(&sb, '=');
		add_encoded(&sb, value, encode);
		free(k);
		free(value);
	}
	json_decref(obj);
	return strbuf_detach(&sb);
}

char *params_display(const char *params_json)
{
	return params_join(params_json, ' ', NULL);
}

char *params_label(const char *params_json, char sep)
{
	const char encode[] = { '%', ' ', sep, '\0' };

	return params_join(params_json, sep, encode);
}

/*
 * Why its iterations failed: a line per reason, in the order each first
 * failed, with how many failed so (a reason is usually one of few).
 */
static void failure_lines(FILE *out, const struct result_benchmark *b)
{
	size_t *first = xcalloc(b->nr_failed + 1, sizeof(size_t));
	size_t *count = xcalloc(b->nr_failed + 1, sizeof(size_t));
	size_t nr = 0;

	for (size_t i = 0; i < b->nr_failed; i++) {
		size_t d = 0;

		while (d < nr && strcmp(b->failures[first[d]], b->failures[i]))
			d++;
		if (d == nr)
			first[nr++] = i;
		count[d]++;
	}
	for (size_t d = 0; d < nr; d++) {
		fprintf(out, "    %zu failed: ", count[d]);
		for (const char *c = b->failures[first[d]]; *c; c++)
			fputc((unsigned char)*c < 0x20 || *c == 0x7f ? '?' : *c, out);
		fputc('\n', out);
	}
	free(first);
	free(count);
}

char *benchmark_label(const struct result_batch *batch, const struct result_benchmark *b)
{
	struct strbuf sb = STRBUF_INIT;
	char *params = params_display(b->params);
	const char *cpus = result_batch_cpus(batch);

	strbuf_addf(&sb, "%s %s", b->workload, params);
	if (cpus) {
		char *shown = utf8_escaped(cpus);

		strbuf_addf(&sb, " on CPUs %s", shown);
		free(shown);
	}
	free(params);
	return strbuf_detach(&sb);
}

void report_batch_summary(FILE *out, const struct result_batch *batch)
{
	fprintf(out, "run %s, batch %lld (%s)%s\n", batch->name, (long long)batch->id,
		batch->started, batch->complete ? "" : ", incomplete");
	for (size_t i = 0; i < batch->nr_benchmarks; i++) {
		const struct result_benchmark *b = &batch->benchmarks[i];
		char *label = benchmark_label(batch, b);
		struct disturbance d;

		fprintf(out, "  %s", label);
		if (b->nr_failed)
			fprintf(out, "  (%zu failed iterations)", b->nr_failed);
		fputc('\n', out);
		free(label);
		failure_lines(out, b);
		disturbance_summarize(batch, i, &d);
		if (d.disturbed) {
			char line[512];

			disturbance_describe(&d, line, sizeof(line));
			fprintf(out, "    %s\n", line);
		}
		for (size_t m = 0; m < b->nr_metrics; m++) {
			const struct result_metric *metric = &b->metrics[m];
			bool higher = metric->better == BETTER_HIGHER;
			struct summary s;

			if (metric->source && strcmp(metric->source, "workload"))
				continue;
			summary_compute(metric->samples, metric->nr_samples, higher, &s);
			fprintf(out, "    %-20s %s ", metric->name, higher ? "Hmean" : "Amean");
			if (!isfinite(compare_headline(&s, metric->better)))
				fprintf(out, "%14s %-8s", "-", metric->unit);
			else
				fprintf(out, "%14.6g %-8s", compare_headline(&s, metric->better),
					metric->unit);
			/* one beyond the largest double (mixed signs near it) is as undefined */
			if (!isfinite(s.coeffvar))
				fprintf(out, "  CoeffVar      -");
			else
				fprintf(out, "  CoeffVar %6.2f%%", s.coeffvar);
			fprintf(out, "  n=%zu\n", s.n);
		}
	}
}
