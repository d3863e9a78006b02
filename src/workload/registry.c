// SPDX-License-Identifier: GPL-2.0
/*
 * The workload registry and the parameter validation every workload shares:
 * one line per workload below, and one schema-driven parser, so that every
 * workload rejects bad input the same way before anything starts.
 */
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/parse.h"
#include "util/xalloc.h"
#include "workload/workload.h"

extern const struct workload workload_messaging;
extern const struct workload workload_pipe;
extern const struct workload workload_poundtime;
extern const struct workload workload_futex_wake;
extern const struct workload workload_futex_hash;
extern const struct workload workload_threads;
extern const struct workload workload_mutex;
extern const struct workload workload_schbench;
extern const struct workload workload_aim9;
extern const struct workload workload_reaim;
extern const struct workload workload_spawn;
extern const struct workload workload_forkspread;
extern const struct workload workload_cyclictest;
extern const struct workload workload_tcp_rr;
extern const struct workload workload_fairness;
extern const struct workload workload_command;

const struct workload *const workloads[] = {
	&workload_messaging,
	&workload_pipe,
	&workload_poundtime,
	&workload_futex_wake,
	&workload_futex_hash,
	&workload_threads,
	&workload_mutex,
	&workload_schbench,
	&workload_aim9,
	&workload_reaim,
	&workload_spawn,
	&workload_forkspread,
	&workload_cyclictest,
	&workload_tcp_rr,
	&workload_fairness,
	&workload_command,
	NULL,
};

const struct workload *workload_find(const char *name)
{
	for (const struct workload *const *w = workloads; *w; w++)
		if (!strcmp((*w)->name, name))
			return *w;
	return NULL;
}

void param_describe_range(const struct param_spec *p, char *buf, size_t len)
{
	size_t used = 0;

	if (p->type == PARAM_STRING) {
		snprintf(buf, len, "text of up to %ld bytes", p->max);
		return;
	}
	if (p->type == PARAM_INT) {
		snprintf(buf, len, "%ld..%ld", p->min, p->max);
		return;
	}
	buf[0] = '\0';
	for (const char *const *c = p->choices; *c && used < len; c++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 c == p->choices ? "" : "|", *c);
}

static int parse_one(const struct param_spec *p, const char *text,
		     struct param_value *v, struct error *err)
{
	char range[128];

	param_describe_range(p, range, sizeof(range));
	if (p->type == PARAM_STRING) {
		if (strlen(text) > (size_t)p->max)
			return error_set(err, EXIT_USAGE, "bad value for parameter '%s': %zu "
					 "bytes is longer than %ld (give a shorter -p %s=...)",
					 p->name, strlen(text), p->max, p->name);
		free(v->str);
		v->str = xstrdup(text);
		v->num = 0;
		snprintf(v->text, sizeof(v->text), "%s", text);
		return 0;
	}
	if (p->type == PARAM_INT) {
		long num;

		if (parse_long(text, &num) || num < p->min || num > p->max)
			return error_set(err, EXIT_USAGE,
				"bad value for parameter '%s': '%.64s' is not a whole number in %s "
				"(give -p %s=N with N in %s)", p->name, text, range, p->name, range);
		v->num = num;
		snprintf(v->text, sizeof(v->text), "%ld", num);
		return 0;
	}
	for (long i = 0; p->choices[i]; i++) {
		if (!strcmp(p->choices[i], text)) {
			v->num = i;
			snprintf(v->text, sizeof(v->text), "%s", text);
			return 0;
		}
	}
	return error_set(err, EXIT_USAGE,
		"bad value for parameter '%s': '%.64s' is not one of %s (give -p %s=%s)",
		p->name, text, range, p->name, p->choices[0]);
}

const struct param_spec *workload_find_param(const struct workload *w, const char *key,
					     size_t keylen)
{
	for (size_t i = 0; i < w->nr_params; i++)
		if (strlen(w->params[i].name) == keylen &&
		    !strncmp(w->params[i].name, key, keylen))
			return &w->params[i];
	return NULL;
}

static void list_param_names(const struct workload *w, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < w->nr_params && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i ? ", " : "", w->params[i].name);
}

void workload_release_params(const struct workload *w, struct param_value *values)
{
	for (size_t i = 0; i < w->nr_params; i++) {
		free(values[i].str);
		values[i].str = NULL;
	}
}

