/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STATS_BOOTSTRAP_H
#define SCHEDPERF_STATS_BOOTSTRAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BOOTSTRAP_RESAMPLES	10000
#define BOOTSTRAP_SEED		UINT64_C(0x5c4edbe7f)	/* default when no --seed */
/* beyond this many drawn indices per interval, the large-sample limit */
#define BOOTSTRAP_MAX_DRAWS	(UINT64_C(1) << 29)
/*
 * The fewest samples a side needs: resampling one sample gives its mean
 * every time, so the interval would carry the other side's spread alone.
 */
#define BOOTSTRAP_MIN_N		2

/*
 * Percentile bootstrap confidence interval of mean(new) / mean(base):
 * @resamples times, draw each side's samples with replacement (same sizes,
 * the two sides independently) and take the ratio of the means; the
 * interval is the (1 - level)/2 and (1 + level)/2 quantiles of those ratios
 * (R's quantile type 7, linear interpolation).
 *
 * Which samples each resample draws depends only on the sizes, @resamples
 * and @seed, never on the values: the same seed gives the same interval,
 * and a plan of drawn indices can serve every row with the same sizes (a
 * comparison of 1000 benchmarks usually has one or two pairs of sizes).
 *
 * When @resamples * (n_base + n_new) exceeds BOOTSTRAP_MAX_DRAWS, the
 * interval is bootstrap_ratio_limit() instead, in O(n_base + n_new).
 *
 * Returns 0 and fills @low and @high, or -1 with both NAN when the interval
 * is undefined: a side of fewer than BOOTSTRAP_MIN_N samples, @resamples
 * < 2, @level outside (0, 1), or a resample whose base mean is 0 (a ratio
 * 0/0); bootstrap_ratio_ci() also when a sample is NaN or infinite (the
 * plan's callers pass finite ones).
 */
int bootstrap_ratio_ci(const double *base, size_t n_base,
		       const double *new, size_t n_new,
		       size_t resamples, double level, uint64_t seed,
		       double *low, double *high);

/*
 * The interval the percentile bootstrap tends to as its resamples grow:
 * the Cornish–Fisher quantiles of log(mean(new*) / mean(base*)) from its
 * first three cumulants under resampling, to order 1/n (the skew of the
 * samples and the curvature of the log both enter). Its distance to the
 * resampled interval is O(n^-3/2) in the log ratio, far below the
 * resampling's own scatter once the samples number thousands. -1 and NAN
 * when a mean is 0 or not finite, or as above.
 */
int bootstrap_ratio_limit(const double *base, size_t n_base,
			  const double *new, size_t n_new, double level,
			  double *low, double *high);

/*
 * The same, with the indices drawn once. A plan is read-only once made, so
 * threads may share it. bootstrap_plan_new() returns NULL for a side of
 * fewer than BOOTSTRAP_MIN_N samples or @resamples < 2.
 */
struct bootstrap_plan;

struct bootstrap_plan *bootstrap_plan_new(size_t n_base, size_t n_new,
					  size_t resamples, uint64_t seed);
int bootstrap_plan_ratio_ci(const struct bootstrap_plan *plan,
			    const double *base, const double *new, double level,
			    double *low, double *high);
void bootstrap_plan_free(struct bootstrap_plan *plan);

/*
 * The same in two steps, for one base compared with several new sides
 * under one plan (a row of a comparison of three or more runs): the base's
 * resample means once, into @means (the plan's resamples of them), then
 * the interval for each new side. Identical results to
 * bootstrap_plan_ratio_ci(). -1 when the plan keeps no indices (it draws as
 * it goes: use bootstrap_plan_ratio_ci()) or, for the second, as above.
 */
int bootstrap_plan_base_means(const struct bootstrap_plan *plan, const double *base,
			      double *means);
int bootstrap_plan_ratio_ci_means(const struct bootstrap_plan *plan, const double *base_means,
				  const double *new, double level, double *low, double *high);

/*
 * The same for BOOTSTRAP_LANES rows at once, the way a comparison of many
 * rows of the same sizes runs (vectors of the rows' values, the plan read
 * once for them all). bootstrap_plan_lane_means() fills
 * @means[i * BOOTSTRAP_LANES + lane] with resample i's mean of @x[lane]
 * (@nr <= BOOTSTRAP_LANES samples of the plan's new side if @new_side,
 * else of its base side), each identical to what
 * bootstrap_plan_base_means() gives; -1 when the plan keeps no indices.
 * bootstrap_lane_ratio_cis() then fills @low[lane] and @high[lane] for the
 * first @nr lanes, each identical to bootstrap_plan_ratio_ci()'s; -1 when
 * some interval is undefined.
 */
#define BOOTSTRAP_LANES		8

bool bootstrap_plan_keeps_indices(const struct bootstrap_plan *plan);
/*
 * The lanes use AVX2 where the CPU has it, else vectors of two; true
 * makes them use the latter everywhere (for tests: both give the same
 * bits). Not thread-safe: set it before any bootstrap runs.
 */
void bootstrap_refuse_avx2(bool refuse);
int bootstrap_plan_lane_means(const struct bootstrap_plan *plan, bool new_side,
			      const double *const *x, size_t nr, double *means);
int bootstrap_lane_ratio_cis(const double *base_means, const double *new_means, size_t nr,
			     size_t resamples, double level, double *low, double *high);

/*
 * The same, the means approximated first where they may be (a plan of
 * bytes, every value of the @nr rows in [2^-60, 2^60]): each within a
 * known factor of its exact value, in single precision, at half the cost.
 * bootstrap_plan_lane_means_approx() fills @means as
 * bootstrap_plan_lane_means() does, approximately (returning 1) or, where
 * it may not, exactly (returning 0); -1 as it.
 * bootstrap_lane_ratio_cis_approx() then gives, from both sides'
 * approximate means and the rows' values, each interval identical to
 * bootstrap_lane_ratio_cis()'s: it resamples again exactly the few
 * resamples that might hold the ranks an interval reads.
 */
int bootstrap_plan_lane_means_approx(const struct bootstrap_plan *plan, bool new_side,
				     const double *const *x, size_t nr, double *means);
/*
 * bootstrap_plan_lane_means_approx() for two sets of @nr rows at once (@x0
 * and @x1, the new sides of two runs against one baseline, say): the plan
 * read once for both, @means0 and @means1 each what a call of it gives.
 * 1 when both are approximated; 0, with nothing written, when they may
 * not be (then call it for each).
 */
int bootstrap_plan_lane_means_approx2(const struct bootstrap_plan *plan, bool new_side,
				      const double *const *x0, const double *const *x1, size_t nr,
				      double *means0, double *means1);
int bootstrap_lane_ratio_cis_approx(const struct bootstrap_plan *plan,
				    const double *const *base, const double *base_means,
				    const double *const *new, const double *new_means, size_t nr,
				    double level, double *low, double *high);

/*
 * The percentile interval from @n >= 2 resampled values of a statistic: R's
 * quantile(type = 7) at (1 - @level)/2 and (1 + @level)/2. Reorders @values.
 */
void bootstrap_percentiles(double *values, size_t n, double level, double *low,
			   double *high);

#endif
