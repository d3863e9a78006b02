/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STATS_POWER_H
#define SCHEDPERF_STATS_POWER_H

#include <stddef.h>

#define POWER_DEFAULT 0.8

/*
 * Minimum detectable effect of a non-significant row: the smallest
 * difference of means that a two-sided two-sample t-test at @alpha would
 * detect with probability @power, given the samples' standard deviation.
 * For equal sizes n this is R's power.t.test(n = n, sd = sd,
 * sig.level = alpha, power = power)$delta (type "two.sample", strict =
 * FALSE), solved to full precision where R stops at uniroot's tolerance
 * (about 1e-4 relative).
 *
 * Unequal sizes use the effective size n = 2 n1 n2 / (n1 + n2), the
 * harmonic mean. The noncentrality sqrt(n/2) delta/sd is then exactly the
 * two-sample one, delta / (sd sqrt(1/n1 + 1/n2)); only the degrees of
 * freedom, 2(n - 1), are fewer than n1 + n2 - 2, which makes the effect
 * slightly larger (conservative).
 */
struct mde {
	double delta;	/* in the metric's unit */
	double pct;	/* delta as a percent of |base mean|; NAN if that is 0 */
};

/*
 * @sd is the pooled (or Welch) standard deviation. Everything is NAN when
 * either size is below 2, @sd is negative or NAN, or @alpha or @power lies
 * outside (0, 1); @sd = 0 gives delta 0.
 */
void power_mde(size_t n_base, size_t n_new, double sd, double base_mean,
	       double alpha, double power, struct mde *out);

/*
 * The same in two steps: the effect in standard deviations depends on the
 * sizes, @alpha and @power alone, so a comparison of many rows of one size
 * solves for it once (NAN when undefined, as above) and scales it by each
 * row's @sd. Identical to power_mde().
 */
double power_effect_size(size_t n_base, size_t n_new, double alpha, double power);
void power_mde_of(double effect_size, double sd, double base_mean, struct mde *out);

#endif
