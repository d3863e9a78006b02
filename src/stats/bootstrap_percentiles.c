// SPDX-License-Identifier: GPL-2.0
/*
 * The percentile interval from resampled values: R's quantile(type = 7)
 * at (1 - level)/2 and (1 + level)/2, the two order statistics selected,
 * not sorted for. From 10,000 resamples, only the tails beyond two cuts
 * that a strided sample of them sets are selected from (bootstrap_parts.h,
 * struct tails); when the sample misled, the whole set is.
 */
#include <math.h>
#include <stdlib.h>

#include "stats/bootstrap.h"
#include "stats/bootstrap_parts.h"
#include "stats/select.h"
#include "util/xalloc.h"

/* The smallest of @n >= 1 values. */
static double min_of(const double *x, size_t n)
{
	double m = x[0];

	for (size_t i = 1; i < n; i++)
		if (x[i] < m)
			m = x[i];
	return m;
}

double quantile_between(size_t n, size_t lo, double prob, double at, double next)
{
	double h = (double)(n - 1) * prob;

	if (lo + 1 >= n)
		return at;
	return at + (h - (double)lo) * (next - at);
}

/*
 * R's quantile(type = 7) at @prob of @n values, once the lower order
 * statistic (rank @lo of the @n) is in place at x[at] of @x's @len values:
 * everything after it is at least as large, so the upper one is their
 * minimum. @x may be the whole set (at == lo) or a tail cut from it.
 */
static double interpolate(const double *x, size_t len, size_t at, size_t n, size_t lo,
			  double prob)
{
	if (lo + 1 >= n)
		return x[at];
	return quantile_between(n, lo, prob, x[at], min_of(x + at + 1, len - at - 1));
}

/*
 * Both ends with one partial selection each: the upper order statistic is
 * searched only among the values above the lower one.
 */
static void percentiles_selected(double *x, size_t n, double p_low, double p_high,
				 size_t lo1, size_t lo2, double *low, double *high)
{
	select_kth(x, n, lo1);
	*low = interpolate(x, n, lo1, n, lo1, p_low);
	if (lo2 > lo1)
		select_kth(x + lo1 + 1, n - lo1 - 1, lo2 - lo1 - 1);
	*high = interpolate(x, n, lo2, n, lo2, p_high);
}

void tails_init(struct tails *t, size_t n, double level)
{
	*t = (struct tails){ .n = n, .p_low = (1 - level) / 2, .p_high = (1 + level) / 2 };
	t->lo1 = (size_t)floor((double)(n - 1) * t->p_low);
	t->lo2 = (size_t)floor((double)(n - 1) * t->p_high);
	t->want_low = t->lo1 + 2;
	t->want_high = n - t->lo2 + 1;
	t->room = t->want_low + t->want_high + 2 * TAIL_MARGIN * TAIL_STRIDE;
}

/*
 * The cuts from @m values drawn at random from the @n (reordered): a
 * margin beyond where the wanted ranks fall among them, the high one
 * selected among the values above the low one. -1 when they do not leave
 * a middle (ties, or too few values: the same cut for both).
 */
int tails_cut(struct tails *t, double *sample, size_t m)
{
	size_t below = t->want_low / TAIL_STRIDE + TAIL_MARGIN;
	size_t above = t->want_high / TAIL_STRIDE + TAIL_MARGIN;

	if (t->n < TAIL_MIN_N || t->lo2 <= t->lo1 || below + above + 1 >= m)
		return -1;
	t->cut_low = select_kth(sample, m, below);
	/* the values after the low cut are the larger ones: the high cut is among them */
	t->cut_high = select_kth(sample + below + 1, m - below - 1, m - 1 - above - below - 1);
	return t->cut_low < t->cut_high ? 0 : -1;
}

