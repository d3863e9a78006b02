// SPDX-License-Identifier: GPL-2.0
/*
 * History: the t interval of the mean (src/stats/mean_ci.c) against R's
 * t.test() (tests/reference/mean_ci_reference.R prints the values below),
 * kernel release order (src/util/version.c), and the series that
 * analysis/history.c builds from stored batches: pooling, order, filters
 * and change points on the points' means.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/history.h"
#include "stats/mean_ci.h"
#include "util/array.h"
#include "util/version.h"

static void assert_rel(double actual, double expected)
{
	if (fabs(actual - expected) <= 1e-6 * fmax(fabs(expected), 1))
		return;
	fail_msg("expected %.17g, got %.17g", expected, actual);
}

struct ci_case {
	const char *set;
	double level, low, high;
};

/* the output of mean_ci_reference.R */
static const struct ci_case ci_cases[] = {
	{ "small", 0.95, 1.0367568385224428, 4.963243161477557 },
	{ "small", 0.99, -0.25558670475778478, 6.2555867047577847 },
	{ "small", 0.50, 2.4762480690188196, 3.5237519309811809 },
	{ "lat", 0.95, 999.10202882280805, 1012.6229711771917 },
	{ "lat", 0.99, 995.8574617995896, 1015.8675382004101 },
	{ "lat", 0.50, 1003.8293425161498, 1007.8956574838498 },
	{ "two", 0.95, -4.8531023680873471, 7.8531023680873471 },
	{ "two", 0.99, -30.328370581435763, 33.328370581435763 },
	{ "two", 0.50, 1, 2 },
	{ "offset", 0.95, 1000000000.4457397, 1000000004.5542603 },
	{ "offset", 0.99, 999999998.72970927, 1000000006.2702907 },
	{ "offset", 0.50, 1000000002.0062641, 1000000002.9937359 },
};

static void test_mean_ci(void **state)
{
	static const double small[] = { 1, 2, 3, 4, 5 };
	static const double lat[] = { 1012.3, 998.7, 1005.1, 1020.4, 1001.9, 995.2,
				      1010.0, 1003.3 };
	static const double two[] = { 1, 2 };
	static const double offset[] = { 1e9 + 1, 1e9 + 2, 1e9 + 4, 1e9 + 3 };
	const struct { const char *name; const double *x; size_t n; } sets[] = {
		{ "small", small, 5 }, { "lat", lat, 8 }, { "two", two, 2 },
		{ "offset", offset, 4 },
	};
	double low, high;

	for (size_t c = 0; c < ARRAY_SIZE(ci_cases); c++)
		for (size_t s = 0; s < ARRAY_SIZE(sets); s++) {
			if (strcmp(sets[s].name, ci_cases[c].set))
				continue;
			mean_ci(sets[s].x, sets[s].n, ci_cases[c].level, &low, &high);
			assert_rel(low, ci_cases[c].low);
			assert_rel(high, ci_cases[c].high);
		}
	mean_ci(small, 1, 0.95, &low, &high);
	assert_true(isnan(low) && isnan(high));
	mean_ci(small, 5, 1, &low, &high);
	assert_true(isnan(low) && isnan(high));
}

static void test_version_order(void **state)
{
	/* each strictly before the next */
	static const char *const order[] = {
		"v5.8", "5.9-rc1", "5.9-rc2", "5.9-rc10", "5.9", "5.9.1", "5.9.1-1-amd64",
		"5.10-rc1", "5.10", "5.10.0", "6.2", "6.18.44", "6.18.44-fc", "6.18.44-fc-v782",
		"6.18.44-fc-v1000", "baseline", "patched",
	};

	for (size_t i = 0; i < ARRAY_SIZE(order); i++)
		for (size_t j = 0; j < ARRAY_SIZE(order); j++) {
			int c = version_compare(order[i], order[j]);

			if (i < j ? c >= 0 : i > j ? c <= 0 : c != 0)
				fail_msg("%s vs %s: %d", order[i], order[j], c);
		}
	assert_true(version_compare("05.10", "5.10") != 0);
}

