// SPDX-License-Identifier: GPL-2.0
/*
 * The statistics of src/stats/ at sizes where their cost matters: the
 * radix sort, quickselect, the Hodges–Lehmann selection from the implicit matrix of
 * pairwise differences (checked exactly against sorting every difference,
 * as the code did before), and the large-sample limit of the bootstrap
 * interval, and every test on samples near the largest double. Reference
 * values are printed by
 * tests/reference/large_sample_reference.R (R's wilcox.test and the limit's
 * formulas written in R); each block names the line it compares with.
 */
#ifndef MATHLIB_STANDALONE
#define MATHLIB_STANDALONE	/* Rmath without R itself */
#endif
#include <Rmath.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stats/bootstrap.h"
#include "stats/hodges_lehmann.h"
#include "stats/mannwhitney.h"
#include "stats/rng.h"
#include "stats/select.h"
#include "stats/sort.h"
#include "stats/welch.h"

#define REL 1e-6

static void assert_close_at(double actual, double expected, double rel,
			    const char *file, int line)
{
	double scale = fabs(expected) > 1 ? fabs(expected) : 1;

	if (fabs(actual - expected) <= rel * scale)
		return;
	print_error("expected %.17g, got %.17g (rel %g)\n", expected, actual, rel);
	_fail(file, line);
}
#define assert_close(actual, expected, rel) \
	assert_close_at((actual), (expected), (rel), __FILE__, __LINE__)

static int cmp_nan_last(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	return (a > b) - (a < b);
}

/* lognormal quantiles, as the R script builds them */
static double *quantile_sample(size_t n, double sigma, double scale)
{
	double *x = malloc(n * sizeof(*x));

	for (size_t i = 0; i < n; i++)
		x[i] = scale * exp(sigma * qnorm(((double)i + 0.5) / (double)n, 0, 1, 1, 0));
	return x;
}

/* ------------------------------------------------------------ sort */

/* both paths (insertion, radix) against qsort, with signs, zeros, inf, NAN */
static void test_sort_doubles(void **state)
{
	static const double special[] = { -0.0, 0.0, INFINITY, -INFINITY, NAN,
					  -1e308, 1e-310, -1e-310, 5e-324 };
	const size_t sizes[] = { 0, 1, 2, 17, 64, 65, 1000, 100000 };
	struct rng rng;

	rng_seed(&rng, 5);
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		size_t n = sizes[s];
		double *x = malloc((n + 1) * sizeof(*x)), *y = malloc((n + 1) * sizeof(*y));

		for (size_t i = 0; i < n; i++) {
			uint64_t r = rng_next(&rng);

			if (r % 10 == 0)
				x[i] = special[r / 10 % (sizeof(special) / sizeof(special[0]))];
			else if (r % 10 < 5)
				x[i] = (double)(int64_t)(r >> 40) - (double)(1 << 23);
			else
				x[i] = ((double)(r >> 11) - 4e15) * 1e-3;
		}
		memcpy(y, x, n * sizeof(*x));
		sort_doubles(x, n);
		qsort(y, n, sizeof(*y), cmp_nan_last);
		for (size_t i = 0; i < n; i++) {
			if (isnan(y[i]))
				assert_true(isnan(x[i]));
			else
				assert_true(x[i] == y[i]);
		}
		free(x);
		free(y);
	}
}

/*
 * Every rank selected from random values with many ties (some sets all
 * one value), against qsort: the value at k, nothing larger before it and
 * nothing smaller after it, and the values only reordered.
 */
static void test_select_kth(void **state)
{
	const size_t sizes[] = { 1, 2, 3, 16, 17, 18, 100, 1000, 3000 };
	struct rng rng;

	rng_seed(&rng, 11);
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		size_t n = sizes[s];
		double *x = malloc(n * sizeof(*x)), *y = malloc(n * sizeof(*y));
		double *z = malloc(n * sizeof(*z));

		for (int distinct = 1; distinct <= 1 << 20; distinct *= 32) {
			for (size_t i = 0; i < n; i++)
				y[i] = (double)rng_below(&rng, (uint64_t)distinct) - distinct / 2;
			qsort(memcpy(z, y, n * sizeof(*y)), n, sizeof(*z), cmp_nan_last);
			for (size_t k = 0; k < n; k += 1 + n / 50) {
				double v = select_kth(memcpy(x, y, n * sizeof(*y)), n, k);

				assert_true(v == z[k] && x[k] == v);
				for (size_t i = 0; i < n; i++)
					assert_true(i < k ? x[i] <= v : x[i] >= v);
				qsort(x, n, sizeof(*x), cmp_nan_last);
				assert_memory_equal(x, z, n * sizeof(*x));
			}
		}
		free(x);
		free(y);
		free(z);
	}
}

