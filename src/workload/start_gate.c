// SPDX-License-Identifier: GPL-2.0
#include "util/timeutil.h"
#include "workload/start_gate.h"

void start_gate_init(struct start_gate *gate)
{
	pthread_mutex_init(&gate->lock, NULL);
	pthread_cond_init(&gate->cond, NULL);
	gate->arrived = 0;
	gate->open = false;
	gate->abort = false;
}

void start_gate_destroy(struct start_gate *gate)
{
	pthread_cond_destroy(&gate->cond);
	pthread_mutex_destroy(&gate->lock);
}

bool start_gate_arrive(struct start_gate *gate)
{
	bool go;

	pthread_mutex_lock(&gate->lock);
	gate->arrived++;
	pthread_cond_broadcast(&gate->cond);
	while (!gate->open)
		pthread_cond_wait(&gate->cond, &gate->lock);
	go = !gate->abort;
	pthread_mutex_unlock(&gate->lock);
	return go;
}

void start_gate_open(struct start_gate *gate, long wait_for, bool abort, double *opened_at)
{
	pthread_mutex_lock(&gate->lock);
	while (!abort && gate->arrived < wait_for)
		pthread_cond_wait(&gate->cond, &gate->lock);
	if (opened_at)
		*opened_at = time_now();
	gate->open = true;
	gate->abort = abort;
	pthread_cond_broadcast(&gate->cond);
	pthread_mutex_unlock(&gate->lock);
}
