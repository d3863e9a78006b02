// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the process and latency workloads: schbench, aim9, spawn
 * and forkspread. Bad parameters are refused before anything starts, the
 * resource needs match what a run creates, and tiny runs measure what they
 * claim: schbench's percentiles are ordered and its requests take at least
 * their sleep; aim9 counts whole calls of AIM9's operation counts and
 * leaves the program break where it was; forkspread never reports more
 * CPUs than it may use; nothing (child, thread, fd) is left behind, also
 * when a child fails or the helper is missing.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "stats/histogram.h"
#include "util/array.h"
#include "util/timeutil.h"
#include "workload/aim9.h"
#include "workload/workload.h"
#include "test_helpers.h"

static char build_dir[PATH_MAX];

/* Run @name (test_helpers.h): what run() returns, nothing left behind. */
static int run(const char *name, double *metrics, struct error *err, ...)
{
	va_list ap;
	int ret;

	va_start(ap, err);
	ret = run_workload(name, metrics, NULL, err, ap);
	va_end(ap);
	return ret;
}

/* A run that must succeed and fill every metric with a finite value >= 0. */
#define run_ok(name, metrics, ...) do {						\
	struct error e_;							\
										\
	if (run(name, metrics, &e_, __VA_ARGS__, NULL))				\
		fail_msg("%s failed: %s", name, e_.msg);			\
	for (size_t i_ = 0; i_ < find(name)->nr_metrics; i_++)			\
		assert_true(isfinite(metrics[i_]) && metrics[i_] >= 0);		\
} while (0)

static void assert_metrics(const char *name, const char *const *names,
			   const enum better *better, size_t n)
{
	const struct workload *w = find(name);

	assert_int_equal(w->nr_metrics, n);
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(w->metrics[i].name, names[i]);
		assert_int_equal(w->metrics[i].better, better[i]);
	}
}

static void test_registry(void **state)
{
	static const char *const sb[] = {
		"wakeup_p50", "wakeup_p90", "wakeup_p99", "wakeup_p999",
		"request_p50", "request_p90", "request_p99", "request_p999", "rps",
		"rps_p20", "rps_p50", "rps_p90",
	};
	static const enum better sb_better[] = {
		BETTER_LOWER, BETTER_LOWER, BETTER_LOWER, BETTER_LOWER, BETTER_LOWER,
		BETTER_LOWER, BETTER_LOWER, BETTER_LOWER, BETTER_HIGHER,
		BETTER_HIGHER, BETTER_HIGHER, BETTER_HIGHER,
	};
	static const char *const fs[] = {
		"wake_to_all_running_us", "wake_to_all_done_us", "cpus_first_run",
		"cpus_after_wake", "max_first_run_per_cpu",
	};
	static const enum better fs_better[] = {
		BETTER_LOWER, BETTER_LOWER, BETTER_HIGHER, BETTER_HIGHER, BETTER_LOWER,
	};
	static const char *const aim9[] = { "ops_per_sec" };
	static const enum better higher[] = { BETTER_HIGHER };
	static const char *const spawn[] = { "seconds" };
	static const enum better lower[] = { BETTER_LOWER };

	assert_metrics("schbench", sb, sb_better, 12);
	assert_metrics("forkspread", fs, fs_better, 5);
	assert_metrics("aim9", aim9, higher, 1);
	assert_metrics("spawn", spawn, lower, 1);
}

