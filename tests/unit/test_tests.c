// SPDX-License-Identifier: GPL-2.0
/*
 * Statistical tests of src/stats/ against independent reference
 * values. Expected numbers are printed by tests/reference/tests_reference.py
 * (SciPy 1.10: Welch, Mann-Whitney, power, and SciPy's own bootstrap as a
 * sanity check); the comment on each block names the line of that script's
 * output. R's values (p.adjust, the Hodges-Lehmann interval, the same tests
 * again) are checked in test_stats_r.c. Here also: the degenerate cases R
 * refuses, whose behaviour is ours to document. Compared to 1e-6 relative
 * unless a comment says why not.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "assert_close.h"

#include "stats/adjust.h"
#include "stats/bootstrap.h"
#include "stats/hodges_lehmann.h"
#include "stats/mannwhitney.h"
#include "stats/power.h"
#include "stats/rng.h"
#include "stats/welch.h"
#include "util/array.h"

#define assert_nan(x) assert_true(isnan(x))

/* ------------------------------------------------------------ data sets */

/* R's ?wilcox.test two-sample example (Hollander & Wolfe 1973, p. 69) */
static const double r_x[] = { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46 };
static const double r_y[] = { 1.15, 0.88, 0.90, 0.74, 1.21 };

static const double small_base[] = { 1.0, 2.0, 3.0, 4.0, 5.0 };
static const double small_new[] = { 2.5, 3.1, 4.7, 5.2, 6.8, 7.0 };
static const double lat_base[] = { 1012.3, 998.7, 1005.1, 1020.4, 1001.9, 995.2, 1010.0, 1003.3 };
static const double lat_new[] = { 1030.1, 1025.4, 1018.9, 1041.2, 1022.7, 1035.5, 1028.0 };
static const double const_base[] = { 5.0, 5.0, 5.0, 5.0 };
static const double var_new[] = { 4.0, 6.0, 5.0, 7.0 };
static const double two_base[] = { 1.0, 2.0 };
static const double two_new[] = { 3.0, 5.0 };
static const double offset_base[] = { 1e9 + 1.0, 1e9 + 2.0, 1e9 + 4.0, 1e9 + 3.0 };
static const double offset_new[] = { 1e9 + 2.5, 1e9 + 3.5, 1e9 + 5.0, 1e9 + 6.0 };
static const double tie_base[] = { 1.0, 2.0, 2.0, 3.0, 4.0 };
static const double tie_new[] = { 2.0, 3.0, 3.0, 5.0, 6.0, 6.0 };
static const double three_base[] = { 1.1, 2.2, 0.7 };
static const double two_new_b[] = { 2.0, 3.3 };

/* n >= 50, no ties: integers against half-integers, as the script builds */
#define BIG_BASE_N 60
#define BIG_NEW_N 55
static double big_base[BIG_BASE_N], big_new[BIG_NEW_N];

static int setup_big(void **state)
{
	for (int i = 1; i <= BIG_BASE_N; i++)
		big_base[i - 1] = (double)((i * 7919) % 1009);
	for (int j = 1; j <= BIG_NEW_N; j++)
		big_new[j - 1] = (double)((j * 7907) % 1013) + 0.5 + 40;
	return 0;
}

#define SAMPLE(a) a, ARRAY_SIZE(a)

/* ------------------------------------------------------------ welch */

struct welch_case {
	const double *base, *new;
	size_t n_base, n_new;
	double t, df, p;
};

