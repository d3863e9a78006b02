// SPDX-License-Identifier: GPL-2.0
/*
 * The betting confidence sequence of sequential.h. Everything is computed
 * again from the stored observations at each look: a few thousand
 * observations at most, and a look costs microseconds next to the
 * benchmark iterations between looks.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/select.h"
#include "stats/sequential.h"
#include "util/xalloc.h"

/* 1 / Phi^-1(3/4): MAD * this estimates a normal standard deviation. */
#define MAD_TO_SD 1.482602218505602
#define BISECT_STEPS 200

void seqcs_init(struct seqcs *cs, double alpha, double huber)
{
	memset(cs, 0, sizeof(*cs));
	cs->alpha = alpha;
	cs->huber = huber;
}

int seqcs_min_samples(double alpha)
{
	return (int)ceil(log(2 / alpha) / log1p(SEQCS_LAMBDA_MAX));
}

void seqcs_release(struct seqcs *cs)
{
	free(cs->x);
	free(cs->scale);
	free(cs->bet);
	free(cs->z);
	memset(cs, 0, sizeof(*cs));
}

static double median_of(const double *x, size_t n, double *scratch)
{
	memcpy(scratch, x, n * sizeof(*x));
	if (n % 2)
		return select_kth(scratch, n, n / 2);
	return (select_kth(scratch, n, n / 2 - 1) + select_kth(scratch, n, n / 2)) / 2;
}

static double mad_of(const double *x, size_t n, double centre, double *scratch)
{
	double *dev = scratch + n;

	for (size_t i = 0; i < n; i++)
		dev[i] = fabs(x[i] - centre);
	return median_of(dev, n, scratch);
}

static double psi(double u, double scale)
{
	if (scale > 0)
		return fmax(-1.0, fmin(1.0, u / scale));
	return (u > 0) - (u < 0);
}

/* The plug-in bet for observation number @i (1-based) from the z before it. */
static double plugin_bet(const struct seqcs *cs, size_t i)
{
	double sum = 0, sq = 1, v;

	for (size_t j = 0; j + 1 < i; j++) {
		double zbar;

		sum += cs->z[j];
		zbar = sum / (double)(j + 2);
		sq += (cs->z[j] - zbar) * (cs->z[j] - zbar);
	}
	v = sq / (double)i;
	return fmin(SEQCS_LAMBDA_MAX,
		    sqrt(2 * log(2 / cs->alpha) / (v * (double)i * log1p((double)i))));
}

void seqcs_add(struct seqcs *cs, double x)
{
	size_t n = cs->n;
	double *scratch = xcalloc(2 * (n + 1), sizeof(double));
	double centre = n ? median_of(cs->x, n, scratch) : 0;
	double scale = 0;

	if (cs->huber > 0 && n >= 3)
		scale = cs->huber * MAD_TO_SD * mad_of(cs->x, n, centre, scratch);
	free(scratch);
	if (n == cs->cap) {
		cs->cap = cs->cap ? 2 * cs->cap : 64;
		cs->x = xreallocarray(cs->x, cs->cap, sizeof(double));
		cs->scale = xreallocarray(cs->scale, cs->cap, sizeof(double));
		cs->bet = xreallocarray(cs->bet, cs->cap, sizeof(double));
		cs->z = xreallocarray(cs->z, cs->cap, sizeof(double));
	}
	cs->x[n] = x;
	cs->scale[n] = scale;
	cs->bet[n] = plugin_bet(cs, n + 1);
	cs->z[n] = psi(x - centre, scale);
	cs->n = n + 1;
}

double seqcs_log_wealth(const struct seqcs *cs, double theta, int side)
{
	double w = 0;

	for (size_t i = 0; i < cs->n; i++)
		w += log1p(side * cs->bet[i] * psi(cs->x[i] - theta, cs->scale[i]));
	return w;
}

bool seqcs_rejects(const struct seqcs *cs, double theta, int side)
{
	return seqcs_log_wealth(cs, theta, side) >= log(2 / cs->alpha);
}

/* sum atanh(l_i psi_i): (log M+ - log M-) / 2, non-increasing in theta. */
static double balance(const struct seqcs *cs, double theta)
{
	double b = 0;

	for (size_t i = 0; i < cs->n; i++)
		b += atanh(cs->bet[i] * psi(cs->x[i] - theta, cs->scale[i]));
	return b;
}

