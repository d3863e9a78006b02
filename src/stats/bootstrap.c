// SPDX-License-Identifier: GPL-2.0
/*
 * Percentile bootstrap of a ratio of means. The ratio, not the difference,
 * because verdicts and reports speak in percent of the baseline; the
 * percentile method, because it needs no variance formula for a ratio and
 * respects its skew.
 *
 * Cost is resamples * (n_base + n_new) random indices per row: 10^6 for
 * 50 samples a side, which dominates a large comparison. So the indices are
 * drawn once into a plan and reused for every row of the same sizes, and
 * the two quantiles are selected, not sorted for.
 *
 * Beyond BOOTSTRAP_MAX_DRAWS indices a row (about 27,000 samples a side at
 * the default resamples), resampling would take minutes for a million
 * samples, and nothing is left for it to show: the interval is then read
 * from the bootstrap distribution's own large-sample expansion (see
 * bootstrap_ratio_limit), which is closer to the infinitely resampled
 * interval than 10,000 resamples are.
 */
#ifndef MATHLIB_STANDALONE
#define MATHLIB_STANDALONE	/* Rmath without R itself */
#endif
#include <Rmath.h>
#include <math.h>
#include <stdlib.h>

#include "stats/bootstrap.h"
#include "stats/rng.h"
#include "stats/select.h"
#include "stats/summary.h"
#include "util/xalloc.h"

/* keep at most this many indices; beyond, draw as we go */
#define PLAN_MAX_INDICES	(UINT64_C(1) << 23)
/*
 * Samples of up to 256 values (nearly every benchmark) keep their indices
 * in one byte: a quarter of the memory, so that the plan every row reads
 * through (1 MB for 50 samples a side) stays in the cache.
 */
#define PLAN_BYTE_MAX_N		256

struct bootstrap_plan {
	size_t n_base, n_new, resamples;
	uint64_t seed;
	/*
	 * resamples rows of n_base base then n_new new indices, in the order
	 * the generator yields them, in bytes or in words; both NULL when
	 * too large to keep.
	 */
	uint8_t *byte_indices;
	uint32_t *indices;
};

struct bootstrap_plan *bootstrap_plan_new(size_t n_base, size_t n_new,
					  size_t resamples, uint64_t seed)
{
	struct bootstrap_plan *plan;
	size_t per_resample = n_base + n_new, total, i;
	struct rng rng;

	if (n_base == 0 || n_new == 0 || resamples < 2)
		return NULL;
	plan = xcalloc(1, sizeof(*plan));
	*plan = (struct bootstrap_plan){
		.n_base = n_base, .n_new = n_new, .resamples = resamples, .seed = seed,
	};
	if (n_base > UINT32_MAX || n_new > UINT32_MAX ||
	    (uint64_t)resamples * per_resample > PLAN_MAX_INDICES)
		return plan;

	total = resamples * per_resample;
	if (n_base <= PLAN_BYTE_MAX_N && n_new <= PLAN_BYTE_MAX_N)
		plan->byte_indices = xreallocarray(NULL, total, 1);
	else
		plan->indices = xreallocarray(NULL, total, sizeof(*plan->indices));
	rng_seed(&rng, seed);
	for (i = 0; i < total; i++) {
		size_t k = i % per_resample;
		uint64_t index = k < n_base ? rng_below(&rng, n_base) :
					      rng_below(&rng, n_new);

		if (plan->byte_indices)
			plan->byte_indices[i] = (uint8_t)index;
		else
			plan->indices[i] = (uint32_t)index;
	}
	return plan;
}

void bootstrap_plan_free(struct bootstrap_plan *plan)
{
	if (!plan)
		return;
	free(plan->byte_indices);
	free(plan->indices);
	free(plan);
}

/*
 * Four partial sums: one running sum waits on each addition's latency,
 * which made the whole bootstrap several times slower. Both the kept and
 * the drawn-as-we-go paths add in this same order, so they agree exactly.
 */
