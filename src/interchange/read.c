// SPDX-License-Identifier: GPL-2.0
/*
 * schedperf-results/1, read: a whole document parsed and every value
 * validated before anything reaches the store (interchange.h); a bad one
 * names where it is, e.g. runs[0].benchmarks[2].metrics[1].
 */
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interchange/doc_memory.h"
#include "interchange/fields.h"
#include "interchange/interchange.h"
#include "interchange/read_input.h"
#include "util/iso8601.h"
#include "util/list.h"
#include "util/utf8.h"
#include "util/xalloc.h"

static int read_samples(json_t *array, struct result_metric *m, bool warmup,
			const char *file, const struct where *w, struct error *err)
{
	size_t i;
	json_t *v;

	if (!json_is_array(array))
		return bad(err, file, w, "not an array of numbers");
	json_array_foreach(array, i, v) {
		double x = json_is_number(v) ? json_number_value(v) : NAN;

		/* where it is, only when it is wrong: a file holds many samples */
		if (!isfinite(x)) {
			struct where s;

			where_child(&s, w, "", (long)i);
			return bad(err, file, &s, json_is_number(v) ? "not a finite number" :
				   "not a number");
		}
		/* -0 is 0, as SQLite stores it: PostgreSQL's would export "-0.0" */
		result_metric_add_sample(m, x == 0 ? 0.0 : x, warmup);
	}
	return 0;
}

/*
 * "repetitions": R values per iteration (omitted: 1). The samples and
 * warm-ups then hold whole iterations, R values each, so that an import
 * stores each value in the iteration it came from.
 */
static int read_repetitions(json_t *obj, struct result_metric *m, const char *file,
			    const struct where *w, struct error *err)
{
	json_t *v = json_object_get(obj, "repetitions");
	struct where rw;
	json_int_t reps;

	if (!v)
		return 0;
	where_child(&rw, w, "repetitions", -1);
	if (!json_is_integer(v) || (reps = json_integer_value(v)) < 1 ||
	    reps > MAX_REPETITIONS)
		return bad(err, file, &rw, "must be a whole number from 1 to 1000000");
	m->repetitions = (size_t)reps;
	if (m->nr_samples % m->repetitions || m->nr_warmup % m->repetitions)
		return bad(err, file, &rw, "the samples and warm-ups must hold whole "
			   "iterations: their counts must be multiples of it");
	return 0;
}

static int read_metric(json_t *obj, struct result_benchmark *bench, const char *file,
		       const struct where *w, struct error *err)
{
	static const char *const keys[] = { "name", "unit", "better", "source",
					    "repetitions", "samples", "warmup", NULL };
	const char *name, *unit, *better, *source = "workload";
	struct result_metric *m;
	struct where sw;

	if (!json_is_object(obj))
		return bad(err, file, w, "not an object");
	if (check_keys(obj, keys, file, w, err))
		return -1;
	if (!(name = get_text(obj, "name", FIELD_METRIC_NAME, false, file, w, err)) ||
	    !(unit = get_text(obj, "unit", FIELD_UNIT, true, file, w, err)) ||
	    !(better = get_text(obj, "better", 16, false, file, w, err)))
		return -1;
	if (json_object_get(obj, "source") &&
	    !(source = get_text(obj, "source", FIELD_SOURCE, false, file, w, err)))
		return -1;
	for (size_t i = 0; i < bench->nr_metrics; i++)
		if (!strcmp(bench->metrics[i].name, name))
			return bad(err, file, w, "a metric of that name comes twice in the benchmark");

	m = result_benchmark_add_metric(bench);
	m->name = xstrdup(name);
	m->unit = xstrdup(unit);
	m->source = xstrdup(source);
	if (better_parse(better, &m->better)) {
		where_child(&sw, w, "better", -1);
		return bad(err, file, &sw, "must be \"higher\" or \"lower\"");
	}
	where_child(&sw, w, "samples", -1);
	if (!json_object_get(obj, "samples"))
		return bad(err, file, &sw, "missing");
	/* may be empty: a metric whose iterations all failed, defined all the same */
	if (read_samples(json_object_get(obj, "samples"), m, false, file, &sw, err))
		return -1;
	if (json_object_get(obj, "warmup")) {
		where_child(&sw, w, "warmup", -1);
		/* beside empty samples too: they fill warm-up iterations all the same */
		if (read_samples(json_object_get(obj, "warmup"), m, true, file, &sw, err))
			return -1;
	}
	return read_repetitions(obj, m, file, w, err);
}

