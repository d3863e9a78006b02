/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STATS_MEDIAN_CI_H
#define SCHEDPERF_STATS_MEDIAN_CI_H

#include <stddef.h>

/*
 * Distribution-free confidence interval of the median from order
 * statistics, as benchstat shows it: the number of samples below the
 * population median is Binomial(n, 1/2), so with k = qbinom((1 - level)/2,
 * n, 1/2) the interval [x(k), x(n + 1 - k)] (1-based order statistics)
 * covers the median with probability 1 - 2 pbinom(k - 1, n, 1/2) >= level.
 * benchstat picks the same orders for n <= 30 and a normal approximation
 * above; this stays exact for every n.
 */

/*
 * The 1-based orders for @n samples at @level; returns 0, or -1 when the
 * sample is too small for the level (k = 0: n < 6 at 95 %) or @level lies
 * outside (0, 1), with both orders 0.
 */
int median_ci_orders(size_t n, double level, size_t *lo_order, size_t *hi_order);

/*
 * The interval itself from @n samples in ascending order; -1 and both
 * bounds NAN when median_ci_orders() fails.
 */
int median_ci(const double *sorted, size_t n, double level, double *low, double *high);

#endif
