/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_RUNNER_PLAN_BUILD_H
#define SCHEDPERF_RUNNER_PLAN_BUILD_H

#include <stddef.h>

#include "runner/plan.h"
#include "util/error.h"

struct runner_options;

/* The benchmarks a new run's command line names: a suite, or a workload and its values. */
struct plan_request {
	const char *suite;		/* --suite NAME|FILE, or NULL */
	const char *workload;		/* WORKLOAD, without --suite */
	const char **params;		/* -p KEY=VALUE, as typed */
	size_t nr_params;
	const char **sweeps;		/* --sweep KEY=GEN[:MIN..MAX], as typed */
	size_t nr_sweeps;
};

/*
 * Append @req's benchmarks to @plan, each checked before anything runs:
 * a suite's, or @req's workload's for every combination of its -p and
 * --sweep values, whose percents and multiples of the CPUs count the CPUs
 * the workloads will see (monitor/topology.h: --cpus, --assume-cpus).
 * -1 with @err when one is refused or those CPUs cannot be read.
 */
int plan_build(struct plan *plan, const struct plan_request *req, struct error *err);

/*
 * Settle built @plan as it is stored, so that --resume finds all of it
 * there: the plan's -i, --warmup and --timeout into @opt, then every
 * benchmark's own iterations, warm-ups and timeout fixed; the profile
 * monitor added for --profile-iterations; the order shuffled for --shuffle.
 */
void plan_settle(struct plan *plan, struct runner_options *opt);

#endif
