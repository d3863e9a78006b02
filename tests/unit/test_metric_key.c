// SPDX-License-Identifier: GPL-2.0
/*
 * The identity of a metric across runs (src/results/metric_key.c): name,
 * unit and direction, its order and hash; and the two models built on it,
 * compare's rows (analysis/comparison.c) and history's series
 * (analysis/history.c), which keep "m" in s, "m" in ms and "m" where
 * higher is better apart, never one row or series.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/comparison.h"
#include "analysis/history.h"
#include "results/metric_key.h"
#include "util/hash.h"

static void test_cmp(void **state)
{
	struct metric_key s = { "m", "s", BETTER_LOWER }, ms = { "m", "ms", BETTER_LOWER };
	struct metric_key hi = { "m", "s", BETTER_HIGHER }, n = { "n", "s", BETTER_LOWER };
	struct metric_key s2 = { "m", "s", BETTER_LOWER };
	struct metric_key none = { "m", NULL, BETTER_LOWER }, empty = { "m", "", BETTER_LOWER };

	(void)state;
	assert_true(metric_key_same(&s, &s2));
	assert_false(metric_key_same(&s, &ms));
	assert_false(metric_key_same(&s, &hi));
	assert_false(metric_key_same(&s, &n));
	/* a total order: name, then unit, then direction */
	assert_true(metric_key_cmp(&ms, &s) < 0 && metric_key_cmp(&s, &ms) > 0);
	assert_true(metric_key_cmp(&s, &hi) < 0 && metric_key_cmp(&hi, &s) > 0);
	assert_true(metric_key_cmp(&hi, &n) < 0 && metric_key_cmp(&n, &ms) > 0);
	/* no unit stored reads as the empty unit */
	assert_true(metric_key_same(&none, &empty));
	assert_false(metric_key_same(&none, &s));
}

static void test_differences(void **state)
{
	struct metric_key s = { "m", "s", BETTER_LOWER }, ms = { "m", "ms", BETTER_LOWER };
	struct metric_key hi = { "m", "s", BETTER_HIGHER }, n = { "n", "s", BETTER_LOWER };
	struct metric_key ms_hi = { "m", "ms", BETTER_HIGHER }, none = { "m", NULL, BETTER_LOWER };
	struct metric_key empty = { "m", "", BETTER_LOWER };

	(void)state;
	assert_int_equal(metric_key_differences(&s, &s), 0);
	assert_int_equal(metric_key_differences(&none, &empty), 0);
	assert_int_equal(metric_key_differences(&s, &ms), METRIC_KEY_UNIT);
	assert_int_equal(metric_key_differences(&s, &hi), METRIC_KEY_BETTER);
	assert_int_equal(metric_key_differences(&s, &n), METRIC_KEY_NAME);
	assert_int_equal(metric_key_differences(&s, &ms_hi), METRIC_KEY_UNIT | METRIC_KEY_BETTER);
	assert_int_equal(metric_key_differences(&none, &s), METRIC_KEY_UNIT);
}

static void test_hash(void **state)
{
	struct metric_key s = { "m", "s", BETTER_LOWER }, s2 = { "m", "s", BETTER_LOWER };
	struct metric_key hi = { "m", "s", BETTER_HIGHER }, ms = { "m", "ms", BETTER_LOWER };
	struct metric_key ab_c = { "ab", "c", BETTER_LOWER }, a_bc = { "a", "bc", BETTER_LOWER };
	struct metric_key none = { "m", NULL, BETTER_LOWER }, empty = { "m", "", BETTER_LOWER };

	(void)state;
	assert_int_equal(metric_key_hash(FNV1A_INIT, &s), metric_key_hash(FNV1A_INIT, &s2));
	assert_int_equal(metric_key_hash(FNV1A_INIT, &none), metric_key_hash(FNV1A_INIT, &empty));
	assert_int_not_equal(metric_key_hash(FNV1A_INIT, &s), metric_key_hash(FNV1A_INIT, &hi));
	assert_int_not_equal(metric_key_hash(FNV1A_INIT, &s), metric_key_hash(FNV1A_INIT, &ms));
	assert_int_not_equal(metric_key_hash(FNV1A_INIT, &ab_c),
			     metric_key_hash(FNV1A_INIT, &a_bc));
}

