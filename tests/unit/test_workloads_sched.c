// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for cyclictest, tcp-rr and fairness: bad parameters are
 * refused before anything starts, and tiny runs measure what they claim:
 * cyclictest wakes each thread `loops` times under the policy asked for
 * (read back inside the thread) and its figures are ordered; a load beside
 * it is gone afterwards; tcp-rr moves exactly the bytes of the transactions
 * it counts, over TCP and AF_UNIX, with processes and threads, in both
 * framings and in stream mode; fairness splits the CPU time in the
 * direction of the weights with nice levels and with cgroups (where the
 * machine has the cpu controller) and removes its scratch cgroups. No run
 * leaves a child, thread or fd behind.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/cgroup.h"
#include "workload/testing.h"
#include "workload/workload.h"
#include "test_helpers.h"


/* Run @name (test_helpers.h): what run() returns, *@nr values, nothing left. */
static int run(const char *name, double *metrics, size_t *nr, struct error *err, ...)
{
	va_list ap;
	int ret;

	va_start(ap, err);
	ret = run_workload(name, metrics, nr, err, ap);
	va_end(ap);
	return ret;
}

/* A run that must succeed and fill its metrics with finite values >= 0. */
#define run_ok(name, metrics, ...) do {						\
	struct error e_;							\
	size_t n_;								\
										\
	if (run(name, metrics, &n_, &e_, __VA_ARGS__, NULL))			\
		fail_msg("%s failed: %s", name, e_.msg);			\
	for (size_t i_ = 0; i_ < n_; i_++)					\
		if (!(isfinite(metrics[i_]) && metrics[i_] >= 0))		\
			fail_msg("%s: metric %zu is %g", name, i_, metrics[i_]);\
} while (0)

static void assert_metric(const char *name, size_t i, const char *metric, enum better better)
{
	const struct workload *w = find(name);

	assert_true(i < w->nr_metrics);
	assert_string_equal(w->metrics[i].name, metric);
	assert_int_equal(w->metrics[i].better, better);
}

static void test_registry(void **state)
{
	assert_metric("cyclictest", 0, "latency_min", BETTER_LOWER);
	assert_metric("cyclictest", 6, "latency_max", BETTER_LOWER);
	assert_metric("cyclictest", 7, "overflows", BETTER_LOWER);
	assert_metric("tcp-rr", 0, "transactions_per_sec", BETTER_HIGHER);
	assert_metric("tcp-rr", 4, "latency_p999", BETTER_LOWER);
	assert_metric("fairness", 0, "max_rel_error", BETTER_LOWER);
	assert_metric("fairness", 1, "jain", BETTER_HIGHER);
	assert_metric("fairness", 2, "worst_wait_ms", BETTER_LOWER);
	assert_metric("fairness", 3, "share_1", BETTER_HIGHER);
}

static void test_bad_params(void **state)
{
	assert_usage_error("priority", "cyclictest", "policy=other", "priority=5");
	assert_usage_error("load_params", "cyclictest", "load_params=groups=2");
	assert_usage_error("groups", "cyclictest", "load=messaging", "load_params=groups=0");
	assert_usage_error("load_params", "cyclictest", "load=pipe", "load_params=nosuch=1");
	assert_usage_error("framing", "tcp-rr", "framing=length", "mode=stream");
	assert_usage_error("req_size", "tcp-rr", "framing=length", "req_size=4");
	assert_usage_error("framing", "tcp-rr", "framing=length", "transport=unix",
			   "req_size=8", "resp_size=8");
	assert_usage_error("weights", "fairness", "weights=0:100");
	assert_usage_error("weights", "fairness", "weights=100:");
	assert_usage_error("weights", "fairness", "weights=fast");
	assert_usage_error("weights", "fairness",
			   "weights=1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1");
	assert_usage_error("warmup", "fairness", "runtime=2", "warmup=2");
	/* the weights are quoted whole, up to the parameter's 128 bytes, the culprit named */
#define W15 "10000:10000:10000:10000:10000:10000:10000:10000:10000:10000:10000:10000:" \
	    "10000:10000:10000:"
	assert_usage_error("'" W15 "10000:1' has more than 16 weights", "fairness",
			   "weights=" W15 "10000:1");
	assert_usage_error("'" W15 "000000000000000000000000000000000x': weight 16, "
			   "'000000000000000000000000000000000x', is not a whole number",
			   "fairness",
			   "weights=" W15 "000000000000000000000000000000000x");
#undef W15
}

