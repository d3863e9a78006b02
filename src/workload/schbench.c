// SPDX-License-Identifier: GPL-2.0
/*
 * schbench: our implementation of schbench's default mode (Chris Mason,
 * github.com/masoncl/schbench): wakeup latency and request latency of a
 * pool of workers fed by message threads, the way a request-serving
 * server uses the scheduler.
 *
 * As in schbench: each of `message_threads` message threads creates its own
 * `workers` worker threads. A worker marks its futex blocked, puts itself on
 * its message thread's lock-free list, posts the message thread's futex and
 * sleeps on its own. The message thread takes the whole list, reads the
 * clock once and wakes every worker on it, stamping that time in each; a
 * woken worker's wakeup latency is the time from that stamp to when it runs
 * (one stamp per list walk, so a waker that is preempted half way shows up
 * as latency, which is what schbench wants). Then the worker serves one
 * request: usleep(sleep_us) (simulated network) and `work` naive matrix
 * multiplies over its three cache_kb/3 matrices, under a per-CPU lock as
 * schbench does by default; the request latency is from before the sleep
 * to after the work. rps is requests completed per second of measurement.
 *
 * Where we differ: time is CLOCK_MONOTONIC in nanoseconds (schbench: gettimeofday,
 * microseconds); the first `warmup` seconds are not recorded at all instead
 * of zeroing shared counters while workers write them (schbench also drops
 * its warm-up below 30 s of runtime; we always honour it), and `runtime`
 * counts after the warm-up; each worker writes its matrices before the
 * clock starts, so that the footprint is real memory (schbench's input
 * matrices stay unwritten, i.e. the shared zero page).
 *
 * Percentiles come from a log-linear histogram (stats/histogram.h) whose
 * reported values are within 1/256 (0.4 %) of the exact nearest-rank
 * percentile of the recorded latencies.
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>

#include "stats/histogram.h"
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
	NR_SB_PARAMS,
};

enum {
	SB_WAKEUP_P50, SB_WAKEUP_P90, SB_WAKEUP_P99, SB_WAKEUP_P999,
	SB_REQUEST_P50, SB_REQUEST_P90, SB_REQUEST_P99, SB_REQUEST_P999,
	SB_RPS,
	NR_SB_METRICS,
};

static const struct param_spec sb_params[NR_SB_PARAMS] = {
	[SB_PARAM_MESSAGE_THREADS] = { "message_threads", PARAM_INT, "1", 1, 1024, NULL,
		"message threads (schbench -m)" },
	[SB_PARAM_WORKERS] = { "workers", PARAM_INT, "0", 0, 8192, NULL,
		"workers per message thread (schbench -t; 0: the CPUs allowed "
		"divided among the message threads)" },
	[SB_PARAM_RUNTIME] = { "runtime", PARAM_INT, "10", 1, 86400, NULL,
		"seconds measured, after the warm-up (schbench -r)" },
	[SB_PARAM_WARMUP] = { "warmup", PARAM_INT, "2", 0, 3600, NULL,
		"seconds run first and not recorded (schbench -w)" },
	[SB_PARAM_SLEEP_US] = { "sleep_us", PARAM_INT, "100", 0, 1000000, NULL,
		"microseconds each request sleeps (schbench -s)" },
	[SB_PARAM_CACHE_KB] = { "cache_kb", PARAM_INT, "256", 1, 262144, NULL,
		"KiB of matrices per worker (schbench -F)" },
	[SB_PARAM_WORK] = { "work", PARAM_INT, "5", 0, 100000, NULL,
		"matrix multiplies per request (schbench -n)" },
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
	[SB_RPS] = { "rps", "requests/s", BETTER_HIGHER, "requests completed per second" },
};

enum { SB_BLOCKED, SB_RUNNING };
enum { SB_PHASE_WARMUP, SB_PHASE_MEASURE, SB_PHASE_STOP };

struct sb_msg;

struct sb_worker {
	int futex;			/* SB_BLOCKED while it sleeps */
	uint64_t wake_ns;		/* stamped by the message thread before the post */
	struct sb_worker *next;		/* on the message thread's list */
	struct sb_msg *msg;
	unsigned long *matrix;		/* three size x size matrices */
	uint64_t requests;		/* completed while measuring */
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
	int locked;
} __attribute__((aligned(64)));

/* One iteration's state, shared by every thread. */
struct sb_run {
	int phase;			/* SB_PHASE_*, read by every worker */
	int started;			/* message threads done creating workers */
	unsigned long sleep_us;
	unsigned long work;
	unsigned long matrix_size;
	struct sb_cpu_lock *cpu_locks;
	int nr_cpu_locks;
	struct sb_msg *msgs;
	int nr_msgs;
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
	needs->tasks = msgs * (workers + 1) + 1;
	needs->fds = 0;
	return 0;
}

