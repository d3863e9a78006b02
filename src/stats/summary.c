// SPDX-License-Identifier: GPL-2.0
/*
 * Summary statistics of one metric's samples, with the names and
 * definitions of MMTests' compare-kernels. Pure math: nothing
 * here prints or reads, so the reports can trust these as plain values.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/sort.h"
#include "stats/summary.h"
#include "util/xalloc.h"

const int summary_bmean_percents[SUMMARY_NR_BMEANS] = { 50, 95, 99 };

/*
 * Samples near the largest double overflow a plain sum although their mean
 * is finite: then the sum is taken again on the samples scaled by a power
 * of two, which is exact, so the result is the same wherever both work.
 * The standard deviation does the same.
 */
#define OVERFLOW_SCALE_EXP	64

/* @x * 2^-@e, exact unless it underflows: 2^-e itself can be beyond a double. */
static inline double scaled(double x, int e)
{
	return e ? ldexp(x, -e) : x;
}

/* Whether @n >= 1 samples are equal: most are not, and differ at the ends. */
static bool all_equal(const double *x, size_t n)
{
	if (x[0] != x[n - 1])
		return false;
	for (size_t i = 1; i + 1 < n; i++)
		if (x[i] != x[0])
			return false;
	return true;
}

/*
 * The mean of @x * 2^-@e. Equal samples are their mean, exactly: their sum
 * rounds (ten samples of 0.1 sum to 0.9999999999999999), and the spread
 * around a mean off by that rounding is one that is not there.
 */
static double mean_of(const double *x, size_t n, int e)
{
	double sum = 0.0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += scaled(x[i], e);
	return all_equal(x, n) ? scaled(x[0], e) : sum / (double)n;
}

double stats_mean(const double *x, size_t n)
{
	double mean;

	if (!n)
		return NAN;
	mean = mean_of(x, n, 0);
	if (isinf(mean))
		mean = ldexp(mean_of(x, n, OVERFLOW_SCALE_EXP), OVERFLOW_SCALE_EXP);
	return mean;
}

/* Undefined unless every sample is positive: 1/0 and sign changes mislead. */
double stats_hmean(const double *x, size_t n)
{
	double sum = 0.0, least, greatest;
	size_t i;
	int e;

	if (!n)
		return NAN;
	least = greatest = x[0];
	for (i = 0; i < n; i++) {
		if (!(x[i] > 0.0))	/* also catches NAN */
			return NAN;
		sum += 1.0 / x[i];
		if (x[i] < least)
			least = x[i];
		if (x[i] > greatest)
			greatest = x[i];
	}
	if (least == greatest)	/* their mean, exactly, as stats_mean() has it */
		return least;
	if (isfinite(sum) && greatest <= 0x1p1022)
		return (double)n / sum;
	/*
	 * The reciprocals of samples below 2^-1024 (subnormal ones) overflow,
	 * those of samples above 2^1022 lose digits below the smallest normal
	 * double: take them of the samples in units of the smallest one's power
	 * of two, exactly, so that each is at most 1 and their sum above 1/2
	 * (a sample beyond a double in those units is infinite, and the 0 it
	 * adds is what it adds to the sum, to the sum's precision).
	 */
	e = ilogb(least);
	sum = 0.0;
	for (i = 0; i < n; i++)
		sum += 1.0 / ldexp(x[i], -e);
	return ldexp((double)n / sum, e);
}

/*
 * Through the mean of the logs: the running product of a few hundred
 * throughput samples of ~1e6 would overflow a double.
 */
double stats_gmean(const double *x, size_t n)
{
	double sum = 0.0;
	size_t i;

	if (!n)
		return NAN;
	for (i = 0; i < n; i++) {
		if (!(x[i] > 0.0))
			return NAN;
		sum += log(x[i]);
	}
	return exp(sum / (double)n);
}

/*
 * The sum of squared deviations of @x * 2^-@e from their mean, by the
 * corrected two-pass algorithm (Chan, Golub and LeVeque): the second term
 * cancels the rounding error left in the mean. The textbook sum of squares
 * minus the squared sum loses every digit on samples like 5e5 +- 10.
 */
static double sum_squares(const double *x, size_t n, int e)
{
	double mean, sq = 0.0, dev = 0.0;
	size_t i;

	mean = mean_of(x, n, e);
	for (i = 0; i < n; i++) {
		double d = scaled(x[i], e) - mean;

		sq += d * d;
		dev += d;
	}
	sq -= dev * dev / (double)n;
	/* Rounding can leave a tiny negative for equal samples. */
	return sq < 0.0 ? 0.0 : sq;
}

