// SPDX-License-Identifier: GPL-2.0
/*
 * src/stats/ against R itself. Every expected number is in r_reference.h,
 * written by tests/reference/r_reference.R with R's own functions (t.test,
 * wilcox.test with conf.int, p.adjust, power.t.test, quantile type 7,
 * qbinom); the header names the R version and the script's hash. Compared
 * to 1e-6 relative (absolute near 0).
 *
 * The bootstrap cannot be checked against R number for number (another
 * generator draws other resamples), so each of its parts is checked against
 * something independent and exact: the generator against the published
 * outputs of xoshiro256** and splitmix64, the percentile step against R's
 * quantile(type = 7) on the same values, and the whole against resampling
 * distributions with a few atoms whose quantiles follow from counting.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stats/adjust.h"
#include "stats/bootstrap.h"
#include "stats/hodges_lehmann.h"
#include "stats/mannwhitney.h"
#include "stats/median_ci.h"
#include "stats/power.h"
#include "stats/rng.h"
#include "stats/welch.h"
#include "util/array.h"

#define REL 1e-6

struct r_two_sample_case {
	const char *name;
	const double *base;
	size_t n_base;
	const double *new;
	size_t n_new;
	double level;
	double t, df, p_welch;		/* t.test(new, base) */
	double w, p_mwu;		/* wilcox.test(new, base) */
	bool exact;
	double shift, low, high;	/* median(outer(new, base, "-")), conf.int */
};

struct r_adjust_case {
	const double *p, *holm, *bh;
	size_t n;
};

struct r_power_case {
	size_t n1, n2;
	double sd, alpha, power, delta;
};

struct r_quantile_case {
	const double *values;
	size_t n;
	double level, low, high;
};

struct r_median_ci_case {
	size_t n;
	double level;
	size_t lo, hi;		/* 0, 0: qbinom gave 0, no interval */
};

#include "r_reference.h"

static bool close_enough(double actual, double expected, double rel)
{
	double scale = fabs(expected) > 1 ? fabs(expected) : 1;

	if (isnan(expected))
		return isnan(actual);
	return fabs(actual - expected) <= rel * scale;
}

static void check_at(double actual, double expected, const char *what, const char *name,
		     const char *file, int line)
{
	if (close_enough(actual, expected, REL))
		return;
	print_error("%s %s: R says %.17g, got %.17g\n", name, what, expected, actual);
	_fail(file, line);
}
#define check(actual, expected, what, name) \
	check_at((actual), (expected), (what), (name), __FILE__, __LINE__)

/* ------------------------------------------------------------ the tests */

static void test_welch_against_r(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(r_two_sample_cases); i++) {
		const struct r_two_sample_case *c = &r_two_sample_cases[i];
		struct welch_result r;

		if (isnan(c->p_welch))
			continue;	/* R refuses constant data */
		welch_test(c->base, c->n_base, c->new, c->n_new, &r);
		check(r.t, c->t, "t", c->name);
		check(r.df, c->df, "df", c->name);
		check(r.p, c->p_welch, "p", c->name);
	}
}

static void test_mann_whitney_against_r(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(r_two_sample_cases); i++) {
		const struct r_two_sample_case *c = &r_two_sample_cases[i];
		struct mwu_result r;

		mwu_test(c->base, c->n_base, c->new, c->n_new, &r);
		check(r.u, c->w, "W", c->name);
		check(r.p, c->p_mwu, "p", c->name);
		if (r.exact != c->exact)
			fail_msg("%s: exact %d, R %d", c->name, r.exact, c->exact);
	}
}

static void test_hodges_lehmann_against_r(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(r_two_sample_cases); i++) {
		const struct r_two_sample_case *c = &r_two_sample_cases[i];
		struct hl_result r;

		hl_estimate(c->base, c->n_base, c->new, c->n_new, c->level, &r);
		check(r.shift, c->shift, "shift", c->name);
		check(r.low, c->low, "low", c->name);
		check(r.high, c->high, "high", c->name);
		if (r.exact != c->exact)
			fail_msg("%s: exact %d, R %d", c->name, r.exact, c->exact);
	}
}