/* "welch <base>/<new> t|df|p": scipy.stats.ttest_ind(new, base, equal_var=False) */
static void test_welch_reference(void **state)
{
	static const struct welch_case cases[] = {
		{ small_base, small_new, 5, 6, 1.8193178858020538, 8.982163965046011, 0.10227978648019587 },
		{ lat_base, lat_new, 8, 7, 5.661793135595888, 12.909751524334952, 7.982692455038425e-05 },
		/* one side without variance: df = n_new - 1 */
		{ const_base, var_new, 4, 4, 0.7745966692414834, 3.0, 0.495025346059711 },
		{ two_base, two_new, 2, 2, 2.23606797749979, 1.4705882352941178, 0.19872738893452604 },
		/* a large common offset must not cancel the variance */
		{ offset_base, offset_new, 4, 4, 1.7320508075688772, 5.804190169218371, 0.13564300887566283 },
		{ tie_base, tie_new, 5, 6, 2.0339533246013413, 8.650898787856045, 0.07373344727239495 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct welch_case *c = &cases[i];
		struct welch_result r;

		welch_test(c->base, c->n_base, c->new, c->n_new, &r);
		assert_close_rel(r.t, c->t, REL);
		assert_close_rel(r.df, c->df, REL);
		assert_close_rel(r.p, c->p, REL);
	}
}

static void test_welch_degenerate(void **state)
{
	static const double one[] = { 3.0 }, six[] = { 6.0, 6.0, 6.0 };
	struct welch_result r;

	/* n = 1 on either side: no variance estimate, no test */
	welch_test(SAMPLE(one), SAMPLE(small_new), &r);
	assert_nan(r.t);
	assert_nan(r.df);
	assert_nan(r.p);
	welch_test(SAMPLE(small_base), SAMPLE(one), &r);
	assert_nan(r.p);
	welch_test(small_base, 0, SAMPLE(small_new), &r);
	assert_nan(r.p);

	/* both constant and equal: nothing to distinguish (documented p = 1) */
	welch_test(SAMPLE(const_base), SAMPLE(const_base), &r);
	assert_close_rel(r.t, 0, REL);
	assert_close_rel(r.p, 1, REL);
	assert_nan(r.df);

	/* both constant, different means: undefined, p NAN, t signed infinity */
	welch_test(SAMPLE(const_base), SAMPLE(six), &r);
	assert_true(isinf(r.t) && r.t > 0);
	assert_nan(r.p);
}

/* identical samples: t = 0, p = 1, never significant */
static void test_welch_identical(void **state)
{
	struct welch_result r;

	welch_test(SAMPLE(lat_base), SAMPLE(lat_base), &r);
	assert_close_rel(r.t, 0, REL);
	assert_close_rel(r.df, 14, REL);
	assert_close_rel(r.p, 1, REL);
}

/* ------------------------------------------------------------ mann-whitney */

struct mwu_case {
	const double *base, *new;
	size_t n_base, n_new;
	double u, p;
	bool exact;
};

/*
 * "mwu <base>/<new> exact|asymptotic U|p": scipy.stats.mannwhitneyu(new,
 * base, method=..., use_continuity=True), the same formulas as R's
 * wilcox.test(new, base, correct = TRUE).
 */
static void test_mwu_reference(void **state)
{
	const struct mwu_case cases[] = {
		/* R documents W = 35 and a one-sided p of 0.1272 for this data */
		{ r_y, r_x, 5, 10, 35.0, 0.2544122544122544, true },
		{ small_base, small_new, 5, 6, 24.0, 0.12554112554112554, true },
		{ two_base, two_new, 2, 2, 4.0, 0.3333333333333333, true },
		{ three_base, two_new_b, 3, 2, 5.0, 0.4, true },
		/* ties: normal approximation with tie and continuity correction */
		{ tie_base, tie_new, 5, 6, 24.0, 0.1130499788563229, false },
		/* 50 or more values, no ties: also approximate */
		{ big_base, big_new, BIG_BASE_N, BIG_NEW_N, 1761.0, 0.5361263811518484, false },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct mwu_case *c = &cases[i];
		struct mwu_result r;

		mwu_test(c->base, c->n_base, c->new, c->n_new, &r);
		assert_close_rel(r.u, c->u, REL);
		assert_close_rel(r.p, c->p, REL);
		assert_int_equal(r.exact, c->exact);
	}

	/*
	 * "mwu R doc one-sided": R prints p-value = 0.1272 for
	 * wilcox.test(x, y, alternative = "g"); W = 35 lies above mn/2 = 25,
	 * so that is half the two-sided p.
	 */
	{
		struct mwu_result r;

		mwu_test(SAMPLE(r_y), SAMPLE(r_x), &r);
		assert_close_rel(r.p / 2, 0.1272061272061272, REL);
		assert_close_rel(r.p / 2, 0.1272, 1e-4);
	}
}

/* the exact path is used right up to 49 values per side */
static void test_mwu_exact_limit(void **state)
{
	struct mwu_result r;

	mwu_test(big_base, 49, big_new, 49, &r);
	assert_true(r.exact);
	mwu_test(big_base, 50, big_new, 49, &r);
	assert_false(r.exact);
}

static void test_mwu_degenerate(void **state)
{
	static const double one[] = { 1.0 }, two[] = { 2.0 };
	struct mwu_result r;

	/* "mwu n=1": [2] against [1], U = 1 (new is larger), p = 1 */
	mwu_test(SAMPLE(one), SAMPLE(two), &r);
	assert_close_rel(r.u, 1, REL);
	assert_close_rel(r.p, 1, REL);
	assert_true(r.exact);
	mwu_test(SAMPLE(two), SAMPLE(one), &r);
	assert_close_rel(r.u, 0, REL);
	assert_close_rel(r.p, 1, REL);

	/* every value tied: R gives NaN, we document p = 1 */
	mwu_test(SAMPLE(const_base), SAMPLE(const_base), &r);
	assert_close_rel(r.u, 8, REL);
	assert_close_rel(r.p, 1, REL);
	assert_false(r.exact);

	mwu_test(small_base, 0, SAMPLE(small_new), &r);
	assert_nan(r.u);
	assert_nan(r.p);
}

/* identical samples tie pairwise: approximate path, z = 0, p = 1 */
static void test_mwu_identical(void **state)
{
	struct mwu_result r;

	mwu_test(SAMPLE(lat_base), SAMPLE(lat_base), &r);
	assert_close_rel(r.u, 32, REL);
	assert_close_rel(r.p, 1, REL);
	assert_false(r.exact);
}

/* ------------------------------------------------------------ hodges-lehmann */

static void test_hl_degenerate(void **state)
{
	static const double one[] = { 1.0 }, three[] = { 3.0 };
	struct hl_result r;

	/* n = 1 each: one difference, exact interval collapses onto it */
	hl_estimate(SAMPLE(one), SAMPLE(three), 0.95, &r);
	assert_close_rel(r.shift, 2, REL);
	assert_close_rel(r.low, 2, REL);
	assert_close_rel(r.high, 2, REL);

	/* every value tied: shift 0, interval undefined (R stops) */
	hl_estimate(SAMPLE(const_base), SAMPLE(const_base), 0.95, &r);
	assert_close_rel(r.shift, 0, REL);
	assert_nan(r.low);
	assert_nan(r.high);

	hl_estimate(small_base, 0, SAMPLE(small_new), 0.95, &r);
	assert_nan(r.shift);
}

/* identical samples: shift 0 and an interval around it */
static void test_hl_identical(void **state)
{
	struct hl_result r;

	hl_estimate(SAMPLE(lat_base), SAMPLE(lat_base), 0.95, &r);
	assert_close_rel(r.shift, 0, REL);
	assert_true(r.low < 0 && r.high > 0);
}

/* ------------------------------------------------------------ adjust */

/*
 * The values are R's (test_stats_r.c); here, what R does not show: in place
 * is the same as into another array, a family of one comes back unchanged,
 * and an empty one is fine.
 */
static void test_adjust_in_place_and_small(void **state)
{
	static const double family[] = { 0.02, NAN, 0.01, 0.04, 0.01 };
	enum p_adjust_method methods[] = { P_ADJUST_HOLM, P_ADJUST_BH, P_ADJUST_NONE };
	double out[5], in_place[5], single = 0.03;

	for (size_t m = 0; m < ARRAY_SIZE(methods); m++) {
		memcpy(in_place, family, sizeof(family));
		p_adjust(family, out, 5, methods[m]);
		p_adjust(in_place, in_place, 5, methods[m]);
		for (int i = 0; i < 5; i++)
			assert_close_rel(in_place[i], out[i], 0);
		assert_nan(out[1]);
	}
	p_adjust(&single, &single, 1, P_ADJUST_BH);
	assert_close_rel(single, 0.03, 0);
	p_adjust(&single, &single, 1, P_ADJUST_HOLM);
	assert_close_rel(single, 0.03, 0);
	p_adjust(NULL, NULL, 0, P_ADJUST_HOLM);
}

static void test_adjust_parse(void **state)
{
	enum p_adjust_method m;

	assert_int_equal(p_adjust_method_parse("holm", &m), 0);
	assert_int_equal(m, P_ADJUST_HOLM);
	assert_int_equal(p_adjust_method_parse("BH", &m), 0);
	assert_int_equal(m, P_ADJUST_BH);
	assert_int_equal(p_adjust_method_parse("none", &m), 0);
	assert_int_equal(m, P_ADJUST_NONE);
	assert_int_equal(p_adjust_method_parse("bonferroni", &m), -1);
}

/* ------------------------------------------------------------ power */

/* "mde ...": scipy.stats.nct + brentq on R's power.t.test formula */
static void test_power_reference(void **state)
{
	static const struct {
		size_t n1, n2;
		double sd, alpha, power, delta;
	} cases[] = {
		{ 10, 10, 1.0, 0.05, 0.8, 1.3249488954669448 },
		{ 5, 8, 2.5, 0.05, 0.8, 4.417490210819145 },
		{ 30, 30, 4.0, 0.01, 0.8, 3.634025828312009 },
		{ 2, 2, 1.0, 0.05, 0.8, 5.65348926660411 },
		{ 50, 50, 3.0, 0.05, 0.9, 1.964257537467455 },
		/* R's ?power.t.test: power.t.test(n = 20, delta = 1) = 0.8689528 */
		{ 20, 20, 1.0, 0.05, 0.8689528, 0.9999999976311589 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct mde m;

		power_mde(cases[i].n1, cases[i].n2, cases[i].sd, 200.0,
			  cases[i].alpha, cases[i].power, &m);
		assert_close_rel(m.delta, cases[i].delta, REL);
		assert_close_rel(m.pct, cases[i].delta / 200.0 * 100, REL);
	}
}

static void test_power_degenerate(void **state)
{
	struct mde m;

	power_mde(1, 10, 1.0, 10.0, 0.05, 0.8, &m);
	assert_nan(m.delta);
	assert_nan(m.pct);
	power_mde(10, 10, NAN, 10.0, 0.05, 0.8, &m);
	assert_nan(m.delta);
	/* zero variance: any difference is detectable */
	power_mde(10, 10, 0.0, 10.0, 0.05, 0.8, &m);
	assert_close_rel(m.delta, 0, REL);
	assert_close_rel(m.pct, 0, REL);
	/* zero baseline mean: no percent */
	power_mde(10, 10, 1.0, 0.0, 0.05, 0.8, &m);
	assert_close_rel(m.delta, 1.3249488954669448, REL);
	assert_nan(m.pct);
	/* negative baseline mean: percent of its magnitude */
	power_mde(10, 10, 1.0, -50.0, 0.05, 0.8, &m);
	assert_close_rel(m.pct, 1.3249488954669448 / 50 * 100, REL);
}

/* ------------------------------------------------------------ rng */

/*
 * rng_below() by its definition (Lemire's multiply-shift): for a bound of
 * 2^k no draw is rejected and the result is the top k bits of the next
 * output; any bound gives values below it, all of them in time. The
 * generator itself is checked against published outputs in test_stats_r.c.
 */
static void test_rng_below(void **state)
{
	struct rng rng, copy;
	int seen[10] = { 0 };

	rng_seed(&rng, 7);
	for (int k = 1; k < 64; k++) {
		copy = rng;
		assert_int_equal(rng_below(&rng, UINT64_C(1) << k), rng_next(&copy) >> (64 - k));
	}
	for (int i = 0; i < 1000; i++) {
		uint64_t v = rng_below(&rng, 10);

		assert_true(v < 10);
		seen[v]++;
	}
	for (int v = 0; v < 10; v++)
		assert_true(seen[v] > 0);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(rng_below(&rng, 1), 0);
}

/* ------------------------------------------------------------ bootstrap */

/*
 * SciPy's percentile bootstrap (scipy.stats.bootstrap, another generator,
 * "scipy.bootstrap lat" in tests_reference.py) draws other resamples: the
 * two agree within the resampling's scatter, about 1e-4 here. The exact
 * checks of the bootstrap's parts are in test_stats_r.c.
 */
static void test_bootstrap_near_scipy(void **state)
{
	double low, high;

	assert_int_equal(bootstrap_ratio_ci(SAMPLE(lat_base), SAMPLE(lat_new),
					    BOOTSTRAP_RESAMPLES, 0.95, 1, &low, &high), 0);
	assert_close_rel(low, 1.0154478216682385, 1e-3);
	assert_close_rel(high, 1.030519652249334, 1e-3);
}

static void test_bootstrap_reproducible(void **state)
{
	double low1, high1, low2, high2, low3, high3;

	bootstrap_ratio_ci(SAMPLE(lat_base), SAMPLE(lat_new), 1000, 0.95, 99, &low1, &high1);
	bootstrap_ratio_ci(SAMPLE(lat_base), SAMPLE(lat_new), 1000, 0.95, 99, &low2, &high2);
	assert_true(low1 == low2 && high1 == high2);
	bootstrap_ratio_ci(SAMPLE(lat_base), SAMPLE(lat_new), 1000, 0.95, 100, &low3, &high3);
	assert_true(low1 != low3 || high1 != high3);
}

/* a plan of drawn indices gives exactly the one-shot interval, row after row */
static void test_bootstrap_plan(void **state)
{
	struct bootstrap_plan *plan = bootstrap_plan_new(8, 7, BOOTSTRAP_RESAMPLES, 1);
	double low, high, one_low, one_high;

	assert_non_null(plan);
	assert_int_equal(bootstrap_ratio_ci(SAMPLE(lat_base), SAMPLE(lat_new),
					    BOOTSTRAP_RESAMPLES, 0.95, 1, &one_low, &one_high), 0);
	for (int round = 0; round < 2; round++) {
		assert_int_equal(bootstrap_plan_ratio_ci(plan, lat_base, lat_new, 0.95,
							 &low, &high), 0);
		assert_true(low == one_low && high == one_high);
	}
	assert_int_equal(bootstrap_plan_ratio_ci(plan, lat_base, lat_new, 0,
						 &low, &high), -1);
	bootstrap_plan_free(plan);

	assert_null(bootstrap_plan_new(0, 7, BOOTSTRAP_RESAMPLES, 1));
	assert_null(bootstrap_plan_new(8, 7, 1, 1));
	/* one sample a side: its spread unknown, no interval (not the other's alone) */
	assert_null(bootstrap_plan_new(1, 7, BOOTSTRAP_RESAMPLES, 1));
	assert_null(bootstrap_plan_new(8, 1, BOOTSTRAP_RESAMPLES, 1));
	assert_int_equal(bootstrap_ratio_ci(lat_base, 1, lat_new, 7, 1000, 0.95, 1, &low, &high),
			 -1);
	assert_nan(low);
	assert_nan(high);
	assert_int_equal(bootstrap_ratio_ci(lat_base, 8, lat_new, 1, 1000, 0.95, 1, &low, &high),
			 -1);
	assert_nan(high);
	assert_int_equal(bootstrap_ratio_limit(lat_base, 1, lat_new, 7, 0.95, &low, &high), -1);
	assert_nan(low);
	assert_int_equal(bootstrap_ratio_limit(lat_base, 8, lat_new, 1, 0.95, &low, &high), -1);
	assert_nan(high);
	assert_int_equal(bootstrap_plan_ratio_ci(NULL, lat_base, lat_new, 0.95,
						 &low, &high), -1);
	assert_nan(low);
	bootstrap_plan_free(NULL);
}

/* samples of @n values around @mean with a spread of about 5 % */
static void make_samples(double *x, size_t n, double mean, uint64_t seed)
{
	struct rng rng;

	rng_seed(&rng, seed);
	for (size_t i = 0; i < n; i++)
		x[i] = mean * (0.95 + 0.1 * (double)rng_below(&rng, 1000001) / 1e6);
}

static double mean_of(const double *x, size_t n)
{
	double sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += x[i];
	return sum / (double)n;
}

/*
 * The baseline's resample means computed once and shared by the runs
 * compared with it give exactly the interval of the one-step function;
 * a plan that keeps no indices says so (-1) instead.
 */
static void assert_shared_base_agrees(const struct bootstrap_plan *plan, const double *base,
				      const double *new, bool kept, double low, double high)
{
	double *means = calloc(BOOTSTRAP_RESAMPLES, sizeof(double));
	double low2, high2;

	assert_non_null(means);
	assert_int_equal(bootstrap_plan_base_means(plan, base, means), kept ? 0 : -1);
	assert_int_equal(bootstrap_plan_ratio_ci_means(plan, means, new, 0.95, &low2, &high2),
			 kept ? 0 : -1);
	if (kept)
		assert_true(low2 == low && high2 == high);
	else
		assert_true(isnan(low2) && isnan(high2));
	free(means);
}

/* plans, kept or too large to keep, agree with the one-shot function */
static void test_bootstrap_plan_sizes(void **state)
{
	static double base[500], new[500];
	size_t sizes[] = { 40, 300, 500 };	/* byte, word and no kept indices */

	make_samples(base, 500, 100, 3);
	make_samples(new, 500, 99, 4);
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		struct bootstrap_plan *plan = bootstrap_plan_new(sizes[i], sizes[i] - 1,
								 BOOTSTRAP_RESAMPLES, 5);
		double low1, high1, low2, high2;

		bootstrap_plan_ratio_ci(plan, base, new, 0.95, &low1, &high1);
		bootstrap_ratio_ci(base, sizes[i], new, sizes[i] - 1,
				   BOOTSTRAP_RESAMPLES, 0.95, 5, &low2, &high2);
		assert_true(low1 == low2 && high1 == high2);
		assert_shared_base_agrees(plan, base, new, sizes[i] < 500, low1, high1);
		bootstrap_plan_free(plan);
	}
}

/*
 * BOOTSTRAP_LANES rows resampled together give each row the interval of
 * the one-row code to the bit: byte and word plans, sizes not a multiple
 * of four, fewer rows than lanes, a lane of values near the largest double
 * (resampled scaled), a lane whose base is all zeros (no interval), one
 * of constant samples (every ratio the same: no tails to cut) and one of
 * two values a side (ratios so tied that a tail overflows its room).
 */
static void test_bootstrap_lanes(void **state)
{
	static double base[BOOTSTRAP_LANES][300], new[BOOTSTRAP_LANES][300];
	const size_t sizes[][2] = { { 50, 50 }, { 7, 13 }, { 2, 3 }, { 300, 41 } };
	const size_t nrs[] = { BOOTSTRAP_LANES, 3, 1 };

	for (size_t lane = 0; lane < BOOTSTRAP_LANES; lane++) {
		make_samples(base[lane], 300, 10 + (double)lane, 20 + lane);
		make_samples(new[lane], 300, 10.5 + (double)lane, 40 + lane);
	}
	for (size_t j = 0; j < 300; j++) {
		base[1][j] *= 0x1p1000;
		new[1][j] *= 0x1p1000;
		base[2][j] = 0;
		base[3][j] = 5;
		new[3][j] = 5.5;
		base[4][j] = 1 + (j % 9 == 0);
		new[4][j] = 1 + (j % 8 == 0);
	}
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		struct bootstrap_plan *plan = bootstrap_plan_new(sizes[i][0], sizes[i][1],
								 BOOTSTRAP_RESAMPLES, 9);
		double *means = calloc(2 * BOOTSTRAP_RESAMPLES * BOOTSTRAP_LANES, sizeof(double));
		const double *b[BOOTSTRAP_LANES], *n[BOOTSTRAP_LANES];

		assert_non_null(means);
		assert_true(bootstrap_plan_keeps_indices(plan));
		for (size_t lane = 0; lane < BOOTSTRAP_LANES; lane++) {
			b[lane] = base[lane];
			n[lane] = new[lane];
		}
		for (size_t k = 0; k < ARRAY_SIZE(nrs); k++) {
			double *new_means = means + BOOTSTRAP_RESAMPLES * BOOTSTRAP_LANES;
			double low[BOOTSTRAP_LANES], high[BOOTSTRAP_LANES];

			assert_int_equal(bootstrap_plan_lane_means(plan, false, b, nrs[k], means), 0);
			assert_int_equal(bootstrap_plan_lane_means(plan, true, n, nrs[k], new_means),
					 0);
			bootstrap_lane_ratio_cis(means, new_means, nrs[k], BOOTSTRAP_RESAMPLES, 0.95,
						 low, high);
			for (size_t lane = 0; lane < nrs[k]; lane++) {
				double low1, high1;
				int rc = bootstrap_plan_ratio_ci(plan, b[lane], n[lane], 0.95,
								 &low1, &high1);

				assert_int_equal(rc, lane == 2 ? -1 : 0);
				assert_true(lane == 2 ? isnan(low[lane]) && isnan(high[lane]) :
					    low[lane] == low1 && high[lane] == high1);
			}
		}
		free(means);
		bootstrap_plan_free(plan);
	}
	assert_false(bootstrap_plan_keeps_indices(NULL));
}

