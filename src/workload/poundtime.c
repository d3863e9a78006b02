// SPDX-License-Identifier: GPL-2.0
/*
 * poundtime: our implementation of MMTests' poundtime (pound_times.c and
 * pound_clock_gettime.c, Mel Gorman; source in the 2016 changelog of
 * "sched/cputime: Mitigate performance regression in times()/clock_gettime()").
 *
 * It measures the cost of reading the process's CPU time while many of its
 * threads run: times() and clock_gettime(CLOCK_PROCESS_CPUTIME_ID) must sum
 * the runtime of every thread of the group and bring the caller's pending
 * runtime up to date (update_curr() on its runqueue), so they regress when
 * the scheduler's cputime accounting does. getppid() is the control: a
 * syscall that touches no scheduler state.
 *
 * What follows MMTests: `threads` threads are created with no start barrier
 * and begin pounding at once; the clock starts before the first is created
 * and stops when the last is joined (MMTests times the whole program); the
 * times() variant checks, per thread, that the process utime since the
 * start never decreases. Where we differ:
 *  - `calls` is the exact total: calls / threads each, and the first
 *    calls % threads threads make one more (MMTests drops the remainder);
 *  - the clock_gettime variant also reads CLOCK_THREAD_CPUTIME_ID just
 *    before each process read and counts a failure when the process time is
 *    smaller than the thread's own: the thread's runtime is part of the
 *    process's and the kernel updates the caller's runtime before summing,
 *    so this holds on a correct kernel (the bug class discussed in that
 *    thread). This costs one more syscall per call, which MMTests does not
 *    make: compare clock_gettime numbers only with ours;
 *  - failures are counted and reported as a metric instead of printed;
 *  - `sys` is the process's system CPU time over the pound (getrusage
 *    RUSAGE_SELF delta, which includes threads that have exited), named so
 *    as not to clash with the runner's own `system` metric.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

#include "util/array.h"
#include "util/timeutil.h"
#include "util/xalloc.h"
#include "workload/workload.h"
#include "workload/testing.h"

enum {
	POUND_PARAM_CALL,
	POUND_PARAM_THREADS,
	POUND_PARAM_CALLS,
	NR_POUND_PARAMS,
};

enum pound_call { POUND_TIMES, POUND_CLOCK_GETTIME, POUND_GETPPID };

enum {
	POUND_METRIC_REAL,
	POUND_METRIC_SYS,
	POUND_METRIC_FAILURES,
};

static const char *const call_choices[] = { "times", "clock_gettime", "getppid", NULL };

static const struct param_spec pound_params[NR_POUND_PARAMS] = {
	[POUND_PARAM_CALL] = { "call", PARAM_CHOICE, "times", 0, 0, call_choices,
		"the call to pound: times(), clock_gettime(CLOCK_PROCESS_CPUTIME_ID) "
		"or getppid() (control)" },
	[POUND_PARAM_THREADS] = { "threads", PARAM_INT, "2", 1, 4096, NULL,
		"threads sharing the calls" },
	[POUND_PARAM_CALLS] = { "calls", PARAM_INT, "5000000", 1, 1000000000, NULL,
		"calls in total, split evenly over the threads" },
};

static const struct metric_spec pound_metrics[] = {
	[POUND_METRIC_REAL] = { "real", "s", BETTER_LOWER,
	  "wall time from creating the first thread to joining the last" },
	[POUND_METRIC_SYS] = { "sys", "s", BETTER_LOWER,
	  "system CPU time of the process over the pound" },
	[POUND_METRIC_FAILURES] = { "failures", "count", BETTER_LOWER,
	  "utime decreases (times) or process CPU time below the thread's "
	  "own (clock_gettime); 0 on a correct kernel" },
};


struct pound {
	enum pound_call call;
	clock_t start_utime;		/* tms_utime before the first thread */
	atomic_bool abort;		/* creating a thread failed: stop early */
};

struct pound_thread {
	struct pound *pound;
	pthread_t thread;
	long calls;			/* this thread's share */
	long done;			/* calls actually made */
	long failures;
};

/* Calls made by the last run, all threads together: for the unit tests. */
static long pound_last_calls;

long poundtime_test_last_calls(void)
{
	return pound_last_calls;
}

/* Thread @index's share of @calls over @threads: the remainder goes first. */
long poundtime_share(long calls, long threads, long index)
{
	return calls / threads + (index < calls % threads ? 1 : 0);
}

static int pound_check(const struct param_value *values,
		       struct workload_needs *needs, struct error *err)
{
	long threads = values[POUND_PARAM_THREADS].num;
	long calls = values[POUND_PARAM_CALLS].num;

	needs->tasks = threads + 1;
	needs->fds = 0;
	if (calls < threads)
		return error_set(err, EXIT_USAGE,
			"bad value for parameter 'calls': %ld call%s cannot be split over "
			"%ld threads (give calls >= threads)", calls, calls == 1 ? "" : "s",
			threads);
	return 0;
}

