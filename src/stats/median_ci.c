// SPDX-License-Identifier: GPL-2.0
/*
 * Order-statistic confidence interval of the median (benchstat's "± x%").
 * Exact binomial orders: for the sample sizes benchmarks have, qbinom is
 * cheap and spares the normal approximation's coverage error.
 */
#include <math.h>

#define MATHLIB_STANDALONE	/* Rmath without R itself */
#include <Rmath.h>

#include "stats/median_ci.h"

int median_ci_orders(size_t n, double level, size_t *lo_order, size_t *hi_order)
{
	double k;

	*lo_order = *hi_order = 0;
	if (n == 0 || !(level > 0 && level < 1))
		return -1;
	k = qbinom((1 - level) / 2, (double)n, 0.5, 1, 0);
	/*
	 * qbinom gives the smallest k with P(X <= k) >= alpha/2, so
	 * P(X <= k - 1) < alpha/2: each tail outside [x(k), x(n+1-k)] holds
	 * less than alpha/2. k = 0 means even the extremes miss the level.
	 */
	if (k < 1 || !isfinite(k))
		return -1;
	*lo_order = (size_t)k;
	*hi_order = n + 1 - (size_t)k;
	return 0;
}

int median_ci(const double *sorted, size_t n, double level, double *low, double *high)
{
	size_t lo, hi;

	*low = *high = NAN;
	if (median_ci_orders(n, level, &lo, &hi))
		return -1;
	*low = sorted[lo - 1];
	*high = sorted[hi - 1];
	return 0;
}