/* the same without AVX2: the vectors of two every x86-64 and arm64 has */
static void test_bootstrap_lanes_without_avx2(void **state)
{
	bootstrap_refuse_avx2(true);
	test_bootstrap_lanes(state);
	bootstrap_refuse_avx2(false);
}

/*
 * The lanes' means approximated first give every lane the interval of the
 * one-row code to the bit, over many random blocks: sizes up to a byte
 * plan's largest, spreads from a thousandth to tenfold, values of few
 * distinct levels (ties, which may overflow the tails or the candidates
 * and take the exact way), and a lane out of the approximation's range
 * (a value not positive), which makes the block exact.
 */
static void test_bootstrap_lanes_approx(void **state)
{
	static double base[BOOTSTRAP_LANES][256], new[BOOTSTRAP_LANES][256];
	const size_t resamples = 3000;
	double *means = malloc(2 * resamples * BOOTSTRAP_LANES * sizeof(double));
	double *new_means = means + resamples * BOOTSTRAP_LANES;
	size_t approximated = 0;
	struct rng rng;

	assert_non_null(means);
	rng_seed(&rng, 31);
	for (int block = 0; block < 60; block++) {
		size_t nb = 1 + rng_below(&rng, 256), nn = 1 + rng_below(&rng, 256);
		size_t nr = 1 + rng_below(&rng, BOOTSTRAP_LANES);
		struct bootstrap_plan *plan;
		const double *b[BOOTSTRAP_LANES], *n[BOOTSTRAP_LANES];
		double low[BOOTSTRAP_LANES], high[BOOTSTRAP_LANES];
		int sides;

		/* the fewest a plan takes, with the same draws as before */
		nb = nb < BOOTSTRAP_MIN_N ? BOOTSTRAP_MIN_N : nb;
		nn = nn < BOOTSTRAP_MIN_N ? BOOTSTRAP_MIN_N : nn;
		plan = bootstrap_plan_new(nb, nn, resamples, (uint64_t)block);

		for (size_t lane = 0; lane < nr; lane++) {
			double spread = block % 3 == 0 ? 10 : block % 3 == 1 ? 0.001 : 0.2;
			uint64_t levels = block % 4 == 3 ? 3 : 0;

			for (size_t j = 0; j < 256; j++) {
				double u = levels ? (double)rng_below(&rng, levels) / 2 :
					   (double)(rng_next(&rng) >> 11) * 0x1p-53;

				base[lane][j] = 50 * (1 + spread * u);
				new[lane][j] = 51 * (1 + spread * (levels ? u : 1 - u));
			}
			if (block == 7 && lane == nr - 1)
				base[lane][nb / 2] = 0;
			b[lane] = base[lane];
			n[lane] = new[lane];
		}
		sides = bootstrap_plan_lane_means_approx(plan, false, b, nr, means) +
			bootstrap_plan_lane_means_approx(plan, true, n, nr, new_means);
		if (sides == 2) {
			approximated++;
			bootstrap_lane_ratio_cis_approx(plan, b, means, n, new_means, nr, 0.95,
							low, high);
		} else {
			bootstrap_plan_lane_means(plan, false, b, nr, means);
			bootstrap_plan_lane_means(plan, true, n, nr, new_means);
			bootstrap_lane_ratio_cis(means, new_means, nr, resamples, 0.95, low, high);
		}
		for (size_t lane = 0; lane < nr; lane++) {
			double low1, high1;

			bootstrap_plan_ratio_ci(plan, b[lane], n[lane], 0.95, &low1, &high1);
			if (isnan(low1))	/* the lane of a zero: no interval */
				assert_true(isnan(low[lane]) && isnan(high[lane]));
			else
				assert_true(low[lane] == low1 && high[lane] == high1);
		}
		bootstrap_plan_free(plan);
	}
	assert_true(approximated >= 50);
	free(means);
}

