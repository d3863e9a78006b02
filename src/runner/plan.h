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

#define PLAN_MAX_PARAMS 32

struct plan_item {
	const struct workload *workload;
	struct param_value values[PLAN_MAX_PARAMS];
	struct workload_needs needs;
	char *params_json;	/* canonical: keys sorted, values as strings */
};

struct plan {
	struct plan_item *items;
	size_t nr_items;
};

/*
 * Expand @assignments ("KEY=V1,V2,...") for @w and append the benchmarks to
 * @plan. Every combination is validated before anything runs.
 */
int plan_add(struct plan *plan, const struct workload *w, char *const *assignments,
	     size_t nr_assignments, struct error *err);
void plan_release(struct plan *plan);

/* "key=value key=value" in the workload's parameter order, for people. */
void plan_item_describe(const struct plan_item *item, char *buf, size_t len);

#endif