static void test_defaults(void **state)
{
	struct param_value v[MAX_PARAMS];
	struct workload_needs needs;
	struct error err;
	long cpus = workload_cpus_allowed();

	assert_int_equal(parse("schbench", v, &needs, &err, NULL), 0);
	/* schbench's own defaults. */
	assert_string_equal(v[0].text, "1");		/* message_threads, -m */
	assert_string_equal(v[1].text, "0");		/* workers, -t: the CPUs */
	assert_string_equal(v[2].text, "30");		/* runtime, -r */
	assert_string_equal(v[3].text, "0");		/* warmup, -w */
	assert_string_equal(v[4].text, "100");		/* sleep_us, -s */
	assert_string_equal(v[5].text, "256");		/* cache_kb, -F */
	assert_string_equal(v[6].text, "5");		/* work, -n */
	assert_string_equal(v[7].text, "percpu");	/* lock; none is -L */
	assert_string_equal(v[8].text, "100");		/* private_pct, --split */
	assert_int_equal(needs.tasks, 1 + cpus + 1);
	assert_int_equal(parse("aim9", v, &needs, &err, NULL), 0);
	assert_string_equal(v[1].text, "5");
	assert_int_equal(parse("spawn", v, &needs, &err, NULL), 0);
	assert_string_equal(v[0].text, "1000");
	assert_string_equal(v[1].text, "1");
	assert_string_equal(v[2].text, "spawn");
	assert_int_equal(needs.tasks, 2);
	assert_int_equal(parse("forkspread", v, &needs, &err, NULL), 0);
	assert_int_equal(needs.tasks, 2 * cpus + 1);
	assert_int_equal(parse("schbench", v, &needs, &err, "message_threads=2",
			       "workers=3", NULL), 0);
	assert_int_equal(needs.tasks, 2 * (3 + 1) + 1);
	assert_int_equal(parse("spawn", v, &needs, &err, "parallel=4", NULL), 0);
	assert_int_equal(needs.tasks, 5);
	assert_int_equal(parse("aim9", v, &needs, &err, "test=exec", NULL), 0);
	assert_int_equal(needs.tasks, 2);
	assert_int_equal(aim9_ops_per_call(AIM9_PAGE), 1700);
	assert_int_equal(aim9_ops_per_call(AIM9_BRK), 17000);
	assert_int_equal(aim9_ops_per_call(AIM9_EXEC), 5);
	assert_int_equal(aim9_ops_per_call(AIM9_FORK), 100);
}

static void test_bad_params(void **state)
{
	assert_usage_error("message_threads", "schbench", "message_threads=0");
	assert_usage_error("workers", "schbench", "workers=8193");
	assert_usage_error("workers", "schbench", "message_threads=1000", "workers=1000");
	assert_usage_error("runtime", "schbench", "runtime=0");
	assert_usage_error("warmup", "schbench", "warmup=-1");
	assert_usage_error("cache_kb", "schbench", "cache_kb=0");
	assert_usage_error("sleep_us", "schbench", "sleep_us=1000001");
	assert_usage_error("work", "schbench", "work=x");
	assert_usage_error("lock", "schbench", "lock=spin");
	assert_usage_error("private_pct", "schbench", "private_pct=101");
	/* The warm-up is part of the runtime, as schbench's -w of its -r. */
	assert_usage_error("warmup", "schbench", "runtime=5", "warmup=5");
	assert_usage_error("warmup", "schbench", "warmup=30");
	assert_usage_error("test", "aim9", "test=disk");
	assert_usage_error("duration", "aim9", "duration=0");
	assert_usage_error("duration", "aim9", "duration=3601");
	assert_usage_error("count", "spawn", "count=0");
	assert_usage_error("parallel", "spawn", "parallel=0");
	assert_usage_error("parallel", "spawn", "count=3", "parallel=4");
	assert_usage_error("via", "spawn", "via=system");
	assert_usage_error("tasks", "forkspread", "tasks=-1");
	assert_usage_error("tasks", "forkspread", "tasks=32769");
	assert_usage_error("mode", "forkspread", "mode=fiber");
	assert_usage_error("burn_us", "forkspread", "burn_us=-5");
}

/*
 * Each test for one second: a whole number of calls, each with AIM9's
 * operation count; the run stops with the first call that ends after the
 * duration, so every call before the last started and ended within it;
 * brk is left as found.
 */
