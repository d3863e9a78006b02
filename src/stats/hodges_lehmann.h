/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STATS_HODGES_LEHMANN_H
#define SCHEDPERF_STATS_HODGES_LEHMANN_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Hodges–Lehmann estimate of the shift new - base, with its confidence
 * interval as R's wilcox.test(new, base, conf.int = TRUE) computes it.
 */
struct hl_result {
	double shift;		/* median of all differences new[j] - base[i] */
	double low, high;	/* confidence interval of the shift */
	bool exact;		/* interval from the exact distribution */
};

/*
 * @level is the confidence level, e.g. 0.95. An empty side gives all NAN.
 *
 * Exact case (both sides under 50 values, no ties): the interval is the
 * pair of order statistics of the differences that R picks with qwilcox,
 * identical to R.
 *
 * Otherwise R inverts the normal approximation of the rank-sum test (with
 * tie and continuity correction) by uniroot with tolerance 1e-4. That
 * function of the shift is a step function which jumps only at the
 * differences, so its root is the difference where it jumps: this returns
 * that difference exactly (an order statistic whose rank follows from the
 * normal quantile), where R's answer lies within about 1e-4 of it. When every value is tied
 * (R stops with an error) the interval is NAN. The estimate is always the
 * median of the differences; R's approximate branch reports instead a
 * uniroot point (tolerance 1e-4) of the uncorrected statistic, which is
 * within that tolerance of the middle difference, or between the two
 * middle differences when their number is even.
 *
 * Time O(n log n) and memory O(n) in n = n_base + n_new: the differences
 * are selected from, never stored.
 *
 * A sample that is NaN or infinite (only a damaged store holds one) gives
 * all NAN, as hl_difference_kth() does. Not thread-safe: Rmath's qwilcox
 * keeps a static table.
 */
void hl_estimate(const double *base, size_t n_base,
		 const double *new, size_t n_new, double level,
		 struct hl_result *r);
/* The same from both samples in ascending order, which it does not copy. */
void hl_estimate_sorted(const double *base, size_t n_base,
			const double *new, size_t n_new, double level,
			struct hl_result *r);

/*
 * The @k-th smallest (0-based, k < n_base * n_new) of the differences
 * new[j] - base[i], as the estimate selects them, in the same time and
 * memory.
 */
double hl_difference_kth(const double *base, size_t n_base,
			 const double *new, size_t n_new, unsigned long long k);

#endif
