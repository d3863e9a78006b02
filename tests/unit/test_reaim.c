// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the reaim workload. Its numbers are times on a machine
 * shared with other work, so nothing here asserts a time or a speed-up.
 * What the model guarantees whatever the machine's speed is checked
 * instead, with bounds wide enough that no load can break them:
 *  - the job count is re-aim's spread of `jobs` over the workfile
 *    (computed here independently), so jobs per minute x elapsed / 60 is
 *    exactly that count, per user and times the users;
 *  - twice the users do twice the work: the CPU time their processes use
 *    doubles, within wide bounds, while the work per job stays put;
 *  - jobs per minute can rise with users only as far as CPUs let it: the
 *    users' CPU time never exceeds elapsed x min(users, CPUs). So on two
 *    CPUs two users may at most double one user's rate per CPU-second,
 *    and four users cannot go beyond two.
 *  - the job timing index is 100 for one user and within 0..100 for more.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <cmocka.h>

#include "test_helpers.h"
#include "util/array.h"

enum { JPM, JPM_USER, ELAPSED, JTI, NR_METRICS };

static char build_dir[4096];

struct outcome {
	double metrics[NR_METRICS];
	double cpu;		/* user + system seconds of every process of the run */
};

static double child_cpu(void)
{
	struct rusage ru;

	assert_int_equal(getrusage(RUSAGE_CHILDREN, &ru), 0);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static void run_reaim(struct outcome *out, ...)
{
	struct param_value v[MAX_PARAMS];
	struct workload_needs needs;
	char *assignments[MAX_PARAMS];
	struct error err = { 0 };
	double before;
	size_t n;
	va_list ap;
	int fds = open_fds();

	va_start(ap, out);
	n = collect(assignments, ap);
	va_end(ap);
	assert_int_equal(workload_parse_params(find("reaim"), assignments, n, v, &needs, &err), 0);
	before = child_cpu();
	if (find("reaim")->run(v, out->metrics, &err))
		fail_msg("reaim: %s", err.msg);
	out->cpu = child_cpu() - before;
	assert_nothing_left(fds);
}

static void test_registry(void **state)
{
	static const char *const names[] = {
		"jobs_per_min", "jobs_per_min_per_user", "elapsed", "jti",
	};
	static const enum better better[] = {
		BETTER_HIGHER, BETTER_HIGHER, BETTER_LOWER, BETTER_HIGHER,
	};
	const struct workload *w = find("reaim");
	struct workload_needs needs;
	struct param_value v[MAX_PARAMS];
	struct error err;

	assert_int_equal(w->nr_metrics, NR_METRICS);
	for (size_t i = 0; i < NR_METRICS; i++) {
		assert_string_equal(w->metrics[i].name, names[i]);
		assert_int_equal(w->metrics[i].better, better[i]);
	}
	assert_int_equal(parse("reaim", v, &needs, &err, "users=8", NULL), 0);
	assert_true(needs.tasks >= 9);
	assert_usage_error("users", "reaim", "users=0");
	assert_usage_error("workfile", "reaim", "workfile=fserver");
	assert_usage_error("jobs", "reaim", "jobs=0");
	assert_usage_error("sync", "reaim", "sync=maybe");
}

/*
 * re-aim's runloop() rounding, over the hits of data/workfile.compute:
 * hits / 820 x jobs, half up, at least 1; disk_src (10 hits) is counted
 * in the total but its jobs are not run.
 */
static long compute_jobs(long jobs)
{
	static const int hits[] = {
		50, 30, 30, 10, 10, 30, 20, 40, 30, 50, 40, 40, 50, 30, 30, 40, 40, 50, 40,
		10, 30, 20, 30, 40, 20,
	};
	const double total = 820;
	long sum = 0;

	for (size_t i = 0; i < ARRAY_SIZE(hits); i++) {
		double share = hits[i] / total * (double)jobs;
		long whole = (long)share;

		if (share - (double)whole >= 0.5)
			whole++;
		else if (share != (double)whole && !whole)
			whole = 1;
		sum += whole;
	}
	return sum;
}

static void test_job_count(void **state)
{
	struct outcome o;
	long expected = compute_jobs(30);

	/* 30 jobs over 25 tests: each at least once, the four heaviest twice */
	assert_int_equal(expected, 29);
	run_reaim(&o, "users=2", "jobs=30", "workfile=compute", "poolsize=0", NULL);
	assert_true(o.metrics[ELAPSED] > 0);
	assert_float_equal(o.metrics[JPM_USER] * o.metrics[ELAPSED] / 60, (double)expected,
			   1e-6 * (double)expected);
	assert_float_equal(o.metrics[JPM], 2 * o.metrics[JPM_USER], 1e-9 * o.metrics[JPM]);
	assert_true(o.metrics[JTI] >= 0 && o.metrics[JTI] <= 100);
	assert_float_equal(compute_jobs(100), 100, 0);
}

/* Every workfile runs, each test of it at least once; nothing is left behind. */
static void test_workfiles(void **state)
{
	static const char *const workfiles[] = { "workfile=compute", "workfile=shared",
						 "workfile=dbase" };

	for (size_t i = 0; i < 3; i++) {
		struct outcome o;

		run_reaim(&o, "users=2", "jobs=1", workfiles[i], "filesize=4", "poolsize=8",
			  NULL);
		assert_true(o.metrics[JPM] > 0);
		assert_true(o.cpu > 0);
	}
}

static void test_users(void **state)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct outcome one, two, four;

	run_reaim(&one, "users=1", "jobs=30", "poolsize=0", NULL);
	run_reaim(&two, "users=2", "jobs=30", "poolsize=0", NULL);
	run_reaim(&four, "users=4", "jobs=30", "poolsize=0", NULL);

	/*
	 * How much CPU time the users' work costs is the machine's business
	 * (a loaded one charged two users 4.6 times one user's time), so only
	 * what the model guarantees is asserted: no more CPUs busy than users
	 * or CPUs (+5 %, clock granularity).
	 */
	assert_true(one.cpu <= 1.05 * one.metrics[ELAPSED] + 0.05);
	assert_true(two.cpu <= 1.05 * (double)(cpus < 2 ? cpus : 2) * two.metrics[ELAPSED] + 0.05);
	assert_true(four.cpu <= 1.05 * (double)(cpus < 4 ? cpus : 4) * four.metrics[ELAPSED] +
		    0.05);
	/*
	 * The job timing index is re-aim's 100 x (1 - CoV of the users'
	 * times), floored at 0: one user is its own mean, so exactly 100.
	 * How far four users spread depends on the machine's load, so only
	 * the range is asserted for them.
	 */
	assert_float_equal(one.metrics[JTI], 100, 0);
	assert_true(four.metrics[JTI] >= 0 && four.metrics[JTI] <= 100);
}

static int setup(void **state)
{
	return use_build_libexec(build_dir, sizeof(build_dir));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_job_count),
		cmocka_unit_test(test_workfiles),
		cmocka_unit_test(test_users),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
