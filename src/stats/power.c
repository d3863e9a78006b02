// SPDX-License-Identifier: GPL-2.0
/*
 * Solve the power of the two-sample t-test for the effect size. Power is
 * P(T' > t_crit) for T' non-central t with ncp sqrt(n/2) * d: only the
 * upper rejection region counts, as in R's power.t.test with strict =
 * FALSE. It increases with d, so bisection on d = delta / sd is safe; the
 * effect in the metric's unit is then d * sd.
 */
#ifndef MATHLIB_STANDALONE
#define MATHLIB_STANDALONE	/* Rmath without R itself */
#endif
#include <Rmath.h>
#include <math.h>

#include "stats/power.h"

struct power_problem {
	double n;		/* effective size per side */
	double df;
	double t_crit;
	double target;
};

static double power_minus_target(const struct power_problem *pp, double d)
{
	return pnt(pp->t_crit, pp->df, sqrt(pp->n / 2) * d, 0, 0) - pp->target;
}

static double solve_effect_size(const struct power_problem *pp)
{
	double lo = 0, hi = 1;
	int i;

	/* power(0) = alpha/2 < target; widen until the root is bracketed */
	for (i = 0; i < 64 && power_minus_target(pp, hi) < 0; i++) {
		lo = hi;
		hi *= 2;
	}
	if (i == 64)
		return NAN;
	/* bisect to the last representable bit, at most ~64 steps */
	for (i = 0; i < 200; i++) {
		double mid = lo + (hi - lo) / 2;

		if (mid <= lo || mid >= hi)
			break;
		if (power_minus_target(pp, mid) < 0)
			lo = mid;
		else
			hi = mid;
	}
	return lo + (hi - lo) / 2;
}

double power_effect_size(size_t n_base, size_t n_new, double alpha, double power)
{
	struct power_problem pp;
	double n1 = (double)n_base, n2 = (double)n_new;

	if (n_base < 2 || n_new < 2 || !(alpha > 0 && alpha < 1) || !(power > 0 && power < 1))
		return NAN;
	/* a power at or below alpha/2 needs no effect at all */
	if (power <= alpha / 2)
		return 0;
	pp.n = 2 * n1 * n2 / (n1 + n2);
	pp.df = 2 * (pp.n - 1);
	pp.t_crit = qt(alpha / 2, pp.df, 0, 0);
	pp.target = power;
	return solve_effect_size(&pp);
}

void power_mde_of(double effect_size, double sd, double base_mean, struct mde *out)
{
	out->delta = out->pct = NAN;
	if (isnan(effect_size) || !(sd >= 0))
		return;
	out->delta = effect_size == 0 ? 0 : sd * effect_size;
	if (base_mean != 0 && isfinite(base_mean))
		out->pct = out->delta / fabs(base_mean) * 100;
}

void power_mde(size_t n_base, size_t n_new, double sd, double base_mean,
	       double alpha, double power, struct mde *out)
{
	power_mde_of(power_effect_size(n_base, n_new, alpha, power), sd, base_mean, out);
}