/* ------------------------------------------------------------ hl */

/*
 * Every order statistic of the differences, selected, against all of them
 * sorted, on random sizes with many ties, huge and negative values.
 */
static void test_hl_selection_brute_force(void **state)
{
	struct rng rng;

	rng_seed(&rng, 11);
	for (int round = 0; round < 200; round++) {
		size_t nb = 1 + rng_below(&rng, 40), nn = 1 + rng_below(&rng, 40);
		int kind = (int)rng_below(&rng, 3);
		double *b = malloc(nb * sizeof(*b)), *n = malloc(nn * sizeof(*n));
		double *all = malloc(nb * nn * sizeof(*all));

		for (size_t i = 0; i < nb + nn; i++) {
			double v = kind == 0 ? (double)rng_below(&rng, 7) :
				   kind == 1 ? (double)rng_next(&rng) / 1e18 - 9 :
				   1e306 * (double)rng_below(&rng, 50);

			if (i < nb)
				b[i] = v;
			else
				n[i - nb] = v;
		}
		for (size_t i = 0; i < nb; i++)
			for (size_t j = 0; j < nn; j++)
				all[i * nn + j] = n[j] - b[i];
		qsort(all, nb * nn, sizeof(*all), cmp_nan_last);
		for (size_t k = 0; k < nb * nn; k++)
			assert_true(hl_difference_kth(b, nb, n, nn, k) == all[k]);
		free(b);
		free(n);
		free(all);
	}
}

/*
 * hl_estimate_sorted() and mwu_test_sorted() on sorted copies give what
 * hl_estimate() (@r) and mwu_test() give on the samples as they came.
 */
static void assert_sorted_variants_agree(const double *b, size_t nb, const double *n, size_t nn,
					 const struct hl_result *r)
{
	double *bs = malloc(nb * sizeof(*bs)), *ns = malloc(nn * sizeof(*ns));
	struct mwu_result u, us;
	struct hl_result rs;

	qsort(memcpy(bs, b, nb * sizeof(*b)), nb, sizeof(*bs), cmp_nan_last);
	qsort(memcpy(ns, n, nn * sizeof(*n)), nn, sizeof(*ns), cmp_nan_last);
	hl_estimate_sorted(bs, nb, ns, nn, 0.95, &rs);
	assert_memory_equal(&rs.shift, &r->shift, sizeof(rs.shift));
	assert_memory_equal(&rs.low, &r->low, sizeof(rs.low));
	assert_memory_equal(&rs.high, &r->high, sizeof(rs.high));
	assert_true(rs.exact == r->exact);
	mwu_test(b, nb, n, nn, &u);
	mwu_test_sorted(bs, nb, ns, nn, &us);
	assert_true(u.u == us.u && u.exact == us.exact && (u.p == us.p || (isnan(u.p) && isnan(us.p))));
	free(bs);
	free(ns);
}

/*
 * The estimate selects up to four ranks one after the other from the
 * differences it formed (small samples), each search confined by the
 * ranks placed before: its shift is still the median of all of them, and
 * its ends are differences, on samples with ties and without.
 */
