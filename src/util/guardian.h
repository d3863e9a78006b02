/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_GUARDIAN_H
#define SCHEDPERF_UTIL_GUARDIAN_H

#include <sys/types.h>

#include "util/error.h"

/*
 * A process group held by a guardian: a process that leads the group and
 * sleeps on a pipe whose only writer is the process that started it (the
 * runner, for an iteration's group; a workload, for the load it runs
 * beside its own tasks; run_command(), for a build or a git command).
 * However that process ends, SIGKILL included, the kernel closes that
 * pipe, the guardian wakes and kills its whole group, so no task of the
 * group (children, grandchildren, threads or exec'd helpers) outlives it.
 * While its starter lives, the guardian costs nothing: it sleeps, outside
 * the group's own process tree.
 *
 * As long as the guardian or any task of the group lives, the group's id
 * cannot be reused, so killing it never hits an unrelated process.
 */
struct guardian {
	pid_t pgid;		/* the group, led by the guardian; 0 = none */
	int fd;			/* the starter's end of the pipe */
	pid_t remover;		/* its scratch directory's remover; 0 = none */
};

/* Start a guardian and its group. */
int guardian_start(struct guardian *g, struct error *err);

/*
 * The same, for a group whose tasks write in scratch directory @dir
 * (util/scratch_dir.h; NULL: none): when its starter is gone, the
 * guardian also has @dir removed, once the group it kills is gone, by a
 * child of the starter in a group of its own (the remover). While the
 * starter lives, @dir is the starter's to remove, after guardian_stop()
 * or guardian_release(), which kill and reap the remover first.
 */
int guardian_start_removing(struct guardian *g, const char *dir, struct error *err);

/*
 * In a child forked to join the group: join it and drop the starter's end
 * of the pipe, so that only the starter holds it. Returns -1 when the
 * group is gone (the starter died meanwhile).
 */
int guardian_join(const struct guardian *g);

/* Kill the whole group, guardian included, and reap the guardian. */
void guardian_stop(struct guardian *g);

/*
 * End the guardian alone, and reap it: the group's tasks are then left to
 * live on as any others (what a finished command left in the background).
 */
void guardian_release(struct guardian *g);

/*
 * What a guardian does while its starter lives, for other processes that
 * must act once a set of processes is gone (util/cgroup.h's reaper): block
 * every signal but SIGKILL, close every fd but @fd, the read end of a pipe,
 * and return when the last holder of its write end has closed it or died.
 */
void guardian_wait_orphaned(int fd);

#endif
