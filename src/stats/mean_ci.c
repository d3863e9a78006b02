// SPDX-License-Identifier: GPL-2.0
/*
 * The t interval of a mean (mean_ci.h): what history shows per run, where
 * a run's few samples make the normal quantile too narrow.
 */
#ifndef MATHLIB_STANDALONE
#define MATHLIB_STANDALONE	/* Rmath without R itself */
#endif
#include <Rmath.h>
#include <math.h>

#include "stats/mean_ci.h"
#include "stats/summary.h"

void mean_ci(const double *x, size_t n, double level, double *low, double *high)
{
	double mean, half;

	*low = *high = NAN;
	if (n < 2 || !(level > 0 && level < 1))
		return;
	mean = stats_mean(x, n);
	half = qt((1 + level) / 2, (double)(n - 1), 1, 0) *
	       (stats_stddev(x, n) / sqrt((double)n));
	*low = mean - half;
	*high = mean + half;
}
