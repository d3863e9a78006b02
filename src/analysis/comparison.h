/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_ANALYSIS_COMPARISON_H
#define SCHEDPERF_ANALYSIS_COMPARISON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/adjust.h"
#include "stats/summary.h"
#include "results/results.h"

/*
 * The comparison model and its analysis: runs paired up row by row, every
 * test, interval and verdict computed once, so that every style and format
 * of src/report/ shows the same numbers. Nothing here prints.
 */

/* One run (a name) as compare sees it: every batch of that name pooled. */
struct compare_run {
	const char *name;
	struct result_set set;
};

/*
 * The fewest samples each side needs for a ratio interval and a verdict:
 * with one, the side's spread is unknown (Welch's t-test is undefined and
 * the bootstrap resamples only the other side's spread).
 */
#define COMPARE_MIN_SAMPLES 2

enum verdict {
	VERDICT_NONE,		/* the baseline, or not analysed */
	VERDICT_BETTER,		/* significant after adjustment, ratio CI excludes 1 */
	VERDICT_WORSE,
	VERDICT_SAME,		/* ratio CI inside 1 +/- margin */
	VERDICT_UNKNOWN,	/* neither: the data cannot tell */
};

const char *verdict_name(enum verdict v);

/*
 * A cell's statistics beyond its summary, computed once by
 * comparison_analyze(). NAN where undefined. The fields after median_high
 * compare the cell with the baseline's cell and stay NAN / VERDICT_NONE in
 * cell 0.
 */
struct cell_stats {
	double median_low, median_high;	/* order-statistic CI of the median */
	double p_welch, p_mwu;
	double p_test;		/* p_welch, or p_mwu where Welch is undefined */
	double p_adjusted;	/* p_test adjusted over every row and run */
	double ratio_low, ratio_high;	/* bootstrap CI of mean(new) / mean(base) */
	double hl_shift, hl_low, hl_high;	/* Hodges–Lehmann new - base */
	double mde_pct;		/* non-significant cells: minimum detectable effect */
	/*
	 * Both cells with two or more batches: p_test and the ratio interval
	 * come from Welch's test on the batch means (p_batch), and a change
	 * no larger than batch_spread (the SD of batch means) is not called.
	 */
	bool batched;
	double p_batch;
	double batch_spread;	/* NAN when neither cell has two batches */
	bool within_spread;	/* better/worse withheld: |change| <= batch_spread */
	/*
	 * The baseline or this cell has samples, but fewer than
	 * COMPARE_MIN_SAMPLES: its spread is unknown, so there is no ratio
	 * interval and the verdict is unknown (as for a side without any,
	 * which the tables show as such).
	 */
	bool too_few;
	enum verdict verdict;
};

/* One benchmark and metric across the runs; cells[i] belongs to runs[i]. */
struct compare_cell {
	double *samples;	/* pooled over the run's batches, batch after batch */
	size_t nr_samples;
	bool *disturbed;	/* per sample: from a disturbed iteration; NULL = none */
	size_t nr_disturbed;	/* samples from disturbed iterations among them */
	size_t nr_excluded;	/* disturbed samples left out (--exclude-disturbed) */
	size_t *batch_sizes;	/* samples of each batch, in order (empty ones kept) */
	size_t nr_batches;
	double between_share;	/* between-batch share of the variance; NAN under 2 batches */
	struct summary summary;
	double *sorted;		/* the samples in ascending order, with the summary */
	/*
	 * The parameters of the run's benchmark, all of them (the row's lack
	 * the ignored ones); NULL when the run has none in this row.
	 */
	const char *params;
	struct cell_stats stats;
};

struct compare_row {
	const char *workload;
	const char *params;	/* canonical JSON, less the ignored parameters */
	const struct result_metric *metric;	/* name, unit, better, source */
	struct compare_cell *cells;
	/*
	 * With ignored parameters: the parameters of a second benchmark of
	 * run clash_run that became this row beside cells[clash_run].params
	 * (another experiment, which must not be pooled); NULL when none.
	 */
	const char *clash;
	size_t clash_run;
};

/* An environment key whose value is not the same in every batch compared. */
struct env_difference {
	const char *key;
	char **values;		/* per run; NULL when unset; " | "-joined when batches differ */
	bool moves_results;	/* a key known to move results (governor, SMT, ...) */
};

