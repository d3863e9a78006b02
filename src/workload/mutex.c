// SPDX-License-Identifier: GPL-2.0
/*
 * mutex: our implementation of `sysbench mutex` (sysbench 1.0,
 * src/tests/mutex/sb_mutex.c, Alexey Kopytov).
 *
 * It measures short critical sections spread over many mutexes: threads
 * mostly spin outside any lock and now and then take a random one of
 * `num` mutexes, so contention is rare and the cost is CPU time, cache
 * line transfers of the shared counter and, when two threads do meet on a
 * mutex, the futex wait/wake path.
 *
 * What follows sysbench: `threads` threads (default 1) pass a start
 * barrier; each does `locks` iterations of {pick a mutex at random out of
 * `num`; an empty loop of `loops` iterations; lock it; increment a global
 * counter; unlock}. The mutexes are padded apart by 256 bytes as in
 * sysbench; the global counter is shared and its increment is not atomic
 * (sysbench's counter is protected by whichever mutex was picked, i.e. by
 * none in particular). The empty loop keeps only a compiler barrier per
 * iteration, as sysbench 1.0's ck_pr_barrier(): no memory access. Each
 * thread's whole work is one event, as in sysbench ("one request per
 * thread"): `seconds` is sysbench's total time, from the barrier until the
 * last thread is joined, and `p95_latency_ms` is the 95th percentile
 * (nearest rank, exact) of the per-thread event times, so with threads=1
 * it is that thread's time and with few threads it is the slowest one.
 * The random mutex comes from a per-thread generator (xorshift64 here,
 * xoroshiro128+ in sysbench 1.0's sb_rand_uniform), never from rand():
 * older sysbench used rand(), whose internal lock serialised the threads,
 * so that the lock of the generator was measured instead of the mutexes.
 * Where we differ: sysbench's p95 comes from a log-bucketed histogram (a
 * bucket bound, slightly high); ours is the exact order statistic.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats/sort.h"
#include "util/array.h"
#include "util/timeutil.h"
#include "util/xalloc.h"
#include "workload/start_gate.h"
#include "workload/workload.h"
#include "workload/testing.h"

enum {
	MTX_PARAM_THREADS,
	MTX_PARAM_NUM,
	MTX_PARAM_LOCKS,
	MTX_PARAM_LOOPS,
	NR_MTX_PARAMS,
};

static const struct param_spec mtx_params[NR_MTX_PARAMS] = {
	[MTX_PARAM_THREADS] = { "threads", PARAM_INT, "1", 1, 4096, NULL,
		"threads (sysbench --threads)" },
	[MTX_PARAM_NUM] = { "num", PARAM_INT, "4096", 1, 1000000, NULL,
		"mutexes to pick from (sysbench --mutex-num)" },
	[MTX_PARAM_LOCKS] = { "locks", PARAM_INT, "50000", 1, 100000000, NULL,
		"lock/unlock iterations per thread (sysbench --mutex-locks)" },
	[MTX_PARAM_LOOPS] = { "loops", PARAM_INT, "10000", 0, 1000000000, NULL,
		"empty loop iterations before each lock (sysbench --mutex-loops)" },
};

static const struct metric_spec mtx_metrics[] = {
	{ "seconds", "s", BETTER_LOWER,
	  "time from the start barrier until all threads are done" },
	{ "p95_latency_ms", "ms", BETTER_LOWER,
	  "95th percentile of the per-thread event time (one event per thread)" },
};

/* sysbench's default --thread-stack-size. */
#define MTX_STACK_SIZE	(64 * 1024)

/* sysbench pads each mutex so that neighbours never share a cache line. */
struct padded_mutex {
	pthread_mutex_t mutex;
	char pad[256];
};

struct mutex_test {
	long nr_mutexes;
	long nr_locks;
	long nr_loops;
	struct padded_mutex *mutexes;
	_Atomic unsigned int global;	/* incremented with plain load + store */
	struct start_gate gate;
};

struct mtx_worker {
	struct mutex_test *test;
	uint64_t random;		/* xorshift64 state, never 0 */
	long locks_done;
	double seconds;			/* the thread's one event */
};

/* Lock iterations of the last run, all threads together: for the unit tests. */
static long mtx_last_locks;

long mutex_test_last_locks(void)
{
	return mtx_last_locks;
}

static int mtx_check(const struct param_value *values,
		     struct workload_needs *needs, struct error *err)
{
	needs->tasks = values[MTX_PARAM_THREADS].num + 1;
	needs->fds = 0;
	return 0;
}

