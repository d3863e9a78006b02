/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STATS_SUMMARY_H
#define SCHEDPERF_STATS_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Summary statistics of one metric's samples, as MMTests' compare-kernels
 * names them (doc/design.md). Pure functions: no I/O, no allocation visible to
 * the caller. A statistic that is undefined for the data (Hmean or Gmean of
 * non-positive values, Stddev of one sample, CoeffVar of a zero mean) is
 * NAN; reports print it as "-".
 */

#define SUMMARY_NR_BMEANS 3
extern const int summary_bmean_percents[SUMMARY_NR_BMEANS];	/* 50, 95, 99 */

struct summary {
	size_t n;
	double min, max;
	double amean;		/* arithmetic mean */
	double hmean;		/* harmonic mean; NAN unless every sample > 0 */
	double gmean;		/* geometric mean; NAN unless every sample > 0 */
	double median;
	double stddev;		/* sample standard deviation (n - 1); NAN for n < 2 */
	double coeffvar;	/* stddev / amean * 100; NAN when undefined */
	/*
	 * B-means: the mean of the best P % of samples, k = max(1, floor(n*P/100))
	 * samples in the preferred order (largest first when higher is
	 * better). Arithmetic (BAmean) when lower is better, harmonic
	 * (BHmean) when higher is better, as MMTests does.
	 */
	double bmean[SUMMARY_NR_BMEANS];
};

/*
 * Summarise @n samples (n >= 1; n == 0 gives all NAN and n = 0).
 * @higher_is_better chooses the B-mean order and kind.
 */
void summary_compute(const double *samples, size_t n, bool higher_is_better,
		     struct summary *s);
/* The same with @sorted, the samples in ascending order, given. */
void summary_compute_sorted(const double *samples, const double *sorted, size_t n,
			    bool higher_is_better, struct summary *s);

/*
 * Percent change of @value against @base, positive = better, whichever way the metric goes:
 * (value - base) / |base| * 100, negated when lower is better; for a positive base,
 * higher is better: value/base*100 - 100; lower is better: 100 - value/base*100.
 * NAN when either is NAN or base is 0.
 */
double summary_pct_change(double base, double value, bool higher_is_better);

double stats_mean(const double *x, size_t n);
double stats_hmean(const double *x, size_t n);
double stats_gmean(const double *x, size_t n);
double stats_stddev(const double *x, size_t n);
/*
 * Squares of samples beyond 2^400 overflow, and those of samples below
 * 2^-400 (their differences smaller still) lose every digit to underflow:
 * 0 when @x's largest magnitude is between, else the power of two e that
 * brings it into [0.5, 1) as x * 2^-e, exactly. 0 too for zeros, NaN and
 * infinities, which no scaling helps.
 */
int stats_scale_exponent(const double *x, size_t n);
/* The same for two sets of samples taken together. */
int stats_scale_exponent2(const double *x, size_t nx, const double *y, size_t ny);
/* Whether every one of @n values is a number and not infinite. */
bool stats_all_finite(const double *x, size_t n);
/* The same of two sets of samples taken together. */
bool stats_all_finite2(const double *x, size_t nx, const double *y, size_t ny);
/* (a + b) / 2, without overflowing near the largest double. */
double stats_midpoint(double a, double b);
/* Median of @n values; @sorted must be in ascending order. */
double stats_median_sorted(const double *sorted, size_t n);

#endif