struct comparison {
	const struct compare_run *runs;	/* runs[0] is the baseline */
	size_t nr_runs;
	struct compare_row *rows;
	size_t nr_rows;
	struct env_difference *env_diffs;
	size_t nr_env_diffs;
	const char *const *ignored;	/* parameters rows are paired without (NULL: none) */
	char **strings;		/* what rows and env_diffs point to beside the runs */
	size_t nr_strings;
	double level;		/* confidence level of every interval: 1 - alpha */
	struct compare_options {
		double alpha;	/* significance level, default 0.05 */
		double margin;	/* "same" when the ratio CI lies in 1 +/- margin (0.01) */
		enum p_adjust_method adjust;
		uint64_t seed;	/* bootstrap */
		size_t resamples;
		int threads;	/* for the bootstrap; 1 = none */
		/*
		 * The Hodges–Lehmann shift and interval and the minimum
		 * detectable effect, which only some formats show (default
		 * true); false leaves them NAN.
		 */
		bool effects;
	} opts;			/* as comparison_analyze() was given them */
};

void compare_options_init(struct compare_options *opts);

/*
 * Pair up the metrics of @runs by (workload, params, metric), a metric by
 * its name, unit and direction (metric_key_same(), results/metric_key.h:
 * "m" in s and "m" in ms are two rows, never compared), pooling the
 * samples of every batch of a run; rows keep the order in which they first
 * appear. Metrics whose source is not "workload" are left out unless
 * @all_metrics.
 */
void comparison_build(struct comparison *cmp, const struct compare_run *runs,
		      size_t nr_runs, bool all_metrics);
/*
 * The same with the parameters @ignored (NULL-terminated, kept pointed to)
 * left out of the key and of the rows' params, as benchstat's -ignore
 * does: an ab's sides param:mode=process and param:mode=thread are one
 * row. Their values are listed with the environment differences, as
 * "param.NAME".
 */
void comparison_build_ignoring(struct comparison *cmp, const struct compare_run *runs,
			       size_t nr_runs, bool all_metrics, const char *const *ignored);
/* The first of cmp->ignored that no benchmark of any run has, or NULL: a misspelling. */
const char *comparison_ignored_unknown(const struct comparison *cmp);
/* The first row two benchmarks of one run became (compare_row.clash), or NULL. */
const struct compare_row *comparison_clash(const struct comparison *cmp);
void comparison_release(struct comparison *cmp);
/*
 * Leave out the samples of disturbed iterations (--exclude-disturbed),
 * counting them in each cell's nr_excluded.
 */
void comparison_exclude_disturbed(struct comparison *cmp);
/* Batches with samples of cell @c (those the tests count). */
size_t compare_cell_batches(const struct compare_cell *c);
/* The batches of @run that are not complete: cut short, or running still. */
size_t compare_run_incomplete(const struct compare_run *run);

/*
 * Keep only rows whose workload is in @workload_names, metric in @metric_names
 * (each a row's name as stored or as shown, utf8_names()) and parameters hold
 * every KEY=VALUE of @params (NULL-terminated lists; NULL or empty keeps
 * all). Returns the first name or KEY=VALUE no row had (a misspelling,
 * which must not pass for "nothing changed"), @kind its option, or NULL
 * when each was found.
 */
const char *comparison_filter(struct comparison *cmp, const char *const *workload_names,
			      const char *const *metric_names, const char *const *params,
			      const char **kind);
/* Tests, intervals, adjustment, verdicts and environment differences. */
void comparison_analyze(struct comparison *cmp, const struct compare_options *opts);
/* Whether @base or @cell has fewer than COMPARE_MIN_SAMPLES samples. */
bool compare_cells_too_few(const struct compare_cell *base, const struct compare_cell *cell);
/* The verdict of one cell from its adjusted p and ratio interval. */
enum verdict cell_verdict(const struct cell_stats *st, enum better better,
			  double alpha, double margin);
/* Fill cmp->env_diffs (comparison_analyze() calls it). */
void comparison_env_differences(struct comparison *cmp);
/* Drop rows where no run is better or worse (--only-changed). */
void comparison_keep_changed(struct comparison *cmp);
/* True when some cell is worse (--fail-on-regression). */
bool comparison_has_regression(const struct comparison *cmp);
/*
 * The keys known to move results that differ between the baseline and run
 * @r: fills at most @max of @keys, returns how many there are (never more
 * than COMPARE_MAX_CAVEATS, the number of such keys and then some).
 */
#define COMPARE_MAX_CAVEATS 16
size_t comparison_caveats(const struct comparison *cmp, size_t r, const char **keys,
			  size_t max);
/* The short name of such a key for a verdict: "governor" for cpufreq.governor. */
const char *env_key_short(const char *key);

/*
 * Whether some row's metric has @m's name but is another metric (another
 * unit or direction, metric_key_same()): where a row is named by its
 * metric's name alone, its unit and direction must then be said too.
 */
bool comparison_metric_name_shared(const struct comparison *cmp, const struct result_metric *m);

/* The headline statistic of a row: Hmean when higher is better, else Amean. */
double compare_headline(const struct summary *s, enum better better);

#endif
