/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STATS_MANNWHITNEY_H
#define SCHEDPERF_STATS_MANNWHITNEY_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Two-sided Mann–Whitney U (Wilcoxon rank-sum) test, as R's
 * wilcox.test(new, base, exact = NULL, correct = TRUE):
 *   - exact p (pwilcox) when both samples have fewer than 50 values and no
 *     two values (of both samples together) are equal;
 *   - otherwise the normal approximation with tie and continuity correction.
 */
struct mwu_result {
	double u;	/* R's W: pairs with new > base, plus half the ties */
	double p;	/* two-sided p-value */
	bool exact;	/* p from the exact null distribution */
};

/*
 * An empty sample gives u and p NAN. Where R gives p = NaN (every value
 * tied, so the approximation's variance is 0) this gives p = 1: the two
 * samples are identical constants and nothing distinguishes them.
 * A sample that is NaN or infinite (only a damaged store holds one) gives
 * u and p NAN too. Not thread-safe: Rmath's pwilcox keeps a static table.
 */
void mwu_test(const double *base, size_t n_base,
	      const double *new, size_t n_new, struct mwu_result *r);
/* The same from both samples in ascending order, which it does not copy. */
void mwu_test_sorted(const double *base, size_t n_base,
		     const double *new, size_t n_new, struct mwu_result *r);

#endif
