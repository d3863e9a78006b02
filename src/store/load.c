// SPDX-License-Identifier: GPL-2.0
/*
 * A load being read (queries.h, struct load): its parts' queries, of the
 * whole store or of each batch, and the lookups that take each row to its
 * batch and benchmark by id. runs.c reads the batches; benchmarks.c,
 * iterations.c and profiles.c read their parts with these.
 */
#include <stdlib.h>

#include "store/queries.h"
#include "util/xalloc.h"

static int batch_id_cmp(const void *a, const void *b, void *batches)
{
	int64_t x = ((const struct result_batch *)batches)[*(const size_t *)a].id;
	int64_t y = ((const struct result_batch *)batches)[*(const size_t *)b].id;

	return (x > y) - (x < y);
}

/*
 * Rows come batch by batch, in the order of the batches' ids: the last
 * batch found and the one after it are tried first, then the batches
 * sorted by id once (a whole store's batches are in start order, which
 * need not be theirs).
 */
struct result_batch *load_batch(struct load *l, int64_t id)
{
	struct result_batch *batches = l->set->batches;
	size_t nr = l->set->nr_batches - l->first, lo = 0, hi = nr;

	for (size_t i = l->batch_at; i < l->batch_at + 2 && i < l->set->nr_batches; i++)
		if (i >= l->first && batches[i].id == id)
			return &batches[l->batch_at = i];
	if (!l->batch_by_id) {
		l->batch_by_id = xreallocarray(NULL, nr ? nr : 1, sizeof(*l->batch_by_id));
		for (size_t i = 0; i < nr; i++)
			l->batch_by_id[i] = l->first + i;
		qsort_r(l->batch_by_id, nr, sizeof(*l->batch_by_id), batch_id_cmp, batches);
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int64_t at = batches[l->batch_by_id[mid]].id;

		if (at == id)
			return &batches[l->batch_at = l->batch_by_id[mid]];
		if (at < id)
			lo = mid + 1;
		else
			hi = mid;
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
