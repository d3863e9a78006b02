// SPDX-License-Identifier: GPL-2.0
/*
 * Welch's t-test. The spread is the summary's corrected two-pass sample
 * standard deviation (n - 1): benchmark samples often share a large common
 * part (e.g. 1e9 ns plus noise), where the one-pass sum-of-squares form
 * loses every digit.
 */
#ifndef MATHLIB_STANDALONE
#define MATHLIB_STANDALONE	/* Rmath without R itself */
#endif
#include <Rmath.h>
#include <math.h>

#include "stats/summary.h"
#include "stats/welch.h"

void welch_test(const double *base, size_t n_base,
		const double *new, size_t n_new, struct welch_result *r)
{
	double mean_base, mean_new, se_base, se_new, se, diff, big, rb, rn;

	r->t = r->df = r->p = NAN;
	if (n_base < 2 || n_new < 2)
		return;

	mean_base = stats_mean(base, n_base);
	mean_new = stats_mean(new, n_new);
	/* standard errors, not their squares, which overflow near DBL_MAX */
	se_base = stats_stddev(base, n_base) / sqrt((double)n_base);
	se_new = stats_stddev(new, n_new) / sqrt((double)n_new);
	se = hypot(se_base, se_new);
	diff = mean_new - mean_base;

	if (se == 0) {
		if (diff == 0) {
			r->t = 0;
			r->p = 1;
		} else {
			r->t = copysign(INFINITY, diff);
		}
		return;
	}

	r->t = diff / se;
	/* Welch-Satterthwaite, in squares relative to the larger error */
	big = fmax(se_base, se_new);
	rb = (se_base / big) * (se_base / big);
	rn = (se_new / big) * (se_new / big);
	r->df = (rb + rn) * (rb + rn) /
		(rb * rb / (double)(n_base - 1) + rn * rn / (double)(n_new - 1));
	/* two-sided: twice the upper tail of |t|, computed directly in the tail */
	r->p = 2 * pt(-fabs(r->t), r->df, 1, 0);
}