static int parse_assignments(const struct workload *w, char *const *assignments,
			     size_t nr_assignments, struct param_value *values,
			     struct workload_needs *needs, struct error *err)
{
	bool given[WORKLOAD_MAX_PARAMS] = { false };
	struct workload_needs scratch = { 0, 0 };

	if (w->nr_params > ARRAY_SIZE(given))
		return error_set(err, EXIT_INTERNAL, "workload %s has too many parameters", w->name);

	for (size_t i = 0; i < w->nr_params; i++)
		if (parse_one(&w->params[i], w->params[i].def, &values[i], err))
			return -1;

	for (size_t i = 0; i < nr_assignments; i++) {
		const char *a = assignments[i];
		const char *eq = strchr(a, '=');
		const struct param_spec *p;
		char names[256];
		size_t idx;

		if (!eq || eq == a)
			return error_set(err, EXIT_USAGE,
				"bad parameter '%.64s': not KEY=VALUE (write it as -p KEY=VALUE)", a);
		p = workload_find_param(w, a, (size_t)(eq - a));
		if (!p) {
			list_param_names(w, names, sizeof(names));
			return error_set(err, EXIT_USAGE,
				"unknown parameter '%.*s' for workload %s: it takes %s "
				"(see 'schedperf list')", (int)(eq - a > 64 ? 64 : eq - a), a,
				w->name, names[0] ? names : "no parameters");
		}
		idx = (size_t)(p - w->params);
		if (given[idx])
			return error_set(err, EXIT_USAGE,
				"parameter '%s' given twice (give it once; a comma list sweeps values)",
				p->name);
		given[idx] = true;
		if (parse_one(p, eq + 1, &values[idx], err))
			return -1;
	}
	if (w->check && w->check(values, needs ? needs : &scratch, err))
		return -1;
	return 0;
}

int workload_parse_params(const struct workload *w, char *const *assignments,
			  size_t nr_assignments, struct param_value *values,
			  struct workload_needs *needs, struct error *err)
{
	for (size_t i = 0; i < w->nr_params; i++)
		values[i].str = NULL;
	if (!parse_assignments(w, assignments, nr_assignments, values, needs, err))
		return 0;
	workload_release_params(w, values);
	return -1;
}

size_t workload_metrics(const struct workload *w, const struct param_value *values,
			struct metric_spec *out)
{
	memcpy(out, w->metrics, w->nr_metrics * sizeof(*out));
	return w->describe_metrics ? w->describe_metrics(values, out) : w->nr_metrics;
}

size_t workload_nr_values(const struct workload *w, const struct param_value *values)
{
	struct metric_spec *specs = xcalloc(w->nr_metrics, sizeof(*specs));
	size_t n = workload_metrics(w, values, specs);

	free(specs);
	return n * (size_t)workload_repetitions(w, values);
}

int workload_repetitions(const struct workload *w, const struct param_value *values)
{
	int n = w->repetitions ? w->repetitions(values) : 1;

	return n > 0 ? n : 1;
}

static int assumed_cpus;
static bool checking_for_job;
static bool checking_before_build;
static cpu_set_t pinned_cpus;
static bool pinned;

void workload_pin_cpus(const cpu_set_t *cpus)
{
	pinned = cpus != NULL;
	if (cpus)
		pinned_cpus = *cpus;
}

static const char *search_path, *search_path_whose;

void workload_search_path(const char *path, const char *whose)
{
	search_path = path;
	search_path_whose = path ? whose : NULL;
}

const char *workload_search_path_of(const char **whose)
{
	*whose = search_path_whose;
	return search_path;
}

static const char *scratch_dir;

void workload_set_scratch_dir(const char *dir)
{
	scratch_dir = dir;
}

const char *workload_scratch_dir(void)
{
	return scratch_dir;
}

void workload_assume_cpus(int n)
{
	assumed_cpus = n;
}

void workload_check_for_job(void)
{
	checking_for_job = true;
}

bool workload_checking_for_job(void)
{
	return checking_for_job;
}

void workload_check_before_build(bool on)
{
	checking_before_build = on;
}

bool workload_checking_before_build(void)
{
	return checking_before_build;
}

int workload_cpus_allowed(void)
{
	cpu_set_t set;
	int n;

	if (assumed_cpus > 0)
		return assumed_cpus;
	if (sched_getaffinity(0, sizeof(set), &set))
		return 1;
	if (pinned)
		CPU_AND(&set, &set, &pinned_cpus);
	n = CPU_COUNT(&set);
	return n > 0 ? n : 1;
}
