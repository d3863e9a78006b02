/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_ANALYSIS_SWEEPS_H
#define SCHEDPERF_ANALYSIS_SWEEPS_H

#include <stddef.h>

#include "analysis/comparison.h"

/*
 * The sweeps of a comparison, for the report's charts of a metric against
 * a swept parameter (as MMTests draws hackbench against groups): rows of
 * one workload and metric whose parameters differ only in one key, whose
 * values are all numbers. Per run and value, the mean and its t interval.
 */
struct sweep_point {
	size_t row;		/* in cmp->rows */
	double x;		/* the key's value */
	double *mean, *low, *high;	/* per run; NAN where undefined */
};

struct sweep {
	const char *workload;
	const struct result_metric *metric;
	char *key;		/* the swept parameter */
	char *fixed;		/* the other parameters, "k=v k=v" ("" when none) */
	struct sweep_point *points;	/* in increasing x */
	size_t nr_points;
};

/* The sweeps of @cmp (at least two values each) at @level; returns how many. */
size_t comparison_sweeps(const struct comparison *cmp, double level, struct sweep **out);
/* Release what each of @nr sweeps holds (not the array itself). */
void sweeps_release(struct sweep *sweeps, size_t nr);

#endif