static void test_aim9_counts(void **state)
{
	for (int t = AIM9_PAGE; t <= AIM9_FORK; t++) {
		long per_call = aim9_ops_per_call((enum aim9_test)t);
		void *brk_before = sbrk(0);
		struct aim9_result r = { 0, 0, 0 };
		struct error err = { 0 };

		if (aim9_measure((enum aim9_test)t, 1.0, &r, &err))
			fail_msg("aim9 test %d: %s", t, err.msg);
		assert_true(sbrk(0) == brk_before);
		assert_int_equal(r.operations % per_call, 0);
		assert_true(r.operations >= per_call);
		assert_true(r.elapsed >= 1.0);
		assert_true(r.last_start >= 0 && r.last_start < 1.0);
		assert_true(r.last_start < r.elapsed);
		/* One call alone: it started at 0. Several: the last one was not first. */
		assert_true((r.operations == per_call) == (r.last_start == 0));
		assert_nothing_left(count_dir("/proc/self/fd"));
	}
}

static void test_aim9_run(void **state)
{
	double m[1], start = time_now(), wall;

	run_ok("aim9", m, "test=fork", "duration=1");
	wall = time_now() - start;
	assert_true(m[0] > 0);
	/* At least one call of 100 forks in no more than the wall time. */
	assert_true(m[0] * wall >= 100 * 0.999);
}

