/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STATS_BATCHES_H
#define SCHEDPERF_STATS_BATCHES_H

#include <stddef.h>

/*
 * Samples that come in batches (one per boot, or per day): a batch's
 * samples share whatever that boot got (page placement, timer offsets,
 * which CPU took which interrupt), so they are not independent and pooling
 * them as if they were overstates significance. The model is one-way
 * random effects, x = mu + b_batch + e, and runs are compared on their
 * batch means (see doc/design.md, "Batches as blocks").
 */

struct batch_components {
	size_t nr_batches;	/* batches with at least one sample */
	size_t n;		/* samples in all */
	double mean_of_means;	/* unweighted mean of the batch means */
	double sd_of_means;	/* sample SD of the batch means; NAN under 2 batches */
	double ms_between;	/* one-way ANOVA mean squares, as R's anova(lm(x ~ batch)) */
	double ms_within;
	/*
	 * Method-of-moments variance components: within = MSW, between =
	 * max(0, (MSB - MSW) / n0), n0 = (n - sum(n_i^2) / n) / (k - 1), and the
	 * between-batch share of the variance, between / (between + within).
	 * NAN when undefined (one batch, or no batch with two samples).
	 */
	double var_between, var_within, between_share;
};

/*
 * @x holds @nr_batches batches one after another, @sizes[i] samples in
 * batch i (empty batches are skipped). Samples must be finite.
 */
void batch_components(const double *x, const size_t *sizes, size_t nr_batches,
		      struct batch_components *out);

struct batch_test {
	double t, df, p;	/* Welch's test on the batch means, as R's t.test() */
	double diff;		/* mean of new's batch means - base's */
	double diff_low, diff_high;	/* its confidence interval at @level */
	/* sqrt of the mean of both runs' variances of batch means */
	double spread;
};

/*
 * Compare two batched samples on their batch means. Each needs two batches
 * or more; otherwise everything is NAN.
 */
void batch_means_test(const double *base, const size_t *base_sizes, size_t base_batches,
		      const double *new, const size_t *new_sizes, size_t new_batches,
		      double level, struct batch_test *out);

#endif
