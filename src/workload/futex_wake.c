// SPDX-License-Identifier: GPL-2.0
/*
 * futex-wake: our implementation of `perf bench futex wake` and
 * `perf bench futex wake-parallel` (Davidlohr Bueso).
 *
 * It measures how long the kernel takes to wake a crowd of threads blocked
 * on one futex: every wake call finds a non-empty wait queue on one hash
 * bucket, so it tracks futex_wake() and the wakeup path (try_to_wake_up,
 * select_task_rq, the IPIs to idle CPUs).
 *
 * What follows perf (tools/perf/bench/futex-wake.c, futex-wake-parallel.c):
 *  - each repetition creates `threads` threads with default attributes as
 *    perf does (default stack size too), pinned round-robin over the
 *    CPUs (perf: all online CPUs; we: the CPUs this process may use), that
 *    pass a start barrier and block in FUTEX_WAIT on one futex word (private
 *    unless shared=1); the caller then sleeps 100 ms so that all are queued;
 *  - wakers=0 (perf wake): the caller loops FUTEX_WAKE of `nwakes` threads
 *    until all are woken; the time is that loop;
 *  - wakers=W (perf wake-parallel -w W): W unpinned threads pass a barrier
 *    and each wakes threads/W with one FUTEX_WAKE; a repetition's time is
 *    the mean of the wakers' own times, as perf reports; threads must be a
 *    multiple of W (perf: "Must be perfectly divisible");
 *  - only the waking is timed; the threads are joined and recreated for the
 *    next repetition.
 * Where we differ: perf keeps only the microseconds field of its timeval
 * (a wake slower than one second wraps); we keep the whole time. One
 * iteration runs `repeat` repetitions and records each as its own sample
 * of `wake_ms`, so that compare sees every wake, not only the mean perf
 * prints (the mean, and the slowest as Max, are in its table). Should a
 * parallel waker find
 * fewer queued threads than its share (perf only warns and then hangs in
 * join), the rest are woken untimed so that the run ends.
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/array.h"
#include "util/timeutil.h"
#include "util/xalloc.h"
#include "workload/workload.h"
#include "workload/testing.h"

enum {
	FW_PARAM_THREADS,
	FW_PARAM_NWAKES,
	FW_PARAM_WAKERS,
	FW_PARAM_SHARED,
	FW_PARAM_REPEAT,
	NR_FW_PARAMS,
};

static const struct param_spec fw_params[NR_FW_PARAMS] = {
	[FW_PARAM_THREADS] = { "threads", PARAM_INT, "0", 0, 4096, NULL,
		"threads blocked on the futex; 0 = one per CPU allowed (perf -t)" },
	[FW_PARAM_NWAKES] = { "nwakes", PARAM_INT, "1", 1, 1000000, NULL,
		"threads woken per call by the serial waker (perf wake -w); "
		"unused with wakers > 0" },
	[FW_PARAM_WAKERS] = { "wakers", PARAM_INT, "0", 0, 4096, NULL,
		"0: one serial waker; W: W parallel wakers, each waking "
		"threads/W at once (perf wake-parallel -w)" },
	[FW_PARAM_SHARED] = { "shared", PARAM_INT, "0", 0, 1, NULL,
		"1: shared futex instead of private (perf -S)" },
	[FW_PARAM_REPEAT] = { "repeat", PARAM_INT, "10", 1, 1000, NULL,
		"repetitions per iteration; threads are recreated for each (perf -r)" },
};

static const struct metric_spec fw_metrics[] = {
	{ "wake_ms", "ms", BETTER_LOWER,
	  "time to wake all threads; one sample per repetition" },
};


/* A start barrier that can also be opened to send everyone home. */
struct gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	long arrived;
	bool open;
	bool abort;
};

struct futex_wake {
	uint32_t futex;			/* never changes: FUTEX_WAIT always blocks */
	int flag;			/* FUTEX_PRIVATE_FLAG or 0 */
	long nr_threads;
	long nwakes;
	long nr_wakers;
	int *cpus;			/* the CPUs allowed, for round-robin pinning */
	int nr_cpus;
	struct gate gate;
	pthread_t *blocked;
	atomic_long woken;		/* threads back from FUTEX_WAIT, this repetition */
	long total_woken;		/* over all repetitions */
	long total_wake_returns;	/* sum of FUTEX_WAKE results, timed part */
};

struct waker {
	struct futex_wake *fw;
	struct gate *gate;
	pthread_t thread;
	long nwoken;
	double seconds;
};

/* What the last run counted, for the unit tests. */
static long fw_last_woken, fw_last_wake_returns;

void futex_wake_test_last_counts(long *woken, long *wake_returns)
{
	*woken = fw_last_woken;
	*wake_returns = fw_last_wake_returns;
}

static long fw_threads(const struct param_value *values)
{
	long threads = values[FW_PARAM_THREADS].num;

	return threads ? threads : workload_cpus_allowed();
}

