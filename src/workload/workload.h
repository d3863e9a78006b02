/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_WORKLOAD_H
#define SCHEDPERF_WORKLOAD_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

#include "util/better.h"
#include "util/error.h"

/*
 * A workload is a value: its name, a one-line summary, a parameter schema,
 * the metrics it produces and a function that runs one iteration. The
 * runner never knows which workload it runs; adding one means one file in
 * this directory and one line in registry.c.
 */

enum param_type {
	PARAM_INT,		/* a whole number within [min, max] */
	PARAM_CHOICE,		/* one of a NULL-terminated list of words */
	PARAM_STRING,		/* any text of at most max bytes, taken whole:
				   a comma in it does not sweep it */
};

struct param_spec {
	const char *name;
	enum param_type type;
	const char *def;		/* the default, as it would be typed */
	long min, max;			/* PARAM_INT: inclusive range;
					   PARAM_STRING: max is the longest */
	const char *const *choices;	/* PARAM_CHOICE */
	const char *help;
};

struct metric_spec {
	const char *name;
	const char *unit;
	enum better better;
	const char *help;
};

/*
 * A parameter's value after validation, in the order of the workload's
 * params[]: the canonical text (what is stored), and for PARAM_INT the
 * number, for PARAM_CHOICE the index into choices[]. A PARAM_STRING's
 * text is @str, allocated by workload_parse_params() and freed by
 * workload_release_params(); param_text() gives either.
 */
/* The most parameters a workload may have: callers size arrays of values by it. */
#define WORKLOAD_MAX_PARAMS 32

struct param_value {
	char text[32];
	long num;
	char *str;
};

static inline const char *param_text(const struct param_value *v)
{
	return v->str ? v->str : v->text;
}

/* What one iteration needs from the machine, computed before it starts. */
struct workload_needs {
	long tasks;		/* processes + threads alive at once */
	long fds;		/* file descriptors open at once in one process */
};

struct workload {
	const char *name;
	const char *summary;
	const struct param_spec *params;
	size_t nr_params;		/* at most WORKLOAD_MAX_PARAMS */
	const struct metric_spec *metrics;
	size_t nr_metrics;
	/*
	 * Optional: the parameter that names a metric (command's
	 * metric_name), for the message that refuses a name another metric
	 * of the benchmark has (runner/metric_names.h).
	 */
	const char *metric_name_param;

	/*
	 * Optional: checks that need more than one parameter, and the
	 * resources one iteration needs. Called before anything starts;
	 * fills @err (code EXIT_USAGE) and returns -1 when the combination
	 * is invalid.
	 */
	int (*check)(const struct param_value *values,
		     struct workload_needs *needs, struct error *err);

	/*
	 * Optional: what one iteration needs of this machine that its
	 * parameters cannot show and no limit measures: a privilege (a
	 * real-time policy, locked memory), a helper program. Called by the
	 * runner in its own process before it opens a store or begins a
	 * batch, so that a run this machine refuses stores nothing; never by
	 * a dry run (submit's check runs where the job will not). Fills @err
	 * (EXIT_ENV: what is missing and how to get it) and returns -1 when
	 * an iteration could not run here. NULL: it needs nothing more.
	 */
	int (*ready)(const struct param_value *values, struct error *err);

	/*
	 * Optional: the memory one iteration allocates, in KiB, for workloads
	 * whose parameters can ask for more than the machine has; such a run
	 * is refused before it starts. NULL: little.
	 */
	long (*memory_kb)(const struct param_value *values);

	/*
	 * Optional, for a workload that writes files: the most KiB one
	 * iteration's files take at once. The runner then gives each
	 * iteration a scratch directory of its own (workload_scratch_dir())
	 * and removes it with whatever is in it however the iteration ends
	 * (a timeout, a signal, schedperf killed), and refuses a run whose
	 * files would not fit the free space there. NULL: it writes none.
	 */
	long (*scratch_kb)(const struct param_value *values);

	/*
	 * Optional: how many times one iteration measures its metrics, for a
	 * workload that repeats its timed section inside one iteration as
	 * perf bench's -r does. Each repetition is stored as its own sample.
	 * NULL: once.
	 */
	int (*repetitions)(const struct param_value *values);

	/*
	 * Optional: the metrics of a benchmark with these parameters, for a
	 * workload whose metrics depend on them (command's metric_regex):
	 * @metrics holds a copy of metrics[] on entry, to adjust; returns how
	 * many of them, the first ones, the benchmark measures. NULL: all.
	 */
	size_t (*describe_metrics)(const struct param_value *values,
				   struct metric_spec *metrics);

	/*
	 * Optional: whether two sets of parameters whose text differs run
	 * alike (command's cmd, compared by its words as it runs). NULL:
	 * only the same text does.
	 */
	bool (*same_params)(const struct param_value *a, const struct param_value *b);

