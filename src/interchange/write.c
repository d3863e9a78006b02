// SPDX-License-Identifier: GPL-2.0
/*
 * schedperf-results/1, written: a result set as JSON (interchange.h), its
 * numbers to 17 digits so that they read back as the same doubles, the
 * keys in a fixed order so that export -> import -> export is
 * byte-identical.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "interchange/interchange.h"
#include "util/json_write.h"
#include "util/output_file.h"
#include "util/utf8.h"

static void samples_json(struct json_writer *w, const char *key, const double *values,
			 size_t n)
{
	jw_key(w, key);
	jw_array(w);
	for (size_t i = 0; i < n; i++)
		jw_real(w, values[i]);
	jw_close(w);
}

static void metric_json(struct json_writer *w, const struct result_metric *m)
{
	jw_object(w);
	jw_key(w, "name");
	jw_string(w, m->name);
	jw_key(w, "unit");
	jw_string(w, m->unit);
	jw_key(w, "better");
	jw_string(w, better_name(m->better));
	jw_key(w, "source");
	jw_string(w, m->source ? m->source : "workload");
	if (result_metric_repetitions(m) > 1) {
		jw_key(w, "repetitions");
		jw_integer(w, (long long)result_metric_repetitions(m));
	}
	samples_json(w, "samples", m->samples, m->nr_samples);
	if (m->nr_warmup)
		samples_json(w, "warmup", m->warmup, m->nr_warmup);
	jw_close(w);
}

static void set_real(struct json_writer *w, const char *key, double v)
{
	if (!isnan(v)) {
		jw_key(w, key);
		jw_real(w, v);
	}
}

static void set_true(struct json_writer *w, const char *key, bool v)
{
	if (v) {
		jw_key(w, key);
		jw_bool(w, true);
	}
}

/* A culprit that jansson's json_pack() would refuse (a name not UTF-8, a cpu not finite) is left out. */
static void culprit_json(struct json_writer *w, const struct result_culprit *c)
{
	if (!utf8_valid(c->name) || !isfinite(c->cpu))
		return;
	jw_object(w);
	jw_key(w, "name");
	jw_string(w, c->name);
	jw_key(w, "pid");
	jw_integer(w, (long long)c->pid);
	jw_key(w, "cpu");
	jw_real(w, c->cpu);
	jw_close(w);
}

static void iteration_json(struct json_writer *w, const struct result_iteration *it)
{
	jw_object(w);
	set_true(w, "warmup", it->warmup);
	set_real(w, "cpu_taken", it->cpu_taken);
	set_real(w, "cpu_steal", it->cpu_steal);
	set_real(w, "cpu_available", it->cpu_available);
	set_real(w, "started", it->started);
	set_real(w, "ended", it->ended);
	set_true(w, "disturbed", it->disturbed);
	set_true(w, "rerun", it->rerun);
	if (it->nr_culprits) {
		jw_key(w, "culprits");
		jw_array(w);
		for (size_t i = 0; i < it->nr_culprits; i++)
			culprit_json(w, &it->culprits[i]);
		jw_close(w);
	}
	jw_close(w);
}

/* A symbol that jansson's json_pack() would refuse (a name not UTF-8) is left out. */
static void profile_json(struct json_writer *w, const struct result_profile *p)
{
	jw_object(w);
	jw_key(w, "seq");
	jw_integer(w, p->seq);
	jw_key(w, "extra");
	jw_bool(w, p->extra);
	jw_key(w, "event");
	jw_string(w, p->event);
	jw_key(w, "scope");
	jw_string(w, p->scope);
	jw_key(w, "frequency");
	jw_integer(w, (long long)p->frequency);
	jw_key(w, "samples");
	jw_integer(w, (long long)p->samples);
	jw_key(w, "lost");
	jw_integer(w, (long long)p->lost);
	jw_key(w, "total");
	jw_integer(w, (long long)p->total);
	jw_key(w, "symbols");
	jw_array(w);
	for (size_t i = 0; i < p->nr_symbols; i++) {
		const struct result_profile_symbol *sym = &p->symbols[i];

		if (!utf8_valid(sym->name) || !utf8_valid(sym->dso))
			continue;
		jw_object(w);
		jw_key(w, "name");
		jw_string(w, sym->name);
		jw_key(w, "dso");
		jw_string(w, sym->dso);
		jw_key(w, "self");
		jw_integer(w, (long long)sym->self);
		jw_key(w, "children");
		jw_integer(w, (long long)sym->children);
		jw_close(w);
	}
	jw_close(w);
	jw_close(w);
}