#define DEFINE_MEAN_AT(name, index_type)					\
static double name(const double *x, const index_type *index, size_t n)	\
{									\
	double sum[4] = { 0, 0, 0, 0 };					\
	size_t i;							\
									\
	for (i = 0; i + 4 <= n; i += 4) {				\
		sum[0] += x[index[i]];					\
		sum[1] += x[index[i + 1]];				\
		sum[2] += x[index[i + 2]];				\
		sum[3] += x[index[i + 3]];				\
	}								\
	for (; i < n; i++)						\
		sum[i % 4] += x[index[i]];				\
	return ((sum[0] + sum[1]) + (sum[2] + sum[3])) / (double)n;	\
}
DEFINE_MEAN_AT(mean_at, uint32_t)
DEFINE_MEAN_AT(mean_at_bytes, uint8_t)

static double mean_drawn(struct rng *rng, const double *x, size_t n)
{
	double sum[4] = { 0, 0, 0, 0 };

	for (size_t i = 0; i < n; i++)
		sum[i % 4] += x[rng_below(rng, n)];
	return ((sum[0] + sum[1]) + (sum[2] + sum[3])) / (double)n;
}

/* The smallest of @n >= 1 values. */
static double min_of(const double *x, size_t n)
{
	double m = x[0];

	for (size_t i = 1; i < n; i++)
		if (x[i] < m)
			m = x[i];
	return m;
}

/*
 * R's quantile(type = 7) at @prob once its lower order statistic x[lo] is in
 * place: everything after it is at least as large, so the upper one is
 * their minimum.
 */
static double interpolate(const double *x, size_t n, size_t lo, double prob)
{
	double h = (double)(n - 1) * prob;

	if (lo + 1 >= n)
		return x[lo];
	return x[lo] + (h - (double)lo) * (min_of(x + lo + 1, n - lo - 1) - x[lo]);
}

/*
 * Both ends with one partial selection each: the upper order statistic is
 * searched only among the values above the lower one.
 */
void bootstrap_percentiles(double *x, size_t n, double level, double *low, double *high)
{
	double p_low = (1 - level) / 2, p_high = (1 + level) / 2;
	size_t lo1 = (size_t)floor((double)(n - 1) * p_low);
	size_t lo2 = (size_t)floor((double)(n - 1) * p_high);

	select_kth(x, n, lo1);
	*low = interpolate(x, n, lo1, p_low);
	if (lo2 > lo1)
		select_kth(x + lo1 + 1, n - lo1 - 1, lo2 - lo1 - 1);
	*high = interpolate(x, n, lo2, p_high);
}

/*
 * The mean of @x over the @n indices that resample @i of a plan that keeps
 * its indices draws from @offset on (0 for the base, n_base for the new).
 */
static double kept_mean(const struct bootstrap_plan *plan, const double *x, size_t i,
			size_t offset, size_t n)
{
	size_t at = i * (plan->n_base + plan->n_new) + offset;

	if (plan->byte_indices)
		return mean_at_bytes(x, plan->byte_indices + at, n);
	return mean_at(x, plan->indices + at, n);
}

/* The interval from @ratios (reordered, then freed); -1 when a ratio is NaN. */
static int ratio_interval(double *ratios, size_t resamples, double level,
			  double *low, double *high)
{
	for (size_t i = 0; i < resamples; i++) {
		if (isnan(ratios[i])) {
			free(ratios);
			return -1;
		}
	}
	bootstrap_percentiles(ratios, resamples, level, low, high);
	free(ratios);
	/* infinite ratios (a zero base mean) can interpolate to inf - inf */
	if (isnan(*low) || isnan(*high)) {
		*low = *high = NAN;
		return -1;
	}
	return 0;
}

/*
 * A resample's sum of samples near the largest double overflows although
 * its mean is finite: such a side is resampled from a copy scaled by a
 * power of two, exactly, and its means scaled back.
 */
#define HUGE_SAMPLE		0x1p960
#define HUGE_SCALE_EXP		64

struct side {
	const double *x;
	double *scaled;		/* the copy, or NULL */
	int exp;		/* what its means are multiplied back by, in 2^exp */
};

static struct side side_of(const double *x, size_t n)
{
	struct side side = { x, NULL, 0 };