static int read_culprit(json_t *obj, struct result_iteration *it, const char *file,
			const struct where *w, struct error *err)
{
	static const char *const keys[] = { "name", "pid", "cpu", NULL };
	const char *name;
	json_t *pid;
	double cpu;
	struct where kw;

	if (!json_is_object(obj))
		return bad(err, file, w, "not an object");
	if (check_keys(obj, keys, file, w, err) ||
	    !(name = get_text(obj, "name", 64, false, file, w, err)) ||
	    read_seconds(obj, "cpu", &cpu, file, w, err))
		return -1;
	pid = json_object_get(obj, "pid");
	where_child(&kw, w, "pid", -1);
	if (!json_is_integer(pid) || json_integer_value(pid) < 0)
		return bad(err, file, &kw, pid ? "not a process id" : "missing");
	if (isnan(cpu)) {
		where_child(&kw, w, "cpu", -1);
		return bad(err, file, &kw, "missing");
	}
	result_iteration_add_culprit(it, name, (int64_t)json_integer_value(pid), cpu);
	return 0;
}

static int read_iteration(json_t *obj, struct result_benchmark *bench, const char *file,
			  const struct where *w, struct error *err)
{
	static const char *const keys[] = { "warmup", "cpu_taken", "cpu_steal",
					    "cpu_available", "started", "ended", "disturbed",
					    "rerun", "culprits", NULL };
	struct result_iteration *it;
	json_t *culprits, *v;
	struct where cw;
	size_t i;

	if (!json_is_object(obj))
		return bad(err, file, w, "not an object");
	if (check_keys(obj, keys, file, w, err))
		return -1;
	it = result_benchmark_add_iteration(bench);
	if (read_flag(obj, "warmup", &it->warmup, file, w, err) ||
	    read_flag(obj, "disturbed", &it->disturbed, file, w, err) ||
	    read_flag(obj, "rerun", &it->rerun, file, w, err) ||
	    read_seconds(obj, "cpu_taken", &it->cpu_taken, file, w, err) ||
	    read_seconds(obj, "cpu_steal", &it->cpu_steal, file, w, err) ||
	    read_seconds(obj, "cpu_available", &it->cpu_available, file, w, err) ||
	    read_seconds(obj, "started", &it->started, file, w, err) ||
	    read_seconds(obj, "ended", &it->ended, file, w, err))
		return -1;
	/*
	 * "ended" before "started" is kept as it is: both are the wall clock
	 * (doc/design.md, "Interference"), which a step of it between the go
	 * and the reap puts out of order in a run of ours too, and nothing
	 * takes a duration from them.
	 */
	culprits = json_object_get(obj, "culprits");
	if (!culprits)
		return 0;
	where_child(&cw, w, "culprits", -1);
	if (!json_is_array(culprits) || json_array_size(culprits) > 64)
		return bad(err, file, &cw, "not an array of at most 64 culprits");
	/* the store keeps them of a disturbed iteration only: others would go unseen */
	if (json_array_size(culprits) && !it->disturbed)
		return bad(err, file, &cw, "only an iteration marked \"disturbed\": true has "
			   "culprits");
	json_array_foreach(culprits, i, v) {
		struct where one;

		where_child(&one, w, "culprits", (long)i);
		if (read_culprit(v, it, file, &one, err))
			return -1;
	}
	return 0;
}

/*
 * "iterations": one record per iteration the metrics' values fill, warm-ups
 * first, in their order; each measured one's "disturbed" marks its values.
 */
