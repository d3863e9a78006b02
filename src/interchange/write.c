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
#include <stdlib.h>
#include <string.h>

#include "interchange/fields.h"
#include "interchange/interchange.h"
#include "util/iso8601.h"
#include "util/json_write.h"
#include "util/output_file.h"
#include "util/utf8.h"
#include "util/xalloc.h"

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
	/* a metric never measured has them too, when its warm-ups succeeded */
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

/*
 * A culprit that jansson's json_pack() would refuse (a name not UTF-8, a
 * cpu not finite) is left out.
 */
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
 * fill, as import reads them: warm-ups too where every measured iteration
 * failed (result_benchmark_filled()).
 */
static bool records_fit(const struct result_benchmark *b)
{
	size_t nr_warmup, nr_measured;

	result_benchmark_filled(b, &nr_warmup, &nr_measured);
	return b->nr_iterations == nr_warmup + nr_measured;
}

/* @b's params, as stored: an object of strings (batch_refused() made sure). */
static void benchmark_json(struct json_writer *w, const struct result_benchmark *b)
{
	json_t *params = json_loads(b->params, 0, NULL);

	jw_object(w);
	jw_key(w, "workload");
	jw_string(w, b->workload);
	jw_key(w, "params");
	jw_json(w, params);
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
	/*
	 * A metric never measured (all iterations failed) is written too, its
	 * samples empty: without it an import would show nothing of the metric.
	 */
	jw_key(w, "metrics");
	jw_array(w);
	for (size_t i = 0; i < b->nr_metrics; i++)
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
 * Why import would refuse @b's stored params (text that is no JSON, JSON
 * that is no object of strings), NULL when it takes them; the key at
 * fault in @key.
 */
static const char *params_refused(const struct result_benchmark *b, char *key, size_t len)
{
	json_t *params = b->params ? json_loads(b->params, JSON_DECODE_ANY, NULL) : NULL;
	const char *k, *why = NULL;
	json_t *v;

	key[0] = '\0';
	if (!json_is_object(params))
		why = "not an object of strings";
	json_object_foreach(params, k, v)
		if ((why = pair_refused(k, v))) {
			snprintf(key, len, ".%s", utf8_valid(k) ? k : "?");
			break;
		}
	json_decref(params);
	return why;
}

static bool all_finite(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return false;
	return true;
}

/* Why import would refuse metric @m as write.c writes it, NULL when it takes it. */
static const char *metric_refused(const struct result_metric *m, const char **field)
{
	size_t reps = result_metric_repetitions(m);
	const char *why;

	*field = "name";
	if ((why = text_refused(m->name ? m->name : "", strlen(m->name ? m->name : ""),
				FIELD_METRIC_NAME, false)))
		return why;
	*field = "unit";
	if ((why = text_refused(m->unit ? m->unit : "", strlen(m->unit ? m->unit : ""),
				FIELD_UNIT, true)))
		return why;
	*field = "source";
	if (m->source && (why = text_refused(m->source, strlen(m->source), FIELD_SOURCE, false)))
		return why;
	*field = "repetitions";
	if (reps > MAX_REPETITIONS || m->nr_samples % reps || m->nr_warmup % reps)
		return "the samples and warm-ups do not hold whole iterations of it";
	/* the writer leaves out what is not finite: the file would lose it */
	*field = "samples";
	if (!all_finite(m->samples, m->nr_samples))
		return "not a finite number";
	*field = "warmup";
	if (!all_finite(m->warmup, m->nr_warmup))
		return "not a finite number";
	return NULL;
}

static int by_name_then_place(const void *a, const void *b, void *metrics)
{
	const struct result_metric *m = metrics;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(m[x].name, m[y].name);

	return c ? c : (x > y) - (x < y);
}

/*
 * Which metrics of @b have the name of one before them (b->nr_metrics
 * flags, malloc'd): by their names sorted, not each name against all
 * before it, which cost a benchmark of a hundred metrics some 5,000
 * comparisons. A metric without a name has none to repeat.
 */
