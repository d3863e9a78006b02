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
 * from the bootstrap distribution's own large-sample expansion
 * (bootstrap_limit.c), which is closer to the infinitely resampled
 * interval than 10,000 resamples are.
 *
 * Here: the plan, and the paths of one row at a time. Rows under one plan
 * are resampled together in bootstrap_lanes.c (their intervals in
 * bootstrap_lane_cis.c), and the interval is read from the ratios in
 * bootstrap_percentiles.c.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "stats/bootstrap.h"
#include "stats/bootstrap_parts.h"
#include "stats/rng.h"
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

struct bootstrap_plan *bootstrap_plan_new(size_t n_base, size_t n_new,
					  size_t resamples, uint64_t seed)
{
	struct bootstrap_plan *plan;
	size_t per_resample = n_base + n_new, total, i = 0;
	struct rng rng;

	if (n_base < BOOTSTRAP_MIN_N || n_new < BOOTSTRAP_MIN_N || resamples < 2)
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
	/* resample by resample: i % per_resample, a division an index, cost more than the draws */
	for (size_t r = 0; r < resamples; r++) {
		for (size_t k = 0; k < per_resample; k++, i++) {
			uint64_t index = rng_below(&rng, k < n_base ? n_base : n_new);

			if (plan->byte_indices)
				plan->byte_indices[i] = (uint8_t)index;
			else
				plan->indices[i] = (uint32_t)index;
		}
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

bool bootstrap_plan_keeps_indices(const struct bootstrap_plan *plan)
{
	return plan && (plan->byte_indices || plan->indices);
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

/*
 * The mean of @x over the @n indices that resample @i of a plan that keeps
 * its indices draws from @offset on (0 for the base, n_base for the new).
 */
double kept_mean(const struct bootstrap_plan *plan, const double *x, size_t i, size_t offset,
		 size_t n)
{
	size_t at = i * (plan->n_base + plan->n_new) + offset;

	if (plan->byte_indices)
		return mean_at_bytes(x, plan->byte_indices + at, n);
	return mean_at(x, plan->indices + at, n);
}

/* Samples beyond this are resampled scaled by 2^-HUGE_SCALE_EXP (struct side). */
#define HUGE_SAMPLE		0x1p960
#define HUGE_SCALE_EXP		64

struct side side_of(const double *x, size_t n)
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

int bootstrap_ratio_ci(const double *base, size_t n_base,
		       const double *new, size_t n_new,
		       size_t resamples, double level, uint64_t seed,
		       double *low, double *high)
{
	/* one row: drawing as we go costs the same and needs no memory */
	struct bootstrap_plan plan = {
		.n_base = n_base, .n_new = n_new, .resamples = resamples, .seed = seed,
	};

	if (n_base < BOOTSTRAP_MIN_N || n_new < BOOTSTRAP_MIN_N || resamples < 2 ||
	    !stats_all_finite2(base, n_base, new, n_new)) {
		*low = *high = NAN;
		return -1;
	}
	return bootstrap_plan_ratio_ci(&plan, base, new, level, low, high);
}
