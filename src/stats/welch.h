/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STATS_WELCH_H
#define SCHEDPERF_STATS_WELCH_H

#include <stddef.h>

/*
 * Welch's two-sample t-test (unequal variances), two-sided, as R's
 * t.test(new, base) and SciPy's ttest_ind(new, base, equal_var=False).
 */
struct welch_result {
	double t;	/* (mean(new) - mean(base)) / standard error */
	double df;	/* Welch–Satterthwaite degrees of freedom */
	double p;	/* two-sided p-value */
};

/*
 * Degenerate inputs, where R stops with an error, give:
 *   - fewer than 2 samples on either side: t, df and p all NAN;
 *   - both sides without variance (constant samples): df NAN; equal means
 *     give t = 0 and p = 1 (nothing distinguishes the runs), different
 *     means give t = +/-INFINITY and p = NAN (the test is undefined; let
 *     the rank test and the interval speak).
 * Samples must be finite.
 */
void welch_test(const double *base, size_t n_base,
		const double *new, size_t n_new, struct welch_result *r);

#endif
