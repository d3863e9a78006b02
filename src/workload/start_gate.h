/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_WORKLOAD_START_GATE_H
#define SCHEDPERF_WORKLOAD_START_GATE_H

#include <pthread.h>
#include <stdbool.h>

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

/*
 * Open the gate once @wait_for workers have arrived (at once with @abort);
 * *@opened_at (may be NULL) is the time just before it opened.
 */
void start_gate_open(struct start_gate *gate, long wait_for, bool abort, double *opened_at);

#endif
