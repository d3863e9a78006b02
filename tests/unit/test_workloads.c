// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the messaging and pipe workloads: that bad parameters are
 * refused before anything starts, that the resource needs match what a run
 * opens, that tiny runs measure something plausible (finite, positive, no
 * longer than the call itself, growing with the work), and that a run
 * leaves no fd, child process or thread behind, on success and on failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/timeutil.h"
#include "workload/workload.h"
#include "test_helpers.h"

/*
 * The open-file limit that leaves room for exactly @room more fds: fds are
 * handed out lowest first, and inherited ones may leave gaps.
 */
static rlim_t limit_for(long room)
{
	int fd = 0;

	for (; room > 0; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF)
			room--;
	return (rlim_t)fd;
}

/*
 * Run @name with the given parameters, checking that it succeeds, fills
 * every metric with a finite positive value, takes no longer than the call
 * itself, and leaves nothing behind. Returns the call's own duration.
 */
static double run_ok(const char *name, double *metrics, ...)
{
	const struct workload *w = find(name);
	struct param_value values[MAX_PARAMS];
	char *assignments[MAX_PARAMS];
	struct error err = { 0 };
	int fds_before = open_fds();
	double start, wall;
	size_t n;
	va_list ap;

	va_start(ap, metrics);
	n = collect(assignments, ap);
	va_end(ap);
	assert_int_equal(workload_parse_params(w, assignments, n, values, NULL, &err), 0);
	for (size_t i = 0; i < w->nr_metrics; i++)
		metrics[i] = NAN;

	start = time_now();
	if (w->run(values, metrics, &err))
		fail_msg("%s run failed: %s", name, err.msg);
	wall = time_now() - start;

	for (size_t i = 0; i < w->nr_metrics; i++) {
		assert_true(isfinite(metrics[i]));
		assert_true(metrics[i] > 0);
	}
	assert_nothing_left(fds_before);
	return wall;
}

static void test_registry(void **state)
{
	const struct workload *m = find("messaging");
	const struct workload *p = find("pipe");
	static const char *const msg_params[] = {
		"groups", "fds", "loops", "datasize", "ipc", "mode",
	};
	static const char *const pipe_params[] = { "loops", "mode", "cpus" };

	assert_int_equal(m->nr_params, 6);
	for (size_t i = 0; i < m->nr_params; i++)
		assert_string_equal(m->params[i].name, msg_params[i]);
	assert_int_equal(m->nr_metrics, 1);
	assert_string_equal(m->metrics[0].name, "seconds");
	assert_string_equal(m->metrics[0].unit, "s");
	assert_int_equal(m->metrics[0].better, BETTER_LOWER);

	assert_int_equal(p->nr_params, 3);
	for (size_t i = 0; i < p->nr_params; i++)
		assert_string_equal(p->params[i].name, pipe_params[i]);
	assert_int_equal(p->nr_metrics, 2);
	assert_string_equal(p->metrics[0].name, "usec_per_op");
	assert_string_equal(p->metrics[0].unit, "usec");
	assert_int_equal(p->metrics[0].better, BETTER_LOWER);
	assert_string_equal(p->metrics[1].name, "ops_per_sec");
	assert_string_equal(p->metrics[1].unit, "ops/s");
	assert_int_equal(p->metrics[1].better, BETTER_HIGHER);
}

static void test_defaults_are_perfs(void **state)
{
	static const char *const msg_defaults[] = {
		"10", "20", "100", "100", "socket", "process",
	};
	static const char *const pipe_defaults[] = { "1000000", "process", "any" };
	struct param_value v[MAX_PARAMS];
	struct error err;

	assert_int_equal(parse("messaging", v, NULL, &err, NULL), 0);
	for (size_t i = 0; i < 6; i++)
		assert_string_equal(v[i].text, msg_defaults[i]);
	assert_int_equal(v[0].num, 10);
	assert_int_equal(parse("pipe", v, NULL, &err, NULL), 0);
	for (size_t i = 0; i < 3; i++)
		assert_string_equal(v[i].text, pipe_defaults[i]);
	assert_int_equal(v[0].num, 1000000);
}

