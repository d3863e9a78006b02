// SPDX-License-Identifier: GPL-2.0
/*
 * The statistics of a comparison, computed once into the model so that
 * every style and format shows the same numbers and verdicts.
 *
 * Per cell against the baseline: Welch's t-test (the test whose p-value is
 * adjusted: the verdict is about means, as the ratio interval is), the
 * Mann–Whitney U test, the bootstrap interval of the ratio of means, the
 * Hodges–Lehmann shift and, for cells without a verdict of change, the
 * minimum detectable effect. The bootstrap is nearly all the cost: it runs
 * on a pool of threads (bootstrap_pool.c) while the calling thread runs
 * the Rmath-based tests, which keep static tables and so stay on it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/bootstrap_pool.h"
#include "analysis/comparison.h"
#include "stats/batches.h"
#include "stats/bootstrap.h"
#include "stats/hodges_lehmann.h"
#include "stats/mannwhitney.h"
#include "stats/median_ci.h"
#include "stats/power.h"
#include "stats/sort.h"
#include "stats/welch.h"
#include "util/xalloc.h"

const char *verdict_name(enum verdict v)
{
	switch (v) {
	case VERDICT_BETTER:
		return "better";
	case VERDICT_WORSE:
		return "worse";
	case VERDICT_SAME:
		return "same";
	case VERDICT_UNKNOWN:
		return "unknown";
	case VERDICT_NONE:
		break;
	}
	return "-";
}

void compare_options_init(struct compare_options *opts)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	*opts = (struct compare_options){
		.alpha = 0.05,
		.margin = 0.01,
		.adjust = P_ADJUST_BH,
		.seed = BOOTSTRAP_SEED,
		.resamples = BOOTSTRAP_RESAMPLES,
		.threads = 2,
		.effects = true,
	};

	/* the bootstrap scales with CPUs, up to the pool's cap */
	if (cpus > 2)
		opts->threads = cpus > BOOTSTRAP_MAX_THREADS ? BOOTSTRAP_MAX_THREADS : (int)cpus;
}

static void cell_stats_clear(struct cell_stats *st)
{
	*st = (struct cell_stats){
		.median_low = NAN, .median_high = NAN, .p_welch = NAN, .p_mwu = NAN,
		.p_test = NAN, .p_adjusted = NAN, .ratio_low = NAN, .ratio_high = NAN,
		.hl_shift = NAN, .hl_low = NAN, .hl_high = NAN, .mde_pct = NAN,
		.p_batch = NAN, .batch_spread = NAN,
		.verdict = VERDICT_NONE,
	};
}

/*
 * The cell's samples sorted once, with its summary (comparison.c), for the
 * median's interval and the rank tests too.
 */
static void cell_sort(struct compare_cell *cell)
{
	if (!cell->sorted && cell->nr_samples)
		cell->sorted = sorted_doubles(cell->samples, cell->nr_samples);
}

static void median_interval(struct compare_cell *cell, double level)
{
	if (!cell->nr_samples)
		return;
	median_ci(cell->sorted, cell->nr_samples, level, &cell->stats.median_low,
		  &cell->stats.median_high);
}

/* The tests that use Rmath's static tables: on this thread only. */
static void cell_tests(const struct compare_cell *base, struct compare_cell *cell,
		       double level, bool effects)
{
	struct welch_result w;
	struct mwu_result u;
	struct hl_result hl;

	if (!base->nr_samples || !cell->nr_samples)
		return;
	welch_test(base->samples, base->nr_samples, cell->samples, cell->nr_samples, &w);
	mwu_test_sorted(base->sorted, base->nr_samples, cell->sorted, cell->nr_samples, &u);
	cell->stats.p_welch = w.p;
	cell->stats.p_mwu = u.p;
	/* Welch is undefined for constant samples of different means */
	cell->stats.p_test = isnan(w.p) ? u.p : w.p;
	if (!effects)
		return;
	hl_estimate_sorted(base->sorted, base->nr_samples, cell->sorted, cell->nr_samples,
			   level, &hl);
	cell->stats.hl_shift = hl.shift;
	cell->stats.hl_low = hl.low;
	cell->stats.hl_high = hl.high;
}

