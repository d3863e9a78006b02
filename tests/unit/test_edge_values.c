// SPDX-License-Identifier: GPL-2.0
/*
 * Every statistic of src/stats at the edges of a double: the same samples
 * scaled by a power of two (exact) from near the smallest normal double to
 * near the largest must give the same answers, scaled where the answer is
 * in the samples' unit (a mean, an interval) and unchanged where it is not
 * (a p-value, a percent, a change point's place). Then zeros, which have no
 * percent change, and NaN and infinities, which must come out as NaN (or
 * the defined answer) and never as a wrong number or a crash.
 */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "stats/adjust.h"
#include "stats/batches.h"
#include "stats/bootstrap.h"
#include "stats/changepoint.h"
#include "stats/hodges_lehmann.h"
#include "stats/mannwhitney.h"
#include "stats/mean_ci.h"
#include "stats/median_ci.h"
#include "stats/moremath.h"
#include "stats/power.h"
#include "stats/sort.h"
#include "stats/summary.h"
#include "stats/welch.h"
#include "util/array.h"

#define N 8

static const double base[N] = { 1.00, 1.05, 0.98, 1.10, 1.02, 0.97, 1.04, 1.01 };
static const double new[N] = { 1.20, 1.25, 1.18, 1.31, 1.22, 1.17, 1.24, 1.21 };
static const size_t batch_sizes[] = { 3, 3, 2 };

/* From near DBL_MIN (2^-1022) to near DBL_MAX (2^1024): the samples are below 1.4 */
static const int exponents[] = { 0, 1023, 1000, 600, -600, -1000, -1021 };

/* @actual is @expected to 1e-9 relative; both NaN, or equal infinities, pass */
static void same(double actual, double expected, const char *what, int e)
{
	if (isnan(expected) && isnan(actual))
		return;
	if (actual == expected)
		return;
	if (isfinite(actual) && fabs(actual - expected) <= 1e-9 * fabs(expected))
		return;
	fail_msg("%s at 2^%d: expected %.17g, got %.17g", what, e, expected, actual);
}

/* in the samples' unit: the answer at scale 1, scaled */
static void scaled(double actual, double at_one, int e, const char *what)
{
	same(actual, ldexp(at_one, e), what, e);
}

static void scale(double *out, const double *in, size_t n, int e)
{
	for (size_t i = 0; i < n; i++)
		out[i] = ldexp(in[i], e);
}

static void test_summary_scales(void **state)
{
	struct summary one, s;
	double x[N], *sorted;

	for (int hib = 0; hib < 2; hib++) {
		summary_compute(base, N, hib, &one);
		for (size_t k = 0; k < ARRAY_SIZE(exponents); k++) {
			int e = exponents[k];

			scale(x, base, N, e);
			summary_compute(x, N, hib, &s);
			scaled(s.min, one.min, e, "min");
			scaled(s.max, one.max, e, "max");
			scaled(s.amean, one.amean, e, "amean");
			scaled(s.hmean, one.hmean, e, "hmean");
			scaled(s.gmean, one.gmean, e, "gmean");
			scaled(s.median, one.median, e, "median");
			scaled(s.stddev, one.stddev, e, "stddev");
			same(s.coeffvar, one.coeffvar, "coeffvar", e);
			for (int i = 0; i < SUMMARY_NR_BMEANS; i++)
				scaled(s.bmean[i], one.bmean[i], e, "bmean");
			same(summary_pct_change(s.amean, ldexp(1.2, e), hib),
			     summary_pct_change(one.amean, 1.2, hib), "pct_change", e);
			sorted = sorted_doubles(x, N);
			scaled(stats_median_sorted(sorted, N), one.median, e, "median");
			free(sorted);
		}
	}
}

static void test_tests_scale(void **state)
{
	struct welch_result w1, w;
	struct mwu_result m1, m;
	struct hl_result h1, h;
	double x[N], y[N], lo1, hi1, llo1, lhi1, lo, hi;
	const char *why;

	welch_test(base, N, new, N, &w1);
	mwu_test(base, N, new, N, &m1);
	hl_estimate(base, N, new, N, 0.95, &h1);
	assert_int_equal(bootstrap_ratio_ci(base, N, new, N, 1000, 0.95, 7, &lo1, &hi1), 0);
	assert_int_equal(bootstrap_ratio_limit(base, N, new, N, 0.95, &llo1, &lhi1), 0);
	for (size_t k = 0; k < ARRAY_SIZE(exponents); k++) {
		int e = exponents[k];

		scale(x, base, N, e);
		scale(y, new, N, e);
		welch_test(x, N, y, N, &w);
		same(w.t, w1.t, "welch t", e);
		same(w.df, w1.df, "welch df", e);
		same(w.p, w1.p, "welch p", e);
		mwu_test(x, N, y, N, &m);
		same(m.u, m1.u, "mwu u", e);
		same(m.p, m1.p, "mwu p", e);
		hl_estimate(x, N, y, N, 0.95, &h);
		scaled(h.shift, h1.shift, e, "hl shift");
		scaled(h.low, h1.low, e, "hl low");
		scaled(h.high, h1.high, e, "hl high");
		assert_int_equal(bootstrap_ratio_ci(x, N, y, N, 1000, 0.95, 7, &lo, &hi), 0);
		same(lo, lo1, "bootstrap low", e);
		same(hi, hi1, "bootstrap high", e);
		assert_int_equal(bootstrap_ratio_limit(x, N, y, N, 0.95, &lo, &hi), 0);
		same(lo, llo1, "bootstrap limit low", e);
		same(hi, lhi1, "bootstrap limit high", e);
		same(moremath_utest(x, N, y, N, &why), moremath_utest(base, N, new, N, &why),
		     "moremath utest", e);
	}
}

