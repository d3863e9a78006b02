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

static json_t *samples_json(const double *values, size_t n)
{
	json_t *array = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(array, json_real(values[i]));
	return array;
}

static json_t *metric_json(const struct result_metric *m)
{
	json_t *obj = json_object();

	json_object_set_new(obj, "name", json_string(m->name));
	json_object_set_new(obj, "unit", json_string(m->unit));
	json_object_set_new(obj, "better", json_string(better_name(m->better)));
	json_object_set_new(obj, "source", json_string(m->source ? m->source : "workload"));
	if (result_metric_repetitions(m) > 1)
		json_object_set_new(obj, "repetitions",
				    json_integer((json_int_t)result_metric_repetitions(m)));
	json_object_set_new(obj, "samples", samples_json(m->samples, m->nr_samples));
	if (m->nr_warmup)
		json_object_set_new(obj, "warmup", samples_json(m->warmup, m->nr_warmup));
	return obj;
}

static void set_real(json_t *obj, const char *key, double v)
{
	if (!isnan(v))
		json_object_set_new(obj, key, json_real(v));
}

static json_t *iteration_json(const struct result_iteration *it)
{
	json_t *obj = json_object();

	if (it->warmup)
		json_object_set_new(obj, "warmup", json_true());
	set_real(obj, "cpu_taken", it->cpu_taken);
	set_real(obj, "cpu_steal", it->cpu_steal);
	set_real(obj, "cpu_available", it->cpu_available);
	set_real(obj, "started", it->started);
	set_real(obj, "ended", it->ended);
	if (it->disturbed)
		json_object_set_new(obj, "disturbed", json_true());
	if (it->rerun)
		json_object_set_new(obj, "rerun", json_true());
	if (it->nr_culprits) {
		json_t *culprits = json_array();

		for (size_t i = 0; i < it->nr_culprits; i++) {
			const struct result_culprit *c = &it->culprits[i];

			json_array_append_new(culprits, json_pack("{s:s, s:I, s:f}",
								  "name", c->name,
								  "pid", (json_int_t)c->pid,
								  "cpu", c->cpu));
		}
		json_object_set_new(obj, "culprits", culprits);
	}
	return obj;
}

static json_t *profile_json(const struct result_profile *p)
{
	json_t *obj = json_object(), *symbols = json_array();

	json_object_set_new(obj, "seq", json_integer(p->seq));
	json_object_set_new(obj, "extra", json_boolean(p->extra));
	json_object_set_new(obj, "event", json_string(p->event));
	json_object_set_new(obj, "scope", json_string(p->scope));
	json_object_set_new(obj, "frequency", json_integer((json_int_t)p->frequency));
	json_object_set_new(obj, "samples", json_integer((json_int_t)p->samples));
	json_object_set_new(obj, "lost", json_integer((json_int_t)p->lost));
	json_object_set_new(obj, "total", json_integer((json_int_t)p->total));
	for (size_t i = 0; i < p->nr_symbols; i++) {
		const struct result_profile_symbol *sym = &p->symbols[i];

		json_array_append_new(symbols, json_pack("{s:s, s:s, s:I, s:I}", "name",
							 sym->name, "dso", sym->dso, "self",
							 (json_int_t)sym->self, "children",
							 (json_int_t)sym->children));
	}
	json_object_set_new(obj, "symbols", symbols);
	return obj;
}

static json_t *benchmark_json(const struct result_benchmark *b)
{
	json_t *obj = json_object(), *metrics = json_array();
	json_t *params = json_loads(b->params, 0, NULL);

	json_object_set_new(obj, "workload", json_string(b->workload));
	json_object_set_new(obj, "params", params ? params : json_object());
	if (b->nr_failed)
		json_object_set_new(obj, "failed_iterations",
				    json_integer((json_int_t)b->nr_failed));
	/* A metric never measured (all iterations failed) has nothing to carry. */
	for (size_t i = 0; i < b->nr_metrics; i++)
		if (b->metrics[i].nr_samples)
			json_array_append_new(metrics, metric_json(&b->metrics[i]));
	json_object_set_new(obj, "metrics", metrics);
	if (b->nr_iterations) {
		json_t *iterations = json_array();

		for (size_t i = 0; i < b->nr_iterations; i++)
			json_array_append_new(iterations, iteration_json(&b->iterations[i]));
		json_object_set_new(obj, "iterations", iterations);
	}
	if (b->nr_profiles) {
		json_t *profiles = json_array();

		for (size_t i = 0; i < b->nr_profiles; i++)
			json_array_append_new(profiles, profile_json(&b->profiles[i]));
		json_object_set_new(obj, "profiles", profiles);
	}
	return obj;
}

static json_t *batch_json(const struct result_batch *batch)
{
	json_t *obj = json_object(), *env = json_object(), *benchmarks = json_array();

	json_object_set_new(obj, "name", json_string(batch->name));
	json_object_set_new(obj, "started", json_string(batch->started));
	json_object_set_new(obj, "complete", json_boolean(batch->complete));
	for (size_t i = 0; i < batch->nr_env; i++)
		json_object_set_new(env, batch->env[i].key, json_string(batch->env[i].value));
	json_object_set_new(obj, "environment", env);
	for (size_t i = 0; i < batch->nr_benchmarks; i++)
		json_array_append_new(benchmarks, benchmark_json(&batch->benchmarks[i]));
	json_object_set_new(obj, "benchmarks", benchmarks);
	return obj;
}

int interchange_write(FILE *out, const struct result_set *set, struct error *err)
{
	json_t *doc = json_object(), *runs = json_array();
	int rc;

	json_object_set_new(doc, "schema", json_string(RESULTS_SCHEMA));
	for (size_t i = 0; i < set->nr_batches; i++)
		json_array_append_new(runs, batch_json(&set->batches[i]));
	json_object_set_new(doc, "runs", runs);
	rc = json_write(out, doc, 2);
	json_decref(doc);
	if (rc || fputc('\n', out) == EOF || fflush(out)) {
		int saved = errno ? errno : EIO;

		return error_set(err, EXIT_ENV, "cannot write the export: %s (%s)",
				 strerror(saved), output_file_hint(saved));
	}
	return 0;
}