static void adjust_p_values(struct comparison *cmp, enum p_adjust_method method)
{
	size_t per_row = cmp->nr_runs - 1, n = cmp->nr_rows * per_row;
	double *p = xcalloc(n + 1, sizeof(double));

	for (size_t i = 0; i < cmp->nr_rows; i++)
		for (size_t r = 1; r < cmp->nr_runs; r++)
			p[i * per_row + r - 1] = cmp->rows[i].cells[r].stats.p_test;
	p_adjust(p, p, n, method);
	for (size_t i = 0; i < cmp->nr_rows; i++)
		for (size_t r = 1; r < cmp->nr_runs; r++)
			cmp->rows[i].cells[r].stats.p_adjusted = p[i * per_row + r - 1];
	free(p);
}

/*
 * better/worse: significant after adjustment and the ratio interval on one
 * side of 1; same: the interval inside 1 +/- margin; else unknown.
 */
enum verdict cell_verdict(const struct cell_stats *st, enum better better,
			  double alpha, double margin)
{
	bool up;

	if (isnan(st->ratio_low) || isnan(st->ratio_high))
		return VERDICT_UNKNOWN;
	if (st->p_adjusted < alpha && (st->ratio_low > 1 || st->ratio_high < 1)) {
		up = st->ratio_low > 1;
		return up == (better == BETTER_HIGHER) ? VERDICT_BETTER : VERDICT_WORSE;
	}
	if (st->ratio_low >= 1 - margin && st->ratio_high <= 1 + margin)
		return VERDICT_SAME;
	return VERDICT_UNKNOWN;
}

/* In units of the larger deviation, whose square overflows near DBL_MAX. */
static double pooled_sd(const struct summary *a, const struct summary *b)
{
	double df = (double)a->n + (double)b->n - 2;
	double big = fmax(a->stddev, b->stddev), ra, rb;

	if (a->n < 2 || b->n < 2)
		return NAN;
	if (!(big > 0))
		return big;
	ra = a->stddev / big;
	rb = b->stddev / big;
	return big * sqrt(((double)(a->n - 1) * ra * ra + (double)(b->n - 1) * rb * rb) / df);
}

/* ------------------------------------------------------------ batches */

/*
 * The batch-to-batch spread of a pair of cells: the root mean of the
 * variances of batch means of those with two batches or more (NAN if none).
 */
static double batch_spread(const struct compare_cell *base, const struct compare_cell *cell,
			   double *diff)
{
	const struct compare_cell *pair[2] = { base, cell };
	double var = 0, mean[2];
	int n = 0;

	for (int i = 0; i < 2; i++) {
		struct batch_components bc;

		batch_components(pair[i]->samples, pair[i]->batch_sizes, pair[i]->nr_batches,
				 &bc);
		mean[i] = bc.mean_of_means;
		if (bc.nr_batches >= 2) {
			var += bc.sd_of_means * bc.sd_of_means;
			n++;
		}
	}
	*diff = mean[1] - mean[0];
	return n ? sqrt(var / n) : NAN;
}

/*
 * Both cells in two batches or more: test on the batch means, whose p
 * replaces the pooled one (doc/design.md, "Batches as blocks").
 */
static void cell_batch_test(const struct compare_cell *base, struct compare_cell *cell)
{
	struct batch_test bt;

	if (compare_cell_batches(base) < 2 || compare_cell_batches(cell) < 2)
		return;
	batch_means_test(base->samples, base->batch_sizes, base->nr_batches,
			 cell->samples, cell->batch_sizes, cell->nr_batches, 0.95, &bt);
	cell->stats.batched = true;
	cell->stats.p_batch = bt.p;
	cell->stats.p_test = bt.p;
}

/* The ratio interval of a batched cell: 1 + the difference's interval / base mean. */
static void cell_batch_ratio(const struct compare_cell *base, struct compare_cell *cell,
			     double level)
{
	struct batch_components bc;
	struct batch_test bt;

	batch_components(base->samples, base->batch_sizes, base->nr_batches, &bc);
	batch_means_test(base->samples, base->batch_sizes, base->nr_batches,
			 cell->samples, cell->batch_sizes, cell->nr_batches, level, &bt);
	if (!(bc.mean_of_means > 0)) {
		cell->stats.ratio_low = cell->stats.ratio_high = NAN;
		return;
	}
	cell->stats.ratio_low = 1 + bt.diff_low / bc.mean_of_means;
	cell->stats.ratio_high = 1 + bt.diff_high / bc.mean_of_means;
}

/* The last effect size solved for (power_effect_size()), by sizes. */
struct effect_size_cache {
	size_t n_base, n_new;
	double effect_size;
	bool known;
};

/*
 * From a base mean not above 0 a ratio says nothing of magnitudes (from -5
 * to 5 is "-1 times"): there is no ratio interval, as for batch means, and
 * a significant change is better or worse by the sign of the difference.
 */