static void test_hl_estimate_formed(void **state)
{
	struct rng rng;

	rng_seed(&rng, 12);
	for (int round = 0; round < 100; round++) {
		size_t nb = 1 + rng_below(&rng, 60), nn = 1 + rng_below(&rng, 60), k = 0;
		bool ties = round % 2;
		double *b = malloc(nb * sizeof(*b)), *n = malloc(nn * sizeof(*n));
		double *all = malloc(nb * nn * sizeof(*all)), median;
		struct hl_result r;
		bool low_found = false, high_found = false;

		for (size_t i = 0; i < nb; i++)
			b[i] = ties ? (double)rng_below(&rng, 9) : (double)rng_next(&rng) / 1e18;
		for (size_t j = 0; j < nn; j++)
			n[j] = ties ? (double)rng_below(&rng, 9) : (double)rng_next(&rng) / 1e18;
		for (size_t i = 0; i < nb; i++)
			for (size_t j = 0; j < nn; j++)
				all[k++] = n[j] - b[i];
		qsort(all, k, sizeof(*all), cmp_nan_last);
		median = k % 2 ? all[k / 2] : (all[k / 2 - 1] + all[k / 2]) / 2;
		hl_estimate(b, nb, n, nn, 0.95, &r);
		assert_true(r.shift == median);
		assert_sorted_variants_agree(b, nb, n, nn, &r);
		for (size_t i = 0; i < k; i++) {
			low_found |= all[i] == r.low;
			high_found |= all[i] == r.high;
		}
		assert_true(isnan(r.low) || (low_found && high_found && r.low <= r.high));
		free(b);
		free(n);
		free(all);
	}
}

/* millions of differences go through the selection's pivot rounds too */
static void test_hl_selection_large(void **state)
{
	const size_t nb = 1500, nn = 1300;
	double *b = quantile_sample(nb, 0.5, 10), *n = quantile_sample(nn, 0.7, 11);
	double *all = malloc(nb * nn * sizeof(*all));
	const size_t ks[] = { 0, 1, 12345, nb * nn / 2, nb * nn - 2, nb * nn - 1 };

	for (size_t i = 0; i < nb; i++)
		for (size_t j = 0; j < nn; j++)
			all[i * nn + j] = n[j] - b[i];
	qsort(all, nb * nn, sizeof(*all), cmp_nan_last);
	for (size_t i = 0; i < sizeof(ks) / sizeof(ks[0]); i++)
		assert_true(hl_difference_kth(b, nb, n, nn, ks[i]) == all[ks[i]]);
	free(all);
	free(b);
	free(n);
}

/* "hl 2000/1500 ...": R's wilcox.test, ends rounded to their difference */
static void test_hl_large_reference(void **state)
{
	double *b = quantile_sample(2000, 0.5, 10), *n = quantile_sample(1500, 0.6, 10.3);
	struct hl_result r;

	for (size_t i = 0; i < 2000; i++)
		b[i] = floor(b[i] * 100 + 0.5) / 100;
	for (size_t i = 0; i < 1500; i++)
		n[i] = floor(n[i] * 100 + 0.5) / 100;
	hl_estimate(b, 2000, n, 1500, 0.95, &r);
	assert_false(r.exact);
	assert_close(r.shift, 0.27999999999999936, REL);
	assert_close(r.low, -0.080000000000000002, REL);
	assert_close(r.high, 0.64000000000000001, REL);
	free(b);
	free(n);
}

/* ------------------------------------------------------------ bootstrap limit */

/*
 * "limit 200/180 ...": the formulas in R. Then the resampled interval of
 * the same samples with 200,000 resamples must lie within 0.4 % of the
 * interval's width of the limit: its Monte Carlo scatter is about 0.15 %,
 * and the first-order normal limit (no skew, no curvature) is 0.6 % off.
 */
static void test_bootstrap_limit(void **state)
{
	double *b = quantile_sample(200, 1.0, 1), *n = quantile_sample(180, 1.1, 1.02);
	double low, high, boot_low, boot_high, width;

	assert_int_equal(bootstrap_ratio_limit(b, 200, n, 180, 0.95, &low, &high), 0);
	assert_close(low, 0.86549651431541352, REL);
	assert_close(high, 1.4659758877519544, REL);

	assert_int_equal(bootstrap_ratio_ci(b, 200, n, 180, 200000, 0.95, 1,
					    &boot_low, &boot_high), 0);
	width = boot_high - boot_low;
	assert_true(fabs(low - boot_low) < 0.004 * width);
	assert_true(fabs(high - boot_high) < 0.004 * width);
	free(b);
	free(n);
}