static void test_bad_params(void **state)
{
	assert_usage_error("bogus", "messaging", "bogus=1");
	assert_usage_error("bogus", "pipe", "bogus=1");
	assert_usage_error("groups", "messaging", "groups=0");
	assert_usage_error("groups", "messaging", "groups=10001");
	assert_usage_error("groups", "messaging", "groups=ten");
	assert_usage_error("fds", "messaging", "fds=1001");
	assert_usage_error("loops", "messaging", "loops=0");
	assert_usage_error("datasize", "messaging", "datasize=65537");
	assert_usage_error("ipc", "messaging", "ipc=tcp");
	assert_usage_error("mode", "messaging", "mode=fiber");
	assert_usage_error("groups", "messaging", "groups=1", "groups=2");
	assert_usage_error("loops", "pipe", "loops=0");
	assert_usage_error("loops", "pipe", "loops=1000000001");
	assert_usage_error("mode", "pipe", "mode=both");
	assert_usage_error("cpus", "pipe", "cpus=all");
	assert_usage_error("mode", "pipe", "mode=thread", "mode=process");
}

static void test_messaging_needs(void **state)
{
	struct workload_needs needs = { 0, 0 };
	struct param_value v[MAX_PARAMS];
	struct error err;

	assert_int_equal(parse("messaging", v, &needs, &err,
			       "groups=3", "fds=5", "mode=process", NULL), 0);
	assert_int_equal(needs.tasks, 30);
	/* two barrier channels, one group's write ends and the pair being made */
	assert_int_equal(needs.fds, 4 + 5 + 1);

	assert_int_equal(parse("messaging", v, &needs, &err,
			       "groups=3", "fds=5", "mode=thread", NULL), 0);
	assert_int_equal(needs.tasks, 30);
	/* two barrier channels and both ends of every channel */
	assert_int_equal(needs.fds, 4 + 30);

	assert_int_equal(parse("messaging", v, &needs, &err, NULL), 0);
	assert_int_equal(needs.tasks, 400);
}

static void test_pipe_needs(void **state)
{
	struct workload_needs needs = { 0, 0 };
	struct param_value v[MAX_PARAMS];
	struct error err;

	assert_int_equal(parse("pipe", v, &needs, &err, "mode=thread", NULL), 0);
	assert_int_equal(needs.tasks, 2);
	assert_int_equal(needs.fds, 4);
}

/*
 * The peak-fd estimate is a real bound: a run fits in exactly the
 * needs->fds the check computed, above what the process already has open.
 */
static void run_within_fd_need(const char *mode)
{
	const struct workload *w = find("messaging");
	struct workload_needs needs = { 0, 0 };
	struct param_value v[MAX_PARAMS];
	struct rlimit saved, tight;
	struct error err;
	double metric;
	char mode_param[32];
	int ret;

	snprintf(mode_param, sizeof(mode_param), "mode=%s", mode);
	assert_int_equal(parse("messaging", v, &needs, &err,
			       "groups=3", "fds=4", "loops=5", mode_param, NULL), 0);
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &saved), 0);
	tight = saved;
	tight.rlim_cur = limit_for(needs.fds);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &tight), 0);
	ret = w->run(v, &metric, &err);
	/* restore before asserting: a failed assertion must not starve later tests */
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &saved), 0);
	if (ret)
		fail_msg("%s run within %ld fds failed: %s", mode, needs.fds, err.msg);
	assert_no_children();
}

static void test_messaging_fits_its_fd_need(void **state)
{
	run_within_fd_need("process");
	run_within_fd_need("thread");
}

static void test_messaging_tiny_runs(void **state)
{
	static const char *const ipcs[] = { "ipc=socket", "ipc=pipe" };
	static const char *const modes[] = { "mode=process", "mode=thread" };
	double seconds, wall;

	for (int i = 0; i < 2; i++) {
		for (int m = 0; m < 2; m++) {
			wall = run_ok("messaging", &seconds, "groups=1", "fds=2",
				      "loops=10", ipcs[i], modes[m], NULL);
			assert_true(seconds <= wall);
		}
	}
}

/* Messages larger than a socket or pipe buffer force short reads and writes. */
static void test_messaging_large_messages(void **state)
{
	static const char *const ipcs[] = { "ipc=socket", "ipc=pipe" };
	static const char *const modes[] = { "mode=process", "mode=thread" };
	double seconds;

	for (int i = 0; i < 2; i++)
		for (int m = 0; m < 2; m++)
			run_ok("messaging", &seconds, "groups=2", "fds=3", "loops=20",
			       "datasize=65536", ipcs[i], modes[m], NULL);
}

