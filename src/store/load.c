// SPDX-License-Identifier: GPL-2.0
/*
 * A load being read (queries.h, struct load): its parts' queries, of the
 * whole store or of each batch, and the lookups that take each row to its
 * batch and benchmark by id. runs.c reads the batches; benchmarks.c,
 * iterations.c and profiles.c read their parts with these.
 */
#include <stdlib.h>

#include "store/queries.h"

/* A load has few batches, and their rows come batch by batch: the last found is tried first. */
struct result_batch *load_batch(struct load *l, int64_t id)
{
	struct result_set *set = l->set;

	if (l->batch_at < set->nr_batches && set->batches[l->batch_at].id == id)
		return &set->batches[l->batch_at];
	for (size_t i = l->first; i < set->nr_batches; i++)
		if (set->batches[i].id == id) {
			l->batch_at = i;
			return &set->batches[i];
		}
	return NULL;
}

/* The benchmark at @k of by_id, if it has @id. */
static struct load_bench *bench_at(struct load *l, size_t k, int64_t id)
{
	struct load_bench *b;

	if (k >= l->nr_benches)
		return NULL;
	b = &l->benches[l->by_id[k]];
	if (b->id != id)
		return NULL;
	l->at = k;
	return b;
}

/*
 * Rows come grouped by benchmark, mostly in the order of their ids: the
 * last one found and the next are tried before a search.
 */
struct load_bench *load_bench(struct load *l, int64_t id)
{
	struct load_bench *b = bench_at(l, l->at, id);
	size_t lo = 0, hi = l->nr_benches;

	if (b || (b = bench_at(l, l->at + 1, id)))
		return b;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (l->benches[l->by_id[mid]].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return bench_at(l, lo, id);
}

struct result_metric *load_metric(struct load *l, struct load_bench *b, int64_t id)
{
	struct result_benchmark *bench = load_benchmark(l, b);

	for (size_t i = 0; i < bench->nr_metrics; i++)
		if (l->metric_ids[b->first_metric + i] == id)
			return &bench->metrics[i];
	return NULL;
}

int load_query(struct load *l, const char *sql, const struct sql_arg *args, size_t nr,
	       int (*row)(struct load *l, struct store_stmt *s, struct error *err),
	       struct error *err)
{
	struct store_stmt *s = sql_query(l->st, sql, args, nr, err);
	int rc;

	if (!s)
		return -1;
	while ((rc = sql_step(s, err, "read the results")) > 0)
		if (row(l, s, err)) {
			rc = -1;
			break;
		}
	sql_done(s);
	return rc;
}

int load_rows(struct load *l, const char *of_store, const char *of_batch,
	      int (*row)(struct load *l, struct store_stmt *s, struct error *err),
	      struct error *err)
{
	if (l->whole)
		return load_query(l, of_store, SQL_NO_ARGS, row, err);
	for (size_t i = l->first; i < l->set->nr_batches; i++) {
		l->batch_id = l->set->batches[i].id;
		if (load_query(l, of_batch, SQL_ARGS(SQL_INT(l->batch_id)), row, err))
			return -1;
	}
	return 0;
}
