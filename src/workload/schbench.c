// SPDX-License-Identifier: GPL-2.0
/*
 * schbench: our implementation of schbench's default mode (Chris Mason,
 * github.com/masoncl/schbench; followed at commit 24e32b8ef67c of
 * 2025-12-23, "Merge pull request #10 from kkdwvd/split-ws"): wakeup and
 * request latency of worker pools fed by message threads, the way a
 * request-serving server uses the scheduler.
 *
 * What a request is, as in schbench:
 *  - each of `message_threads` message threads creates its own `workers`
 *    workers, then loops: mark its futex blocked, take the whole list of
 *    waiting workers, read the clock once and post every worker on it with
 *    that stamp, sleep on its futex until a worker posts it;
 *  - a worker marks its futex blocked, pushes itself on its message
 *    thread's lock-free list, posts the message thread and sleeps on its
 *    own futex (FUTEX_WAIT_PRIVATE; a post is a compare-and-swap from
 *    blocked to running, then FUTEX_WAKE). Its wakeup latency is from the
 *    message thread's stamp to when it runs: one stamp per list walk, so
 *    a waker preempted half way shows up as latency;
 *  - then it serves one request: usleep(sleep_us), the simulated network,
 *    then `work` naive multiplies of three square matrices of unsigned
 *    long filling cache_kb, holding the lock of the CPU it runs on
 *    (a pthread mutex taken by spinning on trylock, retaken if the worker
 *    migrated meanwhile), unless lock=none (schbench -L). The request
 *    latency is from before the sleep to after the work. The product
 *    accumulates in the result matrix itself, as schbench's does, so the
 *    compiled loop stores on every step: with a running sum in a register
 *    instead the work is about 10 % cheaper. The two input matrices are
 *    never written, as schbench's are not: reading them maps the kernel's
 *    zero page, and what the footprint costs in cache is the result matrix;
 *  - private_pct (schbench --split) moves 100 - private_pct % of the
 *    footprint and of the multiplies to one set of matrices that every
 *    worker shares;
 *  - latencies are whole microseconds, each end read from the clock and
 *    truncated to the microsecond as gettimeofday() does, and a latency of
 *    0 us is not recorded (schbench drops them too); percentiles use
 *    nearest rank over a log-linear histogram (stats/histogram.h, exact
 *    below 256 us, within 0.4 % above; schbench's is within 0.2 %);
 *  - the warm-up is the first `warmup` seconds of the `runtime`: latencies
 *    and per-second rps samples from it are dropped, requests are not:
 *    rps is every request completed in the runtime over the runtime,
 *    schbench's "average rps"; rps_p20/p50/p90 are percentiles of the
 *    requests completed in each whole second after the warm-up, the
 *    figures schbench prints under "RPS percentiles".
 *
 * Where we differ, none of which changes what a request costs: the clock
 * is CLOCK_MONOTONIC, not the wall clock; the runtime starts once every
 * worker exists and stops when it is up, so a request still in flight
 * then is neither counted nor recorded, and rps divides by the time
 * measured rather than by the nominal runtime; schbench ignores -w when
 * -r is below 30, we honour warmup at any runtime (give warmup=0 to
 * compare with such a schbench run); schbench's first RPS sample is a 0
 * taken as it starts, which is its 20th percentile in runs of under five
 * seconds: ours has no such sample; workers=0 shares out the CPUs this
 * process may run on (schbench: the CPUs online); the per-CPU locks cover
 * every configured CPU. Not implemented: schbench's -R/-A (requests per
 * second), -p (pipe), -C (calibrate), -M/-W (pinning: use taskset), -z/-i
 * (interim reports).
 *
 * Counted per request on this machine (perf stat over both, pinned to
 * the same 2 CPUs, 3 s runs, requests counted as usleep()s), the work is
 * schbench's: CPU time 3.3-3.8 ms per request for either at -m 1 -t 1 and
 * 4.1-5.3 ms at -m 1 -t 2; 3.7-4.3 context switches per request at
 * -m 1 -t 1 (4.7-5.8 at -t 2) and 3.1-3.8 futex calls on both sides.
 *
 * Where the multiplies' inner loop lies in memory moves what a request
 * costs: built with gcc 12 -O2 as its Makefile says, schbench's inner loop
 * (24 bytes) crosses a 64-byte boundary and its request p50 is 4 % longer
 * than the same source built with -falign-loops=64 (-m 1 -t 1 -r 5 on
 * this project's machines, the three interleaved: aligned/plain request
 * p50 0.957 and 0.958 in two sessions of 15 and 12 runs, rps 1.024 in
 * both). multiply() is aligned to 64 bytes so that where its inner loop
 * falls does not depend on the code before it (gcc 12 -O2: bytes 0x60-0x79
 * of the function, one cache line); ours against the aligned build: request
 * p50 0.997, rps 1.004 (12 runs; 1.001 and 0.991 before the alignment,
 * when the loop happened to fall in one line too). Compare with a schbench
 * whose loop is placed as well (bench/fidelity-schbench.sh says how).
 *
 * Parameters and schbench's flags: message_threads -m, workers -t,
 * runtime -r, warmup -w, sleep_us -s, cache_kb -F, work -n, lock=none -L,
 * private_pct --split; the defaults are schbench's.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>

#include "stats/histogram.h"
#include "util/array.h"
#include "util/timeutil.h"
#include "workload/workload.h"

enum {
	SB_PARAM_MESSAGE_THREADS,
	SB_PARAM_WORKERS,
	SB_PARAM_RUNTIME,
	SB_PARAM_WARMUP,
	SB_PARAM_SLEEP_US,
	SB_PARAM_CACHE_KB,
	SB_PARAM_WORK,
	SB_PARAM_LOCK,
	SB_PARAM_PRIVATE_PCT,
	NR_SB_PARAMS,
};

enum {
	SB_WAKEUP_P50, SB_WAKEUP_P90, SB_WAKEUP_P99, SB_WAKEUP_P999,
	SB_REQUEST_P50, SB_REQUEST_P90, SB_REQUEST_P99, SB_REQUEST_P999,
	SB_RPS,
	SB_RPS_P20, SB_RPS_P50, SB_RPS_P90,
	NR_SB_METRICS,
};

enum sb_lock { SB_LOCK_PERCPU, SB_LOCK_NONE };

static const char *const lock_choices[] = { "percpu", "none", NULL };

static const struct param_spec sb_params[NR_SB_PARAMS] = {
	[SB_PARAM_MESSAGE_THREADS] = { "message_threads", PARAM_INT, "1", 1, 1024, NULL,
		"message threads (schbench -m)" },
	[SB_PARAM_WORKERS] = { "workers", PARAM_INT, "0", 0, 8192, NULL,
		"workers per message thread (schbench -t; 0: the CPUs allowed "
		"divided among the message threads)" },
	[SB_PARAM_RUNTIME] = { "runtime", PARAM_INT, "30", 1, 86400, NULL,
		"seconds to run, the warm-up included (schbench -r)" },
	[SB_PARAM_WARMUP] = { "warmup", PARAM_INT, "0", 0, 86399, NULL,
		"first seconds of the runtime whose latencies are dropped (schbench -w)" },
	[SB_PARAM_SLEEP_US] = { "sleep_us", PARAM_INT, "100", 0, 1000000, NULL,
		"microseconds each request sleeps before its work (schbench -s)" },
	[SB_PARAM_CACHE_KB] = { "cache_kb", PARAM_INT, "256", 1, 262144, NULL,
		"KiB of matrices per worker (schbench -F)" },
	[SB_PARAM_WORK] = { "work", PARAM_INT, "5", 0, 100000, NULL,
		"matrix multiplies per request (schbench -n)" },
	[SB_PARAM_LOCK] = { "lock", PARAM_CHOICE, "percpu", 0, 0, lock_choices,
		"hold the running CPU's lock during the work, or none (schbench -L)" },
	[SB_PARAM_PRIVATE_PCT] = { "private_pct", PARAM_INT, "100", 0, 100, NULL,
		"percent of cache_kb and work private to each worker, the rest "
		"shared by all (schbench --split)" },
};

static const struct metric_spec sb_metrics[NR_SB_METRICS] = {
	[SB_WAKEUP_P50] = { "wakeup_p50", "usec", BETTER_LOWER, "median wakeup latency" },
	[SB_WAKEUP_P90] = { "wakeup_p90", "usec", BETTER_LOWER, "90th percentile wakeup latency" },
	[SB_WAKEUP_P99] = { "wakeup_p99", "usec", BETTER_LOWER, "99th percentile wakeup latency" },
	[SB_WAKEUP_P999] = { "wakeup_p999", "usec", BETTER_LOWER, "99.9th percentile wakeup latency" },
	[SB_REQUEST_P50] = { "request_p50", "usec", BETTER_LOWER, "median request latency" },
	[SB_REQUEST_P90] = { "request_p90", "usec", BETTER_LOWER, "90th percentile request latency" },
	[SB_REQUEST_P99] = { "request_p99", "usec", BETTER_LOWER, "99th percentile request latency" },
	[SB_REQUEST_P999] = { "request_p999", "usec", BETTER_LOWER, "99.9th percentile request latency" },
	[SB_RPS] = { "rps", "requests/s", BETTER_HIGHER,
		"requests completed per second of runtime (schbench's average rps)" },
	[SB_RPS_P20] = { "rps_p20", "requests/s", BETTER_HIGHER,
		"20th percentile of the requests completed in each second" },
	[SB_RPS_P50] = { "rps_p50", "requests/s", BETTER_HIGHER,
		"median of the requests completed in each second" },
	[SB_RPS_P90] = { "rps_p90", "requests/s", BETTER_HIGHER,
		"90th percentile of the requests completed in each second" },
};

enum { SB_BLOCKED, SB_RUNNING };
enum { SB_PHASE_WARMUP, SB_PHASE_MEASURE, SB_PHASE_STOP };

struct sb_msg;

struct sb_worker {
	int futex;			/* SB_BLOCKED while it sleeps */
	uint64_t wake_us;		/* stamped by the message thread before the post */
	struct sb_worker *next;		/* on the message thread's list */
	struct sb_msg *msg;
	unsigned long *matrices;	/* its private matrices, or NULL */
	uint64_t requests;		/* completed; read each second by the main thread */
	pthread_t thread;
	struct histogram wakeup;
	struct histogram request;
} __attribute__((aligned(64)));