static int read_iterations(json_t *array, struct result_benchmark *bench, const char *file,
			   const struct where *w, struct error *err)
{
	size_t nr_warmup, nr_measured, i, k = 0;
	json_t *v;

	result_benchmark_filled(bench, &nr_warmup, &nr_measured);
	if (!json_is_array(array) || json_array_size(array) != nr_warmup + nr_measured)
		return bad(err, file, w, "must be an array with one entry per iteration the "
			   "samples and warm-ups fill");
	json_array_foreach(array, i, v) {
		struct where one;

		where_child(&one, w, "", (long)i);
		if (read_iteration(v, bench, file, &one, err))
			return -1;
		if (bench->iterations[i].warmup != (i < nr_warmup))
			return bad(err, file, &one, "warm-ups must come first, one per warm-up "
				   "iteration");
	}
	/* Mark each disturbed iteration's values, as the store does when it loads them. */
	for (i = 0; i < bench->nr_metrics; i++) {
		struct result_metric *m = &bench->metrics[i];
		size_t reps = result_metric_repetitions(m);

		for (k = 0; k < m->nr_samples; k++) {
			if (!bench->iterations[nr_warmup + k / reps].disturbed)
				continue;
			if (!m->disturbed)
				m->disturbed = xcalloc(m->alloc_samples, sizeof(bool));
			m->disturbed[k] = true;
		}
	}
	return 0;
}

/* A symbol's weights lie within the profile's: self <= children <= total. */
static int read_symbol(json_t *obj, struct result_profile *p, const char *file,
		       const struct where *w, struct error *err)
{
	static const char *const keys[] = { "name", "dso", "self", "children", NULL };
	const char *name, *dso;
	json_int_t self, children;

	if (!json_is_object(obj))
		return bad(err, file, w, "not an object");
	if (check_keys(obj, keys, file, w, err) ||
	    !(name = get_text(obj, "name", 4096, false, file, w, err)) ||
	    !(dso = get_text(obj, "dso", 4096, false, file, w, err)) ||
	    get_count(obj, "children", 0, (json_int_t)p->total, &children, file, w, err) ||
	    get_count(obj, "self", 0, children, &self, file, w, err))
		return -1;
	result_profile_add_symbol(p, name, dso, (uint64_t)self, (uint64_t)children);
	return 0;
}

static int compare_symbols(const void *pa, const void *pb)
{
	const struct result_profile_symbol *a = *(const struct result_profile_symbol *const *)pa;
	const struct result_profile_symbol *b = *(const struct result_profile_symbol *const *)pb;
	int c = strcmp(a->name, b->name);

	if (!c)
		c = strcmp(a->dso, b->dso);
	return c ? c : (a > b) - (a < b);
}

/*
 * The later of two symbols of @p with one name and DSO, or NULL: a symbol
 * counted twice would add its shares twice (children above 100 %).
 * Sorted, not searched pairwise: a profile has thousands of symbols.
 */
static const struct result_profile_symbol *repeated_symbol(const struct result_profile *p)
{
	const struct result_profile_symbol **sorted, *found = NULL;

	if (p->nr_symbols < 2)
		return NULL;
	sorted = xcalloc(p->nr_symbols, sizeof(*sorted));
	for (size_t i = 0; i < p->nr_symbols; i++)
		sorted[i] = &p->symbols[i];
	qsort(sorted, p->nr_symbols, sizeof(*sorted), compare_symbols);
	for (size_t i = 1; i < p->nr_symbols && !found; i++)
		if (!strcmp(sorted[i]->name, sorted[i - 1]->name) &&
		    !strcmp(sorted[i]->dso, sorted[i - 1]->dso))
			found = sorted[i];
	free(sorted);
	return found;
}

