// SPDX-License-Identifier: GPL-2.0
/*
 * Environment differences between the runs of a comparison: a changed
 * governor or SMT setting explains many "regressions", so compare lists
 * every key whose value is not the same in every batch and marks the
 * verdicts of runs that differ from the baseline in a key known to move
 * results.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/comparison.h"
#include "util/array.h"
#include "util/xalloc.h"

/* Keys that differ from one run to the next whatever was changed. */
static bool env_key_ignored(const char *key)
{
	return !strcmp(key, "schedperf.version") || !strcmp(key, "schedperf.db") ||
	       !strncmp(key, "loadavg", 7);
}

static const struct {
	const char *key, *short_name;
} moving_keys[] = {
	{ "cpufreq.governor", "governor" },
	{ "cpufreq.boost", "boost" },
	{ "intel_pstate.no_turbo", "no_turbo" },
	{ "smt.active", "smt" },
	{ "sched.preempt", "preempt" },
	{ "kernel.preempt_build", "preempt_build" },
	{ "cpu.model", "cpu" },
	{ "machine.hostname", "machine" },
	{ "machine.id", "machine-id" },
	{ "knob.cpus", "cpus" },	/* pinned, or to other CPUs */
	{ "knob.cgroup.cpuset.cpus", "cpuset" },	/* the same by a cgroup */
};

static const char *moving_key(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(moving_keys); i++)
		if (!strcmp(key, moving_keys[i].key))
			return moving_keys[i].short_name;
	return NULL;
}

const char *env_key_short(const char *key)
{
	const char *s = moving_key(key);

	return s ? s : key;
}

