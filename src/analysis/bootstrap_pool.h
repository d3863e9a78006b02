/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_ANALYSIS_BOOTSTRAP_POOL_H
#define SCHEDPERF_ANALYSIS_BOOTSTRAP_POOL_H

#include "analysis/comparison.h"

/* Threads at most: past this many the serial part of compare dominates. */
#define BOOTSTRAP_MAX_THREADS 8

struct bootstrap_pool;

/*
 * Plan the bootstrap of every cell of @cmp against its baseline and start
 * opts->threads - 1 workers on it; the caller joins in at
 * bootstrap_pool_finish(). The workers write only each cell's ratio_low
 * and ratio_high, so the caller may fill the other fields meanwhile.
 */
struct bootstrap_pool *bootstrap_pool_start(struct comparison *cmp,
					    const struct compare_options *opts);
/* Take rows until none is left, wait for the workers and free the pool. */
void bootstrap_pool_finish(struct bootstrap_pool *pool);

#endif