static bool *names_twice(const struct result_benchmark *b)
{
	size_t *order = xcalloc(b->nr_metrics + 1, sizeof(*order)), n = 0;
	bool *twice = xcalloc(b->nr_metrics + 1, sizeof(*twice));

	for (size_t k = 0; k < b->nr_metrics; k++)
		if (b->metrics[k].name)
			order[n++] = k;
	qsort_r(order, n, sizeof(*order), by_name_then_place, b->metrics);
	for (size_t i = 1; i < n; i++)
		if (!strcmp(b->metrics[order[i]].name, b->metrics[order[i - 1]].name))
			twice[order[i]] = true;
	free(order);
	return twice;
}

/*
 * Why import would refuse what export writes of @batch, or would read back
 * less than it held, into @err (EXIT_ENV): such a batch is one the store
 * holds damaged (changed by hand), which no file can carry faithfully.
 * The checks are import's own (fields.h) of the text the store keeps:
 * the values the writer converts or could leave out.
 */
static int batch_refused(const struct result_batch *batch, struct error *err)
{
	const char *why = NULL, *field = "";
	char where[300] = "", key[140] = "", normal[64];

	if (!batch->name || (why = text_refused(batch->name, strlen(batch->name),
						FIELD_RUN_NAME, false))) {
		why = why ? why : "missing";
		field = "name";
	} else if (!batch->started ||
		   (why = text_refused(batch->started, strlen(batch->started), FIELD_STARTED,
				       false)) ||
		   (why = iso8601(batch->started, normal, sizeof(normal)))) {
		why = why ? why : "missing";
		field = "started";
	}
	for (size_t i = 0; !why && i < batch->nr_benchmarks; i++) {
		const struct result_benchmark *b = &batch->benchmarks[i];
		const char *wl = b->workload ? b->workload : "";
		bool *twice;

		snprintf(where, sizeof(where), ", benchmark %zu (%.64s)", i + 1,
			 utf8_valid(wl) ? wl : "?");
		if ((why = text_refused(wl, strlen(wl), FIELD_WORKLOAD, false))) {
			field = "workload";
			break;
		}
		if ((why = params_refused(b, key, sizeof(key)))) {
			field = "params";
			break;
		}
		for (size_t k = 0; !why && k < b->nr_failed; k++)
			if (!*b->failures[k] || strlen(b->failures[k]) > FIELD_FAILURE ||
			    !utf8_valid(b->failures[k]))
				why = "not a reason: 1 to 1024 bytes of UTF-8", field = "failures";
		if (why)
			break;
		twice = names_twice(b);
		for (size_t k = 0; !why && k < b->nr_metrics; k++) {
			const struct result_metric *m = &b->metrics[k];

			if (twice[k])
				why = "a metric of that name comes twice", field = "name";
			else
				why = metric_refused(m, &field);
			if (why)
				snprintf(where + strlen(where), sizeof(where) - strlen(where),
					 ", metric %zu%s%.64s%s", k + 1, m->name && *m->name ? " (" : "",
					 !m->name ? "" : utf8_valid(m->name) ? m->name : "?",
					 m->name && *m->name ? ")" : "");
		}
		free(twice);
	}
	if (!why)
		return 0;
	return error_set(err, EXIT_ENV, "cannot export run '%.128s' (batch started %.40s)%s: "
			 "%s%s: %s, which import would refuse (the store was changed by other "
			 "means than schedperf, or is damaged; restore it from a copy)",
			 batch->name && utf8_valid(batch->name) ? batch->name : "?",
			 batch->started && utf8_valid(batch->started) ? batch->started : "?",
			 where, field, key, why);
}

/*
 * Written as it is made: an export's tree cost more than its writing.
 * Each value is what the tree of earlier versions held (json_write.h).
 * Every batch is checked first (batch_refused()), so that a damaged one
 * writes nothing, not even to standard output.
 */
int interchange_write(FILE *out, const struct result_set *set, struct error *err)
{
	struct json_writer *w;
	int rc;

	for (size_t i = 0; i < set->nr_batches; i++)
		if (batch_refused(&set->batches[i], err))
			return -1;
	w = json_writer_new(out, 2);

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
