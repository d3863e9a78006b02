// SPDX-License-Identifier: GPL-2.0
/*
 * The statistics of a comparison, computed once into the model so that
 * every style and format shows the same numbers and verdicts.
 *
 * Per cell against the baseline: Welch's t-test (the test whose p-value is
 * adjusted: the verdict is about means, as the ratio interval is), the
 * Mann–Whitney U test, the bootstrap interval of the ratio of means, the
 * Hodges–Lehmann shift and, for cells without a verdict of change, the
 * minimum detectable effect. The bootstrap is nearly all the cost, so its
 * resampling plans are shared by every cell with the same sizes and its
 * cells are shared out to threads while the calling thread runs the
 * Rmath-based tests, which keep static tables and so stay on it.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/report.h"
#include "stats/bootstrap.h"
#include "stats/hodges_lehmann.h"
#include "stats/mannwhitney.h"
#include "stats/median_ci.h"
#include "stats/power.h"
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
	*opts = (struct compare_options){
		.alpha = 0.05,
		.margin = 0.01,
		.adjust = P_ADJUST_BH,
		.seed = BOOTSTRAP_SEED,
		.resamples = BOOTSTRAP_RESAMPLES,
		.threads = 2,
	};
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	/* the bootstrap scales with CPUs; beyond 8 the serial part dominates */
	if (cpus > 2)
		opts->threads = cpus > 8 ? 8 : (int)cpus;
}

static void cell_stats_clear(struct cell_stats *st)
{
	*st = (struct cell_stats){
		.median_low = NAN, .median_high = NAN, .p_welch = NAN, .p_mwu = NAN,
		.p_test = NAN, .p_adjusted = NAN, .ratio_low = NAN, .ratio_high = NAN,
		.hl_shift = NAN, .hl_low = NAN, .hl_high = NAN, .mde_pct = NAN,
		.verdict = VERDICT_NONE,
	};
}

static int double_cmp(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return a < b ? -1 : a > b;
}

static void median_interval(struct compare_cell *cell, double level)
{
	double *sorted;

	if (!cell->nr_samples)
		return;
	sorted = xreallocarray(NULL, cell->nr_samples, sizeof(double));
	memcpy(sorted, cell->samples, cell->nr_samples * sizeof(double));
	qsort(sorted, cell->nr_samples, sizeof(double), double_cmp);
	median_ci(sorted, cell->nr_samples, level, &cell->stats.median_low,
		  &cell->stats.median_high);
	free(sorted);
}

/* The tests that use Rmath's static tables: on this thread only. */
static void cell_tests(const struct compare_cell *base, struct compare_cell *cell,
		       double level)
{
	struct welch_result w;
	struct mwu_result u;
	struct hl_result hl;

	if (!base->nr_samples || !cell->nr_samples)
		return;
	welch_test(base->samples, base->nr_samples, cell->samples, cell->nr_samples, &w);
	mwu_test(base->samples, base->nr_samples, cell->samples, cell->nr_samples, &u);
	hl_estimate(base->samples, base->nr_samples, cell->samples, cell->nr_samples,
		    level, &hl);
	cell->stats.p_welch = w.p;
	cell->stats.p_mwu = u.p;
	/* Welch is undefined for constant samples of different means */
	cell->stats.p_test = isnan(w.p) ? u.p : w.p;
	cell->stats.hl_shift = hl.shift;
	cell->stats.hl_low = hl.low;
	cell->stats.hl_high = hl.high;
}

/* ------------------------------------------------------------ bootstrap */

/*
 * A plan holds up to a few megabytes of indices; rows of many different
 * sizes draw as they go beyond this many plans (the same interval, since
 * a plan keeps the indices in the order they are drawn).
 */
#define MAX_PLANS	16

struct plan_entry {
	size_t n_base, n_new;
	struct bootstrap_plan *plan;
};

struct boot_job {
	const struct compare_cell *base;
	struct compare_cell *cell;
	const struct bootstrap_plan *plan;
};

