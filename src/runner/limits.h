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

/*
 * Make sure a workload's files, @scratch_kb at most at once (workload.h),
 * fit the free space where its scratch directory will be
 * (util/scratch_dir.h); otherwise fail with EXIT_ENV saying how much is
 * free there and what to do. 0 KiB asks nothing.
 */
int limits_ensure_scratch(const char *workload, long scratch_kb, struct error *err);

#endif