	/*
	 * Run one iteration and store one value per metric and repetition in
	 * @metrics[rep * N + i], N the benchmark's metric count (see
	 * workload_metrics(); NAN where a metric was not measured).
	 * Runs in a child process of the runner, in its own process group:
	 * it may fork, create threads and exit uncleanly without harming the
	 * store, but must not leave tasks, fds or files behind when it
	 * returns. Returns 0; 1 with @err's message the reason when this
	 * iteration failed but the run goes on (the program it runs exited
	 * with an error, say); or -1 with @err filled to stop the run.
	 */
	int (*run)(const struct param_value *values, double *metrics,
		   struct error *err);
};

/* The registry, in the order `schedperf list` shows it; NULL-terminated. */
extern const struct workload *const workloads[];

const struct workload *workload_find(const char *name);

/*
 * Validate "key=value" assignments against @w's schema and fill
 * @values[w->nr_params] with every parameter (defaults where not given).
 * Unknown keys, duplicates, out-of-range and malformed values fail with
 * EXIT_USAGE and a message naming the parameter, its range and the value.
 * Then calls w->check() when present; @needs may be NULL.
 */
int workload_parse_params(const struct workload *w, char *const *assignments,
			  size_t nr_assignments, struct param_value *values,
			  struct workload_needs *needs, struct error *err);

/* The parameter of @w named by the @keylen bytes of @key, or NULL. */
const struct param_spec *workload_find_param(const struct workload *w, const char *key,
					     size_t keylen);

/* Free what workload_parse_params() allocated in @values (its strings). */
void workload_release_params(const struct workload *w, struct param_value *values);

/*
 * The metrics a benchmark of @w with @values measures, in @out (room for
 * w->nr_metrics); returns how many.
 */
size_t workload_metrics(const struct workload *w, const struct param_value *values,
			struct metric_spec *out);

/* How many values one iteration of @w yields: metrics x repetitions. */
size_t workload_nr_values(const struct workload *w, const struct param_value *values);

/* How many values of each metric one iteration of @w yields: at least 1. */
int workload_repetitions(const struct workload *w, const struct param_value *values);

/* Describe a parameter's accepted values: "1..1000000" or "pipe|socket". */
void param_describe_range(const struct param_spec *p, char *buf, size_t len);

/*
 * Number of CPUs this process may run on (sched_getaffinity), at least 1;
 * or the count given to workload_assume_cpus() when planning for another
 * machine (`run --dry-run --assume-cpus N`).
 */
int workload_cpus_allowed(void);
void workload_assume_cpus(int n);
/*
 * The CPUs the workload's tasks will be pinned to (run --cpus): from then
 * on workload_cpus_allowed() counts only those of them, as the tasks will
 * see, so that a check refuses before a run stores anything. NULL: all
 * the process may run on again (ab pins each side's plan in turn).
 */
void workload_pin_cpus(const cpu_set_t *cpus);

/*
 * The PATH the workload's program will be looked up in, when it is not
 * this process's: that of an env:PATH knob the iterations run with (ab
 * sets each side's in turn, as its CPUs; run and bisect-step their
 * --knob's), so that a program they would not find is refused before
 * anything runs. @whose names the knob's owner in a message ("ab --a",
 * "run --knob"). NULL: this process's PATH again.
 */
void workload_search_path(const char *path, const char *whose);
/* That PATH, with *@whose, or NULL: this process's. */
const char *workload_search_path_of(const char **whose);

/*
 * The scratch directory of the iteration running in this process, for a
 * workload with scratch_kb (absolute, empty when it starts), or NULL: one
 * run outside the runner (a unit test) makes and removes its own. The
 * runner sets it in the iteration's process.
 */
const char *workload_scratch_dir(void);
void workload_set_scratch_dir(const char *dir);

/*
 * Set while submit checks a job's arguments (the command's dry run, run
 * with $SCHEDPERF_JOB_CHECK): the job runs in a worker's directory, on
 * another machine perhaps, where a path relative to this directory names
 * another file or none. What names a file (the command workload's program,
 * a suite file) refuses a relative path then, saying to give it whole;
 * what names CPUs (a CPU list, pipe's cpus=cross) is checked for its form
 * only, since the worker's CPUs are not this machine's.
 */
void workload_check_for_job(void);
bool workload_checking_for_job(void);

/*
 * Set while a bisection checks its workload's options before it builds
 * anything: a program named by a path (the command workload's ./prog) may
 * be one the build makes, so only its form is checked then; the build's
 * own check follows, in its work tree.
 */
void workload_check_before_build(bool on);
bool workload_checking_before_build(void);

#endif