/* The metrics a fairness benchmark stores: three and a share per group. */
static void test_fairness_metrics_by_groups(void **state)
{
	struct param_value v[MAX_PARAMS];
	struct error err;

	assert_int_equal(parse("fairness", v, NULL, &err, "weights=100:200:300", NULL), 0);
	assert_int_equal(workload_nr_values(find("fairness"), v), 6);
	workload_release_params(find("fairness"), v);
	assert_int_equal(parse("tcp-rr", v, NULL, &err, "mode=stream", NULL), 0);
	assert_int_equal(workload_nr_values(find("tcp-rr"), v), 1);
}

static void assert_ordered(const double *m, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (m[i] > m[i + 1])
			fail_msg("metric %zu (%g) above metric %zu (%g)", i, m[i], i + 1, m[i + 1]);
}

/* Each thread wakes `loops` times, under the policy asked for. */
static void test_cyclictest_counts(void **state)
{
	double m[8];
	int policy;
	long wakeups;

	run_ok("cyclictest", m, "policy=other", "threads=2", "loops=20", "interval=200");
	cyclictest_test_last(&policy, &wakeups);
	assert_int_equal(policy, SCHED_OTHER);
	assert_int_equal(wakeups, 40);
	/* min <= p50 <= p90 <= p99 <= p99.9 <= max, the mean within. */
	assert_true(m[0] <= m[2]);
	assert_ordered(m, 2, 6);
	assert_true(m[0] <= m[1] && m[1] <= m[6]);
	assert_true(m[7] <= 40);

	run_ok("cyclictest", m, "policy=batch", "threads=1", "loops=5", "interval=100",
	       "hist_us=1");
	cyclictest_test_last(&policy, &wakeups);
	assert_int_equal(policy, SCHED_BATCH);
	assert_int_equal(wakeups, 5);
	/* Every wake-up is at least 1 us late on any machine: all overflow. */
	assert_true(m[7] == 5 || m[0] < 1);
}

/* fifo: taken where this process may, refused with the reason where not. */
static void test_cyclictest_realtime(void **state)
{
	struct error err;
	double m[8];
	size_t n;
	int policy;
	long wakeups;

	if (run("cyclictest", m, &n, &err, "policy=fifo", "priority=1", "threads=1",
		"loops=5", "interval=100", NULL)) {
		assert_int_equal(err.code, EXIT_ENV);
		assert_non_null(strstr(err.msg, "policy=fifo"));
		return;
	}
	cyclictest_test_last(&policy, &wakeups);
	assert_int_equal(policy, SCHED_FIFO);
	assert_int_equal(wakeups, 5);
}

/* A load runs beside the threads and is gone with them. */
static void test_cyclictest_load(void **state)
{
	double m[8];
	int policy;
	long wakeups;

	run_ok("cyclictest", m, "policy=other", "loops=10", "interval=500", "load=pipe",
	       "load_params=loops=100000000 mode=thread");
	cyclictest_test_last(&policy, &wakeups);
	assert_int_equal(wakeups, 10 * workload_cpus_allowed());
	run_ok("cyclictest", m, "policy=other", "threads=1", "loops=10", "interval=500",
	       "load=messaging", "load_params=groups=1 loops=10000");
}

/* Every transaction counted moved its request: bytes = transactions x req_size. */
static void check_rr(uint64_t transactions, size_t req_size)
{
	uint64_t t, bytes;

	tcp_rr_test_last(&t, &bytes);
	assert_int_equal(t, transactions);
	assert_int_equal(bytes, transactions * req_size);
}

