// SPDX-License-Identifier: GPL-2.0
/*
 * The bootstrap of a comparison on a pool of threads: the ratio interval of
 * every cell against its baseline is nearly all of compare's cost. Cells
 * with the same sample sizes share one resampling plan, and the rows are
 * shared out to the threads.
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
 * The bootstrap pool: workers and the calling thread take rows in turn from
 * one counter, so whoever is free takes the next; the calling thread joins
 * in only after the Rmath tests, which it alone may run. A row goes to one
 * thread whole, so that runs sharing a plan share the baseline's resample
 * means (a quarter of the work when three runs are compared).
 */
struct bootstrap_pool {
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

/*
 * One cell's interval. @base_means holds the baseline's resample means
 * under *@means_plan (NULL: none yet); computed here when this cell's plan
 * keeps indices and differs.
 */
static void boot_cell(const struct bootstrap_pool *pool, const struct boot_job *job,
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
	struct bootstrap_pool *pool = arg;
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
	free(pool);
}