/* A batch of run @name with one benchmark and one metric of @n samples. */
static void add_batch(struct result_set *set, const char *name, const char *started,
		      int64_t id, const char *params, const double *samples, size_t n)
{
	struct result_batch *b = result_set_add_batch(set);
	struct result_benchmark *bench = result_batch_add_benchmark(b);
	struct result_metric *m = result_benchmark_add_metric(bench);

	b->id = id;
	b->name = strdup(name);
	b->started = strdup(started);
	bench->workload = strdup("pipe");
	bench->params = strdup(params);
	m->name = strdup("usec_per_op");
	m->unit = strdup("usec");
	m->source = strdup("workload");
	m->better = BETTER_LOWER;
	for (size_t i = 0; i < n; i++)
		result_metric_add_sample(m, samples[i], false);
}

static void test_history_build(void **state)
{
	const double a[] = { 1, 2, 3 }, b[] = { 5, 7 }, c[] = { 10 };
	const char *const loops[] = { "loops=10", NULL };
	struct history_options opts;
	struct result_set set = { 0 };
	struct history h;

	add_batch(&set, "5.10", "2026-01-03T00:00:00Z", 1, "{\"loops\":\"10\"}", a, 3);
	add_batch(&set, "5.9", "2026-01-01T00:00:00Z", 2, "{\"loops\":\"10\"}", b, 2);
	add_batch(&set, "5.10", "2026-01-02T00:00:00Z", 3, "{\"loops\":\"10\"}", c, 1);
	add_batch(&set, "5.9", "2026-01-04T00:00:00Z", 4, "{\"loops\":\"20\"}", c, 1);

	/* by run, in start order: 5.9 (first batch on the 1st), then 5.10 */
	history_options_init(&opts);
	history_build(&h, &set, &opts);
	assert_int_equal(h.nr_series, 2);
	assert_int_equal(h.series[0].nr_points, 2);
	assert_string_equal(h.series[0].points[0].run, "5.9");
	assert_rel(h.series[0].points[0].mean, 6);
	assert_string_equal(h.series[0].points[1].run, "5.10");
	assert_string_equal(h.series[0].points[1].started, "2026-01-02T00:00:00Z");
	assert_int_equal(h.series[0].points[1].nr_samples, 4);
	assert_rel(h.series[0].points[1].mean, 4);
	assert_rel(h.series[0].points[1].median, 2.5);
	assert_int_equal(h.series[1].nr_points, 1);
	history_release(&h);

	/* name order puts "5.10" first, version order "5.9" */
	opts.order = HISTORY_ORDER_NAME;
	history_build(&h, &set, &opts);
	assert_string_equal(h.series[0].points[0].run, "5.10");
	history_release(&h);
	opts.order = HISTORY_ORDER_VERSION;
	history_build(&h, &set, &opts);
	assert_string_equal(h.series[0].points[0].run, "5.9");
	history_release(&h);

	/* by batch, in start order, filtered by a parameter */
	opts.order = HISTORY_ORDER_STARTED;
	opts.by = HISTORY_BY_BATCH;
	opts.params = loops;
	history_build(&h, &set, &opts);
	assert_int_equal(h.nr_series, 1);
	assert_int_equal(h.series[0].nr_points, 3);
	assert_int_equal(h.series[0].points[0].batch, 2);
	assert_int_equal(h.series[0].points[1].batch, 3);
	assert_int_equal(h.series[0].points[2].batch, 1);
	assert_true(isnan(h.series[0].points[1].ci_low));
	history_release(&h);
	result_set_release(&set);
}

/*
 * Two machines run the same run names, their batches interleaved in time,
 * in opposite orders: each machine's points are dated and ordered by its
 * own batches, in every order and by run or by batch; pooled, by all.
 */