static uint64_t xorshift64(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *state = x;
}

/* State kept in locals: neighbouring workers share cache lines. */
static void mtx_event(struct mtx_worker *w)
{
	struct mutex_test *t = w->test;
	uint64_t random = w->random;
	long n = 0;

	for (; n < t->nr_locks; n++) {
		pthread_mutex_t *m = &t->mutexes[xorshift64(&random) %
						 (uint64_t)t->nr_mutexes].mutex;
		unsigned int value;

		for (long i = 0; i < t->nr_loops; i++)
			__asm__ __volatile__("" ::: "memory");
		pthread_mutex_lock(m);
		/* sysbench's global_var++: racy on purpose, but no data race in C. */
		value = atomic_load_explicit(&t->global, memory_order_relaxed);
		atomic_store_explicit(&t->global, value + 1, memory_order_relaxed);
		pthread_mutex_unlock(m);
	}
	w->random = random;
	w->locks_done = n;
}

static void *mtx_worker_fn(void *arg)
{
	struct mtx_worker *w = arg;
	double start;

	if (!start_gate_arrive(&w->test->gate))
		return NULL;
	start = time_now();
	mtx_event(w);
	w->seconds = time_now() - start;
	return NULL;
}

/* Nearest-rank percentile: the smallest value with at least @p % at or below it. */
double mutex_percentile(double *values, long n, double p)
{
	long rank;

	sort_doubles(values, (size_t)n);
	rank = (long)((p / 100.0) * (double)n + 0.999999999);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return values[rank - 1];
}

static int mtx_measure(struct mutex_test *t, struct mtx_worker *workers, pthread_t *tids,
		       long threads, double *metrics, struct error *err)
{
	double *latencies;
	double start, elapsed;
	long locks = 0;

	if (start_gate_spawn(&t->gate, "mutex", threads, mtx_worker_fn, workers,
			     sizeof(*workers), MTX_STACK_SIZE, false, tids, err))
		return -1;
	latencies = xcalloc((size_t)threads, sizeof(*latencies));
	start_gate_open(&t->gate, threads, false, &start);
	for (long i = 0; i < threads; i++) {
		pthread_join(tids[i], NULL);
		latencies[i] = workers[i].seconds;
		locks += workers[i].locks_done;
	}
	elapsed = time_now() - start;
	mtx_last_locks = locks;
	metrics[0] = elapsed;
	metrics[1] = mutex_percentile(latencies, threads, 95.0) * 1e3;
	free(latencies);
	return 0;
}

static int mtx_run(const struct param_value *values, double *metrics,
		   struct error *err)
{
	long threads = values[MTX_PARAM_THREADS].num;
	struct mutex_test t = {
		.nr_mutexes = values[MTX_PARAM_NUM].num,
		.nr_locks = values[MTX_PARAM_LOCKS].num,
		.nr_loops = values[MTX_PARAM_LOOPS].num,
	};
	struct mtx_worker *workers = xcalloc((size_t)threads, sizeof(*workers));
	pthread_t *tids = xcalloc((size_t)threads, sizeof(*tids));
	uint64_t seed = (uint64_t)(time_now() * 1e9);
	int ret;

	t.mutexes = xcalloc((size_t)t.nr_mutexes, sizeof(*t.mutexes));
	for (long i = 0; i < t.nr_mutexes; i++)
		pthread_mutex_init(&t.mutexes[i].mutex, NULL);
	atomic_init(&t.global, 0);
	start_gate_init(&t.gate);
	for (long i = 0; i < threads; i++) {
		workers[i].test = &t;
		/* Distinct non-zero seeds, different every run as sysbench's. */
		workers[i].random = (seed ^ (0x9e3779b97f4a7c15ULL * (uint64_t)(i + 1))) | 1;
	}
	mtx_last_locks = 0;

	ret = mtx_measure(&t, workers, tids, threads, metrics, err);

	start_gate_destroy(&t.gate);
	for (long i = 0; i < t.nr_mutexes; i++)
		pthread_mutex_destroy(&t.mutexes[i].mutex);
	free(t.mutexes);
	free(workers);
	free(tids);
	return ret;
}

const struct workload workload_mutex = {
	.name = "mutex",
	.summary = "threads spin, then lock a random one of many mutexes "
		   "(sysbench mutex)",
	.params = mtx_params,
	.nr_params = NR_MTX_PARAMS,
	.metrics = mtx_metrics,
	.nr_metrics = ARRAY_SIZE(mtx_metrics),
	.check = mtx_check,
	.run = mtx_run,
};