struct sb_run;

struct sb_msg {
	int futex;
	struct sb_worker *list;		/* workers waiting for a wake */
	struct sb_worker *workers;
	int nr_workers;
	int created;			/* workers it managed to create */
	int create_error;		/* pthread_create's error, or 0 */
	struct sb_run *run;
	pthread_t thread;
} __attribute__((aligned(64)));

struct sb_cpu_lock {
	pthread_mutex_t mutex;
} __attribute__((aligned(64)));

/* The matrices of one request's work: @ops multiplies of @size x @size. */
struct sb_work {
	unsigned long size;
	unsigned long ops;
};

/* One iteration's state, shared by every thread. */
struct sb_run {
	int phase;			/* SB_PHASE_*, read by every worker */
	int started;			/* message threads done creating workers */
	unsigned long sleep_us;
	bool lock;
	struct sb_work private_work;
	struct sb_work shared_work;
	unsigned long *shared_matrices;	/* NULL unless shared_work has any */
	struct sb_cpu_lock *cpu_locks;
	int nr_cpu_locks;
	struct sb_msg *msgs;
	int nr_msgs;
	int nr_workers;			/* per message thread */
};

static long sb_workers(const struct param_value *values)
{
	long workers = values[SB_PARAM_WORKERS].num;
	long msgs = values[SB_PARAM_MESSAGE_THREADS].num;

	/* schbench -t default: the CPUs shared out, rounding up. */
	return workers ? workers : (workload_cpus_allowed() + msgs - 1) / msgs;
}