/*
 * Whether @b's records are one for each iteration its metrics written
 * fill, as import reads them. A benchmark whose warm-ups succeeded and
 * measured iterations all failed writes no metric, and so none of its
 * warm-ups' records: the file would be one import refuses.
 */
static bool records_fit(const struct result_benchmark *b)
{
	size_t nr_warmup, nr_measured;

	result_benchmark_filled(b, &nr_warmup, &nr_measured);
	return b->nr_iterations == nr_warmup + nr_measured;
}

static void benchmark_json(struct json_writer *w, const struct result_benchmark *b)
{
	json_t *params = json_loads(b->params, 0, NULL);

	jw_object(w);
	jw_key(w, "workload");
	jw_string(w, b->workload);
	jw_key(w, "params");
	if (params)
		jw_json(w, params);
	else {
		jw_object(w);
		jw_close(w);
	}
	json_decref(params);
	if (b->nr_failed) {
		jw_key(w, "failed_iterations");
		jw_integer(w, (long long)b->nr_failed);
		jw_key(w, "failures");
		jw_array(w);
		for (size_t i = 0; i < b->nr_failed; i++)
			jw_string(w, b->failures[i]);
		jw_close(w);
	}
	/* A metric never measured (all iterations failed) has nothing to carry. */
	jw_key(w, "metrics");
	jw_array(w);
	for (size_t i = 0; i < b->nr_metrics; i++)
		if (b->metrics[i].nr_samples)
			metric_json(w, &b->metrics[i]);
	jw_close(w);
	if (b->nr_iterations && records_fit(b)) {
		jw_key(w, "iterations");
		jw_array(w);
		for (size_t i = 0; i < b->nr_iterations; i++)
			iteration_json(w, &b->iterations[i]);
		jw_close(w);
	}
	if (b->nr_profiles) {
		jw_key(w, "profiles");
		jw_array(w);
		for (size_t i = 0; i < b->nr_profiles; i++)
			profile_json(w, &b->profiles[i]);
		jw_close(w);
	}
	jw_close(w);
}

static void batch_json(struct json_writer *w, const struct result_batch *batch)
{
	jw_object(w);
	jw_key(w, "name");
	jw_string(w, batch->name);
	jw_key(w, "started");
	jw_string(w, batch->started);
	jw_key(w, "complete");
	jw_bool(w, batch->complete);
	jw_key(w, "environment");
	jw_object(w);
	for (size_t i = 0; i < batch->nr_env; i++) {
		jw_key(w, batch->env[i].key);
		jw_string(w, batch->env[i].value);
	}
	jw_close(w);
	jw_key(w, "benchmarks");
	jw_array(w);
	for (size_t i = 0; i < batch->nr_benchmarks; i++)
		benchmark_json(w, &batch->benchmarks[i]);
	jw_close(w);
	jw_close(w);
}

/*
 * Written as it is made: an export's tree cost more than its writing.
 * Each value is what the tree of earlier versions held (json_write.h).
 */
int interchange_write(FILE *out, const struct result_set *set, struct error *err)
{
	struct json_writer *w = json_writer_new(out, 2);
	int rc;

	jw_object(w);
	jw_key(w, "schema");
	jw_string(w, RESULTS_SCHEMA);
	jw_key(w, "runs");
	jw_array(w);
	for (size_t i = 0; i < set->nr_batches; i++)
		batch_json(w, &set->batches[i]);
	jw_close(w);
	jw_close(w);
	rc = json_writer_end(w);
	if (rc || fputc('\n', out) == EOF || fflush(out)) {
		int saved = errno ? errno : EIO;

		return error_set(err, EXIT_ENV, "cannot write the export: %s (%s)",
				 strerror(saved), output_file_hint(saved));
	}
	return 0;
}