/*
 * Where a condition that holds left of a point and fails right of it
 * changes, between @lo (holds) and @hi (fails), to within @tol.
 */
struct edge {
	const struct seqcs *cs;
	bool (*holds)(const struct edge *e, double theta);
	double level;
};

static double bisect(const struct edge *e, double lo, double hi, double tol)
{
	for (int step = 0; step < BISECT_STEPS && hi - lo > tol; step++) {
		double mid = lo + (hi - lo) / 2;

		if (e->holds(e, mid))
			lo = mid;
		else
			hi = mid;
	}
	return lo + (hi - lo) / 2;
}

static bool balance_positive(const struct edge *e, double theta)
{
	return balance(e->cs, theta) > 0;
}

static bool balance_not_negative(const struct edge *e, double theta)
{
	return balance(e->cs, theta) >= 0;
}

/* M+ still rejects theta: theta lies below the interval. */
static bool up_rejects(const struct edge *e, double theta)
{
	return seqcs_log_wealth(e->cs, theta, 1) >= e->level;
}

/* M- does not reject theta yet: theta is not above the interval. */
static bool down_accepts(const struct edge *e, double theta)
{
	return seqcs_log_wealth(e->cs, theta, -1) < e->level;
}

/*
 * Observations all equal to @c: their MAD is 0, so every psi is the sign
 * and each wealth is a step at @c: below it M+ is prod (1 + l_i), above it
 * M- is, and at @c both are 1. The interval is exactly [c, c] once that
 * product reaches 2 / alpha, unbounded before; no bisection, whose
 * tolerance of the data's size is 0 when @c is (two identical sides).
 */
static void constant_interval(const struct seqcs *cs, double c, double level,
			      struct seqcs_interval *out)
{
	bool bounded = seqcs_log_wealth(cs, -INFINITY, 1) >= level;

	out->estimate = c;
	out->low = bounded ? c : -INFINITY;
	out->high = bounded ? c : INFINITY;
}

void seqcs_interval(const struct seqcs *cs, struct seqcs_interval *out)
{
	double level = log(2 / cs->alpha), min = INFINITY, max = -INFINITY, reach = 0, tol;
	struct edge positive = { cs, balance_positive, 0 };
	struct edge not_negative = { cs, balance_not_negative, 0 };
	struct edge up = { cs, up_rejects, level }, down = { cs, down_accepts, level };

	out->estimate = out->low = out->high = NAN;
	out->empty = false;
	if (!cs->n)
		return;
	for (size_t i = 0; i < cs->n; i++) {
		min = fmin(min, cs->x[i]);
		max = fmax(max, cs->x[i]);
		reach = fmax(reach, cs->scale[i]);
	}
	if (min == max) {
		constant_interval(cs, min, level, out);
		return;
	}
	/* Beyond [min - reach, max + reach] every psi is +1 or -1: the wealths are flat. */
	tol = 1e-12 * fmax(max - min + 2 * reach, fmax(fabs(min), fabs(max)));
	min -= reach + tol;
	max += reach + tol;

	/* The balance is > 0 left of the data and < 0 right of it; the middle of its zero set. */
	out->estimate = (bisect(&positive, min, max, tol) +
			 bisect(&not_negative, min, max, tol)) / 2;
	out->low = up.holds(&up, min) ? bisect(&up, min, max, tol) : -INFINITY;
	out->high = down.holds(&down, max) ? INFINITY : bisect(&down, min, max, tol);
	out->empty = out->low > out->high;
}

enum seqcs_decision seqcs_decide(const struct seqcs *cs, double zero, double low, double high)
{
	bool above = seqcs_rejects(cs, zero, 1), below = seqcs_rejects(cs, zero, -1);

	if (above && below) {
		struct seqcs_interval ci;

		seqcs_interval(cs, &ci);
		return ci.estimate >= zero ? SEQCS_ABOVE : SEQCS_BELOW;
	}
	if (above)
		return SEQCS_ABOVE;
	if (below)
		return SEQCS_BELOW;
	if (low < high && seqcs_rejects(cs, low, 1) && seqcs_rejects(cs, high, -1))
		return SEQCS_WITHIN;
	return SEQCS_CONTINUE;
}