/* A batch @name of workload w whose metric m is in @unit, @better, samples @x. */
static void add_batch(struct result_set *set, const char *name, int64_t id, const char *unit,
		      enum better better, double x)
{
	struct result_batch *b = result_set_add_batch(set);
	struct result_benchmark *bench = result_batch_add_benchmark(b);
	struct result_metric *m = result_benchmark_add_metric(bench);
	char started[32];

	snprintf(started, sizeof(started), "2026-01-01T00:00:%02lldZ", (long long)id);
	b->id = id;
	b->name = strdup(name);
	b->started = strdup(started);
	b->complete = true;
	bench->workload = strdup("w");
	bench->params = strdup("{}");
	m->name = strdup("m");
	m->unit = strdup(unit);
	m->source = strdup("workload");
	m->better = better;
	for (int i = 0; i < 4; i++)
		result_metric_add_sample(m, x + 0.01 * i, false);
}

/* The hostile tester's three runs: a in s, b higher is better, c in ms. */
static void three_runs(struct result_set *set, bool one_set)
{
	add_batch(&set[0], "a", 1, "s", BETTER_LOWER, 1.5);
	add_batch(&set[one_set ? 0 : 1], "b", 2, "s", BETTER_HIGHER, 1.5);
	add_batch(&set[one_set ? 0 : 2], "c", 3, "ms", BETTER_LOWER, 1);
}

static void test_comparison_rows(void **state)
{
	struct compare_run runs[3] = { { "a", { 0 } }, { "b", { 0 } }, { "c", { 0 } } };
	struct result_set sets[3] = { { 0 } };
	struct comparison cmp;

	(void)state;
	three_runs(sets, false);
	for (int r = 0; r < 3; r++)
		runs[r].set = sets[r];
	comparison_build(&cmp, runs, 3, false);
	assert_int_equal(cmp.nr_rows, 3);
	/* in the order they first appear, each run's samples in its own row only */
	assert_string_equal(cmp.rows[0].metric->unit, "s");
	assert_int_equal(cmp.rows[0].metric->better, BETTER_LOWER);
	assert_string_equal(cmp.rows[1].metric->unit, "s");
	assert_int_equal(cmp.rows[1].metric->better, BETTER_HIGHER);
	assert_string_equal(cmp.rows[2].metric->unit, "ms");
	for (size_t i = 0; i < 3; i++)
		for (size_t r = 0; r < 3; r++)
			assert_int_equal(cmp.rows[i].cells[r].nr_samples, i == r ? 4 : 0);
	for (size_t i = 0; i < 3; i++)
		assert_true(comparison_metric_name_shared(&cmp, cmp.rows[i].metric));
	comparison_release(&cmp);
	for (int r = 0; r < 3; r++)
		result_set_release(&sets[r]);
}

static void test_history_series(void **state)
{
	struct history_options opts;
	struct change_point_options cp;
	struct result_set set = { 0 };
	struct history h;

	(void)state;
	three_runs(&set, true);
	add_batch(&set, "d", 4, "ms", BETTER_LOWER, 1);
	history_options_init(&opts);
	history_build(&h, &set, &opts);
	assert_int_equal(h.nr_series, 3);
	assert_string_equal(h.series[0].metric->unit, "s");
	assert_int_equal(h.series[0].nr_points, 1);
	assert_int_equal(h.series[1].metric->better, BETTER_HIGHER);
	assert_int_equal(h.series[1].nr_points, 1);
	/* the same metric in two runs is still one series */
	assert_string_equal(h.series[2].metric->unit, "ms");
	assert_int_equal(h.series[2].nr_points, 2);
	change_point_options_init(&cp);
	history_detect(&h, &cp);
	for (size_t i = 0; i < h.nr_series; i++)
		assert_int_equal(h.series[i].nr_changes, 0);
	history_release(&h);
	result_set_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cmp),
		cmocka_unit_test(test_differences),
		cmocka_unit_test(test_hash),
		cmocka_unit_test(test_comparison_rows),
		cmocka_unit_test(test_history_series),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
