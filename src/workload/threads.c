// SPDX-License-Identifier: GPL-2.0
/*
 * threads: our implementation of `sysbench threads` (sysbench 1.0,
 * src/tests/threads/sb_threads.c, Alexey Kopytov).
 *
 * It measures the scheduler under many threads that contend for a few
 * mutexes and yield the CPU while holding one: sched_yield() with a
 * waiter queued on the lock exercises yield, the futex wait/wake path and
 * the pick-next decisions among runnable threads of one process.
 *
 * What follows sysbench: `threads` threads (default 1, as sysbench) pass a
 * start barrier, then loop over events until `runtime` seconds have passed
 * (an event in progress completes, as sysbench lets it); an event takes
 * the lock number (shared counter % locks), the shared counter being one
 * atomic fetch-and-add for the whole process as in sysbench 1.0's
 * next_event() (not thread-local), and then does `yields` times {lock;
 * sched_yield(); unlock} on that mutex. `events_per_sec` is the events of
 * all threads divided by the time from the barrier until the last thread
 * is joined, sysbench's "total number of events" / "total time".
 * Where we differ: sysbench also times each event for its latency
 * histogram and checks its time limit through its own event loop; we only
 * read a stop flag per event, which is cheaper by a few clock reads per
 * 1000 yields.
 *
 * Counted, an event costs the same on both sides: perf stat -e
 * syscalls:sys_enter_sched_yield,syscalls:sys_enter_futex gives 1000
 * sched_yield() per event and no futex call at one or two threads (sysbench
 * 394,000 yields for 394 events and 8 futex calls in a 2 s run), and the
 * CPU time per yield was 2.2-2.6 us for either with one thread on one CPU
 * (user + system time over the yields counted, three runs each). What
 * moves events_per_sec between runs is not the event: each yield hands the
 * CPU to any other runnable task on it, so on a busy machine the rate is
 * the share of the CPU the run gets (two runs, one of each tool, side by
 * side on one CPU complete about as many events: 86 and 113, 81 and 81);
 * and with several threads on several CPUs it depends on whether the
 * kernel placed two yielding threads on one CPU, where each yield
 * switches, or apart, where a yield returns at once, so runs of either
 * tool fall in two modes several times apart.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/array.h"
#include "util/timeutil.h"
#include "util/xalloc.h"
#include "workload/start_gate.h"
#include "workload/workload.h"
#include "workload/testing.h"

enum {
	THR_PARAM_THREADS,
	THR_PARAM_YIELDS,
	THR_PARAM_LOCKS,
	THR_PARAM_RUNTIME,
	NR_THR_PARAMS,
};

static const struct param_spec thr_params[NR_THR_PARAMS] = {
	[THR_PARAM_THREADS] = { "threads", PARAM_INT, "1", 1, 4096, NULL,
		"threads (sysbench --threads)" },
	[THR_PARAM_YIELDS] = { "yields", PARAM_INT, "1000", 1, 1000000, NULL,
		"lock; yield; unlock rounds per event (sysbench --thread-yields)" },
	[THR_PARAM_LOCKS] = { "locks", PARAM_INT, "8", 1, 1000000, NULL,
		"mutexes the events share (sysbench --thread-locks)" },
	[THR_PARAM_RUNTIME] = { "runtime", PARAM_INT, "10", 1, 3600, NULL,
		"seconds to run (sysbench --time)" },
};

static const struct metric_spec thr_metrics[] = {
	{ "events_per_sec", "events/s", BETTER_HIGHER,
	  "events of all threads per second" },
};

/* sysbench's default --thread-stack-size. */
#define THR_STACK_SIZE	(64 * 1024)

struct threads_test {
	long yields;
	long nr_locks;
	pthread_mutex_t *locks;
	atomic_ulong next_lock;		/* sysbench's req_performed */
	atomic_bool stop;
	struct start_gate gate;
};

struct thr_worker {
	struct threads_test *test;
	unsigned long events;
};

/* Events of the last run, all threads together: for the unit tests. */
static unsigned long thr_last_events;

unsigned long threads_test_last_events(void)
{
	return thr_last_events;
}

static int thr_check(const struct param_value *values,
		     struct workload_needs *needs, struct error *err)
{
	needs->tasks = values[THR_PARAM_THREADS].num + 1;
	needs->fds = 0;
	return 0;
}

static void thr_event(struct threads_test *t)
{
	pthread_mutex_t *lock = &t->locks[atomic_fetch_add(&t->next_lock, 1) %
					  (unsigned long)t->nr_locks];

	for (long i = 0; i < t->yields; i++) {
		pthread_mutex_lock(lock);
		sched_yield();
		pthread_mutex_unlock(lock);
	}
}

static void *thr_worker_fn(void *arg)
{
	struct thr_worker *w = arg;

	if (!start_gate_arrive(&w->test->gate))
		return NULL;
	while (!atomic_load_explicit(&w->test->stop, memory_order_relaxed)) {
		thr_event(w->test);
		w->events++;
	}
	return NULL;
}

static int thr_measure(struct threads_test *t, struct thr_worker *workers, pthread_t *tids,
		       long threads, long runtime, double *metrics, struct error *err)
{
	unsigned long events = 0;
	double start, elapsed;

	if (start_gate_spawn(&t->gate, "threads", threads, thr_worker_fn, workers,
			     sizeof(*workers), THR_STACK_SIZE, false, tids, err))
		return -1;
	start_gate_open(&t->gate, threads, false, &start);
	time_sleep_until(start + (double)runtime);
	atomic_store(&t->stop, true);
	for (long i = 0; i < threads; i++) {
		pthread_join(tids[i], NULL);
		events += workers[i].events;
	}
	elapsed = time_now() - start;
	thr_last_events = events;
	metrics[0] = (double)events / elapsed;
	return 0;
}

static int thr_run(const struct param_value *values, double *metrics,
		   struct error *err)
{
	long threads = values[THR_PARAM_THREADS].num;
	struct threads_test t = {
		.yields = values[THR_PARAM_YIELDS].num,
		.nr_locks = values[THR_PARAM_LOCKS].num,
	};
	struct thr_worker *workers = xcalloc((size_t)threads, sizeof(*workers));
	pthread_t *tids = xcalloc((size_t)threads, sizeof(*tids));
	int ret;

	t.locks = xcalloc((size_t)t.nr_locks, sizeof(*t.locks));
	for (long i = 0; i < t.nr_locks; i++)
		pthread_mutex_init(&t.locks[i], NULL);
	atomic_init(&t.next_lock, 0);
	atomic_init(&t.stop, false);
	start_gate_init(&t.gate);
	for (long i = 0; i < threads; i++)
		workers[i].test = &t;
	thr_last_events = 0;

	ret = thr_measure(&t, workers, tids, threads, values[THR_PARAM_RUNTIME].num,
			  metrics, err);

	start_gate_destroy(&t.gate);
	for (long i = 0; i < t.nr_locks; i++)
		pthread_mutex_destroy(&t.locks[i]);
	free(t.locks);
	free(workers);
	free(tids);
	return ret;
}

const struct workload workload_threads = {
	.name = "threads",
	.summary = "threads lock a shared mutex and yield while holding it "
		   "(sysbench threads)",
	.params = thr_params,
	.nr_params = NR_THR_PARAMS,
	.metrics = thr_metrics,
	.nr_metrics = ARRAY_SIZE(thr_metrics),
	.check = thr_check,
	.run = thr_run,
};