static int fw_check(const struct param_value *values,
		    struct workload_needs *needs, struct error *err)
{
	long threads = fw_threads(values);
	long wakers = values[FW_PARAM_WAKERS].num;

	needs->tasks = threads + wakers + 1;
	needs->fds = 0;
	if (wakers > threads)
		return error_set(err, EXIT_USAGE,
			"bad value for parameter 'wakers': %ld wakers for %ld threads "
			"(give wakers <= threads)", wakers, threads);
	if (wakers && threads % wakers)
		return error_set(err, EXIT_USAGE,
			"bad value for parameter 'wakers': %ld threads cannot be split "
			"evenly over %ld wakers (give threads a multiple of wakers)",
			threads, wakers);
	return 0;
}

static long sys_futex(uint32_t *uaddr, int op, uint32_t val)
{
	return syscall(SYS_futex, uaddr, op, val, NULL, NULL, 0);
}

static void gate_init(struct gate *g)
{
	pthread_mutex_init(&g->lock, NULL);
	pthread_cond_init(&g->cond, NULL);
	g->arrived = 0;
	g->open = g->abort = false;
}

static void gate_destroy(struct gate *g)
{
	pthread_cond_destroy(&g->cond);
	pthread_mutex_destroy(&g->lock);
}

/* Arrive and wait for the gate to open; false when sent home. */
static bool gate_pass(struct gate *g)
{
	bool go;

	pthread_mutex_lock(&g->lock);
	g->arrived++;
	pthread_cond_broadcast(&g->cond);
	while (!g->open)
		pthread_cond_wait(&g->cond, &g->lock);
	go = !g->abort;
	pthread_mutex_unlock(&g->lock);
	return go;
}

static void gate_wait_all(struct gate *g, long n)
{
	pthread_mutex_lock(&g->lock);
	while (g->arrived < n)
		pthread_cond_wait(&g->cond, &g->lock);
	pthread_mutex_unlock(&g->lock);
}

static void gate_open(struct gate *g, bool abort)
{
	pthread_mutex_lock(&g->lock);
	g->open = true;
	g->abort = abort;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

static void *blocked_fn(void *arg)
{
	struct futex_wake *fw = arg;

	if (!gate_pass(&fw->gate))
		return NULL;
	while (sys_futex(&fw->futex, FUTEX_WAIT | fw->flag, 0) && errno == EINTR)
		;
	atomic_fetch_add(&fw->woken, 1);
	/*
	 * perf's threads end with pthread_exit(), whose forced unwinding is
	 * far costlier than a return; a woken thread that preempts the waker
	 * on its CPU does this inside the timed window, so do the same.
	 */
	pthread_exit(NULL);
}

static void *exit_fn(void *arg)
{
	pthread_exit(NULL);
}

/*
 * glibc loads the unwinder (libgcc_s) with dlopen() at the first
 * pthread_exit() of a process; perf is linked with it already. Load it
 * before anything is timed, or the first repetition measures a dlopen().
 */
static void load_unwinder(void)
{
	pthread_t thread;

	if (!pthread_create(&thread, NULL, exit_fn, NULL))
		pthread_join(thread, NULL);
}

static void *waker_fn(void *arg)
{
	struct waker *w = arg;
	long share = w->fw->nr_threads / w->fw->nr_wakers;
	double start;
	long ret;

	if (!gate_pass(w->gate))
		return NULL;
	start = time_now();
	ret = sys_futex(&w->fw->futex, FUTEX_WAKE | w->fw->flag, (uint32_t)share);
	w->seconds = time_now() - start;
	w->nwoken = ret > 0 ? ret : 0;
	return NULL;
}

/* Wake whoever is still blocked, untimed: the way out of every path. */
static void wake_everyone(struct futex_wake *fw, long started)
{
	while (atomic_load(&fw->woken) < started) {
		sys_futex(&fw->futex, FUTEX_WAKE | fw->flag, INT_MAX);
		sched_yield();
	}
}

static int thread_error(struct error *err, const char *what, long nr, long of, int ret)
{
	return error_set(err, EXIT_ENV,
		"futex-wake: cannot create %s thread %ld of %ld: %s (raise the task "
		"limit: ulimit -u, or sysctl kernel.threads-max)", what, nr, of,
		strerror(ret));
}

/* Create the blocked threads, pinned round-robin; all pass the gate or none. */
static int block_threads(struct futex_wake *fw, struct error *err)
{
	pthread_attr_t attr;
	long created = 0;
	int ret = 0;

	gate_init(&fw->gate);
	atomic_store(&fw->woken, 0);
	pthread_attr_init(&attr);
	for (; created < fw->nr_threads; created++) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(fw->cpus[created % fw->nr_cpus], &set);
		pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		ret = pthread_create(&fw->blocked[created], &attr, blocked_fn, fw);
		if (ret)
			break;
	}
	pthread_attr_destroy(&attr);
	if (ret) {
		gate_open(&fw->gate, true);
		for (long i = 0; i < created; i++)
			pthread_join(fw->blocked[i], NULL);
		gate_destroy(&fw->gate);
		return thread_error(err, "blocked", created + 1, fw->nr_threads, ret);
	}
	gate_wait_all(&fw->gate, fw->nr_threads);
	gate_open(&fw->gate, false);
	return 0;
}