static void test_history_machines(void **state)
{
	static const char *const names[] = { "r1", "r2", "r3", "r4" };
	static const enum history_order orders[] = {
		HISTORY_ORDER_STARTED, HISTORY_ORDER_NAME, HISTORY_ORDER_VERSION,
	};
	static const enum history_by bys[] = { HISTORY_BY_RUN, HISTORY_BY_BATCH };
	struct history_options opts;
	struct result_set set = { 0 };
	struct history h;
	char started[32];
	int64_t id = 1;

	/* m1 runs r1..r4 on days 2, 4, 6, 8; m2 runs r4..r1 on days 1, 3, 5, 7 */
	for (int i = 0; i < 4; i++)
		for (int m = 0; m < 2; m++) {
			const double x[] = { 10.0 * (m + 1) + i };
			int run = m ? 3 - i : i;
			struct result_batch *b;

			snprintf(started, sizeof(started), "2026-01-%02dT00:00:00Z", 2 * i + 2 - m);
			add_batch(&set, names[run], started, id++, "{}", x, 1);
			b = &set.batches[set.nr_batches - 1];
			result_batch_add_env(b, "machine.hostname", m ? "m2" : "m1");
			result_batch_add_env(b, "machine.id", m ? "22" : "11");
			result_batch_sort_env(b);
		}
	history_options_init(&opts);
	for (size_t o = 0; o < ARRAY_SIZE(orders); o++)
		for (size_t k = 0; k < ARRAY_SIZE(bys); k++) {
			opts.order = orders[o];
			opts.by = bys[k];
			history_build(&h, &set, &opts);
			assert_int_equal(h.nr_series, 2);
			for (size_t si = 0; si < 2; si++) {
				const struct history_series *s = &h.series[si];
				int m = !strcmp(s->machine, "m2");

				assert_int_equal(s->nr_points, 4);
				for (size_t p = 0; p < 4; p++) {
					/* by start, m2 saw r4 first; by name, r1 is first */
					int run = m && orders[o] == HISTORY_ORDER_STARTED ? 3 - (int)p :
						  (int)p;
					int i = m ? 3 - run : run;

					snprintf(started, sizeof(started),
						 "2026-01-%02dT00:00:00Z", 2 * i + 2 - m);
					assert_string_equal(s->points[p].run, names[run]);
					assert_string_equal(s->points[p].started, started);
					assert_rel(s->points[p].mean, 10.0 * (m + 1) + i);
				}
			}
			history_release(&h);
		}
	/* pooled: one point per name, dated by its first batch on any machine */
	opts.order = HISTORY_ORDER_STARTED;
	opts.by = HISTORY_BY_RUN;
	opts.pool_machines = true;
	history_build(&h, &set, &opts);
	assert_int_equal(h.nr_series, 1);
	assert_string_equal(h.series[0].points[0].run, "r4");
	assert_string_equal(h.series[0].points[0].started, "2026-01-01T00:00:00Z");
	assert_int_equal(h.series[0].points[0].nr_samples, 2);
	history_release(&h);
	result_set_release(&set);
}

/* A step in the means is found where it is, with its direction. */
static void test_history_detect(void **state)
{
	struct change_point_options cp;
	struct history_options opts;
	struct result_set set = { 0 };
	struct history h;
	char name[16], started[32];

	for (int i = 0; i < 20; i++) {
		double x[3] = { 10 + (i % 3) * 0.1, 10.05 + (i % 2) * 0.1, 10.1 };

		for (size_t k = 0; k < 3 && i >= 12; k++)
			x[k] *= 1.1;	/* 10 % slower from run 12 on */
		snprintf(name, sizeof(name), "r%02d", i);
		snprintf(started, sizeof(started), "2026-01-01T00:00:%02dZ", i);
		add_batch(&set, name, started, i + 1, "{}", x, 3);
	}
	history_options_init(&opts);
	history_build(&h, &set, &opts);
	change_point_options_init(&cp);
	history_detect(&h, &cp);
	assert_int_equal(h.series[0].nr_changes, 1);
	assert_int_equal(h.series[0].changes[0].cp.index, 12);
	assert_true(h.series[0].changes[0].regression);
	assert_rel(h.series[0].changes[0].pct_change,
		   100 - h.series[0].changes[0].cp.sides.mean_after /
		   h.series[0].changes[0].cp.sides.mean_before * 100);
	assert_true(history_newest_is_regression(&h));
	history_release(&h);
	result_set_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mean_ci),
		cmocka_unit_test(test_version_order),
		cmocka_unit_test(test_history_build),
		cmocka_unit_test(test_history_machines),
		cmocka_unit_test(test_history_detect),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