static int read_profile(json_t *obj, struct result_benchmark *bench, const char *file,
			const struct where *w, struct error *err)
{
	const struct result_profile_symbol *again;
	static const char *const keys[] = { "seq", "extra", "event", "scope", "frequency",
					    "samples", "lost", "total", "symbols", NULL };
	const char *event, *scope;
	json_int_t seq, frequency, samples, lost, total;
	json_t *extra, *symbols, *v;
	struct result_profile *p;
	struct where sub;
	size_t i;

	if (!json_is_object(obj))
		return bad(err, file, w, "not an object");
	if (check_keys(obj, keys, file, w, err) ||
	    get_count(obj, "seq", 0, 1000000, &seq, file, w, err) ||
	    !(event = get_text(obj, "event", 64, false, file, w, err)) ||
	    !(scope = get_text(obj, "scope", 64, false, file, w, err)) ||
	    get_count(obj, "frequency", 1, 1000000000, &frequency, file, w, err) ||
	    get_count(obj, "samples", 0, INT64_MAX, &samples, file, w, err) ||
	    get_count(obj, "lost", 0, INT64_MAX, &lost, file, w, err) ||
	    get_count(obj, "total", 0, INT64_MAX, &total, file, w, err))
		return -1;
	extra = json_object_get(obj, "extra");
	where_child(&sub, w, "extra", -1);
	if (!json_is_boolean(extra))
		return bad(err, file, &sub, extra ? "not true or false" : "missing");
	for (i = 0; i < bench->nr_profiles; i++)
		if (bench->profiles[i].seq == seq && bench->profiles[i].extra == json_is_true(extra))
			return bad(err, file, w, "a profile of that iteration comes twice in the "
				   "benchmark");
	p = result_benchmark_add_profile(bench);
	p->seq = (int)seq;
	p->extra = json_is_true(extra);
	p->event = xstrdup(event);
	p->scope = xstrdup(scope);
	p->frequency = (uint64_t)frequency;
	p->samples = (uint64_t)samples;
	p->lost = (uint64_t)lost;
	p->total = (uint64_t)total;
	symbols = json_object_get(obj, "symbols");
	where_child(&sub, w, "symbols", -1);
	if (!json_is_array(symbols))
		return bad(err, file, &sub, symbols ? "not an array" : "missing");
	json_array_foreach(symbols, i, v) {
		struct where one;

		where_child(&one, w, "symbols", (long)i);
		if (read_symbol(v, p, file, &one, err))
			return -1;
	}
	if ((again = repeated_symbol(p))) {
		char why[160];

		where_child(&sub, w, "symbols", (long)(again - p->symbols));
		snprintf(why, sizeof(why), "symbol '%.64s' of '%.64s' comes twice in the profile",
			 again->name, again->dso);
		return bad(err, file, &sub, why);
	}
	return 0;
}

/* "profiles", optional: the benchmark's CPU profiles, as the store keeps them. */
static int read_profiles(json_t *profiles, struct result_benchmark *bench, const char *file,
			 const struct where *w, struct error *err)
{
	struct where pw;
	size_t i;
	json_t *v;

	if (!profiles)
		return 0;
	where_child(&pw, w, "profiles", -1);
	if (!json_is_array(profiles))
		return bad(err, file, &pw, "not an array");
	json_array_foreach(profiles, i, v) {
		struct where one;

		where_child(&one, w, "profiles", (long)i);
		if (read_profile(v, bench, file, &one, err))
			return -1;
	}
	return 0;
}

static const char *add_param(void *ctx, const char *key, const char *value)
{
	json_object_set_new(ctx, key, json_string(value));
	return NULL;
}

/*
 * failed_iterations, their count, and failures, why each failed (since
 * export carried them): a file of an earlier schedperf has the count only,
 * and its failures are stored as "imported failure".
 */
