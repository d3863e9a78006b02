// SPDX-License-Identifier: GPL-2.0
/*
 * Hodges–Lehmann shift and interval. All three numbers are order
 * statistics of the n_base * n_new pairwise differences: the estimate is
 * their median, the exact interval two of them picked by qwilcox, and the
 * approximate interval's end points are where R's wdiff() changes sign,
 * which can only be at a difference (see approximate_rank). Selecting
 * them costs O(n_base * n_new); nothing is sorted.
 */
#ifndef MATHLIB_STANDALONE
#define MATHLIB_STANDALONE	/* Rmath without R itself */
#endif
#include <Rmath.h>
#include <math.h>
#include <stdlib.h>

#include "stats/hodges_lehmann.h"
#include "stats/ranksum.h"
#include "stats/select.h"
#include "util/xalloc.h"

#define HL_EXACT_LIMIT 50	/* as R's wilcox.test, like the test itself */

struct shifted_test {
	const double *base, *new;
	size_t n_base, n_new;
	double sigma_between;	/* null sd of W for a shift between differences */
};

/*
 * R's wdiff() as a function of the rank statistic @w and its @sigma: the
 * continuity-corrected normal score of the rank-sum test, less @zq.
 */
static double score(const struct shifted_test *st, double w, double sigma,
		    double zq)
{
	double dz = w - (double)st->n_new * (double)st->n_base / 2;
	double correction = dz > 0 ? 0.5 : dz < 0 ? -0.5 : 0;

	return (dz - correction) / sigma - zq;
}

/* R's wdiff(@shift, @zq) evaluated at @shift itself; NAN if all tie */
static double wdiff(const struct shifted_test *st, double shift, double zq)
{
	struct rank_sum rs;
	double sigma;

	rank_sum(st->new, st->n_new, shift, st->base, st->n_base, &rs);
	sigma = rank_sum_sigma(st->n_new, st->n_base, rs.tie_sum);
	return sigma == 0 ? NAN : score(st, rs.w, sigma, zq);
}

/*
 * 0-based rank among the sorted differences of the end point R's root()
 * finds for @zq, or -1 for the smallest difference mumin, n - 1 for the
 * largest, mumax, which R checks first.
 *
 * For a shift d strictly between two adjacent distinct differences, no
 * shifted new value ties a base value, so W(d) is the integer number of
 * differences above d and the null sd is that of the within-sample ties
 * alone (sigma_between). The score is non-decreasing in W, so with u the
 * largest W whose score is at most 0, wdiff is <= 0 exactly on the gaps
 * above the (n - u)-th smallest difference and > 0 below it: that
 * difference is where the sign changes, and where R's uniroot converges
 * (to within its tolerance).
 */
static long approximate_rank(const struct shifted_test *st, size_t n,
			     double zq, double f_lower, double f_upper)
{
	double sigma = st->sigma_between;
	long u;

	if (f_lower <= 0)
		return 0;
	if (f_upper >= 0)
		return (long)n - 1;
	/* solve roughly, then step to the exact boundary of the integer W */
	u = lround((double)n / 2 + zq * sigma);
	if (u < 0)
		u = 0;
	if (u > (long)n)
		u = (long)n;
	while (u < (long)n && score(st, (double)(u + 1), sigma, zq) <= 0)
		u++;
	while (u >= 0 && score(st, (double)u, sigma, zq) > 0)
		u--;
	/* u == -1: positive on every gap, the change is at the largest */
	if (u < 0)
		return (long)n - 1;
	if (u >= (long)n)
		return 0;
	return (long)n - u - 1;
}

static void approximate_ci(struct shifted_test *st, double *diffs, size_t n,
			   double alpha, double mumin, double mumax,
			   struct hl_result *r)
{
	double zq = qnorm(alpha / 2, 0, 1, 0, 0);
	struct rank_sum base_ties, new_ties;
	double f_lower, f_upper;

	rank_sum(st->base, st->n_base, 0, NULL, 0, &base_ties);
	rank_sum(st->new, st->n_new, 0, NULL, 0, &new_ties);
	st->sigma_between = rank_sum_sigma(st->n_new, st->n_base,
					   base_ties.tie_sum + new_ties.tie_sum);

	/* R stops when every value ties at an end point (then sigma is 0) */
	f_lower = wdiff(st, mumin, zq);
	f_upper = wdiff(st, mumax, zq);
	if (isnan(f_lower) || isnan(f_upper))
		return;
	r->low = select_kth(diffs, n, approximate_rank(st, n, zq, f_lower, f_upper));

	f_lower = wdiff(st, mumin, -zq);
	f_upper = wdiff(st, mumax, -zq);
	r->high = select_kth(diffs, n, approximate_rank(st, n, -zq, f_lower, f_upper));
}

static void exact_ci(double *diffs, size_t n_base, size_t n_new,
		     double alpha, struct hl_result *r)
{
	size_t n = n_base * n_new;
	double qu = qwilcox(alpha / 2, (double)n_new, (double)n_base, 1, 0);
	size_t upper;

	/* R's indices are 1-based: c(diffs[qu], diffs[n - qu + 1]) */
	if (qu < 1)
		qu = 1;
	upper = (size_t)qu;
	r->low = select_kth(diffs, n, upper - 1);
	r->high = select_kth(diffs, n, n - upper);
}

static double median(double *x, size_t n)
{
	double upper = select_kth(x, n, n / 2);

	if (n % 2)
		return upper;
	return (select_kth(x, n, n / 2 - 1) + upper) / 2;
}

void hl_estimate(const double *base, size_t n_base,
		 const double *new, size_t n_new, double level,
		 struct hl_result *r)
{
	struct shifted_test st = { base, new, n_base, n_new, 0 };
	double mumin = INFINITY, mumax = -INFINITY;
	struct rank_sum rs;
	size_t n = n_base * n_new, i, j;
	double *diffs;

	r->shift = r->low = r->high = NAN;
	r->exact = false;
	if (n == 0 || !(level > 0 && level < 1))
		return;

	diffs = xreallocarray(NULL, n, sizeof(*diffs));
	for (i = 0; i < n_base; i++) {
		for (j = 0; j < n_new; j++) {
			double d = new[j] - base[i];

			diffs[i * n_new + j] = d;
			mumin = fmin(mumin, d);
			mumax = fmax(mumax, d);
		}
	}
	r->shift = median(diffs, n);

	rank_sum(new, n_new, 0, base, n_base, &rs);
	r->exact = n_new < HL_EXACT_LIMIT && n_base < HL_EXACT_LIMIT && !rs.ties;
	if (r->exact)
		exact_ci(diffs, n_base, n_new, 1 - level, r);
	else
		approximate_ci(&st, diffs, n, 1 - level, mumin, mumax, r);
	free(diffs);
}