int tails_order_stats(struct tails *t, double *q)
{
	size_t skipped = t->n - t->nr_high;	/* rank lo2 of all, less these, in highs */
	size_t at = t->lo2 - skipped;

	if (t->overflow || t->nr_low > t->room || t->nr_high > t->room ||
	    t->nr_low < t->want_low || t->nr_high < t->want_high)
		return -1;
	select_kth(t->lows, t->nr_low, t->lo1);
	q[0] = t->lows[t->lo1];
	q[1] = t->lo1 + 1 >= t->n ? q[0] : min_of(t->lows + t->lo1 + 1, t->nr_low - t->lo1 - 1);
	select_kth(t->highs, t->nr_high, at);
	q[2] = t->highs[at];
	q[3] = t->lo2 + 1 >= t->n ? q[2] : min_of(t->highs + at + 1, t->nr_high - at - 1);
	return 0;
}

/*
 * The interval from the tails kept: the values beyond a cut are exactly
 * the smallest (largest) of all, so when enough of them are there the
 * order statistics and the interpolation are those of the full selection
 * to the bit. -1 when not (the cuts misled) or a tail overflowed.
 */
int tails_interval(struct tails *t, double *low, double *high)
{
	double q[4];

	if (tails_order_stats(t, q))
		return -1;
	*low = quantile_between(t->n, t->lo1, t->p_low, q[0], q[1]);
	*high = quantile_between(t->n, t->lo2, t->p_high, q[2], q[3]);
	return 0;
}

/*
 * Values <= cut_low into lows and >= cut_high into highs: every value is
 * written to both, and a count moves only for a value that belongs, so
 * the loop has no branch to mispredict on the random order of resamples
 * (hence the TAIL_BLOCK more of each, for the writes past the end a block
 * makes before the room is checked).
 */
static void cut_tails(struct tails *t, const double *x)
{
	size_t nl = 0, nh = 0;

	for (size_t at = 0; at < t->n && nl <= t->room && nh <= t->room; at += TAIL_BLOCK) {
		size_t end = at + TAIL_BLOCK < t->n ? at + TAIL_BLOCK : t->n;

		for (size_t i = at; i < end; i++) {
			t->lows[nl] = x[i];
			t->highs[nh] = x[i];
			nl += x[i] <= t->cut_low;
			nh += x[i] >= t->cut_high;
		}
	}
	t->nr_low = nl;
	t->nr_high = nh;
}

static int percentiles_tails(const double *x, size_t n, double level, double *low,
			     double *high)
{
	struct tails t;
	size_t m = n / TAIL_STRIDE;
	double *buf;
	int rc = -1;

	tails_init(&t, n, level);
	buf = xreallocarray(NULL, m + 2 * (t.room + TAIL_BLOCK), sizeof(*buf));
	t.lows = buf + m;
	t.highs = t.lows + t.room + TAIL_BLOCK;
	for (size_t i = 0; i < m; i++)
		buf[i] = x[i * TAIL_STRIDE];
	if (!tails_cut(&t, buf, m)) {
		cut_tails(&t, x);
		rc = tails_interval(&t, low, high);
	}
	free(buf);
	return rc;
}

void bootstrap_percentiles(double *x, size_t n, double level, double *low, double *high)
{
	double p_low = (1 - level) / 2, p_high = (1 + level) / 2;
	size_t lo1 = (size_t)floor((double)(n - 1) * p_low);
	size_t lo2 = (size_t)floor((double)(n - 1) * p_high);

	if (n >= TAIL_MIN_N && !percentiles_tails(x, n, level, low, high))
		return;
	percentiles_selected(x, n, p_low, p_high, lo1, lo2, low, high);
}

/* The interval from @ratios, none NaN (reordered). */
static int interval_of(double *ratios, size_t resamples, double level,
		       double *low, double *high)
{
	bootstrap_percentiles(ratios, resamples, level, low, high);
	/* infinite ratios (a zero base mean) can interpolate to inf - inf */
	if (isnan(*low) || isnan(*high)) {
		*low = *high = NAN;
		return -1;
	}
	return 0;
}

int ratio_interval(double *ratios, size_t resamples, double level, double *low, double *high)
{
	int rc = -1;

	for (size_t i = 0; i < resamples; i++)
		if (isnan(ratios[i]))
			goto out;
	rc = interval_of(ratios, resamples, level, low, high);
out:
	free(ratios);
	return rc;
}
