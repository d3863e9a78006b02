/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_WORKLOAD_TASK_END_H
#define SCHEDPERF_WORKLOAD_TASK_END_H

#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"

/*
 * How a task of a workload ended, in the words of a failed iteration. A
 * task that was killed, crashed or exited with an error, or whose peer
 * vanished, fails its iteration (workload.h's run returns 1 with the
 * reason) and the run goes on: that is the machine or a user acting on
 * the tasks, never a fault of schedperf that should stop the run.
 */

/* Whether wait status @status is a clean exit (status 0). */
bool task_end_clean(int status);

/*
 * Whether @status, a task's failed end, is the cause rather than an echo
 * of another task's end: a SIGPIPE or a non-zero exit is what a task
 * whose peer vanished gets, a signal other than SIGPIPE came from outside.
 */
bool task_end_is_cause(int status);

/* How @status ended a task, in @buf: "was killed by signal 9 (Killed)", say. */
void task_end_describe(int status, char *buf, size_t len);

/*
 * Fill @err with "@workload: a @who @how" (@how: "was killed by signal 9
 * (Killed)", "exited with status 1") and @more appended when not NULL;
 * returns 1, an iteration's failure.
 */
int task_end_fail(struct error *err, const char *workload, const char *who, int status,
		  const char *more);

#endif