static void test_p_adjust_against_r(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(r_adjust_cases); i++) {
		const struct r_adjust_case *c = &r_adjust_cases[i];
		double *adjusted = calloc(c->n, sizeof(double));

		assert_non_null(adjusted);
		p_adjust(c->p, adjusted, c->n, P_ADJUST_HOLM);
		for (size_t k = 0; k < c->n; k++)
			check(adjusted[k], c->holm[k], "holm", "p.adjust");
		p_adjust(c->p, adjusted, c->n, P_ADJUST_BH);
		for (size_t k = 0; k < c->n; k++)
			check(adjusted[k], c->bh[k], "BH", "p.adjust");
		free(adjusted);
	}
}

static void test_power_against_r(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(r_power_cases); i++) {
		const struct r_power_case *c = &r_power_cases[i];
		struct mde m;

		power_mde(c->n1, c->n2, c->sd, 50.0, c->alpha, c->power, &m);
		check(m.delta, c->delta, "delta", "power.t.test");
		check(m.pct, c->delta / 50.0 * 100, "pct", "power.t.test");
	}
}

static void test_median_ci_against_r(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(r_median_ci_cases); i++) {
		const struct r_median_ci_case *c = &r_median_ci_cases[i];
		size_t lo, hi;

		assert_int_equal(median_ci_orders(c->n, c->level, &lo, &hi), c->lo ? 0 : -1);
		assert_int_equal(lo, c->lo);
		assert_int_equal(hi, c->hi);
	}
}

/* the bootstrap's percentile step: R's quantile(type = 7) of the same values */
static void test_percentiles_against_r(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(r_quantile_cases); i++) {
		const struct r_quantile_case *c = &r_quantile_cases[i];
		double *copy = malloc(c->n * sizeof(double)), low, high;

		assert_non_null(copy);
		memcpy(copy, c->values, c->n * sizeof(double));
		bootstrap_percentiles(copy, c->n, c->level, &low, &high);
		check(low, c->low, "low", "quantile");
		check(high, c->high, "high", "quantile");
		free(copy);
	}
}

/*
 * The generator: xoshiro256** from the state {1, 2, 3, 4} gives the outputs
 * its reference implementation gives (the test vector of rand_xoshiro, the
 * Rust port, printed from xoshiro256starstar.c), and a seed fills the state
 * with splitmix64's outputs from that seed (from 0: the first four outputs
 * of splitmix64.c, as published).
 */
static void test_rng_published_vectors(void **state)
{
	static const uint64_t xoshiro_1234[] = {
		11520U, 0U, 1509978240U, 1215971899390074240U, 1216172134540287360U,
		607988272756665600U, 16172922978634559625U, 8476171486693032832U,
		10595114339597558777U, 2904607092377533576U,
	};
	static const uint64_t splitmix_0[] = {
		0xe220a8397b1dcdafU, 0x6e789e6aa1b965f4U, 0x06c45d188009454fU,
		0xf88bb8a8724c81ecU,
	};
	struct rng rng = { { 1, 2, 3, 4 } };

	for (size_t i = 0; i < ARRAY_SIZE(xoshiro_1234); i++)
		assert_int_equal(rng_next(&rng), xoshiro_1234[i]);
	rng_seed(&rng, 0);
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(rng.state[i], splitmix_0[i]);
}

/*
 * Resampling distributions with a few atoms. For base {1, 3}, a resample's
 * mean is 1, 2 or 3 with probabilities 1/4, 1/2, 1/4 (two independent draws
 * with replacement). Quantiles that fall well inside an atom (12 standard
 * deviations of the count of 10,000 resamples or more from its edges) are
 * that atom's value for any seed, whatever the generator: the interval is
 * known exactly without resampling anything here.
 */