/* The largest magnitude of @x, NAN if a sample is not finite. */
static double largest_magnitude(const double *x, size_t n)
{
	double largest = 0.0;

	for (size_t i = 0; i < n; i++) {
		double a = fabs(x[i]);

		if (!(a <= DBL_MAX))	/* infinite or NaN */
			return NAN;
		if (a > largest)
			largest = a;
	}
	return largest;
}

bool stats_all_finite(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return false;
	return true;
}

bool stats_all_finite2(const double *x, size_t nx, const double *y, size_t ny)
{
	return stats_all_finite(x, nx) && stats_all_finite(y, ny);
}

static int scale_exponent(double largest)
{
	if (!isfinite(largest) || largest == 0.0 || (largest >= 0x1p-400 && largest <= 0x1p400))
		return 0;
	return ilogb(largest) + 1;
}

int stats_scale_exponent(const double *x, size_t n)
{
	return scale_exponent(largest_magnitude(x, n));
}

int stats_scale_exponent2(const double *x, size_t nx, const double *y, size_t ny)
{
	double lx = largest_magnitude(x, nx), ly = largest_magnitude(y, ny);

	return scale_exponent(lx > ly ? lx : ly);	/* NAN if either is */
}

double stats_stddev(const double *x, size_t n)
{
	int e;

	if (n < 2)
		return NAN;
	e = stats_scale_exponent(x, n);
	return ldexp(sqrt(sum_squares(x, n, e) / (double)(n - 1)), e);
}

double stats_midpoint(double a, double b)
{
	double sum = a + b;

	return isfinite(sum) ? sum / 2.0 : a / 2.0 + b / 2.0;
}

double stats_median_sorted(const double *sorted, size_t n)
{
	if (!n)
		return NAN;
	if (n % 2)
		return sorted[n / 2];
	return stats_midpoint(sorted[n / 2 - 1], sorted[n / 2]);
}

double summary_pct_change(double base, double value, bool higher_is_better)
{
	double ratio;

	if (isnan(base) || isnan(value) || base == 0.0)
		return NAN;
	ratio = value / base * 100.0;
	/*
	 * (value - base) / |base|: from a negative base the ratio has the
	 * other sign (-5 to 5 is -100 %, a rise of 200 %).
	 */
	if (base < 0)
		higher_is_better = !higher_is_better;
	return higher_is_better ? ratio - 100.0 : 100.0 - ratio;
}

/*
 * k = max(1, floor(n * percent / 100)) in integers, so that the floor is
 * exact by construction rather than by the luck of rounding 0.95 or 0.99.
 * n is split so that n * percent cannot overflow either.
 */
static size_t bmean_count(size_t n, int percent)
{
	size_t p = (size_t)percent;
	size_t k = n / 100 * p + n % 100 * p / 100;

	return k ? k : 1;
}

/*
 * The mean of the k best samples of @sorted (ascending): the smallest when
 * lower is better, averaged arithmetically; the largest when higher is
 * better, averaged harmonically, as rates are (MMTests' BAmean/BHmean).
 */
static double bmean(const double *sorted, size_t n, int percent,
		    bool higher_is_better)
{
	size_t k = bmean_count(n, percent);

	if (higher_is_better)
		return stats_hmean(sorted + n - k, k);
	return stats_mean(sorted, k);
}

static void summary_set_nan(struct summary *s)
{
	int i;

	s->n = 0;
	s->min = s->max = NAN;
	s->amean = s->hmean = s->gmean = NAN;
	s->median = s->stddev = s->coeffvar = NAN;
	for (i = 0; i < SUMMARY_NR_BMEANS; i++)
		s->bmean[i] = NAN;
}

void summary_compute(const double *samples, size_t n, bool higher_is_better,
		     struct summary *s)
{
	/* The caller's samples stay in run order: sort a copy. */
	double *sorted = n ? sorted_doubles(samples, n) : NULL;

	summary_compute_sorted(samples, sorted, n, higher_is_better, s);
	free(sorted);
}

void summary_compute_sorted(const double *samples, const double *sorted, size_t n,
			    bool higher_is_better, struct summary *s)
{
	int i;

	summary_set_nan(s);
	if (!n)
		return;
	s->n = n;
	s->min = sorted[0];
	s->max = sorted[n - 1];
	s->amean = stats_mean(samples, n);
	s->hmean = stats_hmean(samples, n);
	s->gmean = stats_gmean(samples, n);
	s->median = stats_median_sorted(sorted, n);
	s->stddev = stats_stddev(samples, n);
	if (!isnan(s->stddev) && s->amean != 0.0)
		s->coeffvar = s->stddev / s->amean * 100.0;
	for (i = 0; i < SUMMARY_NR_BMEANS; i++)
		s->bmean[i] = bmean(sorted, n, summary_bmean_percents[i],
				    higher_is_better);
}
