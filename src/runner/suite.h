/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_RUNNER_SUITE_H
#define SCHEDPERF_RUNNER_SUITE_H

#include "runner/plan.h"
#include "monitor/topology.h"
#include "util/error.h"

/*
 * `run --suite NAME|FILE`: a built-in suite or a YAML suite file
 * (schedperf-suite(5), runner/suite_file.h) turned into plan items, each
 * entry's iterations, warmup and timeout set on its items.
 */

/* Plan suite @name for this machine's topology, read from sysfs. */
int suite_plan(const char *name, struct plan *plan, struct error *err);

/* Plan suite @name for @topo (topology_assume() for --assume-cpus). */
int suite_plan_on(const char *name, const struct topology *topo, struct plan *plan,
		  struct error *err);

#endif
