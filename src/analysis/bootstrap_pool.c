// SPDX-License-Identifier: GPL-2.0
/*
 * The bootstrap of a comparison on a pool of threads: the ratio interval of
 * every cell against its baseline is most of compare's cost. Cells with the
 * same sample sizes share one resampling plan, and rows under one plan are
 * resampled BOOTSTRAP_LANES at a time (stats/bootstrap.h: the plan read
 * once for them, the values added as vectors); those blocks, and the cells
 * whose plan keeps no indices, are shared out to the threads.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/bootstrap_pool.h"
#include "stats/bootstrap.h"
#include "util/xalloc.h"

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
 * A unit of the pool's work: up to BOOTSTRAP_LANES rows resampled together
 * under one plan that keeps its indices (every job of those rows under that
 * plan), or else one row's jobs that draw as they go.
 */
struct boot_block {
	const struct bootstrap_plan *plan;	/* NULL: rows[0]'s jobs one by one */
	size_t rows[BOOTSTRAP_LANES];
	size_t nr_rows;
};

/*
 * The bootstrap pool: workers and the calling thread take blocks in turn
 * from one counter, so whoever is free takes the next; the calling thread
 * joins in only after the Rmath tests, which it alone may run. A block
 * resamples its rows' baselines once for all their runs.
 */
struct bootstrap_pool {
	struct boot_job *jobs;
	size_t nr_jobs;
	struct boot_row *rows;
	size_t nr_rows;
	struct boot_block *blocks;
	size_t nr_blocks;
	atomic_size_t next;
	double level;
	size_t resamples;
	uint64_t seed;
	struct plan_entry *plans;
	size_t nr_plans;
	pthread_t tid[BOOTSTRAP_MAX_THREADS];
	int nr_threads;
};

