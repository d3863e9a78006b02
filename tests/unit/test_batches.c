// SPDX-License-Identifier: GPL-2.0
/*
 * Batches as blocks (src/stats/batches.c) against R: the values come from
 * tests/reference/batches_reference.R (t.test on the batch means, anova of
 * lm(x ~ batch) for the variance components), to 1e-6 relative.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "stats/batches.h"

#define REF(actual, expected) \
	assert_true(fabs((actual) - (expected)) <= 1e-6 * fmax(1, fabs((double)(expected))))

static const double two_base[] = { 100.1, 100.6, 99.8, 100.3, 100.2,
				   104.2, 103.9, 104.5, 104.0, 104.4 };
static const double two_new[] = { 101.0, 101.4, 100.7, 101.2, 100.9,
				  105.3, 104.8, 105.1, 105.5, 104.9 };
static const size_t five_five[] = { 5, 5 };
static const double unbal_base[] = { 10.2, 10.4, 10.1, 11.0, 11.3, 10.9, 11.1, 11.2,
				     9.8, 9.9, 10.0, 9.7 };
static const size_t unbal_base_sizes[] = { 3, 5, 4 };
static const double unbal_new[] = { 12.1, 12.4, 12.0, 12.2, 12.5, 12.3, 13.0, 12.9 };
static const size_t unbal_new_sizes[] = { 6, 2 };
static const double flat[] = { 5.0, 6.0, 4.0, 5.5, 4.5, 5.0 };
static const size_t three_three[] = { 3, 3 };

static void test_components_reference(void **state)
{
	struct batch_components c;

	batch_components(two_base, five_five, 2, &c);
	assert_int_equal(c.nr_batches, 2);
	assert_int_equal(c.n, 10);
	REF(c.mean_of_means, 102.2);
	REF(c.sd_of_means, 2.8284271247461903);
	REF(c.ms_between, 39.999999999999972);
	REF(c.ms_within, 0.074999999999998679);
	REF(c.var_between, 7.984999999999995);
	REF(c.between_share, 0.99069478908188602);

	batch_components(unbal_base, unbal_base_sizes, 3, &c);
	REF(c.mean_of_means, 10.394444444444444);
	REF(c.sd_of_means, 0.64038472232915788);
	REF(c.ms_between, 1.8450000000000004);
	REF(c.ms_within, 0.021851851851851959);
	REF(c.var_between, 0.46548463356974001);
	REF(c.between_share, 0.95516064873954998);

	batch_components(unbal_new, unbal_new_sizes, 2, &c);
	REF(c.ms_between, 0.73500000000000365);
	REF(c.ms_within, 0.030000000000000443);
	REF(c.var_between, 0.23500000000000107);
	REF(c.between_share, 0.88679245283018771);

	/* MSB below MSW: no between-batch variance, not a negative one */
	batch_components(flat, three_three, 2, &c);
	REF(c.ms_within, 0.625);
	REF(c.var_between, 0);
	REF(c.between_share, 0);
}

/*
 * Subnormal samples (two_base times 2^-1040): 2^-e, the scale that brings
 * them up to [0.5, 1) for the squares, is beyond a double. A power of two
 * changes no ratio: the share and the scaled means are R's above.
 */
static void test_components_subnormal(void **state)
{
	double x[10];
	struct batch_components c;

	(void)state;
	for (size_t i = 0; i < 10; i++)
		x[i] = ldexp(two_base[i], -1040);
	batch_components(x, five_five, 2, &c);
	REF(ldexp(c.mean_of_means, 1040), 102.2);
	REF(ldexp(c.sd_of_means, 1040), 2.8284271247461903);
	REF(c.between_share, 0.99069478908188602);
}

static void test_components_degenerate(void **state)
{
	static const size_t one[] = { 4 }, singles[] = { 1, 1, 1 }, with_empty[] = { 5, 0, 5 };
	struct batch_components c;

	batch_components(flat, one, 1, &c);
	assert_int_equal(c.nr_batches, 1);
	REF(c.mean_of_means, 5.125);
	assert_true(isnan(c.sd_of_means) && isnan(c.between_share));
	/* one sample per batch: no within-batch variance to compare with */
	batch_components(flat, singles, 3, &c);
	assert_true(isnan(c.ms_within) && isnan(c.between_share));
	REF(c.sd_of_means, 1);
	/* an empty batch is no batch */
	batch_components(two_base, with_empty, 3, &c);
	assert_int_equal(c.nr_batches, 2);
	REF(c.between_share, 0.99069478908188602);
}

static void test_means_test_reference(void **state)
{
	struct batch_test t;

	batch_means_test(two_base, five_five, 2, two_new, five_five, 2, 0.95, &t);
	REF(t.t, 0.3080314208074687);
	REF(t.df, 1.9992162241674178);
	REF(t.p, 0.7871887967678135);
	REF(t.diff, 0.88000000000000966);
	REF(t.diff_low, -11.41665868598465);
	REF(t.diff_high, 13.17665868598467);
	REF(t.spread, 2.8568514137070546);

	batch_means_test(unbal_base, unbal_base_sizes, 3, unbal_new, unbal_new_sizes, 2,
			 0.95, &t);
	REF(t.t, 4.332140882943877);
	REF(t.df, 2.7591430321249599);
	REF(t.p, 0.026859472808330405);
	REF(t.diff, 2.2055555555555557);
	REF(t.diff_low, 0.50229798701126649);
	REF(t.diff_high, 3.9088131240998449);
	REF(t.spread, 0.57231660494545855);
}

static void test_means_test_needs_two_batches(void **state)
{
	static const size_t ten[] = { 10 };
	struct batch_test t;

	batch_means_test(two_base, ten, 1, two_new, five_five, 2, 0.95, &t);
	assert_true(isnan(t.p) && isnan(t.diff) && isnan(t.spread));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_components_reference),
		cmocka_unit_test(test_components_subnormal),
		cmocka_unit_test(test_components_degenerate),
		cmocka_unit_test(test_means_test_reference),
		cmocka_unit_test(test_means_test_needs_two_batches),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