static int sb_check(const struct param_value *values,
		    struct workload_needs *needs, struct error *err)
{
	long msgs = values[SB_PARAM_MESSAGE_THREADS].num;
	long workers = sb_workers(values);

	if (msgs * workers > 65536)
		return error_set(err, EXIT_USAGE,
			"bad value for parameter 'workers': message_threads=%ld x workers=%ld "
			"is %ld threads, more than 65536 (give fewer)", msgs, workers,
			msgs * workers);
	if (values[SB_PARAM_WARMUP].num >= values[SB_PARAM_RUNTIME].num)
		return error_set(err, EXIT_USAGE,
			"bad value for parameter 'warmup': warmup=%ld is not shorter than "
			"runtime=%ld, which includes it as schbench's -r includes -w "
			"(give a shorter warmup or a longer runtime)",
			values[SB_PARAM_WARMUP].num, values[SB_PARAM_RUNTIME].num);
	needs->tasks = msgs * (workers + 1) + 1;
	needs->fds = 0;
	return 0;
}

/* schbench's matrix order: three square matrices of unsigned long in @kb KiB. */
static unsigned long matrix_order(long kb)
{
	return (unsigned long)sqrt((double)((unsigned long)kb * 1024 / 3 / sizeof(unsigned long)));
}

/* The memory a run writes: result matrices and each worker's histograms. */
static long sb_memory_kb(const struct param_value *values)
{
	long workers = values[SB_PARAM_MESSAGE_THREADS].num * sb_workers(values);
	long per_worker = values[SB_PARAM_CACHE_KB].num / 3 +
			  (long)(2 * sizeof(struct histogram) / 1024);

	return workers * per_worker + values[SB_PARAM_CACHE_KB].num / 3;
}

