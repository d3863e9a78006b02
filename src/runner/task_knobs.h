/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_RUNNER_TASK_KNOBS_H
#define SCHEDPERF_RUNNER_TASK_KNOBS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "runner/knobs.h"
#include "util/error.h"

/*
 * The knobs that change the workload's own tasks rather than the machine:
 * policy:NAME[:PRIO], nice:N, slice:USEC (the fair class's custom slice,
 * sched_setattr()'s sched_runtime for SCHED_NORMAL, Linux 6.12 and later),
 * uclamp:MIN-MAX, and the scratch cgroups of cgroup: knobs to join. The
 * iteration's process takes them before its workload starts
 * (runner/iteration.c), and every task it creates inherits them, as
 * fork() and pthread_create() hand down the scheduling attributes and the
 * cgroups of their caller. Nothing outlives those tasks, so nothing of
 * these is journalled; a scratch cgroup is machine state and is
 * (runner/knob_session.h).
 */

#define TASK_KNOBS_MAX_CGROUPS 4

struct task_knobs {
	bool policy_set;
	int policy;			/* SCHED_OTHER ... */
	int priority;			/* fifo and rr: 1..99 */
	bool nice_set;
	int nice;
	long slice_us;			/* 0: the kernel's */
	bool uclamp_set;
	int uclamp_min, uclamp_max;	/* 0..1024 */
	size_t nr_cgroups;
	char cgroups[TASK_KNOBS_MAX_CGROUPS][PATH_MAX];	/* scratch cgroups to join */
};

/* Whether @kind is one of the task knobs (policy, nice, slice, uclamp). */
bool task_knob_kind(enum knob_kind kind);

/*
 * Check @k's value (EXIT_USAGE with why in @err) and, with @t, add it: a
 * knob given twice with two values is refused, as is slice: beside a
 * real-time policy (slices are the fair class's).
 */
int task_knobs_add(struct task_knobs *t, const struct knob *k, struct error *err);

/* Whether @a and @b change the tasks alike (their cgroups not compared). */
bool task_knobs_same(const struct task_knobs *a, const struct task_knobs *b);

/*
 * Their text for a batch's environment, one "KIND=VALUE" per line in
 * @buf (empty when none): "policy=fifo:50".
 */
void task_knobs_describe(const struct task_knobs *t, char *buf, size_t len);

/*
 * Take them: join the cgroups, then the scheduling attributes, in the
 * calling process (the iteration's, before its workload starts). EXIT_ENV
 * saying why when the kernel refuses (a privilege, a feature it lacks).
 */
int task_knobs_apply(const struct task_knobs *t, struct error *err);

/*
 * The tasks the kernel's OOM killer has killed in @t's cgroups so far
 * (memory.events' oom_kill on cgroup v2, memory.oom_control's on v1; 0
 * where no file says): an iteration killed by SIGKILL while it grew was
 * most likely at a memory limit of its cgroup.
 */
long task_knobs_oom_kills(const struct task_knobs *t);

/*
 * Whether this kernel takes them, tried in a child process that exits
 * after (cgroups not joined): EXIT_ENV with why when not, so that a knob
 * the machine lacks is refused before anything changes. A custom slice
 * is read back, since kernels before 6.12 accept sched_runtime for the
 * fair class and ignore it.
 */
int task_knobs_check(const struct task_knobs *t, struct error *err);

#endif