/* CPU time of this process and its reaped children, in seconds. */
static double cpu_seconds(void)
{
	struct rusage self, children;

	assert_int_equal(getrusage(RUSAGE_SELF, &self), 0);
	assert_int_equal(getrusage(RUSAGE_CHILDREN, &children), 0);
	return (double)(self.ru_utime.tv_sec + self.ru_stime.tv_sec +
			children.ru_utime.tv_sec + children.ru_stime.tv_sec) +
	       (double)(self.ru_utime.tv_usec + self.ru_stime.tv_usec +
			children.ru_utime.tv_usec + children.ru_stime.tv_usec) / 1e6;
}

/*
 * Does the timed section cover the work? Not told by comparing durations,
 * which the machine's load stretches: by CPU time. With every task of the
 * run on one CPU, the run's CPU time inside the timed section is at most
 * its length; the rest, set-up and teardown, is a small part of the run's
 * CPU time when the work is large (thousands of round trips), whatever the
 * load. A section that missed the work would be far shorter.
 */
static void assert_times_the_work(const char *name, const struct param_value *values,
				  double *metrics, size_t timed, double scale)
{
	const struct workload *w = find(name);
	struct error err = { 0 };
	cpu_set_t saved, one;
	double cpu_before, cpu;

	assert_int_equal(sched_getaffinity(0, sizeof(saved), &saved), 0);
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	cpu_before = cpu_seconds();
	if (w->run(values, metrics, &err))
		fail_msg("%s run failed: %s", name, err.msg);
	cpu = cpu_seconds() - cpu_before;
	assert_int_equal(sched_setaffinity(0, sizeof(saved), &saved), 0);
	if (!(metrics[timed] * scale >= cpu / 2))
		fail_msg("%s: timed %g s of a run that took %g s of CPU", name,
			 metrics[timed] * scale, cpu);
}

static void test_messaging_measures_the_work(void **state)
{
	static const char *const modes[] = { "mode=thread", "mode=process" };
	struct param_value v[MAX_PARAMS];
	struct error err;
	double seconds;

	for (int m = 0; m < 2; m++) {
		assert_int_equal(parse("messaging", v, NULL, &err, "groups=1", "fds=2",
				       "loops=20000", modes[m], NULL), 0);
		assert_times_the_work("messaging", v, &seconds, 0, 1.0);
	}
	assert_no_children();
}

/* Running out of fds part way through setup: a clean EXIT_ENV, nothing left. */
static void messaging_setup_fails(const char *mode)
{
	const struct workload *w = find("messaging");
	struct param_value v[MAX_PARAMS];
	struct rlimit saved, tight;
	struct error err;
	char mode_param[32];
	int fds_before, ret;
	double metric;

	snprintf(mode_param, sizeof(mode_param), "mode=%s", mode);
	assert_int_equal(parse("messaging", v, NULL, &err,
			       "groups=2", "fds=20", mode_param, NULL), 0);
	fds_before = open_fds();
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &saved), 0);
	tight = saved;
	tight.rlim_cur = limit_for(12);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &tight), 0);
	memset(&err, 0, sizeof(err));
	ret = w->run(v, &metric, &err);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &saved), 0);

	assert_int_equal(ret, -1);
	assert_int_equal(err.code, EXIT_ENV);
	assert_non_null(strstr(err.msg, "ulimit -n"));
	assert_nothing_left(fds_before);
}

static void test_messaging_setup_failure_cleans_up(void **state)
{
	messaging_setup_fails("process");
	messaging_setup_fails("thread");
}

static void assert_pipe_metrics(const double *metrics, double wall, long loops)
{
	/* ops/s and usec/op describe one duration */
	assert_true(fabs(metrics[0] * metrics[1] / 1e6 - 1) < 1e-9);
	assert_true(metrics[0] * (double)loops / 1e6 <= wall);
}

static void test_pipe_tiny_runs(void **state)
{
	static const char *const modes[] = { "mode=process", "mode=thread" };
	double metrics[2], wall;

	for (int m = 0; m < 2; m++) {
		wall = run_ok("pipe", metrics, "loops=1000", modes[m], NULL);
		assert_pipe_metrics(metrics, wall, 1000);
		wall = run_ok("pipe", metrics, "loops=1000", "cpus=same", modes[m], NULL);
		assert_pipe_metrics(metrics, wall, 1000);
		if (workload_cpus_allowed() < 2)
			continue;
		wall = run_ok("pipe", metrics, "loops=1000", "cpus=cross", modes[m], NULL);
		assert_pipe_metrics(metrics, wall, 1000);
	}
}

