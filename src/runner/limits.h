/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_RUNNER_LIMITS_H
#define SCHEDPERF_RUNNER_LIMITS_H

#include "util/error.h"
#include "workload/workload.h"

/*
 * Make sure one iteration's needs fit the machine before it starts: tasks
 * within kernel.threads-max, @memory_kb (the workload's own allocations)
 * plus the tasks' kernel memory within MemAvailable; raise RLIMIT_NOFILE
 * (and RLIMIT_NPROC) when allowed. Otherwise fail with EXIT_ENV naming the
 * limit and how to raise it.
 */
int limits_ensure(const char *workload, const struct workload_needs *needs,
		  long memory_kb, struct error *err);

#endif
