// SPDX-License-Identifier: GPL-2.0
/*
 * A load being read (queries.h, struct load): its parts' queries, of the
 * whole store or of each batch, and the lookups that take each row to its
 * batch and benchmark by id. runs.c reads the batches; benchmarks.c,
 * iterations.c and profiles.c read their parts with these.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "store/queries.h"
#include "util/xalloc.h"

static int id_at_cmp(const void *a, const void *b)
{
	int64_t x = ((const struct id_at *)a)->id, y = ((const struct id_at *)b)->id;

	return (x > y) - (x < y);
}

/* Mostly in order already: the rows were read in the order of their ids. */
void id_index_build(struct id_index *ix, const void *rows, size_t nr, size_t stride)
{
	*ix = (struct id_index){ xcalloc(nr + 1, sizeof(*ix->ids)), nr, 0 };
	for (size_t i = 0; i < nr; i++) {
		memcpy(&ix->ids[i].id, (const char *)rows + i * stride, sizeof(int64_t));
		ix->ids[i].at = i;
	}
	for (size_t i = 1; i < nr; i++)
		if (ix->ids[i].id < ix->ids[i - 1].id) {
			qsort(ix->ids, nr, sizeof(*ix->ids), id_at_cmp);
			return;
		}
}

size_t id_index_find(struct id_index *ix, int64_t id)
{
	size_t lo = 0, hi = ix->nr;

	for (size_t k = ix->last; k < ix->last + 2 && k < ix->nr; k++)
		if (ix->ids[k].id == id)
			return ix->ids[ix->last = k].at;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ix->ids[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < ix->nr && ix->ids[lo].id == id)
		return ix->ids[ix->last = lo].at;
	return SIZE_MAX;
}

/* A whole store's batches are in start order, which need not be their ids'. */
struct result_batch *load_batch(struct load *l, int64_t id)
{
	struct result_set *set = l->set;
	size_t at;

	if (!l->batches_by_id.ids)
		id_index_build(&l->batches_by_id, set->batches + l->first,
			       set->nr_batches - l->first, sizeof(*set->batches));
	at = id_index_find(&l->batches_by_id, id);
	return at == SIZE_MAX ? NULL : &set->batches[l->first + at];
}

struct load_bench *load_bench(struct load *l, int64_t id)
{
	size_t at = id_index_find(&l->benches_by_id, id);

	return at == SIZE_MAX ? NULL : &l->benches[at];
}

/*
 * By the index, not by a walk of the benchmark's metrics: a sample row
 * each, a walk cost a run of a hundred metrics some fifty comparisons a
 * sample. An id is a metric's primary key, so the one it finds is the
 * walk's, when it is @b's.
 */
struct result_metric *load_metric(struct load *l, struct load_bench *b, int64_t id)
{
	struct result_benchmark *bench = load_benchmark(l, b);
	size_t at = id_index_find(&l->metrics_by_id, id);

	if (at == SIZE_MAX || at < b->first_metric || at - b->first_metric >= bench->nr_metrics)
		return NULL;
	return &bench->metrics[at - b->first_metric];
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
	for (size_t i = l->first; i < l->set->nr_batches; i++)
		if (load_query(l, of_batch, SQL_ARGS(SQL_INT(l->set->batches[i].id)), row, err))
			return -1;
	return 0;
}