/* usec_per_op times the loops: the timed section, as messaging's above */
static void test_pipe_measures_the_work(void **state)
{
	static const char *const modes[] = { "mode=thread", "mode=process" };
	struct param_value v[MAX_PARAMS];
	struct error err;
	double metrics[2];

	for (int m = 0; m < 2; m++) {
		assert_int_equal(parse("pipe", v, NULL, &err, "loops=20000", modes[m], NULL), 0);
		assert_times_the_work("pipe", v, metrics, 0, 20000 / 1e6);
	}
	assert_no_children();
}

/* Pinning the calling process for a process-mode run is undone afterwards. */
static void test_pipe_restores_affinity(void **state)
{
	cpu_set_t before, after;
	double metrics[2];

	assert_int_equal(sched_getaffinity(0, sizeof(before), &before), 0);
	run_ok("pipe", metrics, "loops=100", "cpus=same", "mode=process", NULL);
	assert_int_equal(sched_getaffinity(0, sizeof(after), &after), 0);
	assert_true(CPU_EQUAL(&before, &after));
}

/* cpus=cross on a process allowed one CPU: refused by check() and by run(). */
static void test_pipe_cross_needs_two_cpus(void **state)
{
	const struct workload *w = find("pipe");
	struct param_value v[MAX_PARAMS];
	cpu_set_t saved, one;
	struct error err;
	double metrics[2];
	int cpu = -1;

	assert_int_equal(sched_getaffinity(0, sizeof(saved), &saved), 0);
	for (int i = 0; i < CPU_SETSIZE && cpu < 0; i++)
		if (CPU_ISSET(i, &saved))
			cpu = i;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);

	assert_int_equal(parse("pipe", v, NULL, &err, "cpus=cross", NULL), -1);
	assert_int_equal(err.code, EXIT_USAGE);
	assert_non_null(strstr(err.msg, "cpus"));
	assert_non_null(strstr(err.msg, "cross"));

	assert_int_equal(parse("pipe", v, NULL, &err, "cpus=same", "loops=10", NULL), 0);
	v[2].num = 2;	/* cross, as if affinity shrank between check and run */
	memset(&err, 0, sizeof(err));
	assert_int_equal(w->run(v, metrics, &err), -1);
	assert_int_equal(err.code, EXIT_USAGE);

	assert_int_equal(sched_setaffinity(0, sizeof(saved), &saved), 0);
	assert_no_children();
}

static void test_pipe_setup_failure(void **state)
{
	const struct workload *w = find("pipe");
	struct param_value v[MAX_PARAMS];
	struct rlimit saved, tight;
	struct error err;
	double metrics[2];
	int fds_before, ret;

	assert_int_equal(parse("pipe", v, NULL, &err, "loops=10", NULL), 0);
	fds_before = open_fds();
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &saved), 0);
	tight = saved;
	tight.rlim_cur = limit_for(3);	/* one pipe, not two */
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &tight), 0);
	ret = w->run(v, metrics, &err);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &saved), 0);
	assert_int_equal(ret, -1);
	assert_int_equal(err.code, EXIT_ENV);
	assert_nothing_left(fds_before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_defaults_are_perfs),
		cmocka_unit_test(test_bad_params),
		cmocka_unit_test(test_messaging_needs),
		cmocka_unit_test(test_pipe_needs),
		cmocka_unit_test(test_messaging_fits_its_fd_need),
		cmocka_unit_test(test_messaging_tiny_runs),
		cmocka_unit_test(test_messaging_large_messages),
		cmocka_unit_test(test_messaging_measures_the_work),
		cmocka_unit_test(test_messaging_setup_failure_cleans_up),
		cmocka_unit_test(test_pipe_tiny_runs),
		cmocka_unit_test(test_pipe_measures_the_work),
		cmocka_unit_test(test_pipe_restores_affinity),
		cmocka_unit_test(test_pipe_cross_needs_two_cpus),
		cmocka_unit_test(test_pipe_setup_failure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
