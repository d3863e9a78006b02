// SPDX-License-Identifier: GPL-2.0
/*
 * Mann–Whitney U, following R's wilcox.test.default line by line so that a
 * user who checks a verdict in R gets the same p-value.
 */
#ifndef MATHLIB_STANDALONE
#define MATHLIB_STANDALONE	/* Rmath without R itself */
#endif
#include <Rmath.h>
#include <math.h>

#include "stats/mannwhitney.h"
#include "stats/ranksum.h"
#include "stats/summary.h"

/* R switches to the normal approximation at 50 values per side */
#define MWU_EXACT_LIMIT 50

static double exact_p(double w, size_t nx, size_t ny)
{
	double m = (double)nx, n = (double)ny, p;

	/* the distribution is symmetric: take the tail W lies in, double it */
	if (w > m * n / 2)
		p = pwilcox(w - 1, m, n, 0, 0);
	else
		p = pwilcox(w, m, n, 1, 0);
	return fmin(2 * p, 1);
}

static double normal_p(double w, size_t nx, size_t ny, double tie_sum)
{
	double z = w - (double)nx * (double)ny / 2;
	double sigma = rank_sum_sigma(nx, ny, tie_sum);
	double correction = z > 0 ? 0.5 : z < 0 ? -0.5 : 0;

	if (sigma == 0)
		return 1;
	z = (z - correction) / sigma;
	return 2 * fmin(pnorm(z, 0, 1, 1, 0), pnorm(z, 0, 1, 0, 0));
}

/* From the rank sum of new among both; empty sides as mwu_test() says. */
/* The test from the rank sum of new among both. */
static void mwu_from(const struct rank_sum *rs, size_t n_base, size_t n_new,
		     struct mwu_result *r)
{
	r->u = rs->w;
	r->exact = n_new < MWU_EXACT_LIMIT && n_base < MWU_EXACT_LIMIT && !rs->ties;
	if (r->exact)
		r->p = exact_p(rs->w, n_new, n_base);
	else
		r->p = normal_p(rs->w, n_new, n_base, rs->tie_sum);
}

static void mwu(const double *base, size_t n_base, const double *new, size_t n_new,
		bool sorted, struct mwu_result *r)
{
	struct rank_sum rs;

	r->u = r->p = NAN;
	r->exact = false;
	if (n_base == 0 || n_new == 0 || !stats_all_finite2(base, n_base, new, n_new))
		return;
	(sorted ? rank_sum_sorted : rank_sum)(new, n_new, 0, base, n_base, &rs);
	mwu_from(&rs, n_base, n_new, r);
}

void mwu_test(const double *base, size_t n_base,
	      const double *new, size_t n_new, struct mwu_result *r)
{
	mwu(base, n_base, new, n_new, false, r);
}

void mwu_test_sorted(const double *base, size_t n_base,
		     const double *new, size_t n_new, struct mwu_result *r)
{
	mwu(base, n_base, new, n_new, true, r);
}