static void test_intervals_scale(void **state)
{
	double x[N], *sorted1 = sorted_doubles(base, N), *sorted;
	double lo1, hi1, lo, hi, c1, c;
	struct mde mde1, mde;

	for (size_t k = 0; k < ARRAY_SIZE(exponents); k++) {
		int e = exponents[k];

		scale(x, base, N, e);
		mean_ci(base, N, 0.95, &lo1, &hi1);
		mean_ci(x, N, 0.95, &lo, &hi);
		scaled(lo, lo1, e, "mean_ci low");
		scaled(hi, hi1, e, "mean_ci high");
		sorted = sorted_doubles(x, N);
		quantile_ci(sorted1, N, 0.5, 0.95, &c1, &lo1, &hi1);
		quantile_ci(sorted, N, 0.5, 0.95, &c, &lo, &hi);
		scaled(c, c1, e, "quantile_ci center");
		scaled(lo, lo1, e, "quantile_ci low");
		scaled(hi, hi1, e, "quantile_ci high");
		assert_int_equal(median_ci(sorted1, N, 0.5, &lo1, &hi1), 0);
		assert_int_equal(median_ci(sorted, N, 0.5, &lo, &hi), 0);
		scaled(lo, lo1, e, "median_ci low");
		scaled(hi, hi1, e, "median_ci high");
		scaled(moremath_geomean(x, N), moremath_geomean(base, N), e, "geomean");
		free(sorted);
		power_mde(N, N, stats_stddev(base, N), stats_mean(base, N), 0.05, 0.8, &mde1);
		power_mde(N, N, stats_stddev(x, N), stats_mean(x, N), 0.05, 0.8, &mde);
		scaled(mde.delta, mde1.delta, e, "mde delta");
		same(mde.pct, mde1.pct, "mde pct", e);
	}
	free(sorted1);
}

static void test_batches_scale(void **state)
{
	struct batch_components c1, c;
	struct batch_test t1, t;
	double x[N], y[N];

	batch_components(base, batch_sizes, ARRAY_SIZE(batch_sizes), &c1);
	batch_means_test(base, batch_sizes, 3, new, batch_sizes, 3, 0.95, &t1);
	for (size_t k = 0; k < ARRAY_SIZE(exponents); k++) {
		int e = exponents[k];

		scale(x, base, N, e);
		scale(y, new, N, e);
		batch_components(x, batch_sizes, ARRAY_SIZE(batch_sizes), &c);
		scaled(c.mean_of_means, c1.mean_of_means, e, "mean of means");
		scaled(c.sd_of_means, c1.sd_of_means, e, "sd of means");
		same(c.between_share, c1.between_share, "between share", e);
		batch_means_test(x, batch_sizes, 3, y, batch_sizes, 3, 0.95, &t);
		same(t.t, t1.t, "batch t", e);
		same(t.p, t1.p, "batch p", e);
		scaled(t.diff, t1.diff, e, "batch diff");
		scaled(t.diff_low, t1.diff_low, e, "batch diff low");
		scaled(t.diff_high, t1.diff_high, e, "batch diff high");
		scaled(t.spread, t1.spread, e, "batch spread");
	}
}

/* A clean step in a series of 20 means, at every scale. */
static void test_change_points_scale(void **state)
{
	struct change_point_options opts;
	struct change_point *cps1, *cps;
	double series[20], x[20];
	size_t nr1, nr;

	for (int i = 0; i < 20; i++)
		series[i] = (i < 10 ? 0.6 : 1.2) + 0.01 * (i % 3);
	change_point_options_init(&opts);
	nr1 = change_points_detect(series, 20, &opts, &cps1);
	assert_int_equal(nr1, 1);
	assert_int_equal(cps1[0].index, 10);
	for (size_t k = 0; k < ARRAY_SIZE(exponents); k++) {
		int e = exponents[k];

		scale(x, series, 20, e);
		nr = change_points_detect(x, 20, &opts, &cps);
		if (nr != 1)
			fail_msg("%zu change points at 2^%d", nr, e);
		assert_int_equal(cps[0].index, 10);
		scaled(cps[0].sides.mean_before, cps1[0].sides.mean_before, e, "mean before");
		scaled(cps[0].sides.mean_after, cps1[0].sides.mean_after, e, "mean after");
		scaled(cps[0].sides.stddev_before, cps1[0].sides.stddev_before, e, "sd before");
		scaled(cps[0].sides.stddev_after, cps1[0].sides.stddev_after, e, "sd after");
		same(cps[0].sides.p, cps1[0].sides.p, "p", e);
		same(cps[0].magnitude, cps1[0].magnitude, "magnitude", e);
		free(cps);
	}
	free(cps1);
}

