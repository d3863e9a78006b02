/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STATS_CHANGEPOINT_H
#define SCHEDPERF_STATS_CHANGEPOINT_H

#include <stddef.h>

/*
 * Change points of a series (one value per run, in order): E-divisive
 * means (Matteson and James) with the t-test significance step and the
 * split/merge windows of Hunter (Fleming et al., "Hunter: Using Change
 * Point Detection to Hunt for Performance Regressions", ICPE 2023), which
 * Apache Otava carries on. Deterministic: no permutations, no randomness.
 */

#define CHANGE_POINT_MIN_WINDOW	3

struct change_point_options {
	double max_pvalue;	/* a change point's t-test p at most this (0.001) */
	double min_magnitude;	/* relative change of the means at least this (0) */
	/*
	 * Points per window of the split step (50), at least
	 * CHANGE_POINT_MIN_WINDOW: a window of 2 splits into one point a side,
	 * whose t-test has no degree of freedom (p = 1), and finds nothing.
	 */
	size_t window;
};

void change_point_options_init(struct change_point_options *opts);

/* The two sides of a change point, as Hunter's t-test sees them. */
struct change_point_sides {
	double mean_before, mean_after;
	/* standard deviation with divisor n (0 for one value), as Hunter has it */
	double stddev_before, stddev_after;
	double p;		/* two-sided; 1 when nothing tells the sides apart */
};

struct change_point {
	size_t index;		/* the first value after the change */
	struct change_point_sides sides;	/* between the neighbouring change points */
	double magnitude;	/* max(|after/before - 1|, |before/after - 1|); 0 with a 0 mean */
};

/*
 * Hunter's test of x[0..n_before) against y[0..n_after): Student's t with
 * pooled variance, fed each side's standard deviation with divisor n, as
 * Hunter and Otava call SciPy's ttest_ind_from_stats(). Fewer than three
 * values in all give p = 1.
 */
void change_point_sides_test(const double *before, size_t n_before,
			     const double *after, size_t n_after,
			     struct change_point_sides *sides);

/*
 * The E-divisive candidate of z[0..n), n >= 2: the split tau in 1..n-1
 * that, with some end kappa in tau+1..n, maximises the scaled energy
 * distance q(z[0..tau), z[tau..kappa)). Ties go to the smallest tau.
 * Returns tau and sets *qhat.
 */
size_t edivisive_candidate(const double *z, size_t n, double *qhat);

/*
 * The change points of x[0..n), in index order, into *out (malloc'd, NULL
 * when none); returns how many.
 */
size_t change_points_detect(const double *x, size_t n,
			    const struct change_point_options *opts,
			    struct change_point **out);

#endif
