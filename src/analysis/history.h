/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_ANALYSIS_HISTORY_H
#define SCHEDPERF_ANALYSIS_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/changepoint.h"
#include "results/results.h"

/*
 * History: every stored run (or batch) as one point of a series per
 * benchmark and metric (a metric being its name, unit and direction:
 * results/metric_key.h), in time, name or kernel version order, and the
 * change points of each series (Hunter's method, stats/changepoint.h) on
 * the points' means. Built once here; report/history.c only renders it.
 */

enum history_by {
	HISTORY_BY_RUN,		/* one point per run name, its batches pooled */
	HISTORY_BY_BATCH,	/* one point per batch */
};

enum history_order {
	HISTORY_ORDER_STARTED,	/* first start time, then name */
	HISTORY_ORDER_NAME,	/* the names as strings */
	HISTORY_ORDER_VERSION,	/* kernel release order of the names (util/version.h) */
};

struct history_options {
	enum history_by by;
	enum history_order order;
	bool all_metrics;	/* also metrics a monitor measured */
	bool pool_machines;	/* one series for every machine (analysis/machines.h) */
	const char *const *workloads;	/* NULL-terminated; NULL or empty: all */
	const char *const *metrics;
	const char *const *params;	/* "KEY=VALUE", every one must match */
	double level;		/* of the interval of the mean (0.95) */
};

void history_options_init(struct history_options *opts);

struct history_point {
	const char *run;	/* the run's name */
	int64_t batch;		/* the batch's id (by batch); 0 by run */
	const char *started;	/* the (first) batch's start, ISO 8601 UTC */
	size_t nr_samples;	/* pooled: its summary's, in batch then iteration order */
	double mean, median, stddev;
	double ci_low, ci_high;	/* t interval of the mean; NAN for n < 2 */
	bool incomplete;	/* a batch of it is not complete: cut short, or running still */
};

/* A change point of a series, as people read it. */
struct history_change {
	struct change_point cp;		/* cp.index: the first point after it */
	double pct_change;	/* of the means, positive = better; NAN from a mean of 0 */
	bool regression;	/* the mean moved the worse way */
};

struct history_series {
	const char *machine;	/* its batches' host name; NULL when machines are pooled */
	const char *machine_id;	/* their machine id; NULL when pooled or none recorded */
	char *machine_label;	/* machine_of_label(); NULL when pooled or no host name */
	const char *cpus;	/* the CPUs its batches were pinned to (result_batch_cpus()); NULL: unpinned */
	char *workload;		/* its own, as params and metric */
	char *params;		/* canonical JSON */
	struct result_metric *metric;	/* name, unit, better, source: no samples */
	struct history_point *points;
	size_t nr_points;
	struct history_change *changes;	/* after history_detect() */
	size_t nr_changes;
};

struct history {
	struct history_series *series;
	size_t nr_series;
	size_t nr_unsampled;	/* metrics the options chose that hold no sample */
	enum history_by by;
	enum history_order order;
	double level;
};

const char *history_by_name(enum history_by by);	/* "run", "batch" */
const char *history_order_name(enum history_order order);

/*
 * Build the series of @set (every batch to consider, as store_load() gives
 * them) under @opts; they point into @set's batches (not their benchmarks),
 * which must outlive @h. Each
 * machine has series of its own unless @opts->pool_machines, its points
 * dated and ordered by that machine's batches alone, and so has each set
 * of CPUs batches were pinned to (result_batch_cpus()), and unpinned batches. Series keep
 * the order in which they first appear; points with no sample are left
 * out.
 */
void history_build(struct history *h, const struct result_set *set,
		   const struct history_options *opts);
/*
 * history_build() a batch at a time (store_load_each()): begun on @set's
 * batches, whose benchmarks need not be read yet; each batch added once
 * its benchmarks are, in @set's order, which may release them after; at
 * the end @h is as history_build() makes it. history_abort() drops one
 * not ended. @set and @opts must outlive the builder.
 */
struct history_builder *history_begin(const struct result_set *set,
				      const struct history_options *opts);
void history_add_batch(struct history_builder *b, size_t at);
void history_end(struct history_builder *b, struct history *h);
void history_abort(struct history_builder *b);
/* Find the change points of every series on its points' means. */
void history_detect(struct history *h, const struct change_point_options *opts);
/* True when the newest change point of some series is a regression. */
bool history_newest_is_regression(const struct history *h);
/*
 * Whether every KEY=VALUE of @filter (-p, NULL-terminated; NULL or empty
 * matches all) is a parameter of @params_json: series and rows alike. KEY
 * and VALUE are each as stored or as shown (\xHH, utf8_names()).
 */
bool params_match(const char *const *filter, const char *params_json);
void history_release(struct history *h);

#endif