static void test_bootstrap_lanes_approx_without_avx2(void **state)
{
	bootstrap_refuse_avx2(true);
	test_bootstrap_lanes_approx(state);
	bootstrap_refuse_avx2(false);
}

/*
 * Two sets of lanes approximated together give each the means a call for
 * it alone gives, to the bit: sides of 2 to 256 (the scaled bytes up to
 * 64, every remainder of eight), a set out of range (nothing written), and
 * no plan of bytes.
 */
static void test_bootstrap_lanes_approx2(void **state)
{
	static double x[2][BOOTSTRAP_LANES][256];
	const size_t resamples = 200, sizes[] = { 2, 5, 8, 13, 50, 63, 64, 65, 71, 256 };
	double *means = malloc(4 * resamples * BOOTSTRAP_LANES * sizeof(double));
	double *m0 = means, *m1 = m0 + resamples * BOOTSTRAP_LANES;
	double *one0 = m1 + resamples * BOOTSTRAP_LANES, *one1 = one0 + resamples * BOOTSTRAP_LANES;
	struct rng rng;

	assert_non_null(means);
	rng_seed(&rng, 37);
	for (size_t k = 0; k < ARRAY_SIZE(sizes); k++) {
		struct bootstrap_plan *plan = bootstrap_plan_new(7, sizes[k], resamples, k);
		const double *x0[BOOTSTRAP_LANES], *x1[BOOTSTRAP_LANES];
		size_t nr = 1 + k % BOOTSTRAP_LANES;

		for (size_t lane = 0; lane < BOOTSTRAP_LANES; lane++) {
			for (size_t j = 0; j < 256; j++) {
				double u = (double)(rng_next(&rng) >> 11) * 0x1p-53;

				x[0][lane][j] = 1 + u;
				x[1][lane][j] = 1e3 * (2 - u);
			}
			x0[lane] = x[0][lane];
			x1[lane] = x[1][lane];
		}
		assert_int_equal(bootstrap_plan_lane_means_approx2(plan, true, x0, x1, nr, m0, m1),
				 1);
		assert_int_equal(bootstrap_plan_lane_means_approx(plan, true, x0, nr, one0), 1);
		assert_int_equal(bootstrap_plan_lane_means_approx(plan, true, x1, nr, one1), 1);
		assert_memory_equal(m0, one0, resamples * BOOTSTRAP_LANES * sizeof(double));
		assert_memory_equal(m1, one1, resamples * BOOTSTRAP_LANES * sizeof(double));
		x[1][nr - 1][sizes[k] - 1] = 0;
		m0[0] = 42;
		assert_int_equal(bootstrap_plan_lane_means_approx2(plan, true, x0, x1, nr, m0, m1),
				 0);
		assert_true(m0[0] == 42);
		bootstrap_plan_free(plan);
	}
	assert_int_equal(bootstrap_plan_lane_means_approx2(NULL, true, NULL, NULL, 1, m0, m1), 0);
	free(means);
}