static void test_tcp_rr(void **state)
{
	double m[5];

	run_ok("tcp-rr", m, "transactions=300", "pairs=2");
	check_rr(600, 1);
	assert_true(m[0] > 0);
	assert_ordered(m, 1, 4);
	run_ok("tcp-rr", m, "transactions=200", "transport=unix", "tasks=thread",
	       "req_size=100", "resp_size=3000");
	check_rr(200, 100);
	run_ok("tcp-rr", m, "transactions=200", "framing=length", "req_size=59",
	       "resp_size=1059", "pairs=3");
	check_rr(600, 59);
	run_ok("tcp-rr", m, "transactions=100", "framing=length", "req_size=8",
	       "resp_size=4", "tasks=thread");
	check_rr(100, 8);
}

/* Stream: the servers receive every byte the clients wrote. */
static void test_tcp_rr_stream(void **state)
{
	uint64_t writes, bytes;
	double m[1];

	run_ok("tcp-rr", m, "mode=stream", "transactions=50", "req_size=65536", "pairs=2");
	tcp_rr_test_last(&writes, &bytes);
	assert_int_equal(writes, 100);
	assert_int_equal(bytes, 100 * 65536);
	assert_true(m[0] > 0);
	run_ok("tcp-rr", m, "mode=stream", "runtime=1", "req_size=1000", "transport=unix",
	       "tasks=thread");
	tcp_rr_test_last(&writes, &bytes);
	assert_int_equal(bytes, writes * 1000);
}

/* Run fairness on one CPU, where the weights must show: group 2 gets more. */
static void fairness_on_one_cpu(const char *mode)
{
	cpu_set_t saved, one;
	double m[5];

	assert_int_equal(sched_getaffinity(0, sizeof(saved), &saved), 0);
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	run_ok("fairness", m, mode, "weights=100:400", "tasks=1", "runtime=1", "warmup=0");
	assert_int_equal(sched_setaffinity(0, sizeof(saved), &saved), 0);
	assert_true(fabs(m[3] + m[4] - 100) < 1e-9);
	assert_true(m[3] < m[4]);
	assert_true(m[1] > 0 && m[1] <= 1 + 1e-12);
}

static void test_fairness_nice(void **state)
{
	double m[6];

	fairness_on_one_cpu("mode=nice");
	/* Periodic tasks asking less than the CPUs: each gets what it asks. */
	run_ok("fairness", m, "mode=nice", "weights=100:100:100", "tasks=1", "duty_pct=10",
	       "period_us=20000", "runtime=1", "warmup=0");
	assert_true(fabs(m[3] + m[4] + m[5] - 100) < 1e-9);
}

/* Does any scratch cgroup of this process remain in @dir? */
static bool scratch_left(const char *dir)
{
	char prefix[64];
	struct dirent *e;
	DIR *d = opendir(dir);
	bool found = false;

	snprintf(prefix, sizeof(prefix), "schedperf-%d-", (int)getpid());
	assert_non_null(d);
	while ((e = readdir(d)))
		found |= !strncmp(e->d_name, prefix, strlen(prefix));
	closedir(d);
	return found;
}

/* With the cpu controller: by weight, and nothing left; without: refused. */
static void test_fairness_cgroup(void **state)
{
	struct cgroup_place place;
	struct error err;
	double m[5];
	size_t n;

	if (cgroup_place_find("cpu", &place, &err)) {
		assert_int_equal(run("fairness", m, &n, &err, "weights=100:400", "runtime=1",
				     "warmup=0", NULL), -1);
		assert_int_equal(err.code, EXIT_ENV);
		assert_non_null(strstr(err.msg, "cpu controller"));
		return;
	}
	if (geteuid()) {
		assert_int_equal(run("fairness", m, &n, &err, "weights=100:400", "runtime=1",
				     "warmup=0", NULL), -1);
		assert_int_equal(err.code, EXIT_ENV);
		return;
	}
	fairness_on_one_cpu("mode=cgroup");
	assert_false(scratch_left(place.dir));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_bad_params),
		cmocka_unit_test(test_fairness_metrics_by_groups),
		cmocka_unit_test(test_cyclictest_counts),
		cmocka_unit_test(test_cyclictest_realtime),
		cmocka_unit_test(test_cyclictest_load),
		cmocka_unit_test(test_tcp_rr),
		cmocka_unit_test(test_tcp_rr_stream),
		cmocka_unit_test(test_fairness_nice),
		cmocka_unit_test(test_fairness_cgroup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
