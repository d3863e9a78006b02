// SPDX-License-Identifier: GPL-2.0
/*
 * Batches as blocks. Why batch means rather than a fitted mixed model:
 * under the one-way random-effects model the means of equal-sized batches
 * are independent with one variance, var_between + var_within / n_i, so
 * Welch's test on them is exact, needs no iterative fit that may not
 * converge on two or three batches, and states its degrees of freedom
 * honestly: with two boots per kernel there are two numbers per side, and
 * only a difference large against the boot-to-boot spread is called.
 */
#ifndef MATHLIB_STANDALONE
#define MATHLIB_STANDALONE	/* Rmath without R itself */
#endif
#include <Rmath.h>
#include <math.h>
#include <stdlib.h>

#include "stats/batches.h"
#include "stats/summary.h"
#include "stats/welch.h"
#include "util/xalloc.h"

/* The means of the non-empty batches into @means; returns how many. */
static size_t batch_means(const double *x, const size_t *sizes, size_t nr_batches,
			  double *means)
{
	size_t k = 0, at = 0;

	for (size_t b = 0; b < nr_batches; b++) {
		if (sizes[b])
			means[k++] = stats_mean(x + at, sizes[b]);
		at += sizes[b];
	}
	return k;
}

void batch_components(const double *x, const size_t *sizes, size_t nr_batches,
		      struct batch_components *out)
{
	double *means = xcalloc(nr_batches + 1, sizeof(double));
	double grand, ssb = 0, ssw = 0, sum_n2 = 0, n0, between;
	size_t k, at = 0, b, i = 0;
	int e;

	*out = (struct batch_components){
		.mean_of_means = NAN, .sd_of_means = NAN, .ms_between = NAN,
		.ms_within = NAN, .var_between = NAN, .var_within = NAN,
		.between_share = NAN,
	};
	k = batch_means(x, sizes, nr_batches, means);
	out->nr_batches = k;
	for (b = 0; b < nr_batches; b++)
		out->n += sizes[b];
	if (!k)
		goto out;
	out->mean_of_means = stats_mean(means, k);
	if (k >= 2)
		out->sd_of_means = stats_stddev(means, k);
	/*
	 * the squares in units of 2^e, where they neither overflow nor
	 * underflow; by ldexp(), as 2^-e is beyond a double for subnormal samples
	 */
	e = stats_scale_exponent(x, out->n);
	grand = ldexp(stats_mean(x, out->n), -e);
	for (b = 0; b < nr_batches; at += sizes[b], b++) {
		double mean;

		if (!sizes[b])
			continue;
		mean = ldexp(means[i], -e);
		ssb += (double)sizes[b] * (mean - grand) * (mean - grand);
		for (size_t j = 0; j < sizes[b]; j++)
			ssw += (ldexp(x[at + j], -e) - mean) * (ldexp(x[at + j], -e) - mean);
		sum_n2 += (double)sizes[b] * (double)sizes[b];
		i++;
	}
	if (k < 2 || out->n <= k)
		goto out;
	n0 = ((double)out->n - sum_n2 / (double)out->n) / (double)(k - 1);
	ssb /= (double)(k - 1);
	ssw /= (double)(out->n - k);
	between = fmax(0, (ssb - ssw) / n0);
	if (between + ssw > 0)
		out->between_share = between / (between + ssw);
	/* variances in the samples' unit squared: beyond a double for some */
	out->ms_between = ldexp(ssb, 2 * e);
	out->ms_within = ldexp(ssw, 2 * e);
	out->var_within = out->ms_within;
	out->var_between = ldexp(between, 2 * e);
out:
	free(means);
}

void batch_means_test(const double *base, const size_t *base_sizes, size_t base_batches,
		      const double *new, const size_t *new_sizes, size_t new_batches,
		      double level, struct batch_test *out)
{
	double *mb = xcalloc(base_batches + 1, sizeof(double));
	double *mn = xcalloc(new_batches + 1, sizeof(double));
	size_t kb = batch_means(base, base_sizes, base_batches, mb);
	size_t kn = batch_means(new, new_sizes, new_batches, mn);
	struct welch_result w;
	double sb, sn, se;

	*out = (struct batch_test){
		.t = NAN, .df = NAN, .p = NAN, .diff = NAN, .diff_low = NAN,
		.diff_high = NAN, .spread = NAN,
	};
	if (kb < 2 || kn < 2)
		goto out;
	/* standard deviations and errors, not their squares, which overflow */
	sb = stats_stddev(mb, kb);
	sn = stats_stddev(mn, kn);
	welch_test(mb, kb, mn, kn, &w);
	out->t = w.t;
	out->df = w.df;
	out->p = w.p;
	out->diff = stats_mean(mn, kn) - stats_mean(mb, kb);
	out->spread = hypot(sb, sn) / sqrt(2);
	se = hypot(sb / sqrt((double)kb), sn / sqrt((double)kn));
	if (se == 0) {
		out->diff_low = out->diff_high = out->diff;
	} else if (!isnan(w.df)) {
		double q = qt((1 + level) / 2, w.df, 1, 0);

		out->diff_low = out->diff - q * se;
		out->diff_high = out->diff + q * se;
	}
out:
	free(mb);
	free(mn);
}
