// SPDX-License-Identifier: GPL-2.0
/*
 * The interval the percentile bootstrap of a ratio of means tends to as
 * its resamples grow (bootstrap.h, bootstrap_ratio_limit()): what a row
 * too large to resample gets instead.
 */
#ifndef MATHLIB_STANDALONE
#define MATHLIB_STANDALONE	/* Rmath without R itself */
#endif
#include <Rmath.h>
#include <math.h>

#include "stats/bootstrap.h"
#include "stats/summary.h"

/*
 * The first three cumulants of log(mean(x*) / mean(x)) over resamples x*
 * of @x, to order 1/n^2. With d = mean(x*)/mean(x) - 1, whose variance is
 * v = m2 / (n mean^2) and third cumulant m3 / (n^2 mean^3) (m2, m3 the
 * plug-in central moments), log(1 + d) = d - d^2/2 + ... has mean -v/2,
 * variance v and third cumulant k3(d) - 3 v^2. Deviations are taken
 * relative to the mean first, so that samples near the largest double do
 * not overflow their squares.
 */
struct log_mean_cumulants {
	double mean, k1, k2, k3;
};

static int log_mean_cumulants(const double *x, size_t n, struct log_mean_cumulants *c)
{
	double m2 = 0, m3 = 0, nd = (double)n;

	c->mean = stats_mean(x, n);
	if (!(c->mean != 0) || !isfinite(c->mean))
		return -1;
	for (size_t i = 0; i < n; i++) {
		double d = x[i] / c->mean - 1;

		m2 += d * d;
		m3 += d * d * d;
	}
	m2 /= nd;
	m3 /= nd;
	c->k2 = m2 / nd;
	c->k1 = -c->k2 / 2;
	c->k3 = m3 / (nd * nd) - 3 * c->k2 * c->k2;
	return isfinite(c->k2) && isfinite(c->k3) ? 0 : -1;
}

int bootstrap_ratio_limit(const double *base, size_t n_base,
			  const double *new, size_t n_new, double level,
			  double *low, double *high)
{
	struct log_mean_cumulants b, n;
	double ratio, k1, k2, k3, sd, end[2];
	const double p[2] = { (1 - level) / 2, (1 + level) / 2 };

	*low = *high = NAN;
	if (n_base < BOOTSTRAP_MIN_N || n_new < BOOTSTRAP_MIN_N || !(level > 0 && level < 1))
		return -1;
	if (log_mean_cumulants(base, n_base, &b) || log_mean_cumulants(new, n_new, &n))
		return -1;
	ratio = n.mean / b.mean;
	/* log of the ratio: new's cumulants less base's (odd ones change sign) */
	k1 = n.k1 - b.k1;
	k2 = n.k2 + b.k2;
	k3 = n.k3 - b.k3;
	sd = sqrt(k2);
	for (int i = 0; i < 2; i++) {
		double z = qnorm(p[i], 0, 1, 1, 0);
		double q = sd > 0 ? k1 + sd * (z + (z * z - 1) * k3 / (6 * k2 * sd)) : 0;

		end[i] = ratio * exp(q);
	}
	/* a negative ratio reverses the order of its quantiles */
	*low = fmin(end[0], end[1]);
	*high = fmax(end[0], end[1]);
	return isfinite(*low) && isfinite(*high) ? 0 : -1;
}