static void test_bootstrap_lanes_approx2_without_avx2(void **state)
{
	bootstrap_refuse_avx2(true);
	test_bootstrap_lanes_approx2(state);
	bootstrap_refuse_avx2(false);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The percentiles read from the tails alone are R's type 7 quantiles of
 * all the values: against a full sort, on spread values, on values with
 * many ties (where the tails may overflow and the full selection runs),
 * in random and in sorted order, at several levels and sizes.
 */
static void test_bootstrap_percentiles_tails(void **state)
{
	const size_t sizes[] = { 2047, 2048, 10000, 40001 };
	const double levels[] = { 0.95, 0.5, 0.999, 0.9 };
	struct rng rng;

	rng_seed(&rng, 31);
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		size_t n = sizes[i];
		double *x = malloc(n * sizeof(*x)), *sorted = malloc(n * sizeof(*x));

		for (int kind = 0; kind < 4; kind++) {
			double level = levels[(i + (size_t)kind) % ARRAY_SIZE(levels)];
			double p_low = (1 - level) / 2, p_high = (1 + level) / 2, low, high;
			double h_low = (double)(n - 1) * p_low, h_high = (double)(n - 1) * p_high;
			size_t l1 = (size_t)floor(h_low), l2 = (size_t)floor(h_high);

			for (size_t j = 0; j < n; j++)
				x[j] = kind == 1 ? (double)rng_below(&rng, 5) :
				       kind == 2 ? (double)j : (double)rng_next(&rng) / 1e18;
			if (kind == 3)
				x[rng_below(&rng, n)] = INFINITY;
			memcpy(sorted, x, n * sizeof(*x));
			qsort(sorted, n, sizeof(*x), cmp_double);
			bootstrap_percentiles(x, n, level, &low, &high);
			assert_true(low == sorted[l1] + (h_low - (double)l1) *
				    (sorted[l1 + 1] - sorted[l1]));
			assert_true(high == sorted[l2] + (h_high - (double)l2) *
				    (sorted[l2 + 1] - sorted[l2]));
		}
		free(x);
		free(sorted);
	}
}

