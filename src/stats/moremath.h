/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STATS_MOREMATH_H
#define SCHEDPERF_STATS_MOREMATH_H

#include <stddef.h>

#include <stdbool.h>

/*
 * benchstat's statistics as go-moremath computes them, at the version
 * golang.org/x/perf requires (f10218a38794), step for step so that ties
 * and boundaries fall the same way: the median's interval and the
 * Mann-Whitney U test of cmd/benchstat's default "assume nothing".
 *
 * The quantile interval (stats.QuantileCI): the order statistics come from
 * summing Binomial(n, q) probabilities outwards from its mode, taking the
 * left one on a tie, for n <= 30, and from a normal approximation with
 * continuity correction above. This differs from stats/median_ci.h (the
 * symmetric exact interval schedperf itself uses) for some n.
 */

/*
 * The 1-based orders of the interval's ends for @n samples: *lo may be 0
 * (the interval is open below) and *hi may be n + 1 (open above).
 */
void quantile_ci_orders(size_t n, double q, double confidence, size_t *lo, size_t *hi);

/* The quantile of @n ascending samples, R's type 8 as moremath computes it. */
double quantile_r8_sorted(const double *sorted, size_t n, double q);

/*
 * The quantile and its interval from @n ascending samples; an open end is
 * -INFINITY or INFINITY.
 */
void quantile_ci(const double *sorted, size_t n, double q, double confidence,
		 double *center, double *low, double *high);

/* Errors of the U test, as moremath words them. */
#define MOREMATH_SAMPLE_TOO_SMALL	"sample is too small"
#define MOREMATH_SAMPLES_EQUAL		"all samples are equal"

/*
 * The two-sided Mann-Whitney U test (stats.MannWhitneyUTest, LocationDiffers):
 * exact without ties when both samples have at most 50 values, exact with
 * ties (Klotz's algorithm over the tie groups) at most 25, otherwise the
 * normal approximation with tie and continuity correction. Returns the p
 * value, or NAN with @err set to moremath's message.
 */
double moremath_utest(const double *x1, size_t n1, const double *x2, size_t n2,
		      const char **err);

/* stats.GeoMean: NAN when a value is <= 0 or there is none. */
double moremath_geomean(const double *x, size_t n);

#endif
