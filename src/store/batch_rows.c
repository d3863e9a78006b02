// SPDX-License-Identifier: GPL-2.0
/*
 * A batch being read (queries.h, struct batch_rows): each of its parts in
 * one query, merged into its benchmarks in one pass. runs.c reads the
 * batch; benchmarks.c, iterations.c and profiles.c read their parts with
 * these.
 */
#include "store/queries.h"

struct result_benchmark *batch_rows_benchmark(struct batch_rows *r, struct store_stmt *s,
					      int col)
{
	int64_t id = sql_int(s, col);
	struct result_batch *batch = r->batch;

	while (r->at < batch->nr_benchmarks && r->ids[r->at] != id)
		r->at++;
	return r->at < batch->nr_benchmarks ? &batch->benchmarks[r->at] : NULL;
}

int batch_rows_each(struct batch_rows *r, const char *sql,
		    int (*row)(struct batch_rows *r, struct store_stmt *s, struct error *err),
		    struct error *err)
{
	struct store_stmt *s = sql_query(r->st, sql, SQL_ARGS(SQL_INT(r->batch->id)), err);
	int rc;

	if (!s)
		return -1;
	r->at = 0;
	while ((rc = sql_step(s, err, "read the results")) > 0)
		if (row(r, s, err)) {
			rc = -1;
			break;
		}
	sql_done(s);
	return rc;
}