static int str_cmp(const void *pa, const void *pb)
{
	return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

/* Every key of every batch of every run, sorted and unique. */
static const char **all_keys(const struct comparison *cmp, size_t *nr)
{
	const char **keys = NULL;
	size_t n = 0, out = 0;

	for (size_t r = 0; r < cmp->nr_runs; r++) {
		const struct result_set *set = &cmp->runs[r].set;

		for (size_t b = 0; b < set->nr_batches; b++) {
			const struct result_batch *batch = &set->batches[b];

			keys = xreallocarray(keys, n + batch->nr_env + 1, sizeof(*keys));
			for (size_t e = 0; e < batch->nr_env; e++)
				keys[n++] = batch->env[e].key;
		}
	}
	if (n)
		qsort(keys, n, sizeof(*keys), str_cmp);
	for (size_t i = 0; i < n; i++)
		if (!out || strcmp(keys[out - 1], keys[i]))
			keys[out++] = keys[i];
	*nr = out;
	return keys;
}

/* Whether @v is one of the " | "-separated values in @joined. */
static bool has_value(const char *joined, const char *v)
{
	size_t len = strlen(v);

	for (const char *s = joined; s; s = strstr(s, " | ")) {
		if (s != joined)
			s += 3;
		if (!strncmp(s, v, len) && (s[len] == '\0' || !strncmp(s + len, " | ", 3)))
			return true;
	}
	return false;
}

/* A run's value of @key: NULL when no batch sets it, joined when batches differ. */
static char *run_value(const struct result_set *set, const char *key, bool *mixed)
{
	char *joined = NULL;

	for (size_t b = 0; b < set->nr_batches; b++) {
		const char *v = result_batch_env(&set->batches[b], key);

		if (!v)
			v = "(unset)";
		if (!joined) {
			joined = xstrdup(v);
		} else if (!has_value(joined, v)) {
			size_t len = strlen(joined) + strlen(v) + 4;

			joined = xrealloc(joined, len);
			strcat(strcat(joined, " | "), v);
			*mixed = true;
		}
	}
	if (joined && !strcmp(joined, "(unset)")) {
		free(joined);
		return NULL;
	}
	return joined;
}

static bool same_value(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Add @v to the " | "-joined values of *@joined. */
static void join_value(char **joined, const char *v)
{
	if (!*joined) {
		*joined = xstrdup(v);
	} else if (!has_value(*joined, v)) {
		*joined = xrealloc(*joined, strlen(*joined) + strlen(v) + 4);
		strcat(strcat(*joined, " | "), v);
	}
}

/* The value of parameter @name in @params (canonical JSON), to be freed; NULL: unset. */
static char *param_value(const char *params, const char *name)
{
	json_t *obj = params ? json_loads(params, 0, NULL) : NULL;
	json_t *v = obj ? json_object_get(obj, name) : NULL;
	char *s = json_is_string(v) ? xstrdup(json_string_value(v)) : NULL;

	json_decref(obj);
	return s;
}

/*
 * @diff, its values of every run worked out: kept in @cmp when @differs,
 * else freed; whether it was kept.
 */
static bool keep_if_differs(struct comparison *cmp, struct env_difference *diff, bool differs)
{
	for (size_t r = 1; r < cmp->nr_runs && !differs; r++)
		differs = !same_value(diff->values[r], diff->values[0]);
	if (!differs) {
		for (size_t r = 0; r < cmp->nr_runs; r++)
			free(diff->values[r]);
		free(diff->values);
		return false;
	}
	cmp->env_diffs = xreallocarray(cmp->env_diffs, cmp->nr_env_diffs + 1,
				       sizeof(*cmp->env_diffs));
	cmp->env_diffs[cmp->nr_env_diffs++] = *diff;
	return true;
}

/*
 * The parameters rows were paired without (--ignore-param): what a run's
 * benchmarks of the rows shown set them to is the change compared, listed
 * as "param.NAME" beside the environment; never a caveat of a verdict.
 */
static void ignored_param_differences(struct comparison *cmp)
{
	for (const char *const *name = cmp->ignored; name && *name; name++) {
		struct env_difference diff = { 0 };
		bool differs = false;
		char *key = xmalloc(strlen(*name) + sizeof("param."));

		diff.values = xcalloc(cmp->nr_runs, sizeof(char *));
		for (size_t r = 0; r < cmp->nr_runs; r++) {
			for (size_t i = 0; i < cmp->nr_rows; i++) {
				char *v = param_value(cmp->rows[i].cells[r].params, *name);

				if (v)
					join_value(&diff.values[r], v);
				free(v);
			}
			differs |= diff.values[r] && strstr(diff.values[r], " | ");
		}
		diff.key = strcat(strcpy(key, "param."), *name);
		if (!keep_if_differs(cmp, &diff, differs)) {
			free(key);
			continue;
		}
		cmp->strings = xreallocarray(cmp->strings, cmp->nr_strings + 1, sizeof(char *));
		cmp->strings[cmp->nr_strings++] = key;
	}
}

void comparison_env_differences(struct comparison *cmp)
{
	size_t nr_keys;
	const char **keys = all_keys(cmp, &nr_keys);

	for (size_t k = 0; k < nr_keys; k++) {
		struct env_difference diff = { .key = keys[k] };
		bool differs = false;

		if (env_key_ignored(keys[k]))
			continue;
		diff.values = xcalloc(cmp->nr_runs, sizeof(char *));
		for (size_t r = 0; r < cmp->nr_runs; r++)
			diff.values[r] = run_value(&cmp->runs[r].set, keys[k], &differs);
		diff.moves_results = moving_key(keys[k]) != NULL;
		keep_if_differs(cmp, &diff, differs);
	}
	free(keys);
	ignored_param_differences(cmp);
}

size_t comparison_caveats(const struct comparison *cmp, size_t r, const char **keys,
			  size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < cmp->nr_env_diffs; i++) {
		const struct env_difference *d = &cmp->env_diffs[i];

		/* a baseline whose own batches differ is a caveat for every run */
		if (!d->moves_results || (same_value(d->values[r], d->values[0]) &&
					  !(d->values[0] && strstr(d->values[0], " | "))))
			continue;
		if (n < max)
			keys[n] = d->key;
		n++;
	}
	return n;
}