/* A row's jobs, jobs[first .. first + nr - 1]: one per run after the baseline. */
struct boot_row {
	size_t first, nr;
};

/*
 * The bootstrap pool: workers and the calling thread take rows in turn from
 * one counter, so whoever is free takes the next; the calling thread joins
 * in only after the Rmath tests, which it alone may run. A row goes to one
 * thread whole, so that runs sharing a plan share the baseline's resample
 * means (a quarter of the work when three runs are compared).
 */
struct boot_pool {
	struct boot_job *jobs;
	size_t nr_jobs;
	struct boot_row *rows;
	size_t nr_rows;
	atomic_size_t next;
	double level;
	size_t resamples;
	uint64_t seed;
	struct plan_entry *plans;
	size_t nr_plans;
	pthread_t tid[8];
	int nr_threads;
};

static const struct bootstrap_plan *plan_for(struct boot_pool *pool, size_t n_base,
					     size_t n_new, const struct compare_options *opts)
{
	for (size_t i = 0; i < pool->nr_plans; i++)
		if (pool->plans[i].n_base == n_base && pool->plans[i].n_new == n_new)
			return pool->plans[i].plan;
	if (pool->nr_plans == MAX_PLANS)
		return NULL;
	pool->plans = xreallocarray(pool->plans, pool->nr_plans + 1, sizeof(*pool->plans));
	pool->plans[pool->nr_plans] = (struct plan_entry){
		.n_base = n_base, .n_new = n_new,
		.plan = bootstrap_plan_new(n_base, n_new, opts->resamples, opts->seed),
	};
	return pool->plans[pool->nr_plans++].plan;
}

/*
 * One cell's interval. @base_means holds the baseline's resample means
 * under *@means_plan (NULL: none yet); computed here when this cell's plan
 * keeps indices and differs.
 */
static void boot_cell(const struct boot_pool *pool, const struct boot_job *job,
		      double *base_means, const struct bootstrap_plan **means_plan)
{
	struct cell_stats *st = &job->cell->stats;

	if (job->plan && job->plan != *means_plan &&
	    !bootstrap_plan_base_means(job->plan, job->base->samples, base_means))
		*means_plan = job->plan;
	if (job->plan && job->plan == *means_plan)
		bootstrap_plan_ratio_ci_means(job->plan, base_means, job->cell->samples,
					      pool->level, &st->ratio_low, &st->ratio_high);
	else if (job->plan)
		bootstrap_plan_ratio_ci(job->plan, job->base->samples, job->cell->samples,
					pool->level, &st->ratio_low, &st->ratio_high);
	else
		bootstrap_ratio_ci(job->base->samples, job->base->nr_samples,
				   job->cell->samples, job->cell->nr_samples,
				   pool->resamples, pool->level, pool->seed,
				   &st->ratio_low, &st->ratio_high);
}

static void *boot_worker(void *arg)
{
	struct boot_pool *pool = arg;
	double *base_means = xreallocarray(NULL, pool->resamples, sizeof(double));
	size_t i;

	while ((i = atomic_fetch_add(&pool->next, 1)) < pool->nr_rows) {
		const struct boot_row *row = &pool->rows[i];
		const struct bootstrap_plan *means_plan = NULL;

		for (size_t j = row->first; j < row->first + row->nr; j++)
			boot_cell(pool, &pool->jobs[j], base_means, &means_plan);
	}
	free(base_means);
	return NULL;
}

