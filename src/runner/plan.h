/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_RUNNER_PLAN_H
#define SCHEDPERF_RUNNER_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"
#include "workload/workload.h"

/*
 * A plan is the list of benchmarks a run will execute: each one workload
 * with every parameter fixed. `-p KEY=A,B` expands to one benchmark per
 * value; several lists expand to their product.
 */

struct plan_item {
	const struct workload *workload;
	struct param_value values[WORKLOAD_MAX_PARAMS];
	struct workload_needs needs;
	char *params_json;	/* canonical: keys sorted, values as strings */
	/* Per-benchmark overrides from a suite file; -1 = the run's setting. */
	int iterations;
	int warmup;
	double timeout;
};

struct plan {
	struct plan_item *items;
	size_t nr_items;
	/* The run's options that --resume keeps: each a row of plan_options[]. */
	char *monitors;		/* --monitors list; NULL = all */
	int retries;		/* --retries of every iteration */
	char *cpus;		/* --cpus list as given; NULL = not pinned */
	char **knobs;		/* --knob SPECs as given (runner/knobs.h) */
	size_t nr_knobs;
	/*
	 * With the profile monitor: 0 profiles the measured iterations
	 * themselves; N > 0 runs N extra iterations per benchmark, profiled
	 * and not timed, while the measured ones run without it.
	 */
	int profile_iterations;
	int profile_frequency;	/* --profile-frequency; 0 = the monitor's default */
	int rerun_disturbed;	/* --rerun-disturbed of every disturbed iteration */
	/*
	 * The run's -i, --warmup and --timeout, which fix each benchmark's own
	 * (0: not given), and --shuffle, which fixes their order: kept as given.
	 */
	int iterations;
	int warmup;
	double timeout;
	bool shuffle;
	/*
	 * --max-interference, in percent as given (0: not given, the
	 * default, unless marked given), and --quiet-wait in seconds.
	 */
	double max_interference;
	double quiet_wait;
	/*
	 * The rows of plan_options[] given (bit i: row i), so that a 0 given
	 * (--warmup 0) is given as any other value: what run's options gave
	 * (plan_options_mark()) and what a stored plan holds.
	 */
	unsigned int given;
};

/*
 * The run options a batch's plan keeps, so that --resume runs its missing
 * iterations as the others ran, each declared once here: its field of
 * struct plan, its key in the stored plan and the option of run that sets
 * it. plan_to_json() and plan_from_json() serialise them from this table,
 * run --resume refuses each one given (it takes them from the plan) and
 * its --help line names them, and plan_release() frees them. A new one is
 * its field, its row and its row in run's option table (HACKING.md).
 */
enum plan_option_kind {
	PLAN_OPTION_STRING,	/* a char *, NULL when not given */
	PLAN_OPTION_INT,	/* an int, 0 when not given (0 may be given too) */
	PLAN_OPTION_NUMBER,	/* a double, 0 when not given (0 may be given too) */
	PLAN_OPTION_FLAG,	/* a bool, false when not given */
	PLAN_OPTION_LIST,	/* a char ** and its size_t count */
};

struct plan_option {
	const char *key;	/* in the stored plan: "profile_frequency" */
	const char *option;	/* run's: "profile-frequency" */
	enum plan_option_kind kind;
	size_t offset;		/* of its field in struct plan */
	size_t count_offset;	/* a list's: of its count */
};

/* In the stored plan's order; ended by a NULL key. */
extern const struct plan_option plan_options[];

/*
 * Whether @o is given in @plan: marked given, or set to other than its
 * "not given" (not NULL, not 0, not false, not empty).
 */
bool plan_option_given(const struct plan *plan, const struct plan_option *o);

/*
 * Around the parsing of run's options, which write the fields themselves:
 * plan_options_unset() sets each number option of @plan to a value none of
 * them gives (each refuses a negative one); plan_options_mark() then marks
 * given each that an option set, its 0 too, and puts the others back to 0.
 */
void plan_options_unset(struct plan *plan);
void plan_options_mark(struct plan *plan);

/* The row of @key, or NULL. */
const struct plan_option *plan_option_find(const char *key);

/* Append @value to list option @o of @plan. */
void plan_option_add(struct plan *plan, const struct plan_option *o, const char *value);

/*
 * Expand @assignments ("KEY=V1,V2,...") for @w and append the benchmarks to
 * @plan. Every combination is validated before anything runs.
 */
int plan_add(struct plan *plan, const struct workload *w, char *const *assignments,
	     size_t nr_assignments, struct error *err);

/*
 * plan_add() of assignments resolved from what @given says the user typed:
 * a benchmark its checks refuse is refused in runner/plan_given.h's words.
 */
struct plan_given;
int plan_add_given(struct plan *plan, const struct workload *w, char *const *assignments,
		   size_t nr_assignments, const struct plan_given *given, struct error *err);
void plan_release(struct plan *plan);

/* Set the overrides of the items from @first on (a suite entry's settings). */
void plan_set_overrides(struct plan *plan, size_t first, int iterations, int warmup,
			double timeout);

/* Randomise the order of the benchmarks (Fisher-Yates with @seed). */
void plan_shuffle(struct plan *plan, unsigned long seed);

/*
 * The plan as stored with a batch, so that --resume can rebuild it:
 * {"benchmarks": [{"workload", "params": {...}, "iterations"?, "warmup"?,
 * "timeout"?}], "monitors"?, "retries"?, "cpus"?, "knobs"?: [SPEC...],
 * "profile_iterations"?, "profile_frequency"?, "rerun_disturbed"?,
 * "iterations"?, "warmup"?, "timeout"?, "shuffle"?, "max_interference"?,
 * "quiet_wait"?}.
 */
char *plan_to_json(const struct plan *plan);
int plan_from_json(const char *text, struct plan *plan, struct error *err);
/*
 * plan_from_json() in its two steps, for run --resume: the options first,
 * since the benchmarks' checks need them (the command workload's program
 * is looked up in the PATH of an env:PATH knob), then the benchmarks.
 */
int plan_options_from_json(const char *text, struct plan *plan, struct error *err);
int plan_benchmarks_from_json(const char *text, struct plan *plan, struct error *err);

/* "key=value key=value" in the workload's parameter order, for people. */
void plan_item_describe(const struct plan_item *item, char *buf, size_t len);

/*
 * Whether a stored plan (plan_to_json()'s JSON; NULL: none) took CPU
 * profiles: its monitors name profile or profile-system, or it ran
 * --profile-iterations. What tells a run with no profile that failed
 * from one never profiled.
 */
bool plan_json_profiles(const char *json);

struct store;
struct result_set;
/* Whether a batch of @set has a stored plan that took profiles: 0, or -1 with @err. */
int plan_batches_profile(struct store *st, const struct result_set *set, bool *profiled,
			 struct error *err);

#endif