/* A helper directory whose helper fails, and one without a helper. */
static void test_helper_failures(void **state)
{
	char dir[] = "/tmp/schedperf-test-XXXXXX", path[PATH_MAX];
	struct error err;
	double m[1];
	FILE *f;

	assert_non_null(mkdtemp(dir));
	setenv("SCHEDPERF_LIBEXEC", dir, 1);
	assert_int_equal(run("aim9", m, &err, "test=exec", "duration=1", NULL), -1);
	assert_int_equal(err.code, EXIT_ENV);
	assert_non_null(strstr(err.msg, dir));
	assert_non_null(strstr(err.msg, "run make"));
	assert_int_equal(run("spawn", m, &err, "count=5", NULL), -1);
	assert_int_equal(err.code, EXIT_ENV);

	snprintf(path, sizeof(path), "%s/schedperf-exec-helper", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("#!/bin/sh\nexit 3\n", f);
	fclose(f);
	chmod(path, 0755);
	assert_int_equal(run("spawn", m, &err, "count=6", "parallel=3", NULL), -1);
	assert_int_equal(err.code, EXIT_INTERNAL);
	assert_non_null(strstr(err.msg, "6 of 6"));
	assert_int_equal(run("aim9", m, &err, "test=exec", "duration=1", NULL), -1);
	assert_int_equal(err.code, EXIT_INTERNAL);
	unlink(path);
	rmdir(dir);
	setenv("SCHEDPERF_LIBEXEC", build_dir, 1);
}

static void test_spawn(void **state)
{
	static const char *const cases[][2] = {
		{ "via=spawn", "parallel=1" }, { "via=shell", "parallel=1" },
		{ "via=spawn", "parallel=4" }, { "via=shell", "parallel=20" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		double m[1], start = time_now();

		run_ok("spawn", m, "count=20", cases[i][0], cases[i][1]);
		assert_true(m[0] > 0);
		assert_true(m[0] <= time_now() - start);
	}
}

static void check_spread(const double *m, int tasks, int cpus, double burn_us)
{
	/* Metrics: running, done, cpus first, cpus after, most per CPU. */
	assert_true(m[0] >= 0);
	assert_true(m[0] <= m[1]);
	assert_true(m[1] >= burn_us);
	assert_true(m[2] >= 1 && m[2] <= cpus && m[2] <= tasks);
	assert_true(m[3] >= 1 && m[3] <= cpus && m[3] <= tasks);
	/* The busiest CPU took at least its share and at most all. */
	assert_true(m[4] >= ceil((double)tasks / m[2]) && m[4] <= tasks);
}

static void test_forkspread(void **state)
{
	int cpus = workload_cpus_allowed();
	cpu_set_t saved, one;
	double m[5];

	run_ok("forkspread", m, "tasks=20", "mode=thread");
	check_spread(m, 20, cpus, 50);
	run_ok("forkspread", m, "tasks=20", "mode=process", "burn_us=100");
	check_spread(m, 20, cpus, 100);
	run_ok("forkspread", m, "mode=thread", "burn_us=0");
	check_spread(m, 2 * cpus, cpus, 0);

	/* Allowed one CPU, every task must run there. */
	assert_int_equal(sched_getaffinity(0, sizeof(saved), &saved), 0);
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	run_ok("forkspread", m, "tasks=8", "mode=process");
	assert_int_equal(sched_setaffinity(0, sizeof(saved), &saved), 0);
	assert_true(m[2] == 1 && m[3] == 1 && m[4] == 8);
}

static void test_schbench(void **state)
{
	double m[12], start = time_now();

	run_ok("schbench", m, "runtime=1", "warmup=0", "workers=2", "cache_kb=64",
	       "work=1");
	assert_true(time_now() - start >= 1.0);
	for (int i = 0; i < 3; i++) {
		assert_true(m[i] <= m[i + 1]);		/* wakeup p50 <= p90 <= ... */
		assert_true(m[4 + i] <= m[4 + i + 1]);	/* request */
	}
	/* Whole microseconds, and 0 is never recorded. */
	assert_true(m[0] >= 1);
	/* A request sleeps sleep_us=100 first: no percentile can be below it. */
	assert_true(m[4] >= 100);
	/* Two workers, each request >= 100 us: at most 20000 per second. */
	assert_true(m[8] > 0 && m[8] <= 2 * 1e6 / 100);
	/* One second measured: one rps sample, every percentile of it the same. */
	assert_true(m[9] > 0 && m[9] == m[10] && m[10] == m[11]);
	assert_true(m[9] <= 2 * 1e6 / 100);
}

/*
 * The warm-up drops the per-second rps samples of its seconds: with one
 * second of three left, all percentiles are that one sample, while rps
 * counts the requests of the whole runtime. No locks and a split
 * footprint (-L, --split) serve requests as well.
 */
static void test_schbench_warmup_and_split(void **state)
{
	double m[12];

	run_ok("schbench", m, "runtime=3", "warmup=2", "workers=1", "cache_kb=48",
	       "work=2", "lock=none", "private_pct=50", "sleep_us=0");
	assert_true(m[9] == m[10] && m[10] == m[11]);
	assert_true(m[8] > 0 && m[4] >= 1);
	run_ok("schbench", m, "runtime=1", "warmup=0", "workers=1", "cache_kb=48",
	       "private_pct=0");
	assert_true(m[4] >= 100);
}

/* The memory one run writes: the result matrix and two histograms per worker. */
static void test_schbench_memory(void **state)
{
	const struct workload *w = find("schbench");
	struct param_value v[MAX_PARAMS];
	struct error err;
	long hist_kb = (long)(2 * sizeof(struct histogram) / 1024);

	assert_int_equal(parse("schbench", v, NULL, &err, "message_threads=2", "workers=3",
			       "cache_kb=300", NULL), 0);
	assert_int_equal(w->memory_kb(v), 6 * (100 + hist_kb) + 100);
}

static int setup(void **state)
{
	return use_build_libexec(build_dir, sizeof(build_dir));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_bad_params),
		cmocka_unit_test(test_aim9_counts),
		cmocka_unit_test(test_aim9_run),
		cmocka_unit_test(test_helper_failures),
		cmocka_unit_test(test_spawn),
		cmocka_unit_test(test_forkspread),
		cmocka_unit_test(test_schbench),
		cmocka_unit_test(test_schbench_warmup_and_split),
		cmocka_unit_test(test_schbench_memory),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
