/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_SPAWN_H
#define SCHEDPERF_UTIL_SPAWN_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * Run this very program again (/proc/self/exe) with @argv, never through
 * a shell: for a command that runs another of schedperf's commands in a
 * process of its own (a worker runs each job's `run`). @out_fd and
 * @err_fd become the child's standard output and error (-1: inherited;
 * /dev/null when @out_fd is -2). With @die_with_parent the child is killed
 * when this process dies, however it dies. @env ("NAME=VALUE" strings,
 * NULL-terminated; NULL: none) is added to the child's environment alone,
 * never to ours: a store's location is for that child, not for what we
 * start later (a boot command); and our $SCHEDPERF_DB is not passed on
 * (spawn_hide_own_env()) unless @env gives it. Returns the child's pid, or
 * -1 with errno.
 */
pid_t spawn_self(char *const argv[], int out_fd, int err_fd, bool die_with_parent,
		 char *const env[]);

/*
 * In a child about to run a program for the user (a workload, a build, a
 * boot command): take out of its environment what is schedperf's own, the
 * store's URL ($SCHEDPERF_DB) whose password no such program may read.
 */
void spawn_hide_own_env(void);

/*
 * Wait for @pid and return its exit code, 128 + the signal that killed
 * it, or -1 with errno.
 */
int spawn_wait(pid_t pid);

/*
 * As spawn_wait(), but a child killed by signal SIG returns
 * SPAWN_SIGNALED(SIG), apart from any exit code (a run that exits 137).
 */
#define SPAWN_SIGNALED(sig) (256 + (sig))
int spawn_wait_signaled(pid_t pid);

#endif