/* Every worker multiplies its own cache_kb of matrices. */
static long sb_memory_kb(const struct param_value *values)
{
	return values[SB_PARAM_MESSAGE_THREADS].num * sb_workers(values) *
	       values[SB_PARAM_CACHE_KB].num;
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
	uint64_t stamp = time_now_ns();

	while (w) {
		struct sb_worker *next = w->next;

		w->next = NULL;
		w->wake_ns = stamp;
		sb_post(&w->futex);
		w = next;
	}
}

static int phase_of(const struct sb_run *run)
{
	return __atomic_load_n(&run->phase, __ATOMIC_SEQ_CST);
}

static void multiply(const struct sb_run *run, unsigned long *matrix)
{
	unsigned long n = run->matrix_size;
	unsigned long *a = matrix, *b = matrix + n * n, *c = matrix + 2 * n * n;

	for (unsigned long i = 0; i < n; i++) {
		for (unsigned long j = 0; j < n; j++) {
			unsigned long sum = 0;

			for (unsigned long k = 0; k < n; k++)
				sum += a[i * n + k] * b[k * n + j];
			c[i * n + j] = sum;
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

/*
 * schbench serialises the work of the workers on one CPU with a per-CPU
 * lock taken by spinning, so that a worker preempted mid-request shows
 * as request latency of the others instead of being hidden.
 */
static struct sb_cpu_lock *lock_this_cpu(const struct sb_run *run)
{
	for (;;) {
		int cpu = sched_getcpu(), unlocked = 0;
		struct sb_cpu_lock *lock;

		if (cpu < 0 || cpu >= run->nr_cpu_locks)
			cpu = 0;
		lock = &run->cpu_locks[cpu];
		while (!__atomic_compare_exchange_n(&lock->locked, &unlocked, 1, 0,
						    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
			unlocked = 0;
			cpu_relax();
		}
		if (sched_getcpu() == cpu || run->nr_cpu_locks == 1)
			return lock;
		/* Migrated while waiting: this CPU's lock is the wrong one. */
		__atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
	}
}

static void serve_request(struct sb_worker *w, const struct sb_run *run)
{
	struct sb_cpu_lock *lock;

	if (run->sleep_us)
		usleep((useconds_t)run->sleep_us);
	lock = lock_this_cpu(run);
	for (unsigned long i = 0; i < run->work; i++)
		multiply(run, w->matrix);
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
}

static void *worker_thread(void *arg)
{
	struct sb_worker *w = arg;
	struct sb_run *run = w->msg->run;
	unsigned long n = run->matrix_size;

	/* First touch by the worker: its footprint is its own memory. */
	for (unsigned long i = 0; i < 3 * n * n; i++)
		w->matrix[i] = i;
	while (phase_of(run) != SB_PHASE_STOP) {
		uint64_t start, end;
		int phase;

		__atomic_store_n(&w->futex, SB_BLOCKED, __ATOMIC_SEQ_CST);
		list_push(w->msg, w);
		sb_post(&w->msg->futex);
		/* After STOP the message thread may be gone: do not sleep. */
		if (phase_of(run) != SB_PHASE_STOP)
			sb_wait(&w->futex);
		start = time_now_ns();
		phase = phase_of(run);
		if (phase == SB_PHASE_STOP)
			break;
		if (phase == SB_PHASE_MEASURE)
			histogram_add(&w->wakeup, start - w->wake_ns);
		/* The warm-up serves requests too: it warms caches and cpufreq. */
		serve_request(w, run);
		end = time_now_ns();
		if (phase != SB_PHASE_MEASURE || phase_of(run) != SB_PHASE_MEASURE)
			continue;
		histogram_add(&w->request, end - start);
		w->requests++;
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

	/* Like schbench, the message thread forks its own workers. */
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

static void sleep_seconds(double seconds)
{
	struct timespec ts = {
		.tv_sec = (time_t)seconds,
		.tv_nsec = (long)((seconds - (double)(time_t)seconds) * 1e9),
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void free_run(struct sb_run *run)
{
	if (run->msgs) {
		for (int m = 0; m < run->nr_msgs; m++) {
			struct sb_worker *workers = run->msgs[m].workers;

			for (int i = 0; workers && i < run->msgs[m].nr_workers; i++)
				free(workers[i].matrix);
			free(workers);
		}
	}
	free(run->msgs);
	free(run->cpu_locks);
}

static int alloc_run(struct sb_run *run, long nr_msgs, long nr_workers, struct error *err)
{
	size_t matrix_bytes = 3 * run->matrix_size * run->matrix_size * sizeof(unsigned long);

	run->nr_cpu_locks = get_nprocs_conf() > 0 ? get_nprocs_conf() : 1;
	run->cpu_locks = aligned_alloc(64, (size_t)run->nr_cpu_locks * sizeof(*run->cpu_locks));
	run->msgs = aligned_alloc(64, (size_t)nr_msgs * sizeof(*run->msgs));
	if (!run->cpu_locks || !run->msgs)
		goto nomem;
	memset(run->cpu_locks, 0, (size_t)run->nr_cpu_locks * sizeof(*run->cpu_locks));
	memset(run->msgs, 0, (size_t)nr_msgs * sizeof(*run->msgs));
	run->nr_msgs = (int)nr_msgs;
	for (int m = 0; m < run->nr_msgs; m++) {
		struct sb_msg *msg = &run->msgs[m];

		msg->run = run;
		msg->nr_workers = (int)nr_workers;
		msg->workers = aligned_alloc(64, (size_t)nr_workers * sizeof(*msg->workers));
		if (!msg->workers)
			goto nomem;
		memset(msg->workers, 0, (size_t)nr_workers * sizeof(*msg->workers));
		for (int i = 0; i < msg->nr_workers; i++) {
			struct sb_worker *w = &msg->workers[i];

			w->msg = msg;
			histogram_init(&w->wakeup);
			histogram_init(&w->request);
			w->matrix = malloc(matrix_bytes ? matrix_bytes : sizeof(unsigned long));
			if (!w->matrix)
				goto nomem;
		}
	}
	return 0;
nomem:
	free_run(run);
	return error_set(err, EXIT_ENV,
		"schbench: out of memory for %ld x %ld workers with cache_kb matrices "
		"(give fewer workers or a smaller cache_kb)", nr_msgs, nr_workers);
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
		sleep_seconds(0.001);
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

static void fill_metrics(const struct sb_run *run, double measured, double *metrics)
{
	static const double percents[] = { 50, 90, 99, 99.9 };
	struct histogram *wakeup = malloc(sizeof(*wakeup));
	struct histogram *request = malloc(sizeof(*request));
	uint64_t requests = 0;

	for (int i = 0; i < NR_SB_METRICS; i++)
		metrics[i] = NAN;
	if (!wakeup || !request)
		goto out;
	histogram_init(wakeup);
	histogram_init(request);
	for (int m = 0; m < run->nr_msgs; m++) {
		for (int i = 0; i < run->msgs[m].nr_workers; i++) {
			histogram_merge(wakeup, &run->msgs[m].workers[i].wakeup);
			histogram_merge(request, &run->msgs[m].workers[i].request);
			requests += run->msgs[m].workers[i].requests;
		}
	}
	for (int p = 0; p < 4; p++) {
		metrics[SB_WAKEUP_P50 + p] = histogram_percentile(wakeup, percents[p]) / 1e3;
		metrics[SB_REQUEST_P50 + p] = histogram_percentile(request, percents[p]) / 1e3;
	}
	metrics[SB_RPS] = (double)requests / measured;
out:
	free(wakeup);
	free(request);
}

static int sb_run(const struct param_value *values, double *metrics,
		  struct error *err)
{
	struct sb_run run = {
		.phase = SB_PHASE_WARMUP,
		.sleep_us = (unsigned long)values[SB_PARAM_SLEEP_US].num,
		.work = (unsigned long)values[SB_PARAM_WORK].num,
	};
	double start, measured;

	/* schbench: three square matrices of unsigned long fill cache_kb. */
	run.matrix_size = (unsigned long)sqrt((double)values[SB_PARAM_CACHE_KB].num * 1024 /
					      3 / sizeof(unsigned long));
	if (alloc_run(&run, values[SB_PARAM_MESSAGE_THREADS].num, sb_workers(values), err))
		return -1;
	if (start_messages(&run, err)) {
		free_run(&run);
		return -1;
	}
	sleep_seconds((double)values[SB_PARAM_WARMUP].num);
	start = time_now_ns() / 1e9;
	__atomic_store_n(&run.phase, SB_PHASE_MEASURE, __ATOMIC_SEQ_CST);
	sleep_seconds((double)values[SB_PARAM_RUNTIME].num);
	/* Workers record nothing once STOP is set: the clock stops here. */
	measured = time_now_ns() / 1e9 - start;
	stop_messages(&run, run.nr_msgs);
	fill_metrics(&run, measured, metrics);
	free_run(&run);
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