static const struct bootstrap_plan *plan_for(struct bootstrap_pool *pool, size_t n_base,
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

/* One cell whose plan keeps no indices: drawn as it goes. */
static void boot_cell(const struct bootstrap_pool *pool, const struct boot_job *job)
{
	struct cell_stats *st = &job->cell->stats;

	if (job->plan)
		bootstrap_plan_ratio_ci(job->plan, job->base->samples, job->cell->samples,
					pool->level, &st->ratio_low, &st->ratio_high);
	else
		bootstrap_ratio_ci(job->base->samples, job->base->nr_samples,
				   job->cell->samples, job->cell->nr_samples,
				   pool->resamples, pool->level, pool->seed,
				   &st->ratio_low, &st->ratio_high);
}

/* Row @row's jobs, the @k-th of those under @plan (NULL: none). */
static const struct boot_job *row_job(const struct bootstrap_pool *pool, size_t row,
				      const struct bootstrap_plan *plan, size_t k)
{
	const struct boot_row *r = &pool->rows[row];

	for (size_t j = r->first; j < r->first + r->nr; j++)
		if (pool->jobs[j].plan == plan && !k--)
			return &pool->jobs[j];
	return NULL;
}

/*
 * The block's @k-th jobs under its plan into @job, their samples into @x:
 * a lane whose row has no k-th job resamples another's, unread. False
 * when no row has one.
 */
static bool kth_jobs(const struct bootstrap_pool *pool, const struct boot_block *block,
		     size_t k, const struct boot_job **job, const double **x)
{
	const double *filler = NULL;

	for (size_t lane = 0; lane < block->nr_rows; lane++) {
		job[lane] = row_job(pool, block->rows[lane], block->plan, k);
		if (job[lane])
			filler = job[lane]->cell->samples;
	}
	for (size_t lane = 0; lane < block->nr_rows; lane++)
		x[lane] = job[lane] ? job[lane]->cell->samples : filler;
	return filler != NULL;
}

/* The intervals of @job's cells from the approximate means of both sides. */
static void approx_intervals(const struct bootstrap_pool *pool, const struct boot_block *block,
			     const struct boot_job **job, const double *const *base,
			     const double *base_means, const double *const *x,
			     const double *new_means)
{
	double low[BOOTSTRAP_LANES], high[BOOTSTRAP_LANES];

	bootstrap_lane_ratio_cis_approx(block->plan, base, base_means, x, new_means,
					block->nr_rows, pool->level, low, high);
	for (size_t lane = 0; lane < block->nr_rows; lane++) {
		if (!job[lane])
			continue;
		job[lane]->cell->stats.ratio_low = low[lane];
		job[lane]->cell->stats.ratio_high = high[lane];
	}
}

/*
 * Every job under the block's plan, the baselines' means resampled once;
 * approximately first where they may be (stats/bootstrap.h), and then
 * each run's too, two runs at a time while both may be, unless its values
 * may not: then the baselines' again, exactly. @new_means holds two
 * sides' means.
 */
static void boot_lanes(const struct bootstrap_pool *pool, const struct boot_block *block,
		       double *base_means, double *new_means)
{
	const double *base[BOOTSTRAP_LANES] = { NULL }, *x[BOOTSTRAP_LANES] = { NULL };
	const double *x2[BOOTSTRAP_LANES] = { NULL };
	const struct boot_job *job[BOOTSTRAP_LANES], *job2[BOOTSTRAP_LANES];
	double *new_means2 = new_means + pool->resamples * BOOTSTRAP_LANES;
	double low[BOOTSTRAP_LANES], high[BOOTSTRAP_LANES];
	size_t nr = block->nr_rows;
	bool approx;

	for (size_t lane = 0; lane < nr; lane++)
		base[lane] = row_job(pool, block->rows[lane], block->plan, 0)->base->samples;
	approx = bootstrap_plan_lane_means_approx(block->plan, false, base, nr, base_means) == 1;
	for (size_t k = 0; kth_jobs(pool, block, k, job, x); k++) {
		if (approx && kth_jobs(pool, block, k + 1, job2, x2) &&
		    bootstrap_plan_lane_means_approx2(block->plan, true, x, x2, nr, new_means,
						      new_means2) == 1) {
			approx_intervals(pool, block, job, base, base_means, x, new_means);
			approx_intervals(pool, block, job2, base, base_means, x2, new_means2);
			k++;
			continue;
		}
		if (approx && bootstrap_plan_lane_means_approx(block->plan, true, x, nr,
							       new_means) == 1) {
			approx_intervals(pool, block, job, base, base_means, x, new_means);
			continue;
		}
		if (approx)
			bootstrap_plan_lane_means(block->plan, false, base, nr, base_means);
		approx = false;
		bootstrap_plan_lane_means(block->plan, true, x, nr, new_means);
		bootstrap_lane_ratio_cis(base_means, new_means, nr, pool->resamples,
					 pool->level, low, high);
		for (size_t lane = 0; lane < nr; lane++) {
			if (!job[lane])
				continue;
			job[lane]->cell->stats.ratio_low = low[lane];
			job[lane]->cell->stats.ratio_high = high[lane];
		}
	}
}

static void *boot_worker(void *arg)
{
	struct bootstrap_pool *pool = arg;
	size_t lanes = pool->resamples * BOOTSTRAP_LANES;
	double *base_means = xreallocarray(NULL, 3 * lanes, sizeof(double));

	/* the means of one side of a block: base_means, then two new sides' */
	size_t i;

	while ((i = atomic_fetch_add(&pool->next, 1)) < pool->nr_blocks) {
		const struct boot_block *block = &pool->blocks[i];
		const struct boot_row *row = &pool->rows[block->rows[0]];

		if (block->plan) {
			boot_lanes(pool, block, base_means, base_means + lanes);
			continue;
		}
		for (size_t j = row->first; j < row->first + row->nr; j++)
			if (!bootstrap_plan_keeps_indices(pool->jobs[j].plan))
				boot_cell(pool, &pool->jobs[j]);
	}
	free(base_means);
	return NULL;
}

/* A block of @nr rows under @plan, or of one row's other jobs (@plan NULL). */
static void add_block(struct bootstrap_pool *pool, const struct bootstrap_plan *plan,
		      const size_t *rows, size_t nr)
{
	struct boot_block *b = &pool->blocks[pool->nr_blocks++];

	b->plan = plan;
	b->nr_rows = nr;
	for (size_t i = 0; i < nr; i++)
		b->rows[i] = rows[i];
}

/*
 * Per plan that keeps its indices, its rows in order BOOTSTRAP_LANES at a
 * time; then each row with a job that draws as it goes.
 */
static void plan_blocks(struct bootstrap_pool *pool)
{
	size_t most = pool->nr_rows * (pool->nr_plans + 1) + 1, rows[BOOTSTRAP_LANES], nr;

	pool->blocks = xcalloc(most, sizeof(*pool->blocks));
	for (size_t p = 0; p < pool->nr_plans; p++) {
		const struct bootstrap_plan *plan = pool->plans[p].plan;

		if (!bootstrap_plan_keeps_indices(plan))
			continue;
		nr = 0;
		for (size_t i = 0; i < pool->nr_rows; i++) {
			if (!row_job(pool, i, plan, 0))
				continue;
			rows[nr++] = i;
			if (nr == BOOTSTRAP_LANES) {
				add_block(pool, plan, rows, nr);
				nr = 0;
			}
		}
		if (nr)
			add_block(pool, plan, rows, nr);
	}
	for (size_t i = 0; i < pool->nr_rows; i++) {
		const struct boot_row *row = &pool->rows[i];

		for (size_t j = row->first; j < row->first + row->nr; j++) {
			if (!bootstrap_plan_keeps_indices(pool->jobs[j].plan)) {
				add_block(pool, NULL, &i, 1);
				break;
			}
		}
	}
}

/*
 * Only the cells whose ratio interval is the bootstrap's: a cell and its
 * baseline of two batches or more each have theirs from the batch means,
 * and from a baseline mean not above 0 or a side of too few samples there
 * is none (analyze.c).
 */
static bool needs_bootstrap(const struct compare_cell *base, const struct compare_cell *cell)
{
	if (compare_cells_too_few(base, cell) || !(base->summary.amean > 0))
		return false;
	return compare_cell_batches(base) < 2 || compare_cell_batches(cell) < 2;
}

struct bootstrap_pool *bootstrap_pool_start(struct comparison *cmp,
					    const struct compare_options *opts)
{
	int want = opts->threads < 1 ? 1 : opts->threads > BOOTSTRAP_MAX_THREADS ?
		   BOOTSTRAP_MAX_THREADS : opts->threads;
	struct bootstrap_pool *pool = xcalloc(1, sizeof(*pool));

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

			if (!needs_bootstrap(base, cell))
				continue;
			pool->jobs[pool->nr_jobs++] = (struct boot_job){
				base, cell,
				plan_for(pool, base->nr_samples, cell->nr_samples, opts),
			};
		}
		pool->rows[i].nr = pool->nr_jobs - pool->rows[i].first;
	}
	pool->nr_rows = cmp->nr_rows;
	plan_blocks(pool);
	atomic_init(&pool->next, 0);
	/* a thread that cannot start leaves its share to the others */
	for (int t = 1; t < want && (size_t)t < pool->nr_blocks; t++) {
		if (pthread_create(&pool->tid[pool->nr_threads], NULL, boot_worker, pool))
			break;
		pool->nr_threads++;
	}
	return pool;
}

void bootstrap_pool_finish(struct bootstrap_pool *pool)
{
	boot_worker(pool);
	for (int t = 0; t < pool->nr_threads; t++)
		pthread_join(pool->tid[t], NULL);
	for (size_t i = 0; i < pool->nr_plans; i++)
		bootstrap_plan_free(pool->plans[i].plan);
	free(pool->plans);
	free(pool->jobs);
	free(pool->rows);
	free(pool->blocks);
	free(pool);
}
