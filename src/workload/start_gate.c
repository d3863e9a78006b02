// SPDX-License-Identifier: GPL-2.0
/*
 * The start gate of the thread workloads, and the spawner that creates
 * their workers (pinned round-robin over the allowed CPUs when asked).
 */
#include <sched.h>
#include <string.h>

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

void start_gate_wait(struct start_gate *gate, long n)
{
	pthread_mutex_lock(&gate->lock);
	while (gate->arrived < n)
		pthread_cond_wait(&gate->cond, &gate->lock);
	pthread_mutex_unlock(&gate->lock);
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

/* The first CPU after @cpu in @allowed, wrapping; -1 when there is none. */
static int next_cpu(const cpu_set_t *allowed, int cpu)
{
	for (int n = 0; n < CPU_SETSIZE; n++) {
		cpu = (cpu + 1) % CPU_SETSIZE;
		if (CPU_ISSET(cpu, allowed))
			return cpu;
	}
	return -1;
}

int start_gate_spawn(struct start_gate *gate, const char *workload, long n,
		     void *(*fn)(void *), void *args, size_t arg_size,
		     size_t stack_size, bool pin, pthread_t *tids, struct error *err)
{
	cpu_set_t allowed, one;
	pthread_attr_t attr;
	long created;
	int ret = 0, cpu = -1;

	if (pin && sched_getaffinity(0, sizeof(allowed), &allowed))
		pin = false;
	pthread_attr_init(&attr);
	if (stack_size)
		pthread_attr_setstacksize(&attr, stack_size);
	for (created = 0; created < n; created++) {
		if (pin && (cpu = next_cpu(&allowed, cpu)) >= 0) {
			CPU_ZERO(&one);
			CPU_SET(cpu, &one);
			pthread_attr_setaffinity_np(&attr, sizeof(one), &one);
		}
		ret = pthread_create(&tids[created], &attr, fn,
				     (char *)args + (size_t)created * arg_size);
		if (ret)
			break;
	}
	pthread_attr_destroy(&attr);
	if (!ret)
		return 0;
	start_gate_open(gate, 0, true, NULL);
	for (long i = 0; i < created; i++)
		pthread_join(tids[i], NULL);
	return error_set(err, EXIT_ENV, "%s: cannot create thread %ld of %ld: %s (raise the "
			 "task limit: ulimit -u, or sysctl kernel.threads-max)",
			 workload, created + 1, n, strerror(ret));
}
