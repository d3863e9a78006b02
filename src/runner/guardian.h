/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_RUNNER_GUARDIAN_H
#define SCHEDPERF_RUNNER_GUARDIAN_H

#include <sys/types.h>

#include "util/error.h"

/*
 * The process group of an iteration, held by a guardian: a process that
 * leads the group and sleeps on a pipe whose only writer is the runner.
 * However the runner ends, SIGKILL included, the kernel closes that pipe,
 * the guardian wakes and kills its whole group, so no task of the
 * iteration (the workload's children, grandchildren, threads or exec'd
 * helpers) outlives it. While the runner lives, the guardian costs
 * nothing: it sleeps, outside the iteration's own process tree.
 *
 * As long as the guardian or any task of the group lives, the group's id
 * cannot be reused, so killing it never hits an unrelated process.
 */
struct guardian {
	pid_t pgid;		/* the group, led by the guardian; 0 = none */
	int fd;			/* the runner's end of the pipe */
};

/* Start a guardian and its group. */
int guardian_start(struct guardian *g, struct error *err);

/*
 * In a child forked to join the group: join it and drop the runner's end
 * of the pipe, so that only the runner holds it. Returns -1 when the group
 * is gone (the runner died meanwhile).
 */
int guardian_join(const struct guardian *g);

/* Kill the whole group, guardian included, and reap the guardian. */
void guardian_stop(struct guardian *g);

#endif