/*
 * Zeros: every mean is 0, there is no percent change from 0 and no
 * ratio; a step from 0 to 1 is a change point all the same.
 */
static void test_zeros(void **state)
{
	static const double zeros[N] = { 0 };
	struct change_point_options opts;
	struct change_point *cps;
	double series[20];
	struct summary s;

	summary_compute(zeros, N, false, &s);
	assert_true(s.amean == 0 && s.stddev == 0 && s.median == 0 && s.min == 0);
	assert_true(isnan(s.coeffvar) && isnan(s.hmean) && isnan(s.gmean));
	assert_true(isnan(summary_pct_change(0, 1, false)));
	assert_true(isnan(summary_pct_change(0, 0, true)));
	same(summary_pct_change(1, 0, false), 100, "pct from 1 to 0", 0);
	for (int i = 0; i < 20; i++)
		series[i] = i < 10 ? 0 : 1;
	change_point_options_init(&opts);
	assert_int_equal(change_points_detect(series, 20, &opts, &cps), 1);
	assert_int_equal(cps[0].index, 10);
	assert_true(cps[0].sides.mean_before == 0 && cps[0].sides.mean_after == 1);
	assert_true(cps[0].sides.p < 1e-6);
	free(cps);
}

/* NaN and infinities in: NaN (or the defined answer) out, never a number. */
static void test_not_finite(void **state)
{
	const double specials[] = { NAN, INFINITY, -INFINITY };
	struct welch_result w;
	struct summary s;
	double x[N], adjusted[3];

	for (size_t k = 0; k < ARRAY_SIZE(specials); k++) {
		for (size_t i = 0; i < N; i++)
			x[i] = base[i];
		x[3] = specials[k];
		summary_compute(x, N, false, &s);
		assert_false(isfinite(s.amean));
		assert_false(isfinite(s.stddev));
		assert_false(isfinite(stats_mean(x, N)));
		welch_test(base, N, x, N, &w);
		assert_false(isfinite(w.p) && w.p < 1);
	}
	/* an undefined p-value stays undefined and leaves the others' family alone */
	p_adjust((const double[]){ 0.01, NAN, 0.04 }, adjusted, 3, P_ADJUST_HOLM);
	assert_true(isnan(adjusted[1]));
	same(adjusted[0], 0.02, "holm", 0);
	same(adjusted[2], 0.04, "holm", 0);
	assert_true(isnan(summary_pct_change(NAN, 1, true)));
	assert_true(isnan(summary_pct_change(1, INFINITY, true)) ||
		    isinf(summary_pct_change(1, INFINITY, true)));
}

/*
 * The tests and intervals of rows compare may read from a damaged store:
 * one value, or every value of both samples, not finite. Each must end
 * (a rank sum once looped for ever on NaN shifts of two infinite
 * samples) and give no finite p-value or interval from such samples.
 */
static void test_not_finite_rows(void **state)
{
	const double specials[] = { NAN, INFINITY, -INFINITY };
	struct change_point_options opts;
	struct change_point *cps = NULL;
	double x[N], y[N], low, high, series[2 * N];
	struct batch_test bt;
	struct mwu_result u;
	struct hl_result hl;

	(void)state;
	change_point_options_init(&opts);
	for (size_t k = 0; k < ARRAY_SIZE(specials); k++) {
		for (int all = 0; all <= 1; all++) {
			for (size_t i = 0; i < N; i++) {
				x[i] = all ? specials[k] : base[i];
				y[i] = all ? specials[k] : new[i];
			}
			x[3] = specials[k];
			hl_estimate(x, N, y, N, 0.95, &hl);
			assert_false(isfinite(hl.low) && isfinite(hl.high) && all);
			hl_estimate(base, N, x, N, 0.95, &hl);
			mwu_test(x, N, y, N, &u);
			assert_false(all && isfinite(u.p) && u.p < 1);
			bootstrap_ratio_ci(x, N, y, N, 200, 0.95, 1, &low, &high);
			assert_false(isfinite(low) && isfinite(high));
			sort_doubles(x, N);
			median_ci(x, N, 0.95, &low, &high);
			batch_means_test(x, batch_sizes, 3, y, batch_sizes, 3, 0.95, &bt);
			assert_false(isfinite(bt.p) && bt.p < 1);
			for (size_t i = 0; i < N; i++) {
				series[i] = x[i];
				series[N + i] = y[i];
			}
			change_points_detect(series, 2 * N, &opts, &cps);
			free(cps);
			cps = NULL;
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_scales),
		cmocka_unit_test(test_tests_scale),
		cmocka_unit_test(test_intervals_scale),
		cmocka_unit_test(test_batches_scale),
		cmocka_unit_test(test_change_points_scale),
		cmocka_unit_test(test_zeros),
		cmocka_unit_test(test_not_finite),
		cmocka_unit_test(test_not_finite_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
