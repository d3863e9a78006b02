/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STORE_H
#define SCHEDPERF_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/results.h"
#include "util/error.h"

/*
 * The results store: one interface, with SQLite (the embedded default, a
 * file) behind it; PostgreSQL will sit behind the same calls. Every write
 * is its own transaction, so whatever stops schedperf — Ctrl-C, kill -9, a
 * full disk — the store holds whole iterations only.
 */

#define STORE_SCHEMA_VERSION 1

struct store;

/* Open (creating if needed) the store at @location: a file path. */
int store_open(const char *location, struct store **out, struct error *err);
void store_close(struct store *st);

/*
 * Start a batch of run @batch->name with @batch->started and environment.
 * With @replace, the earlier batches of that name are discarded first, in
 * the same transaction. Sets batch->id.
 */
int store_batch_begin(struct store *st, struct result_batch *batch, bool replace,
		      struct error *err);
/* Mark a batch finished; @complete says whether every planned iteration ran. */
int store_batch_finish(struct store *st, int64_t batch_id, bool complete,
		       struct error *err);

/*
 * Add a benchmark to a batch with its metric definitions (names, units,
 * direction, source; samples are ignored). Fills @metric_ids[nr_metrics].
 */
int store_benchmark_add(struct store *st, int64_t batch_id,
			const struct result_benchmark *bench, int64_t *bench_id,
			int64_t *metric_ids, struct error *err);

/*
 * Commit one iteration: @values[i] for @metric_ids[i] (NAN = absent, not
 * stored). A failed iteration has @failure set and usually no values.
 */
int store_iteration_add(struct store *st, int64_t bench_id, int seq, bool warmup,
			const char *failure, const int64_t *metric_ids,
			const double *values, size_t nr_values, struct error *err);

/*
 * Load every batch of run @name (all runs when @name is NULL) with its
 * benchmarks, metrics and samples (only metadata and counts when
 * !@with_samples), appended to @set in start order. A name with no batch
 * is an error (EXIT_USAGE) naming the run.
 */
int store_load(struct store *st, const char *name, bool with_samples,
	       struct result_set *set, struct error *err);

/* Import whole batches (all or nothing, one transaction). */
int store_import(struct store *st, const struct result_set *set, struct error *err);

#endif