/* the interval holds the point ratio and narrows as n grows */
static void test_bootstrap_contains_and_shrinks(void **state)
{
	static double base[400], new[400];
	double previous_width = INFINITY;
	size_t sizes[] = { 10, 40, 400 };

	make_samples(base, 400, 100, 1);
	make_samples(new, 400, 103, 2);
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		size_t n = sizes[i];
		double low, high, ratio = mean_of(new, n) / mean_of(base, n);

		assert_int_equal(bootstrap_ratio_ci(base, n, new, n, BOOTSTRAP_RESAMPLES,
						    0.95, BOOTSTRAP_SEED, &low, &high), 0);
		assert_true(low < ratio && ratio < high);
		assert_true(high - low < previous_width);
		previous_width = high - low;
	}
	/* identical samples: the interval holds 1 */
	{
		double low, high;

		bootstrap_ratio_ci(base, 40, base, 40, BOOTSTRAP_RESAMPLES, 0.95,
				   BOOTSTRAP_SEED, &low, &high);
		assert_true(low < 1 && 1 < high);
	}
}

static void test_bootstrap_degenerate(void **state)
{
	static const double zeros[] = { 0.0, 0.0, 0.0 }, one[] = { 2.0 };
	double low, high;

	assert_int_equal(bootstrap_ratio_ci(small_base, 0, SAMPLE(small_new), 100,
					    0.95, 1, &low, &high), -1);
	assert_nan(low);
	assert_nan(high);
	assert_int_equal(bootstrap_ratio_ci(SAMPLE(zeros), SAMPLE(zeros), 100,
					    0.95, 1, &low, &high), -1);
	assert_int_equal(bootstrap_ratio_ci(SAMPLE(small_base), SAMPLE(small_new), 100,
					    1.0, 1, &low, &high), -1);
	/* n = 1 each: every resample is the same ratio, which no spread bounds */
	assert_int_equal(bootstrap_ratio_ci(SAMPLE(one), SAMPLE(one), 100,
					    0.95, 1, &low, &high), -1);
	assert_nan(low);
	assert_nan(high);
	/* constant, equal: ratio exactly 1 */
	assert_int_equal(bootstrap_ratio_ci(SAMPLE(const_base), SAMPLE(const_base), 100,
					    0.95, 1, &low, &high), 0);
	assert_close_rel(low, 1, REL);
	assert_close_rel(high, 1, REL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_welch_reference),
		cmocka_unit_test(test_welch_degenerate),
		cmocka_unit_test(test_welch_identical),
		cmocka_unit_test(test_mwu_reference),
		cmocka_unit_test(test_mwu_exact_limit),
		cmocka_unit_test(test_mwu_degenerate),
		cmocka_unit_test(test_mwu_identical),
		cmocka_unit_test(test_hl_degenerate),
		cmocka_unit_test(test_hl_identical),
		cmocka_unit_test(test_adjust_in_place_and_small),
		cmocka_unit_test(test_adjust_parse),
		cmocka_unit_test(test_power_reference),
		cmocka_unit_test(test_power_degenerate),
		cmocka_unit_test(test_rng_below),
		cmocka_unit_test(test_bootstrap_near_scipy),
		cmocka_unit_test(test_bootstrap_reproducible),
		cmocka_unit_test(test_bootstrap_plan),
		cmocka_unit_test(test_bootstrap_contains_and_shrinks),
		cmocka_unit_test(test_bootstrap_plan_sizes),
		cmocka_unit_test(test_bootstrap_lanes),
		cmocka_unit_test(test_bootstrap_lanes_without_avx2),
		cmocka_unit_test(test_bootstrap_lanes_approx),
		cmocka_unit_test(test_bootstrap_lanes_approx_without_avx2),
		cmocka_unit_test(test_bootstrap_lanes_approx2),
		cmocka_unit_test(test_bootstrap_lanes_approx2_without_avx2),
		cmocka_unit_test(test_bootstrap_percentiles_tails),
		cmocka_unit_test(test_bootstrap_degenerate),
	};

	return cmocka_run_group_tests(tests, setup_big, NULL);
}