/* Plan every cell's bootstrap and start threads - 1 workers on it. */
static void bootstrap_start(struct boot_pool *pool, struct comparison *cmp,
			    const struct compare_options *opts)
{
	int want = opts->threads < 1 ? 1 : opts->threads > 8 ? 8 : opts->threads;

	memset(pool, 0, sizeof(*pool));
	pool->level = cmp->level;
	pool->resamples = opts->resamples;
	pool->seed = opts->seed;
	pool->jobs = xcalloc(cmp->nr_rows * cmp->nr_runs + 1, sizeof(*pool->jobs));
	pool->rows = xcalloc(cmp->nr_rows + 1, sizeof(*pool->rows));
	for (size_t i = 0; i < cmp->nr_rows; i++) {
		struct compare_cell *base = &cmp->rows[i].cells[0];

		pool->rows[i].first = pool->nr_jobs;
		for (size_t r = 1; r < cmp->nr_runs; r++) {
			struct compare_cell *cell = &cmp->rows[i].cells[r];

			if (!base->nr_samples || !cell->nr_samples)
				continue;
			pool->jobs[pool->nr_jobs++] = (struct boot_job){
				base, cell,
				plan_for(pool, base->nr_samples, cell->nr_samples, opts),
			};
		}
		pool->rows[i].nr = pool->nr_jobs - pool->rows[i].first;
	}
	pool->nr_rows = cmp->nr_rows;
	atomic_init(&pool->next, 0);
	/* a thread that cannot start leaves its share to the others */
	for (int t = 1; t < want && (size_t)t < pool->nr_rows; t++) {
		if (pthread_create(&pool->tid[pool->nr_threads], NULL, boot_worker, pool))
			break;
		pool->nr_threads++;
	}
}

static void bootstrap_finish(struct boot_pool *pool)
{
	boot_worker(pool);
	for (int t = 0; t < pool->nr_threads; t++)
		pthread_join(pool->tid[t], NULL);
	for (size_t i = 0; i < pool->nr_plans; i++)
		bootstrap_plan_free(pool->plans[i].plan);
	free(pool->plans);
	free(pool->jobs);
	free(pool->rows);
}

/* ------------------------------------------------------------ verdicts */

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

static double pooled_sd(const struct summary *a, const struct summary *b)
{
	double df = (double)a->n + (double)b->n - 2;

	if (a->n < 2 || b->n < 2)
		return NAN;
	return sqrt(((double)(a->n - 1) * a->stddev * a->stddev +
		     (double)(b->n - 1) * b->stddev * b->stddev) / df);
}

static void cell_conclude(const struct compare_row *row, struct compare_cell *cell,
			  const struct compare_options *opts)
{
	const struct summary *base = &row->cells[0].summary;
	struct mde mde;

	cell->stats.verdict = cell_verdict(&cell->stats, row->metric->better,
					   opts->alpha, opts->margin);
	if (cell->stats.verdict == VERDICT_BETTER || cell->stats.verdict == VERDICT_WORSE)
		return;
	power_mde(base->n, cell->summary.n, pooled_sd(base, &cell->summary), base->amean,
		  opts->alpha, POWER_DEFAULT, &mde);
	cell->stats.mde_pct = mde.pct;
}

void comparison_analyze(struct comparison *cmp, const struct compare_options *opts)
{
	struct boot_pool pool;

	cmp->level = 1 - opts->alpha;
	cmp->opts = *opts;
	for (size_t i = 0; i < cmp->nr_rows; i++)
		for (size_t r = 0; r < cmp->nr_runs; r++)
			cell_stats_clear(&cmp->rows[i].cells[r].stats);
	bootstrap_start(&pool, cmp, opts);
	/* the workers fill only ratio_low/high; these fields are disjoint */
	for (size_t i = 0; i < cmp->nr_rows; i++) {
		struct compare_row *row = &cmp->rows[i];

		for (size_t r = 0; r < cmp->nr_runs; r++) {
			median_interval(&row->cells[r], cmp->level);
			if (r)
				cell_tests(&row->cells[0], &row->cells[r], cmp->level);
		}
	}
	bootstrap_finish(&pool);
	adjust_p_values(cmp, opts->adjust);
	for (size_t i = 0; i < cmp->nr_rows; i++)
		for (size_t r = 1; r < cmp->nr_runs; r++)
			cell_conclude(&cmp->rows[i], &cmp->rows[i].cells[r], opts);
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