static bool pound_aborted(struct pound *pound, long i)
{
	/* Checked every 4096 calls: cheap, and still stops a failed setup fast. */
	return (i & 4095) == 0 &&
	       atomic_load_explicit(&pound->abort, memory_order_relaxed);
}

static void pound_times(struct pound_thread *pt)
{
	long old_utime = 0;
	struct tms now;

	for (long i = 0; i < pt->calls; i++) {
		long utime;

		if (pound_aborted(pt->pound, i))
			return;
		times(&now);
		utime = (long)(now.tms_utime - pt->pound->start_utime);
		if (utime < old_utime)
			pt->failures++;
		old_utime = utime;
		pt->done++;
	}
}

static long long ts_ns(const struct timespec *ts)
{
	return (long long)ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

static void pound_clock_gettime(struct pound_thread *pt)
{
	struct timespec process, thread;

	for (long i = 0; i < pt->calls; i++) {
		if (pound_aborted(pt->pound, i))
			return;
		/* Thread first: a process read taken later can only be larger. */
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &thread);
		if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &process) ||
		    ts_ns(&process) < ts_ns(&thread))
			pt->failures++;
		pt->done++;
	}
}

static void pound_getppid(struct pound_thread *pt)
{
	for (long i = 0; i < pt->calls; i++) {
		if (pound_aborted(pt->pound, i))
			return;
		getppid();
		pt->done++;
	}
}

static void *pound_thread_fn(void *arg)
{
	struct pound_thread *pt = arg;

	switch (pt->pound->call) {
	case POUND_TIMES:
		pound_times(pt);
		break;
	case POUND_CLOCK_GETTIME:
		pound_clock_gettime(pt);
		break;
	case POUND_GETPPID:
		pound_getppid(pt);
		break;
	}
	return NULL;
}

/* Create every thread and join those that started; the error names the limit. */
static int pound_threads(struct pound_thread *pts, long threads, struct error *err)
{
	pthread_attr_t attr;
	long created = 0;
	int ret = 0;

	pthread_attr_init(&attr);
	for (; created < threads; created++) {
		ret = pthread_create(&pts[created].thread, &attr, pound_thread_fn,
				     &pts[created]);
		if (ret)
			break;
	}
	pthread_attr_destroy(&attr);
	if (ret)
		atomic_store(&pts[0].pound->abort, true);
	for (long i = 0; i < created; i++)
		pthread_join(pts[i].thread, NULL);
	if (ret)
		return error_set(err, EXIT_ENV,
			"poundtime: cannot create thread %ld of %ld: %s (raise the task "
			"limit: ulimit -u, or sysctl kernel.threads-max)",
			created + 1, threads, strerror(ret));
	return 0;
}

static double timeval_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

static int pound_run(const struct param_value *values, double *metrics,
		     struct error *err)
{
	long threads = values[POUND_PARAM_THREADS].num;
	long calls = values[POUND_PARAM_CALLS].num;
	struct pound pound = { .call = (enum pound_call)values[POUND_PARAM_CALL].num };
	struct pound_thread *pts = xcalloc((size_t)threads, sizeof(*pts));
	struct rusage before, after;
	long done = 0, failures = 0;
	struct tms start;
	double begin, elapsed;
	int ret;

	atomic_init(&pound.abort, false);
	for (long i = 0; i < threads; i++) {
		pts[i].pound = &pound;
		pts[i].calls = poundtime_share(calls, threads, i);
	}
	getrusage(RUSAGE_SELF, &before);
	times(&start);
	pound.start_utime = start.tms_utime;
	begin = time_now();
	ret = pound_threads(pts, threads, err);
	elapsed = time_now() - begin;
	getrusage(RUSAGE_SELF, &after);

	for (long i = 0; i < threads; i++) {
		done += pts[i].done;
		failures += pts[i].failures;
	}
	free(pts);
	pound_last_calls = done;
	if (ret)
		return -1;
	metrics[POUND_METRIC_REAL] = elapsed;
	metrics[POUND_METRIC_SYS] = timeval_s(&after.ru_stime) - timeval_s(&before.ru_stime);
	metrics[POUND_METRIC_FAILURES] = (double)failures;
	return 0;
}

const struct workload workload_poundtime = {
	.name = "poundtime",
	.summary = "threads pound times(), clock_gettime(CLOCK_PROCESS_CPUTIME_ID) "
		   "or getppid() (MMTests poundtime)",
	.params = pound_params,
	.nr_params = NR_POUND_PARAMS,
	.metrics = pound_metrics,
	.nr_metrics = ARRAY_SIZE(pound_metrics),
	.check = pound_check,
	.run = pound_run,
};
