/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_RUNNER_SUITE_H
#define SCHEDPERF_RUNNER_SUITE_H

#include "runner/plan.h"
#include "util/error.h"

/*
 * Built-in suites: named lists of benchmarks, each a workload with
 * "KEY=VALUE" assignments (comma lists expand as on the command line).
 */
int suite_plan(const char *name, struct plan *plan, struct error *err);

/* Names of the built-in suites, for help and errors: "quick". */
const char *suite_names(void);

#endif
