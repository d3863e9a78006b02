/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_REPORT_H
#define SCHEDPERF_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "stats/summary.h"
#include "store/results.h"

/*
 * Reports turn stored results into text for people and JSON for machines.
 * The comparison model is built once and rendered by every format.
 */

/* "key=value key=value" from a benchmark's canonical params JSON. */
char *params_display(const char *params_json);

/* One line per workload metric of a batch: mean, spread, n. */
void report_batch_summary(FILE *out, const struct result_batch *batch);

/* One run (a name) as compare sees it: every batch of that name pooled. */
struct compare_run {
	const char *name;
	struct result_set set;
};

/* One benchmark and metric across the runs; cells[i] belongs to runs[i]. */
struct compare_cell {
	double *samples;	/* pooled over the run's batches */
	size_t nr_samples;
	struct summary summary;
};

struct compare_row {
	const char *workload;
	const char *params;	/* canonical JSON */
	const struct result_metric *metric;	/* name, unit, better, source */
	struct compare_cell *cells;
};

struct comparison {
	const struct compare_run *runs;	/* runs[0] is the baseline */
	size_t nr_runs;
	struct compare_row *rows;
	size_t nr_rows;
};

/*
 * Pair up the metrics of @runs by (workload, params, metric), pooling the
 * samples of every batch of a run; rows keep the order in which they first
 * appear. Metrics whose source is not "workload" are left out unless
 * @all_metrics.
 */
void comparison_build(struct comparison *cmp, const struct compare_run *runs,
		      size_t nr_runs, bool all_metrics);
void comparison_release(struct comparison *cmp);

/* The headline statistic of a row: Hmean when higher is better, else Amean. */
double compare_headline(const struct summary *s, enum better better);

void report_compare_text(FILE *out, const struct comparison *cmp);
void report_compare_json(FILE *out, const struct comparison *cmp);

#endif
