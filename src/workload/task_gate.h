/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_WORKLOAD_TASK_GATE_H
#define SCHEDPERF_WORKLOAD_TASK_GATE_H

#include <stdbool.h>

#include "util/error.h"

/*
 * The start barrier of workloads whose tasks may be processes (tcp-rr,
 * fairness): each task writes a byte to a "ready" pipe and then reads a
 * "go" pipe, whose read returns at end of file, once the parent closes
 * its end. One close lets every task go at once, and nothing of it is
 * read while anything is timed. A process task closes its end of the
 * ready pipe once it has said ready, so that the parent sees a task that
 * died before it could as an early end of file instead of waiting forever.
 */
struct task_gate {
	int ready[2];
	int go[2];
	bool threads;		/* tasks share the parent's fds */
};

/* Make the pipes; @threads when the tasks will be threads of this process. */
int task_gate_init(struct task_gate *g, bool threads, const char *workload,
		   struct error *err);

/* In a forked task, first: drop the parent's ends. */
void task_gate_child(struct task_gate *g);

/* In a task: say ready and wait for the go. */
void task_gate_pass(struct task_gate *g);

/* In the parent once the tasks are forked: drop the tasks' ends. */
void task_gate_forked(struct task_gate *g);

/* Wait until @n tasks said ready; false when they ended first. */
bool task_gate_wait(struct task_gate *g, long n);

/* Let every task go (and any task started later pass at once). */
void task_gate_open(struct task_gate *g);

/* Close whatever is left open. */
void task_gate_destroy(struct task_gate *g);

#endif
