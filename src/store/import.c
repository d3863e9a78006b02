// SPDX-License-Identifier: GPL-2.0
/*
 * Importing whole batches (schedperf-results/1 read by import, or results
 * another store exported): all or nothing, in one transaction; a batch
 * the run has already (the same start time) refuses the whole import.
 */
#include <stdlib.h>

#include "store/queries.h"
#include "util/xalloc.h"

/* How many iterations an imported benchmark's samples fill, and how many values each. */
static void import_shape(const struct result_benchmark *bench, size_t *nr_warmup,
			 size_t *nr_measured, size_t *width)
{
	result_benchmark_filled(bench, nr_warmup, nr_measured);
	*width = 0;
	for (size_t i = 0; i < bench->nr_metrics; i++)
		*width += result_metric_repetitions(&bench->metrics[i]);
}

/* The values of iteration @k of @bench (warm-up or measured) into @samples; returns how many. */
static size_t import_values(const struct result_benchmark *bench, const int64_t *metric_ids,
			    bool warmup, size_t k, struct store_sample *samples)
{
	size_t n = 0;

	for (size_t i = 0; i < bench->nr_metrics; i++) {
		const struct result_metric *m = &bench->metrics[i];
		size_t reps = result_metric_repetitions(m);

		for (size_t r = 0; r < reps; r++, n++) {
			samples[n].metric_id = metric_ids[i];
			samples[n].rep = (int)r;
			samples[n].value = result_metric_value(m, warmup, k, r);
		}
	}
	return n;
}

/*
 * Iteration k holds the k-th group of each metric's values, one per
 * repetition; warm-ups come first, failures last. Each has its record of
 * interference when the file has them all.
 */
static int import_iterations(struct iteration_rows *w, const struct result_benchmark *bench,
			     int64_t bench_id, const int64_t *metric_ids, struct error *err)
{
	size_t nr_warmup, nr_measured, width;
	int seq = 0, rc = 0;
	bool records;

	import_shape(bench, &nr_warmup, &nr_measured, &width);
	records = bench->nr_iterations == nr_warmup + nr_measured;
	for (int pass = 0; pass < 2; pass++) {
		bool warmup = !pass;

		for (size_t k = 0; k < (warmup ? nr_warmup : nr_measured) && !rc; k++) {
			struct store_sample *samples = iteration_rows_room(w, width);
			size_t n = import_values(bench, metric_ids, warmup, k, samples);

			rc = iteration_rows_add(w, bench_id, seq, warmup, NULL,
						records ? &bench->iterations[seq] : NULL, n, err);
			seq++;
		}
	}
	for (size_t k = 0; k < bench->nr_failed && !rc; k++)
		rc = iteration_rows_add(w, bench_id, seq++, false, bench->failures[k], NULL, 0,
					err);
	return rc;
}

/*
 * @bench's samples packed (packs.c), each metric's in parts, and its
 * failed iterations as rows after them: its iterations have no records.
 */
static int import_packed(struct pack_rows *packs, struct iteration_rows *w,
			 const struct result_benchmark *bench, int64_t bench_id,
			 const int64_t *metric_ids, struct error *err)
{
	size_t nr_warmup, nr_measured, width;
	int rc = 0;

	import_shape(bench, &nr_warmup, &nr_measured, &width);
	for (size_t i = 0; i < bench->nr_metrics && !rc; i++)
		rc = pack_rows_add(packs, metric_ids[i], &bench->metrics[i], nr_warmup,
				   nr_measured, err);
	for (size_t k = 0; k < bench->nr_failed && !rc; k++)
		rc = iteration_rows_add(w, bench_id, (int)(nr_warmup + nr_measured + k), false,
					bench->failures[k], NULL, 0, err);
	return rc;
}

/* Whether some iteration of @batch has a record of interference. */
static bool import_records(const struct result_batch *batch)
{
	for (size_t j = 0; j < batch->nr_benchmarks; j++)
		if (batch->benchmarks[j].nr_iterations)
			return true;
	return false;
}

