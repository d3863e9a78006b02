/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_RUNNER_PLAN_H
#define SCHEDPERF_RUNNER_PLAN_H

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
};

/*
 * Expand @assignments ("KEY=V1,V2,...") for @w and append the benchmarks to
 * @plan. Every combination is validated before anything runs.
 */
int plan_add(struct plan *plan, const struct workload *w, char *const *assignments,
	     size_t nr_assignments, struct error *err);
void plan_release(struct plan *plan);

/* Set the overrides of the items from @first on (a suite entry's settings). */
void plan_set_overrides(struct plan *plan, size_t first, int iterations, int warmup,
			double timeout);

/* Randomise the order of the benchmarks (Fisher-Yates with @seed). */
void plan_shuffle(struct plan *plan, unsigned long seed);

/* Add a --knob SPEC to @plan. */
void plan_add_knob(struct plan *plan, const char *spec);

/*
 * The plan as stored with a batch, so that --resume can rebuild it:
 * {"benchmarks": [{"workload", "params": {...}, "iterations"?, "warmup"?,
 * "timeout"?}], "monitors"?, "retries"?, "cpus"?, "knobs"?: [SPEC...],
 * "profile_iterations"?, "profile_frequency"?}.
 */
char *plan_to_json(const struct plan *plan);
int plan_from_json(const char *text, struct plan *plan, struct error *err);

/* "key=value key=value" in the workload's parameter order, for people. */
void plan_item_describe(const struct plan_item *item, char *buf, size_t len);

#endif
