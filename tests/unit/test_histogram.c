// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the log-linear histogram: on distributions whose exact
 * nearest-rank percentiles are known, every reported percentile is within
 * HISTOGRAM_REL_ERROR of the exact one, percentiles are ordered, small
 * values are exact, merging equals adding, and huge values do not overflow.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "stats/histogram.h"
#include "util/array.h"

static const double percents[] = { 1, 10, 20, 50, 90, 99, 99.9, 99.99, 100 };
#define NR_PERCENTS (ARRAY_SIZE(percents))

static struct histogram *new_histogram(void)
{
	struct histogram *h = malloc(sizeof(*h));

	assert_non_null(h);
	histogram_init(h);
	return h;
}

/* Nearest-rank percentile of the sorted values @sorted[0 .. n-1]. */
static double exact_percentile(const uint64_t *sorted, size_t n, double p)
{
	size_t rank = (size_t)ceil(p / 100.0 * (double)n - 1e-9);

	if (rank < 1)
		rank = 1;
	return (double)sorted[rank - 1];
}

static void assert_within_bound(const struct histogram *h, const uint64_t *sorted, size_t n)
{
	double previous = 0;

	for (size_t i = 0; i < NR_PERCENTS; i++) {
		double got = histogram_percentile(h, percents[i]);
		double want = exact_percentile(sorted, n, percents[i]);

		if (fabs(got - want) > want * HISTOGRAM_REL_ERROR)
			fail_msg("p%g: got %.3f, exact %.0f, bound %.5f", percents[i], got,
				 want, HISTOGRAM_REL_ERROR);
		assert_true(got >= previous);
		previous = got;
	}
}

/* Uniform integers 1..100000: the exact percentile p is 1000 * p. */
static void test_uniform(void **state)
{
	struct histogram *h = new_histogram();
	size_t n = 100000;
	uint64_t *sorted = malloc(n * sizeof(*sorted));

	assert_non_null(sorted);
	for (size_t i = 0; i < n; i++) {
		sorted[i] = i + 1;
		histogram_add(h, n - i);	/* order of arrival must not matter */
	}
	assert_int_equal(h->count, n);
	assert_int_equal(h->min, 1);
	assert_int_equal(h->max, n);
	assert_within_bound(h, sorted, n);
	assert_true(fabs(histogram_percentile(h, 50) - 50000) <= 50000 * HISTOGRAM_REL_ERROR);
	assert_true(fabs(histogram_percentile(h, 99.9) - 99900) <= 99900 * HISTOGRAM_REL_ERROR);
	free(sorted);
	free(h);
}

/* Powers of 1.01 over nine decades: every bucket width is exercised. */
static void test_geometric(void **state)
{
	struct histogram *h = new_histogram();
	uint64_t sorted[2100];
	size_t n = 0;

	for (double v = 1; v < 1e12 && n < 2100; v *= 1.01) {
		sorted[n] = (uint64_t)v;
		histogram_add(h, sorted[n++]);
	}
	assert_within_bound(h, sorted, n);
	free(h);
}

static void test_small_values_exact(void **state)
{
	struct histogram *h = new_histogram();

	for (uint64_t v = 0; v < 256; v++)
		histogram_add(h, v);
	for (uint64_t v = 1; v <= 256; v++)
		assert_true(histogram_percentile(h, (double)v * 100.0 / 256.0) == (double)(v - 1));
	free(h);
}

static void test_merge_and_edges(void **state)
{
	struct histogram *a = new_histogram(), *b = new_histogram(), *all = new_histogram();

	assert_true(isnan(histogram_percentile(a, 50)));
	for (uint64_t v = 1; v <= 1000; v++) {
		histogram_add(v % 2 ? a : b, v * 977);
		histogram_add(all, v * 977);
	}
	histogram_merge(a, b);
	assert_int_equal(a->count, all->count);
	assert_int_equal(a->min, all->min);
	assert_int_equal(a->max, all->max);
	for (size_t i = 0; i < NR_PERCENTS; i++)
		assert_true(histogram_percentile(a, percents[i]) ==
			    histogram_percentile(all, percents[i]));
	histogram_add(all, UINT64_MAX);
	assert_true(histogram_percentile(all, 100) == (double)UINT64_MAX);
	assert_true(isnan(histogram_percentile(all, 0)));
	free(a);
	free(b);
	free(all);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uniform),
		cmocka_unit_test(test_geometric),
		cmocka_unit_test(test_small_values_exact),
		cmocka_unit_test(test_merge_and_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