/*
 * The batch's benchmarks, then their iterations (or, when none has a
 * record, their samples packed), then their profiles, each many a
 * statement.
 */
static int import_benchmarks(struct store *st, const struct result_batch *batch,
			     bool (*stopped)(void), struct error *err)
{
	int64_t *bench_ids = xcalloc(batch->nr_benchmarks + 1, sizeof(int64_t)), *metric_ids;
	bool records = import_records(batch);
	size_t nr_metrics = 0;
	struct iteration_rows w;
	struct pack_rows packs;
	int rc;

	for (size_t j = 0; j < batch->nr_benchmarks; j++)
		nr_metrics += batch->benchmarks[j].nr_metrics;
	metric_ids = xcalloc(nr_metrics + 1, sizeof(int64_t));
	rc = benchmarks_insert(st, batch->id, 0, batch->benchmarks, batch->nr_benchmarks,
			       bench_ids, metric_ids, err);
	iteration_rows_init(&w, st);
	pack_rows_init(&packs, st);
	for (size_t j = 0, m = 0; j < batch->nr_benchmarks && !rc; j++) {
		if (stopped && stopped())
			rc = error_set(err, EXIT_INTERNAL, "the import was stopped");
		else if (records)
			rc = import_iterations(&w, &batch->benchmarks[j], bench_ids[j],
					       metric_ids + m, err);
		else
			rc = import_packed(&packs, &w, &batch->benchmarks[j], bench_ids[j],
					   metric_ids + m, err);
		m += batch->benchmarks[j].nr_metrics;
	}
	rc = pack_rows_finish(&packs, rc, err);
	rc = iteration_rows_finish(&w, rc, err);
	for (size_t j = 0; j < batch->nr_benchmarks && !rc; j++)
		for (size_t k = 0; k < batch->benchmarks[j].nr_profiles && !rc; k++)
			rc = profile_insert(st, bench_ids[j], &batch->benchmarks[j].profiles[k],
					    err);
	free(bench_ids);
	free(metric_ids);
	return rc;
}

/* The runs this import added: the ones its batches of a bisection may grow. */
struct import_runs {
	int64_t *ids;
	size_t nr;
};

static bool import_added(const struct import_runs *added, int64_t run_id)
{
	for (size_t i = 0; i < added->nr; i++)
		if (added->ids[i] == run_id)
			return true;
	return false;
}

/*
 * A bisection's batches join their run together: its export's may, into
 * the run the import adds for them, but none joins a run the store held
 * before (batch_may_join()).
 */
static int import_batch(struct store *st, const struct result_batch *from,
			struct import_runs *added, bool (*stopped)(void), struct error *err)
{
	struct result_batch batch = *from;
	struct batch_state state = { 0 };
	int64_t run_id;
	int rc;

	rc = run_find(st, batch.name, true, &run_id, err);
	if (rc < 0)
		return -1;
	if (rc == 2) {
		added->ids = xreallocarray(added->ids, added->nr + 1, sizeof(*added->ids));
		added->ids[added->nr++] = run_id;
	}
	rc = batch_insert(st, run_id, &batch, &state, err);
	if (rc > 0)
		return error_set(err, EXIT_USAGE, "run '%s' already has a batch started at %s "
				 "(it was imported before; nothing was changed)", batch.name,
				 batch.started);
	if (rc || batch_may_join(st, run_id, &batch, import_added(added, run_id), err))
		return -1;
	return import_benchmarks(st, &batch, stopped, err);
}

/*
 * The import only adds rows, and each refers to the run it found, or to
 * a row it added, with the id the insert gave: TXN_ADD.
 */
int store_import(struct store *st, const struct result_set *set, bool (*stopped)(void),
		 struct error *err)
{
	struct import_runs added = { 0 };
	int rc = 0;

	if (sql_begin(st, TXN_ADD, err))
		return -1;
	for (size_t i = 0; i < set->nr_batches && !rc; i++)
		rc = import_batch(st, &set->batches[i], &added, stopped, err);
	free(added.ids);
	return sql_end_write(st, rc, err);
}