static void futex_wake_one(int *uaddr)
{
	syscall(SYS_futex, uaddr, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* Post: move a blocked futex to running and wake its sleeper. */
static void sb_post(int *futex)
{
	int blocked = SB_BLOCKED;

	if (__atomic_compare_exchange_n(futex, &blocked, SB_RUNNING, 0,
					__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		futex_wake_one(futex);
}

/* Wait until posted, consuming the post. */
static void sb_wait(int *futex)
{
	for (;;) {
		int running = SB_RUNNING;

		if (__atomic_compare_exchange_n(futex, &running, SB_BLOCKED, 0,
						__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
			return;
		syscall(SYS_futex, futex, FUTEX_WAIT_PRIVATE, SB_BLOCKED, NULL, NULL, 0);
	}
}

static uint64_t now_us(void)
{
	return time_now_ns() / 1000;
}

static void list_push(struct sb_msg *msg, struct sb_worker *w)
{
	struct sb_worker *head = __atomic_load_n(&msg->list, __ATOMIC_SEQ_CST);

	do
		w->next = head;
	while (!__atomic_compare_exchange_n(&msg->list, &head, w, 0,
					    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
}

/* Wake everyone waiting, with one time stamp for the whole walk. */
static void wake_waiting(struct sb_msg *msg)
{
	struct sb_worker *w = __atomic_exchange_n(&msg->list, NULL, __ATOMIC_SEQ_CST);
	uint64_t stamp = now_us();

	while (w) {
		struct sb_worker *next = w->next;

		w->next = NULL;
		w->wake_us = stamp;
		sb_post(&w->futex);
		w = next;
	}
}

static int phase_of(const struct sb_run *run)
{
	return __atomic_load_n(&run->phase, __ATOMIC_SEQ_CST);
}

/*
 * c = a x b the naive way, the sum kept in c[i][j] as schbench keeps it:
 * the compiler cannot tell c from a and b, so it stores every step.
 * noinline keeps the loop compiled on its own, as schbench's is; aligned
 * keeps its inner loop in one cache line (see the top of this file).
 */
static void __attribute__((noinline, aligned(64))) multiply(unsigned long *matrices,
							    unsigned long n)
{
	unsigned long *a = matrices, *b = matrices + n * n, *c = matrices + 2 * n * n;

	for (unsigned long i = 0; i < n; i++) {
		for (unsigned long j = 0; j < n; j++) {
			c[i * n + j] = 0;
			for (unsigned long k = 0; k < n; k++)
				c[i * n + j] += a[i * n + k] * b[k * n + j];
		}
	}
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

static int this_cpu(const struct sb_run *run)
{
	int cpu = sched_getcpu();

	return cpu >= 0 && cpu < run->nr_cpu_locks ? cpu : 0;
}

/*
 * schbench serialises the work of the workers on one CPU: a worker
 * preempted mid-request holds its CPU's lock, so the next one to run there
 * spins, and the preemption shows as request latency instead of hiding.
 */
static pthread_mutex_t *lock_this_cpu(const struct sb_run *run)
{
	for (;;) {
		int cpu = this_cpu(run);
		pthread_mutex_t *mutex = &run->cpu_locks[cpu].mutex;

		while (pthread_mutex_trylock(mutex))
			cpu_relax();
		if (this_cpu(run) == cpu)
			return mutex;
		/* Migrated while waiting: this CPU's lock is the wrong one. */
		pthread_mutex_unlock(mutex);
	}
}

static void do_work(unsigned long *matrices, const struct sb_work *work)
{
	if (!matrices || !work->size)
		return;
	for (unsigned long i = 0; i < work->ops; i++)
		multiply(matrices, work->size);
}

static void serve_request(struct sb_worker *w, const struct sb_run *run)
{
	pthread_mutex_t *mutex = NULL;

	if (run->sleep_us)
		usleep((useconds_t)run->sleep_us);
	if (run->lock)
		mutex = lock_this_cpu(run);
	do_work(run->shared_matrices, &run->shared_work);
	do_work(w->matrices, &run->private_work);
	if (mutex)
		pthread_mutex_unlock(mutex);
}

/* Ask the message thread for a wake and sleep until it comes. */
static void wait_for_message(struct sb_worker *w, const struct sb_run *run)
{
	__atomic_store_n(&w->futex, SB_BLOCKED, __ATOMIC_SEQ_CST);
	list_push(w->msg, w);
	sb_post(&w->msg->futex);
	/* After STOP the message thread may be gone: do not sleep. */
	if (phase_of(run) != SB_PHASE_STOP)
		sb_wait(&w->futex);
}

/* Record @us unless 0, and only while measuring. */
static void record(struct histogram *h, const struct sb_run *run, uint64_t us)
{
	if (us > 0 && phase_of(run) == SB_PHASE_MEASURE)
		histogram_add(h, us);
}

static void *worker_thread(void *arg)
{
	struct sb_worker *w = arg;
	const struct sb_run *run = w->msg->run;

	while (phase_of(run) != SB_PHASE_STOP) {
		uint64_t start;

		wait_for_message(w, run);
		start = now_us();
		if (phase_of(run) == SB_PHASE_STOP)
			break;
		record(&w->wakeup, run, start > w->wake_us ? start - w->wake_us : 0);
		serve_request(w, run);
		__atomic_store_n(&w->requests, w->requests + 1, __ATOMIC_RELAXED);
		record(&w->request, run, now_us() - start);
	}
	return NULL;
}

static void stop_workers(struct sb_msg *msg)
{
	for (int i = 0; i < msg->created; i++)
		sb_post(&msg->workers[i].futex);
	for (int i = 0; i < msg->created; i++)
		pthread_join(msg->workers[i].thread, NULL);
}

static void *message_thread(void *arg)
{
	struct sb_msg *msg = arg;
	struct sb_run *run = msg->run;

	/* Like schbench, the message thread creates its own workers. */
	for (; msg->created < msg->nr_workers; msg->created++) {
		struct sb_worker *w = &msg->workers[msg->created];

		msg->create_error = pthread_create(&w->thread, NULL, worker_thread, w);
		if (msg->create_error)
			break;
	}
	__atomic_add_fetch(&run->started, 1, __ATOMIC_SEQ_CST);
	for (;;) {
		__atomic_store_n(&msg->futex, SB_BLOCKED, __ATOMIC_SEQ_CST);
		wake_waiting(msg);
		if (phase_of(run) == SB_PHASE_STOP)
			break;
		sb_wait(&msg->futex);
	}
	wake_waiting(msg);
	stop_workers(msg);
	return NULL;
}

static size_t matrices_bytes(unsigned long order)
{
	return 3 * order * order * sizeof(unsigned long);
}

/*
 * Fresh anonymous memory, as schbench's malloc() of these sizes gets:
 * the input matrices are read, never written, so they stay the zero page.
 */
static unsigned long *map_matrices(unsigned long order, bool *failed)
{
	void *p;

	if (!order)
		return NULL;
	p = mmap(NULL, matrices_bytes(order), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		*failed = true;
		return NULL;
	}
	return p;
}

static void unmap_matrices(unsigned long *matrices, unsigned long order)
{
	if (matrices)
		munmap(matrices, matrices_bytes(order));
}

static void free_run(struct sb_run *run)
{
	for (int m = 0; run->msgs && m < run->nr_msgs; m++) {
		struct sb_worker *workers = run->msgs[m].workers;

		for (int i = 0; workers && i < run->nr_workers; i++)
			unmap_matrices(workers[i].matrices, run->private_work.size);
		free(workers);
	}
	unmap_matrices(run->shared_matrices, run->shared_work.size);
	if (run->cpu_locks)
		for (int i = 0; i < run->nr_cpu_locks; i++)
			pthread_mutex_destroy(&run->cpu_locks[i].mutex);
	free(run->msgs);
	free(run->cpu_locks);
}

static void *zalloc_aligned(size_t nmemb, size_t size)
{
	void *p = aligned_alloc(64, nmemb * size);

	if (p)
		memset(p, 0, nmemb * size);
	return p;
}

static bool alloc_workers(struct sb_run *run, struct sb_msg *msg)
{
	bool failed = false;

	msg->run = run;
	msg->nr_workers = run->nr_workers;
	msg->workers = zalloc_aligned((size_t)run->nr_workers, sizeof(*msg->workers));
	if (!msg->workers)
		return false;
	for (int i = 0; i < msg->nr_workers && !failed; i++) {
		struct sb_worker *w = &msg->workers[i];

		w->msg = msg;
		histogram_init(&w->wakeup);
		histogram_init(&w->request);
		w->matrices = map_matrices(run->private_work.size, &failed);
	}
	return !failed;
}

static int alloc_run(struct sb_run *run, long nr_msgs, struct error *err)
{
	bool failed = false;

	run->nr_cpu_locks = get_nprocs_conf() > 0 ? get_nprocs_conf() : 1;
	run->cpu_locks = zalloc_aligned((size_t)run->nr_cpu_locks, sizeof(*run->cpu_locks));
	run->msgs = zalloc_aligned((size_t)nr_msgs, sizeof(*run->msgs));
	if (!run->cpu_locks || !run->msgs)
		goto nomem;
	for (int i = 0; i < run->nr_cpu_locks; i++)
		pthread_mutex_init(&run->cpu_locks[i].mutex, NULL);
	run->shared_matrices = map_matrices(run->shared_work.size, &failed);
	if (failed)
		goto nomem;
	run->nr_msgs = (int)nr_msgs;
	for (int m = 0; m < run->nr_msgs; m++)
		if (!alloc_workers(run, &run->msgs[m]))
			goto nomem;
	return 0;
nomem:
	free_run(run);
	return error_set(err, EXIT_ENV,
		"schbench: out of memory for %ld x %d workers with cache_kb matrices "
		"(give fewer workers or a smaller cache_kb)", nr_msgs, run->nr_workers);
}

/* Stop and join the first @nr message threads (and so their workers). */
static void stop_messages(struct sb_run *run, int nr)
{
	__atomic_store_n(&run->phase, SB_PHASE_STOP, __ATOMIC_SEQ_CST);
	for (int m = 0; m < nr; m++)
		sb_post(&run->msgs[m].futex);
	for (int m = 0; m < nr; m++)
		pthread_join(run->msgs[m].thread, NULL);
}

/* Start every message thread; each creates its workers before it counts in. */
static int start_messages(struct sb_run *run, struct error *err)
{
	int created = 0, ret = 0, failed = 0;

	for (; created < run->nr_msgs; created++) {
		ret = pthread_create(&run->msgs[created].thread, NULL, message_thread,
				     &run->msgs[created]);
		if (ret)
			break;
	}
	while (__atomic_load_n(&run->started, __ATOMIC_SEQ_CST) < created)
		time_sleep_until(time_now() + 0.001);
	for (int m = 0; m < created && !failed; m++)
		if (run->msgs[m].create_error)
			failed = run->msgs[m].create_error;
	if (!ret && !failed)
		return 0;
	stop_messages(run, created);
	return error_set(err, EXIT_ENV,
		"schbench: cannot create a %s thread: %s (raise the task limit, ulimit -u, "
		"or kernel.threads-max)", ret ? "message" : "worker", strerror(ret ? ret : failed));
}

static uint64_t requests_so_far(const struct sb_run *run)
{
	uint64_t requests = 0;

	for (int m = 0; m < run->nr_msgs; m++)
		for (int i = 0; i < run->nr_workers; i++)
			requests += __atomic_load_n(&run->msgs[m].workers[i].requests,
						    __ATOMIC_RELAXED);
	return requests;
}

/*
 * The main thread's part, as schbench's: wake every second, count the
 * requests done in it, switch from warm-up to measuring when it is over.
 * Returns the requests per second over the whole runtime.
 */
static double pace_runtime(struct sb_run *run, long runtime, long warmup,
			   struct histogram *rps)
{
	double start = time_now(), last = start, now = start;
	uint64_t first = requests_so_far(run), before = first, done = first;

	__atomic_store_n(&run->phase, warmup ? SB_PHASE_WARMUP : SB_PHASE_MEASURE,
			 __ATOMIC_SEQ_CST);
	for (long second = 1; second <= runtime; second++) {
		time_sleep_until(start + (double)second);
		done = requests_so_far(run);
		now = time_now();
		if (second > warmup)
			histogram_add(rps, (uint64_t)((double)(done - before) / (now - last)));
		if (second == warmup)
			__atomic_store_n(&run->phase, SB_PHASE_MEASURE, __ATOMIC_SEQ_CST);
		before = done;
		last = now;
	}
	return (double)(done - first) / (now - start);
}

static void fill_metrics(const struct sb_run *run, const struct histogram *rps,
			 struct histogram *wakeup, struct histogram *request,
			 double *metrics)
{
	static const double latency_pcts[] = { 50, 90, 99, 99.9 };
	static const double rps_pcts[] = { 20, 50, 90 };

	histogram_init(wakeup);
	histogram_init(request);
	for (int m = 0; m < run->nr_msgs; m++) {
		for (int i = 0; i < run->nr_workers; i++) {
			histogram_merge(wakeup, &run->msgs[m].workers[i].wakeup);
			histogram_merge(request, &run->msgs[m].workers[i].request);
		}
	}
	for (size_t p = 0; p < ARRAY_SIZE(latency_pcts); p++) {
		metrics[SB_WAKEUP_P50 + p] = histogram_percentile(wakeup, latency_pcts[p]);
		metrics[SB_REQUEST_P50 + p] = histogram_percentile(request, latency_pcts[p]);
	}
	for (size_t p = 0; p < ARRAY_SIZE(rps_pcts); p++)
		metrics[SB_RPS_P20 + p] = histogram_percentile(rps, rps_pcts[p]);
}

/* schbench --split: private_pct of the footprint and of the work per worker. */
static void split_work(struct sb_run *run, const struct param_value *values)
{
	long kb = values[SB_PARAM_CACHE_KB].num, pct = values[SB_PARAM_PRIVATE_PCT].num;
	unsigned long work = (unsigned long)values[SB_PARAM_WORK].num;

	run->private_work.size = matrix_order(kb * pct / 100);
	run->private_work.ops = work * (unsigned long)pct / 100;
	run->shared_work.size = matrix_order(kb * (100 - pct) / 100);
	run->shared_work.ops = work - run->private_work.ops;
	if (!run->shared_work.ops)
		run->shared_work.size = 0;
}

static int sb_run(const struct param_value *values, double *metrics,
		  struct error *err)
{
	struct sb_run run = {
		.phase = SB_PHASE_WARMUP,
		.sleep_us = (unsigned long)values[SB_PARAM_SLEEP_US].num,
		.lock = values[SB_PARAM_LOCK].num == SB_LOCK_PERCPU,
		.nr_workers = (int)sb_workers(values),
	};
	struct histogram *hists = malloc(3 * sizeof(*hists));

	for (int i = 0; i < NR_SB_METRICS; i++)
		metrics[i] = NAN;
	if (!hists)
		return error_set(err, EXIT_ENV, "schbench: out of memory for its histograms "
				 "(free some memory)");
	histogram_init(&hists[0]);
	split_work(&run, values);
	if (alloc_run(&run, values[SB_PARAM_MESSAGE_THREADS].num, err)) {
		free(hists);
		return -1;
	}
	if (start_messages(&run, err)) {
		free_run(&run);
		free(hists);
		return -1;
	}
	metrics[SB_RPS] = pace_runtime(&run, values[SB_PARAM_RUNTIME].num,
				       values[SB_PARAM_WARMUP].num, &hists[0]);
	/* Workers record nothing once STOP is set: the clock stops here. */
	stop_messages(&run, run.nr_msgs);
	fill_metrics(&run, &hists[0], &hists[1], &hists[2], metrics);
	free_run(&run);
	free(hists);
	return 0;
}

const struct workload workload_schbench = {
	.name = "schbench",
	.summary = "message threads wake worker pools: wakeup and request latency "
		   "percentiles, requests/s (schbench)",
	.params = sb_params,
	.nr_params = NR_SB_PARAMS,
	.metrics = sb_metrics,
	.nr_metrics = NR_SB_METRICS,
	.check = sb_check,
	.memory_kb = sb_memory_kb,
	.run = sb_run,
};