static int read_failures(json_t *obj, struct result_benchmark *bench, const char *file,
			 const struct where *w, struct error *err)
{
	json_t *failed = json_object_get(obj, "failed_iterations");
	json_t *why = json_object_get(obj, "failures"), *v;
	json_int_t n = 0;
	struct where mw;
	size_t i;

	where_child(&mw, w, "failed_iterations", -1);
	if (failed && (!json_is_integer(failed) || json_integer_value(failed) < 0 ||
		       json_integer_value(failed) > 1000000))
		return bad(err, file, &mw, "not a whole number from 0 to 1000000");
	if (failed)
		n = json_integer_value(failed);
	where_child(&mw, w, "failures", -1);
	if (why && (!json_is_array(why) || (json_int_t)json_array_size(why) != n))
		return bad(err, file, &mw, "not an array of failed_iterations reasons");
	json_array_foreach(why, i, v) {
		const char *s = json_string_value(v);

		where_child(&mw, w, "failures", (long)i);
		if (!s || strlen(s) != json_string_length(v) || !*s || strlen(s) > FIELD_FAILURE)
			return bad(err, file, &mw, "not a reason: a string of 1 to 1024 bytes "
				   "without NUL");
	}
	for (json_int_t k = 0; k < n; k++)
		result_benchmark_add_failure(bench, why ? json_string_value(json_array_get(why,
							(size_t)k)) : "imported failure");
	return 0;
}

static int read_benchmark(json_t *obj, struct result_batch *batch, const char *file,
			  const struct where *w, struct error *err)
{
	static const char *const keys[] = { "workload", "params", "metrics",
					    "failed_iterations", "failures", "iterations", "profiles",
					    NULL };
	struct result_benchmark *bench;
	json_t *metrics, *params;
	const char *workload;
	char *text;
	struct where mw;
	size_t i;
	json_t *v;

	if (!json_is_object(obj))
		return bad(err, file, w, "not an object");
	if (check_keys(obj, keys, file, w, err))
		return -1;
	if (!(workload = get_text(obj, "workload", FIELD_WORKLOAD, false, file, w, err)))
		return -1;
	bench = result_batch_add_benchmark(batch);
	bench->workload = xstrdup(workload);

	where_child(&mw, w, "params", -1);
	params = json_object();
	if (!json_object_get(obj, "params") ||
	    read_string_map(json_object_get(obj, "params"), file, &mw, err, add_param, params)) {
		json_decref(params);
		return json_object_get(obj, "params") ? -1 : bad(err, file, &mw, "missing");
	}
	/* jansson's text is the document's memory (doc_memory.h): copied */
	text = json_dumps(params, JSON_COMPACT | JSON_SORT_KEYS);
	bench->params = text ? xstrdup(text) : NULL;
	json_decref(params);

	if (read_failures(obj, bench, file, w, err))
		return -1;

	metrics = json_object_get(obj, "metrics");
	where_child(&mw, w, "metrics", -1);
	if (!json_is_array(metrics))
		return bad(err, file, &mw, metrics ? "not an array" : "missing");
	json_array_foreach(metrics, i, v) {
		struct where one;

		where_child(&one, w, "metrics", (long)i);
		if (read_metric(v, bench, file, &one, err))
			return -1;
	}
	where_child(&mw, w, "iterations", -1);
	if (json_object_get(obj, "iterations") &&
	    read_iterations(json_object_get(obj, "iterations"), bench, file, &mw, err))
		return -1;
	return read_profiles(json_object_get(obj, "profiles"), bench, file, w, err);
}

/*
 * A CPU list the batch was held to (result_batch_cpus()) in its one
 * spelling, as schedperf records it: "1,0" of a foreign file is "0-1", so
 * that history does not count one set of CPUs as two. One that is no such
 * list is none schedperf could have recorded, and would be a series of
 * its own in history: refused.
 */
static const char *add_env(void *ctx, const char *key, const char *value)
{
	char *cpus = NULL;

	if (!strcmp(key, "knob.cpus") || !strcmp(key, "knob.cgroup.cpuset.cpus")) {
		cpus = cpulist_canonical(value);
		if (!cpus)
			return "not a CPU list (CPUs 0-1023 in ranges upwards, as 0-3,8)";
	}
	result_batch_add_env(ctx, key, cpus ? cpus : value);
	free(cpus);
	return NULL;
}

