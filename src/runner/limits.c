// SPDX-License-Identifier: GPL-2.0
/*
 * Resource limits checked and raised before a run starts: tasks, open
 * files, memory and the disk space of files, so that a workload too big for the machine is refused
 * up front instead of failing halfway.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/statvfs.h>

#include "runner/limits.h"
#include "util/scratch_dir.h"

/* Descriptors schedperf itself holds (store, stdio, pipes) beside a workload's. */
#define FD_MARGIN 32
/* Tasks the rest of the system needs while a workload runs. */
#define TASK_MARGIN 64
/* Kernel memory each task costs at least (kernel stack, task_struct), KiB. */
#define TASK_KB 24

static int raise_limit(int resource, rlim_t want)
{
	struct rlimit rl;

	if (getrlimit(resource, &rl))
		return -1;
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur >= want)
		return 0;
	if (rl.rlim_cur == RLIM_INFINITY)
		return 0;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < want)
		rl.rlim_max = want;	/* only root (CAP_SYS_RESOURCE) may do this */
	rl.rlim_cur = want;
	return setrlimit(resource, &rl);
}

static long read_long_file(const char *path)
{
	FILE *f = fopen(path, "re");
	long v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* The kernel's estimate of memory available without swapping, KiB; -1 unknown. */
static long mem_available_kb(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[128];
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

int limits_ensure(const char *workload, const struct workload_needs *needs,
		  long memory_kb, struct error *err)
{
	long threads_max, avail_kb, need_kb;

	/* What no limit can fix comes first: the machine's size. */
	threads_max = needs->tasks > 0 ? read_long_file("/proc/sys/kernel/threads-max") : -1;
	if (threads_max > 0 && needs->tasks + TASK_MARGIN > threads_max)
		return error_set(err, EXIT_ENV,
			"%s needs %ld tasks but kernel.threads-max is %ld "
			"(raise it with 'sysctl kernel.threads-max=%ld', or use fewer tasks)",
			workload, needs->tasks, threads_max, needs->tasks + TASK_MARGIN);
	/*
	 * Refuse only what is certain to fail: the workload's own buffers and
	 * the kernel's share of each task, against MemAvailable. Swapping or
	 * the OOM killer in the middle of a run would cost more than a refusal.
	 */
	need_kb = memory_kb + (needs->tasks > 0 ? needs->tasks : 0) * TASK_KB;
	avail_kb = need_kb > 0 ? mem_available_kb() : -1;
	if (avail_kb > 0 && need_kb > avail_kb)
		return error_set(err, EXIT_ENV,
			"%s needs about %ld MiB of memory but only %ld MiB is available "
			"(MemAvailable in /proc/meminfo; use smaller parameters or free memory)",
			workload, need_kb / 1024, avail_kb / 1024);
	if (needs->fds > 0 && raise_limit(RLIMIT_NOFILE, (rlim_t)(needs->fds + FD_MARGIN)))
		return error_set(err, EXIT_ENV,
			"%s needs %ld open files, %ld with schedperf's own, but the limit "
			"cannot be raised: %s (run 'ulimit -n %ld' as root first, or use fewer "
			"groups/fds)", workload, needs->fds, needs->fds + FD_MARGIN,
			strerror(errno), needs->fds + FD_MARGIN);
	if (needs->tasks <= 0)
		return 0;
	/*
	 * RLIMIT_NPROC counts every task of this user, not only ours; only a
	 * limit below what the workload alone needs is certain to fail, so
	 * only then raise it. Anything tighter shows up as a refused fork,
	 * which the workload reports with the same advice.
	 */
	if (raise_limit(RLIMIT_NPROC, (rlim_t)(needs->tasks + TASK_MARGIN)))
		return error_set(err, EXIT_ENV,
			"%s needs %ld tasks, %ld with a margin for this user's others, but the "
			"process limit cannot be raised: %s (run 'ulimit -u %ld' first, or use "
			"fewer tasks)", workload, needs->tasks, needs->tasks + TASK_MARGIN,
			strerror(errno), needs->tasks + TASK_MARGIN);
	return 0;
}

int limits_ensure_scratch(const char *workload, long scratch_kb, struct error *err)
{
	const char *root = scratch_dir_root();
	unsigned long long free_kb;
	struct statvfs fs;

	if (scratch_kb <= 0)
		return 0;
	if (statvfs(root, &fs))
		return error_set(err, EXIT_ENV, "%s writes its files in %s, which cannot be "
				 "used: %s (set TMPDIR to a writable directory)", workload, root,
				 strerror(errno));
	/* what an unprivileged user may take: the root's reserve is not the workload's */
	free_kb = (unsigned long long)fs.f_bavail * fs.f_frsize / 1024;
	if ((unsigned long long)scratch_kb > free_kb)
		return error_set(err, EXIT_ENV, "%s needs about %ld MiB of free space for its "
				 "files in %s but only %llu MiB is free there (use smaller "
				 "parameters, or set TMPDIR to a directory with room)", workload,
				 (scratch_kb + 1023) / 1024, root, free_kb / 1024);
	return 0;
}
