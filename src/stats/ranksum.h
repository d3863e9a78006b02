/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STATS_RANKSUM_H
#define SCHEDPERF_STATS_RANKSUM_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The Wilcoxon rank sum of two samples, shared by the Mann–Whitney test and
 * the Hodges–Lehmann interval (which re-ranks shifted samples many times).
 */
struct rank_sum {
	double w;		/* sum of mid-ranks of x minus nx(nx+1)/2, R's W */
	double tie_sum;		/* sum over tie groups of t^3 - t */
	bool ties;		/* any two values of x and y together are equal */
};

/*
 * Rank x[i] - @shift together with y[j]; ties get mid-ranks, as R's rank()
 * does. @nx + @ny must be at least 1.
 */
void rank_sum(const double *x, size_t nx, double shift,
	      const double *y, size_t ny, struct rank_sum *r);

/* The same for @x and @y already in ascending order: O(nx + ny). */
void rank_sum_sorted(const double *x, size_t nx, double shift,
		     const double *y, size_t ny, struct rank_sum *r);

/*
 * Standard deviation of W under the null hypothesis, corrected for ties
 * (R's SIGMA in wilcox.test). 0 when every value is tied.
 */
double rank_sum_sigma(size_t nx, size_t ny, double tie_sum);

#endif