static enum verdict verdict_without_ratio(const struct summary *base, struct compare_cell *cell,
					  enum better better, double alpha)
{
	double diff = cell->summary.amean - base->amean;

	cell->stats.ratio_low = cell->stats.ratio_high = NAN;
	if (!(cell->stats.p_adjusted < alpha) || !(diff != 0))
		return VERDICT_UNKNOWN;
	return (diff > 0) == (better == BETTER_HIGHER) ? VERDICT_BETTER : VERDICT_WORSE;
}

static void cell_conclude(const struct compare_row *row, struct compare_cell *cell,
			  const struct compare_options *opts, struct effect_size_cache *es)
{
	const struct summary *base = &row->cells[0].summary;
	struct mde mde;
	double diff;

	cell->stats.batch_spread = batch_spread(&row->cells[0], cell, &diff);
	if (compare_cells_too_few(&row->cells[0], cell)) {
		/* a side measured once: its spread is unknown, nothing is claimed */
		cell->stats.too_few = row->cells[0].nr_samples && cell->nr_samples;
		cell->stats.ratio_low = cell->stats.ratio_high = NAN;
		cell->stats.verdict = VERDICT_UNKNOWN;
		return;
	}
	cell->stats.verdict = cell_verdict(&cell->stats, row->metric->better,
					   opts->alpha, opts->margin);
	if (!(base->amean > 0))
		cell->stats.verdict = verdict_without_ratio(base, cell, row->metric->better,
							    opts->alpha);
	/* never a change that one boot to the next could make by itself */
	if ((cell->stats.verdict == VERDICT_BETTER || cell->stats.verdict == VERDICT_WORSE) &&
	    fabs(diff) <= cell->stats.batch_spread) {
		cell->stats.verdict = VERDICT_UNKNOWN;
		cell->stats.within_spread = true;
	}
	if (cell->stats.verdict == VERDICT_BETTER || cell->stats.verdict == VERDICT_WORSE ||
	    !opts->effects)
		return;
	if (!es->known || es->n_base != base->n || es->n_new != cell->summary.n)
		*es = (struct effect_size_cache){
			base->n, cell->summary.n,
			power_effect_size(base->n, cell->summary.n, opts->alpha, POWER_DEFAULT),
			true,
		};
	power_mde_of(es->effect_size, pooled_sd(base, &cell->summary), base->amean, &mde);
	cell->stats.mde_pct = mde.pct;
}

void comparison_analyze(struct comparison *cmp, const struct compare_options *opts)
{
	struct effect_size_cache es = { .known = false };
	struct bootstrap_pool *pool;

	cmp->level = 1 - opts->alpha;
	cmp->opts = *opts;
	for (size_t i = 0; i < cmp->nr_rows; i++) {
		for (size_t r = 0; r < cmp->nr_runs; r++) {
			cell_stats_clear(&cmp->rows[i].cells[r].stats);
			cell_sort(&cmp->rows[i].cells[r]);
		}
	}
	pool = bootstrap_pool_start(cmp, opts);
	/* the workers fill only ratio_low/high; these fields are disjoint */
	for (size_t i = 0; i < cmp->nr_rows; i++) {
		struct compare_row *row = &cmp->rows[i];

		for (size_t r = 0; r < cmp->nr_runs; r++) {
			median_interval(&row->cells[r], cmp->level);
			if (r) {
				cell_tests(&row->cells[0], &row->cells[r], cmp->level,
					   opts->effects);
				cell_batch_test(&row->cells[0], &row->cells[r]);
			}
		}
	}
	bootstrap_pool_finish(pool);
	for (size_t i = 0; i < cmp->nr_rows; i++)
		for (size_t r = 1; r < cmp->nr_runs; r++)
			if (cmp->rows[i].cells[r].stats.batched)
				cell_batch_ratio(&cmp->rows[i].cells[0], &cmp->rows[i].cells[r],
						 cmp->level);
	adjust_p_values(cmp, opts->adjust);
	for (size_t i = 0; i < cmp->nr_rows; i++)
		for (size_t r = 1; r < cmp->nr_runs; r++)
			cell_conclude(&cmp->rows[i], &cmp->rows[i].cells[r], opts, &es);
	comparison_env_differences(cmp);
}

bool comparison_has_regression(const struct comparison *cmp)
{
	for (size_t i = 0; i < cmp->nr_rows; i++)
		for (size_t r = 1; r < cmp->nr_runs; r++)
			if (cmp->rows[i].cells[r].stats.verdict == VERDICT_WORSE)
				return true;
	return false;
}
