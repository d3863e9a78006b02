/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_WORKLOAD_START_GATE_H
#define SCHEDPERF_WORKLOAD_START_GATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"

/*
 * The start barrier of the thread workloads (futex-hash, threads, mutex):
 * workers arrive and wait; the main thread opens the gate once all have
 * arrived and reads the clock just before, so that thread creation is never
 * timed. Opening with @abort sends the workers home (a failed setup).
 */
struct start_gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	long arrived;
	bool open;
	bool abort;
};

void start_gate_init(struct start_gate *gate);
void start_gate_destroy(struct start_gate *gate);

/* A worker arrives and waits for the gate; false when it was aborted. */
bool start_gate_arrive(struct start_gate *gate);

/* Wait until @n workers have arrived, leaving the gate closed. */
void start_gate_wait(struct start_gate *gate, long n);

/*
 * Open the gate once @wait_for workers have arrived (at once with @abort);
 * *@opened_at (may be NULL) is the time just before it opened.
 */
void start_gate_open(struct start_gate *gate, long wait_for, bool abort, double *opened_at);

/*
 * Create @n workers that will wait at @gate: thread i runs @fn on the i-th
 * element of @args (@arg_size bytes each) and is stored in @tids[i].
 * @stack_size 0 keeps the default; with @pin, thread i is pinned to the
 * i-th CPU this process may use, wrapping (perf's i % nr_cpus). When
 * thread k cannot be created, the k already created are sent home (the
 * gate opens with abort) and joined, and @err (EXIT_ENV) names @workload
 * and the limit to raise.
 */
int start_gate_spawn(struct start_gate *gate, const char *workload, long n,
		     void *(*fn)(void *), void *args, size_t arg_size,
		     size_t stack_size, bool pin, pthread_t *tids, struct error *err);

#endif