static int read_batch(json_t *obj, struct result_set *set, const char *file,
		      const struct where *w, struct error *err)
{
	static const char *const keys[] = { "name", "started", "complete", "environment",
					    "benchmarks", NULL };
	struct result_batch *batch;
	const char *name, *started, *why;
	char normal[64];
	json_t *complete, *benchmarks, *env, *v;
	struct where sub;
	size_t i;

	if (!json_is_object(obj))
		return bad(err, file, w, "not an object");
	if (check_keys(obj, keys, file, w, err))
		return -1;
	if (!(name = get_text(obj, "name", FIELD_RUN_NAME, false, file, w, err)) ||
	    !(started = get_text(obj, "started", FIELD_STARTED, false, file, w, err)))
		return -1;
	where_child(&sub, w, "started", -1);
	if ((why = iso8601(started, normal, sizeof(normal))))
		return bad(err, file, &sub, why);
	complete = json_object_get(obj, "complete");
	where_child(&sub, w, "complete", -1);
	if (!json_is_boolean(complete))
		return bad(err, file, &sub, complete ? "not true or false" : "missing");

	batch = result_set_add_batch(set);
	batch->name = xstrdup(name);
	batch->started = xstrdup(normal);
	batch->complete = json_is_true(complete);
	env = json_object_get(obj, "environment");
	where_child(&sub, w, "environment", -1);
	if (env && read_string_map(env, file, &sub, err, add_env, batch))
		return -1;
	result_batch_sort_env(batch);

	benchmarks = json_object_get(obj, "benchmarks");
	where_child(&sub, w, "benchmarks", -1);
	if (!json_is_array(benchmarks))
		return bad(err, file, &sub, benchmarks ? "not an array" : "missing");
	json_array_foreach(benchmarks, i, v) {
		struct where one;

		where_child(&one, w, "benchmarks", (long)i);
		if (read_benchmark(v, batch, file, &one, err))
			return -1;
	}
	return 0;
}

static int load_error(const char *path, const char *buf, size_t len, const json_error_t *jerr,
		      struct error *err)
{
	const char *nul;

	if (doc_memory_exhausted() || json_error_code(jerr) == json_error_out_of_memory)
		return error_set(err, EXIT_ENV, "cannot import '%s': out of memory (free "
				 "memory or raise 'ulimit -v'; nothing was imported)", path);
	/*
	 * JSON never holds a NUL byte, yet jansson says of one "near end of
	 * file" (it ends its text): the first NUL up to the error is its cause.
	 */
	if (jerr->position > 0 &&
	    (nul = memchr(buf, '\0', (size_t)jerr->position < len ? (size_t)jerr->position : len))) {
		size_t line = 1;

		for (const char *p = buf; (p = memchr(p, '\n', (size_t)(nul - p))); p++)
			line++;
		return error_set(err, EXIT_USAGE, "cannot import '%s': invalid JSON at line %zu: "
				 "a NUL byte (0x00) at offset %zu, which JSON never holds (fix "
				 "the file; nothing was imported)", path, line, (size_t)(nul - buf));
	}
	if (jerr->line < 0 || jerr->position == 0)
		return error_set(err, EXIT_USAGE, "cannot import '%s': %s (give a readable "
				 "schedperf-results/1 JSON file)", path, jerr->text);
	return error_set(err, EXIT_USAGE, "cannot import '%s': invalid JSON at line %d "
			 "column %d: %s (fix the file; nothing was imported)",
			 path, jerr->line, jerr->column, jerr->text);
}

/* Validate the parsed document @doc and append its batches to @set. */
static int read_document(json_t *doc, const char *path, struct result_set *set,
			 struct error *err)
{
	static const char *const top_keys[] = { "schema", "runs", NULL };
	json_t *schema, *runs, *v;
	struct where top = { "" };
	struct result_set parsed = { NULL, 0 };
	size_t i;
	int rc = -1;