static double wake_serial(struct futex_wake *fw)
{
	long nwoken = 0;
	double start = time_now();

	while (nwoken < fw->nr_threads) {
		long ret = sys_futex(&fw->futex, FUTEX_WAKE | fw->flag, (uint32_t)fw->nwakes);

		if (ret > 0)
			nwoken += ret;
	}
	fw->total_wake_returns += nwoken;
	return time_now() - start;
}

/* Returns the mean of the wakers' times, or -1 with @err filled. */
static double wake_parallel(struct futex_wake *fw, struct error *err)
{
	struct waker *wakers = xcalloc((size_t)fw->nr_wakers, sizeof(*wakers));
	struct gate gate;
	pthread_attr_t attr;
	double sum = 0;
	long created = 0;
	int ret = 0;

	gate_init(&gate);
	pthread_attr_init(&attr);
	for (; created < fw->nr_wakers; created++) {
		wakers[created] = (struct waker){ .fw = fw, .gate = &gate };
		ret = pthread_create(&wakers[created].thread, &attr, waker_fn,
				     &wakers[created]);
		if (ret)
			break;
	}
	pthread_attr_destroy(&attr);
	if (!ret)
		gate_wait_all(&gate, fw->nr_wakers);
	gate_open(&gate, ret != 0);
	for (long i = 0; i < created; i++) {
		pthread_join(wakers[i].thread, NULL);
		sum += wakers[i].seconds;
		fw->total_wake_returns += wakers[i].nwoken;
	}
	gate_destroy(&gate);
	free(wakers);
	if (ret)
		return thread_error(err, "waker", created + 1, fw->nr_wakers, ret);
	return sum / (double)fw->nr_wakers;
}

/* One repetition: block, wait for all to queue, wake (timed), join. */
static int fw_repetition(struct futex_wake *fw, double *seconds, struct error *err)
{
	int ret = 0;

	if (block_threads(fw, err))
		return -1;
	/* perf's way to be sure every thread is queued in FUTEX_WAIT. */
	usleep(100000);
	if (fw->nr_wakers)
		*seconds = wake_parallel(fw, err);
	else
		*seconds = wake_serial(fw);
	if (*seconds < 0)
		ret = -1;
	wake_everyone(fw, fw->nr_threads);
	for (long i = 0; i < fw->nr_threads; i++)
		pthread_join(fw->blocked[i], NULL);
	fw->total_woken += atomic_load(&fw->woken);
	gate_destroy(&fw->gate);
	return ret;
}

static void allowed_cpus(struct futex_wake *fw)
{
	cpu_set_t set;

	fw->cpus = xcalloc(CPU_SETSIZE, sizeof(*fw->cpus));
	fw->nr_cpus = 0;
	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
			if (CPU_ISSET(cpu, &set))
				fw->cpus[fw->nr_cpus++] = cpu;
	if (!fw->nr_cpus)
		fw->cpus[fw->nr_cpus++] = 0;
}

static int fw_run(const struct param_value *values, double *metrics,
		  struct error *err)
{
	long repeat = values[FW_PARAM_REPEAT].num;
	struct futex_wake *fw = xcalloc(1, sizeof(*fw));
	int ret = 0;

	fw->nr_threads = fw_threads(values);
	fw->nwakes = values[FW_PARAM_NWAKES].num;
	fw->nr_wakers = values[FW_PARAM_WAKERS].num;
	fw->flag = values[FW_PARAM_SHARED].num ? 0 : FUTEX_PRIVATE_FLAG;
	fw->blocked = xcalloc((size_t)fw->nr_threads, sizeof(*fw->blocked));
	atomic_init(&fw->woken, 0);
	allowed_cpus(fw);
	load_unwinder();

	for (long rep = 0; rep < repeat && !ret; rep++) {
		double seconds = 0;

		ret = fw_repetition(fw, &seconds, err);
		metrics[rep] = seconds * 1e3;
	}
	fw_last_woken = fw->total_woken;
	fw_last_wake_returns = fw->total_wake_returns;
	free(fw->cpus);
	free(fw->blocked);
	free(fw);
	return ret ? -1 : 0;
}

static int fw_repetitions(const struct param_value *values)
{
	return (int)values[FW_PARAM_REPEAT].num;
}

const struct workload workload_futex_wake = {
	.name = "futex-wake",
	.summary = "wake threads blocked on one futex, serially or in parallel "
		   "(perf bench futex wake, wake-parallel)",
	.params = fw_params,
	.nr_params = NR_FW_PARAMS,
	.metrics = fw_metrics,
	.nr_metrics = ARRAY_SIZE(fw_metrics),
	.check = fw_check,
	.repetitions = fw_repetitions,
	.run = fw_run,
};