	for (size_t i = 0; i < n; i++) {
		if (fabs(x[i]) > HUGE_SAMPLE) {
			side.scaled = xreallocarray(NULL, n, sizeof(double));
			for (size_t j = 0; j < n; j++)
				side.scaled[j] = ldexp(x[j], -HUGE_SCALE_EXP);
			side.x = side.scaled;
			side.exp = HUGE_SCALE_EXP;
			break;
		}
	}
	return side;
}

int bootstrap_plan_base_means(const struct bootstrap_plan *plan, const double *base,
			      double *means)
{
	struct side b;

	if (!plan || (!plan->byte_indices && !plan->indices))
		return -1;
	b = side_of(base, plan->n_base);
	for (size_t i = 0; i < plan->resamples; i++)
		means[i] = ldexp(kept_mean(plan, b.x, i, 0, plan->n_base), b.exp);
	free(b.scaled);
	return 0;
}

int bootstrap_plan_ratio_ci_means(const struct bootstrap_plan *plan, const double *base_means,
				  const double *new, double level, double *low, double *high)
{
	struct side n;
	double *ratios;

	*low = *high = NAN;
	if (!plan || (!plan->byte_indices && !plan->indices) || !(level > 0 && level < 1))
		return -1;
	ratios = xreallocarray(NULL, plan->resamples, sizeof(*ratios));
	n = side_of(new, plan->n_new);
	for (size_t i = 0; i < plan->resamples; i++)
		ratios[i] = ldexp(kept_mean(plan, n.x, i, plan->n_base, plan->n_new), n.exp) /
			    base_means[i];
	free(n.scaled);
	return ratio_interval(ratios, plan->resamples, level, low, high);
}

int bootstrap_plan_ratio_ci(const struct bootstrap_plan *plan,
			    const double *base, const double *new, double level,
			    double *low, double *high)
{
	struct side b, n;
	double *ratios;
	struct rng rng;
	int rc;

	*low = *high = NAN;
	if (!plan || !(level > 0 && level < 1))
		return -1;
	if ((uint64_t)plan->resamples * (plan->n_base + plan->n_new) > BOOTSTRAP_MAX_DRAWS)
		return bootstrap_ratio_limit(base, plan->n_base, new, plan->n_new, level,
					     low, high);
	if (plan->byte_indices || plan->indices) {
		double *means = xreallocarray(NULL, plan->resamples, sizeof(*means));

		bootstrap_plan_base_means(plan, base, means);
		rc = bootstrap_plan_ratio_ci_means(plan, means, new, level, low, high);
		free(means);
		return rc;
	}
	/* base first, then new: the order of the draws is part of reproducibility */
	ratios = xreallocarray(NULL, plan->resamples, sizeof(*ratios));
	b = side_of(base, plan->n_base);
	n = side_of(new, plan->n_new);
	rng_seed(&rng, plan->seed);
	for (size_t i = 0; i < plan->resamples; i++) {
		double mean_base = ldexp(mean_drawn(&rng, b.x, plan->n_base), b.exp);

		ratios[i] = ldexp(mean_drawn(&rng, n.x, plan->n_new), n.exp) / mean_base;
	}
	free(b.scaled);
	free(n.scaled);
	return ratio_interval(ratios, plan->resamples, level, low, high);
}

/* ------------------------------------------------------------ the limit */

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
	if (n_base == 0 || n_new == 0 || !(level > 0 && level < 1))
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

int bootstrap_ratio_ci(const double *base, size_t n_base,
		       const double *new, size_t n_new,
		       size_t resamples, double level, uint64_t seed,
		       double *low, double *high)
{
	/* one row: drawing as we go costs the same and needs no memory */
	struct bootstrap_plan plan = {
		.n_base = n_base, .n_new = n_new, .resamples = resamples, .seed = seed,
	};

	if (n_base == 0 || n_new == 0 || resamples < 2) {
		*low = *high = NAN;
		return -1;
	}
	return bootstrap_plan_ratio_ci(&plan, base, new, level, low, high);
}