	if (!json_is_object(doc)) {
		bad(err, path, &top, "not a JSON object");
		goto out;
	}
	schema = json_object_get(doc, "schema");
	if (!json_is_string(schema) || strcmp(json_string_value(schema), RESULTS_SCHEMA)) {
		error_set(err, EXIT_USAGE, "cannot import '%s': \"schema\" is not \"%s\" "
			  "(only schedperf-results/1 files can be imported)", path, RESULTS_SCHEMA);
		goto out;
	}
	/* refused as in a run or an iteration: a key of a later schema is no comment */
	if (check_keys(doc, top_keys, path, &top, err))
		goto out;
	runs = json_object_get(doc, "runs");
	if (!json_is_array(runs) || !json_array_size(runs)) {
		bad(err, path, &top, "\"runs\" must be a non-empty array");
		goto out;
	}
	json_array_foreach(runs, i, v) {
		struct where w;

		where_child(&w, &top, "runs", (long)i);
		if (read_batch(v, &parsed, path, &w, err))
			goto out;
	}
	for (i = 0; i < parsed.nr_batches; i++)
		*result_set_add_batch(set) = parsed.batches[i];
	free(parsed.batches);
	parsed.batches = NULL;
	parsed.nr_batches = 0;
	rc = 0;
out:
	result_set_release(&parsed);
	return rc;
}

int interchange_read(const char *path, struct result_set *set, struct error *err)
{
	char name[PATH_MAX + 64];
	size_t len = 0;
	char *text;
	int rc;

	/* the file's name in every message, escaped as the keys are (where_child()) */
	utf8_escape(name, sizeof(name), strcmp(path, "-") ? path : "standard input");
	if (!(text = read_input(path, name, &len, err)))
		return -1;
	rc = interchange_read_buffer(name, text, len, set, err);
	free(text);
	return rc;
}

static bool has_zero(const double *values, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (values[i] == 0)
			return true;
	return false;
}

/* Whether a batch of @set from @first on has a sample or warm-up of 0. */
static bool has_zero_sample(const struct result_set *set, size_t first)
{
	for (size_t i = first; i < set->nr_batches; i++) {
		const struct result_batch *batch = &set->batches[i];

		for (size_t j = 0; j < batch->nr_benchmarks; j++) {
			const struct result_benchmark *bench = &batch->benchmarks[j];

			for (size_t k = 0; k < bench->nr_metrics; k++) {
				const struct result_metric *m = &bench->metrics[k];

				if (has_zero(m->samples, m->nr_samples) ||
				    has_zero(m->warmup, m->nr_warmup))
					return true;
			}
		}
	}
	return false;
}

/*
 * A number below the smallest double reads as 0 and would be stored as
 * a 0 no one wrote: refused, where it is (jansson keeps no places), which
 * is looked for only when a 0 was read, so that most files cost nothing.
 */
static int check_underflow(const char *name, const char *buf, size_t len, struct error *err)
{
	size_t line, col;
	const char *at = json_underflow(buf, len, &line, &col);
	size_t n;

	if (!at)
		return 0;
	n = strspn(at, "0123456789-+.eE");
	return error_set(err, EXIT_USAGE, "cannot import '%s': line %zu, column %zu: %.*s%s "
			 "is too small for a double and would be stored as 0 (write 0, or the "
			 "value in a smaller unit; nothing was imported)", name, line, col,
			 (int)(n > 32 ? 32 : n), at, n > 32 ? "..." : "");
}

int interchange_read_buffer(const char *name, const char *buf, size_t len,
			    struct result_set *set, struct error *err)
{
	size_t first = set->nr_batches;
	json_error_t jerr;
	json_t *doc;
	int rc;

	doc_memory_begin();
	doc = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	/*
	 * A sample is a double however written: a whole number beyond 64 bits
	 * is read again as a real, which integer fields still refuse.
	 */
	if (!doc && json_error_code(&jerr) == json_error_numeric_overflow) {
		size_t real_len;
		char *real = json_big_integers_as_reals(buf, len, &real_len);

		if (real && !(doc = json_loadb(real, real_len, JSON_REJECT_DUPLICATES, &jerr)))
			json_big_integers_place(buf, len, &jerr);
		free(real);
	}
	rc = doc ? read_document(doc, name, set, err) : load_error(name, buf, len, &jerr, err);
	doc_memory_end();
	if (!rc && has_zero_sample(set, first))
		rc = check_underflow(name, buf, len, err);
	return rc;
}
