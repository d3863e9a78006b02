// SPDX-License-Identifier: GPL-2.0
/*
 * Welch's t-test. The variance is the two-pass sample variance (n - 1):
 * benchmark samples often share a large common part (e.g. 1e9 ns plus
 * noise), where the one-pass sum-of-squares form loses every digit.
 */
#ifndef MATHLIB_STANDALONE
#define MATHLIB_STANDALONE	/* Rmath without R itself */
#endif
#include <Rmath.h>
#include <math.h>

#include "stats/welch.h"

static double mean_of(const double *x, size_t n)
{
	double sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += x[i];
	return sum / (double)n;
}

static double variance_of(const double *x, size_t n, double mean)
{
	double ss = 0;

	for (size_t i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	return ss / (double)(n - 1);
}

void welch_test(const double *base, size_t n_base,
		const double *new, size_t n_new, struct welch_result *r)
{
	double mean_base, mean_new, se2_base, se2_new, se2, diff;

	r->t = r->df = r->p = NAN;
	if (n_base < 2 || n_new < 2)
		return;

	mean_base = mean_of(base, n_base);
	mean_new = mean_of(new, n_new);
	se2_base = variance_of(base, n_base, mean_base) / (double)n_base;
	se2_new = variance_of(new, n_new, mean_new) / (double)n_new;
	se2 = se2_base + se2_new;
	diff = mean_new - mean_base;

	if (se2 == 0) {
		if (diff == 0) {
			r->t = 0;
			r->p = 1;
		} else {
			r->t = copysign(INFINITY, diff);
		}
		return;
	}

	r->t = diff / sqrt(se2);
	r->df = se2 * se2 / (se2_base * se2_base / (double)(n_base - 1) +
			     se2_new * se2_new / (double)(n_new - 1));
	/* two-sided: twice the upper tail of |t|, computed directly in the tail */
	r->p = 2 * pt(-fabs(r->t), r->df, 1, 0);
}
