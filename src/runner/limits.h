/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_RUNNER_LIMITS_H
#define SCHEDPERF_RUNNER_LIMITS_H

#include "util/error.h"
#include "workload/workload.h"

/*
 * Make sure one iteration's needs fit the machine before it starts: raise
 * RLIMIT_NOFILE (and RLIMIT_NPROC) when allowed, otherwise fail with
 * EXIT_ENV naming the limit and how to raise it.
 */
int limits_ensure(const char *workload, const struct workload_needs *needs,
		  struct error *err);

#endif