struct atoms_case {
	const double *base, *new;
	size_t n_base, n_new;
	double level, low, high;
};

static void test_bootstrap_known_atoms(void **state)
{
	static const double one_three[] = { 1, 3 }, two_two[] = { 2, 2 };
	static const double four_ones_four_threes[] = { 1, 1, 1, 1, 3, 3, 3, 3 };
	static const struct atoms_case cases[] = {
		/*
		 * new constant: 2 / mean(base*) is 2/3, 1, 2 with 1/4, 1/2,
		 * 1/4; 5 % and 95 % fall in the first and last atoms. A ratio
		 * the wrong way up would give [1/2, 3/2]; drawing without
		 * replacement, [1, 1].
		 */
		{ one_three, two_two, 2, 2, 0.90, 2.0 / 3, 2 },
		/*
		 * both {1, 3}: the ratio of two independent means is 1/3, 1/2,
		 * 2/3, 1, 3/2, 2, 3 with 1, 2, 2, 6, 2, 2, 1 sixteenths
		 * (cumulative 1, 3, 5, 11, 13, 15, 16): 10 % and 90 % fall in
		 * 1/2 and 2, 25 % and 75 % in 2/3 and 3/2. The same indices
		 * for both sides would give [1, 1].
		 */
		{ one_three, one_three, 2, 2, 0.80, 0.5, 2 },
		{ one_three, one_three, 2, 2, 0.50, 2.0 / 3, 1.5 },
		/*
		 * eight draws from four 1s and four 3s: the mean is 1 + K/4
		 * with K ~ Binomial(8, 1/2) threes drawn; P(K >= 6) = P(K <=
		 * 2) = 37/256 and P(K >= 7) = 9/256, so 10 % falls at K = 6
		 * (ratio 2/2.5) and 90 % at K = 2 (2/1.5). Sums of eight
		 * whole numbers: exact in any order of addition.
		 */
		{ four_ones_four_threes, two_two, 8, 2, 0.80, 2 / 2.5, 2 / 1.5 },
	};
	static const uint64_t seeds[] = { BOOTSTRAP_SEED, 0, 1, 7, 42, 0xdeadbeef };

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct atoms_case *c = &cases[i];

		for (size_t s = 0; s < ARRAY_SIZE(seeds); s++) {
			struct bootstrap_plan *plan = bootstrap_plan_new(c->n_base, c->n_new,
									 BOOTSTRAP_RESAMPLES,
									 seeds[s]);
			double low, high;

			assert_int_equal(bootstrap_ratio_ci(c->base, c->n_base, c->new, c->n_new,
							    BOOTSTRAP_RESAMPLES, c->level, seeds[s],
							    &low, &high), 0);
			check(low, c->low, "low", "atoms");
			check(high, c->high, "high", "atoms");
			assert_int_equal(bootstrap_plan_ratio_ci(plan, c->base, c->new, c->level,
								 &low, &high), 0);
			check(low, c->low, "low", "atoms, plan");
			check(high, c->high, "high", "atoms, plan");
			bootstrap_plan_free(plan);
		}
	}
}

static void test_provenance(void **state)
{
	/* the fixture says which script and R made it */
	assert_non_null(strstr(R_REFERENCE_PROVENANCE, "tests/reference/r_reference.R"));
	assert_non_null(strstr(R_REFERENCE_PROVENANCE, "with R "));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_provenance),
		cmocka_unit_test(test_welch_against_r),
		cmocka_unit_test(test_mann_whitney_against_r),
		cmocka_unit_test(test_hodges_lehmann_against_r),
		cmocka_unit_test(test_p_adjust_against_r),
		cmocka_unit_test(test_power_against_r),
		cmocka_unit_test(test_median_ci_against_r),
		cmocka_unit_test(test_percentiles_against_r),
		cmocka_unit_test(test_rng_published_vectors),
		cmocka_unit_test(test_bootstrap_known_atoms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