/* beyond BOOTSTRAP_MAX_DRAWS the bootstrap answers with its limit */
static void test_bootstrap_switches_to_limit(void **state)
{
	const size_t n = BOOTSTRAP_MAX_DRAWS / BOOTSTRAP_RESAMPLES / 2 + 1;
	double *b = quantile_sample(n, 0.3, 1), *x = quantile_sample(n, 0.3, 1.01);
	double low, high, limit_low, limit_high;

	assert_int_equal(bootstrap_ratio_ci(b, n, x, n, BOOTSTRAP_RESAMPLES, 0.95,
					    BOOTSTRAP_SEED, &low, &high), 0);
	assert_int_equal(bootstrap_ratio_limit(b, n, x, n, 0.95, &limit_low, &limit_high), 0);
	assert_true(low == limit_low && high == limit_high);
	assert_true(low < 1.01 && high > 1.01);
	free(b);
	free(x);
}

static void test_bootstrap_limit_degenerate(void **state)
{
	static const double zero[] = { 0, 0, 0 }, one[] = { 1, 1, 1 }, two[] = { 2, 2 };
	static const double huge[] = { 1.7e308, 1.75e308, 1.79e308 };
	double low, high;

	/* a zero base mean: no ratio */
	assert_int_equal(bootstrap_ratio_limit(zero, 3, one, 3, 0.95, &low, &high), -1);
	assert_true(isnan(low) && isnan(high));
	/* constant samples: the ratio itself */
	assert_int_equal(bootstrap_ratio_limit(one, 3, two, 2, 0.95, &low, &high), 0);
	assert_close(low, 2, REL);
	assert_close(high, 2, REL);
	/* samples near the largest double neither overflow nor lose the ratio */
	assert_int_equal(bootstrap_ratio_limit(huge, 3, huge, 3, 0.95, &low, &high), 0);
	assert_true(low < 1 && high > 1 && isfinite(low) && isfinite(high));
	assert_int_equal(bootstrap_ratio_limit(one, 0, two, 2, 0.95, &low, &high), -1);
}

/*
 * Samples near the largest double: each test must give what it gives on
 * the same samples scaled down by 2^64 (every one is scale-invariant, the
 * shift scales with them), where nothing overflows.
 */
static void test_near_dbl_max(void **state)
{
	double base[12], new[11], base_s[12], new_s[11];
	double low, high, low_s, high_s;
	struct welch_result w, w_s;
	struct hl_result h, h_s;

	for (int i = 0; i < 12; i++) {
		base[i] = 1.6e308 + 1e306 * (i % 5);
		base_s[i] = ldexp(base[i], -64);
	}
	for (int i = 0; i < 11; i++) {
		new[i] = 1.7e308 + 1e306 * (i % 4);
		new_s[i] = ldexp(new[i], -64);
	}
	welch_test(base, 12, new, 11, &w);
	welch_test(base_s, 12, new_s, 11, &w_s);
	assert_true(isfinite(w.t) && w.p < 1e-6);
	assert_close(w.t, w_s.t, 1e-12);
	assert_close(w.df, w_s.df, 1e-12);
	assert_close(w.p, w_s.p, 1e-9);

	assert_int_equal(bootstrap_ratio_ci(base, 12, new, 11, 2000, 0.95, 3, &low, &high), 0);
	assert_int_equal(bootstrap_ratio_ci(base_s, 12, new_s, 11, 2000, 0.95, 3,
					    &low_s, &high_s), 0);
	assert_true(low == low_s && high == high_s);

	hl_estimate(base, 12, new, 11, 0.95, &h);
	hl_estimate(base_s, 12, new_s, 11, 0.95, &h_s);
	assert_true(h.shift == ldexp(h_s.shift, 64));
	assert_true(h.low == ldexp(h_s.low, 64) && h.high == ldexp(h_s.high, 64));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sort_doubles),
		cmocka_unit_test(test_select_kth),
		cmocka_unit_test(test_hl_selection_brute_force),
		cmocka_unit_test(test_hl_selection_large),
		cmocka_unit_test(test_hl_estimate_formed),
		cmocka_unit_test(test_hl_large_reference),
		cmocka_unit_test(test_bootstrap_limit),
		cmocka_unit_test(test_bootstrap_switches_to_limit),
		cmocka_unit_test(test_bootstrap_limit_degenerate),
		cmocka_unit_test(test_near_dbl_max),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
