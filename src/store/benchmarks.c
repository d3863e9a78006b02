// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmarks and their metrics: a benchmark is one workload with every
 * parameter fixed, at a position in its batch's plan; a metric is what it
 * measures (name, unit, direction, source, repetitions per iteration).
 */
#include "store/queries.h"
#include "util/xalloc.h"

static struct sql_insert insert_benchmarks = {
	.head = "INSERT INTO benchmarks (batch_id, position, workload, params)",
	.columns = 4,
	.tail = "RETURNING id, batch_id, position",
	.key = 2,
};

static struct sql_insert insert_metrics = {
	.head = "INSERT INTO metrics (benchmark_id, position, name, unit, better, source, "
		"repetitions)",
	.columns = 7,
	.tail = "ON CONFLICT (benchmark_id, name) DO NOTHING "
		"RETURNING id, benchmark_id, position",
	.key = 2,
};

/* Benchmarks, then their metrics, being inserted: where each row's id goes. */
struct benchmark_ids {
	int64_t *ids[SQL_ROWS];		/* of the chunk's rows */
};

static int returned_id(void *ctx, size_t row, int64_t id, struct error *err)
{
	struct benchmark_ids *b = ctx;

	*b->ids[row] = id;
	return 0;
}

/*
 * The metrics of @benches: a metric that conflicts with one of the same
 * name returns no id, and is refused (the interchange's reader refuses it
 * first, the runner never makes one).
 */
static int insert_metric_rows(struct store *st, const struct result_benchmark *benches,
			      size_t nr, const int64_t *bench_ids, int64_t *metric_ids,
			      struct error *err)
{
	struct benchmark_ids pending;
	struct sql_rows rows;
	int64_t *id = metric_ids;
	int rc = 0;

	sql_rows_init(&rows, st, &insert_metrics, returned_id, &pending, "add a metric");
	for (size_t b = 0; b < nr && !rc; b++)
		for (size_t i = 0; i < benches[b].nr_metrics && !rc; i++, id++) {
			const struct result_metric *m = &benches[b].metrics[i];

			*id = 0;
			pending.ids[rows.nr] = id;
			rc = sql_rows_add(&rows, SQL_ARGS(SQL_INT(bench_ids[b]), SQL_INT(i),
							  SQL_TEXT(m->name), SQL_TEXT(m->unit),
							  SQL_TEXT(better_name(m->better)),
							  SQL_TEXT(m->source ? m->source : "workload"),
							  SQL_INT(result_metric_repetitions(m))), err);
		}
	rc = rc || sql_rows_flush(&rows, err) ? -1 : 0;
	sql_rows_release(&rows);
	for (size_t b = 0, k = 0; b < nr && !rc; b++)
		for (size_t i = 0; i < benches[b].nr_metrics; i++, k++)
			if (!metric_ids[k])
				return error_set(err, EXIT_USAGE, "benchmark %s has metric '%s' "
						 "twice (give each metric once)",
						 benches[b].workload, benches[b].metrics[i].name);
	return rc;
}

int benchmarks_insert(struct store *st, int64_t batch_id, size_t position,
		      const struct result_benchmark *benches, size_t nr, int64_t *bench_ids,
		      int64_t *metric_ids, struct error *err)
{
	struct benchmark_ids pending;
	struct sql_rows rows;
	int rc = 0;

	sql_rows_init(&rows, st, &insert_benchmarks, returned_id, &pending, "add a benchmark");
	for (size_t b = 0; b < nr && !rc; b++) {
		pending.ids[rows.nr] = &bench_ids[b];
		rc = sql_rows_add(&rows, SQL_ARGS(SQL_INT(batch_id), SQL_INT(position + b),
						  SQL_TEXT(benches[b].workload),
						  SQL_TEXT(benches[b].params)), err);
	}
	rc = rc || sql_rows_flush(&rows, err) ? -1 : 0;
	sql_rows_release(&rows);
	if (rc)
		return -1;
	return insert_metric_rows(st, benches, nr, bench_ids, metric_ids, err);
}

/*
 * A benchmark the runner adds goes after the batch's last: the positions
 * are 0, 1, ... in the order added, found from the largest in one step of
 * the index (counting them made a batch of n benchmarks cost n^2).
 */
int benchmark_insert(struct store *st, int64_t batch_id, const struct result_benchmark *bench,
		     int64_t *bench_id, int64_t *metric_ids, struct error *err)
{
	int64_t position;

	if (sql_id(st, "SELECT coalesce(max(position) + 1, 0) FROM benchmarks "
		   "WHERE batch_id = $1", SQL_ARGS(SQL_INT(batch_id)), &position, err,
		   "add a benchmark") < 0)
		return -1;
	return benchmarks_insert(st, batch_id, (size_t)position, bench, 1, bench_id,
				 metric_ids, err);
}

int benchmark_find(struct store *st, int64_t batch_id, size_t position, int64_t *bench_id,
		   struct error *err)
{
	return sql_id(st, "SELECT id FROM benchmarks WHERE batch_id = $1 AND position = $2",
		      SQL_ARGS(SQL_INT(batch_id), SQL_INT(position)), bench_id, err,
		      "find the benchmark to resume");
}

int metric_find(struct store *st, int64_t bench_id, const char *name, int64_t *metric_id,
		struct error *err)
{
	return sql_id(st, "SELECT id FROM metrics WHERE benchmark_id = $1 AND name = $2",
		      SQL_ARGS(SQL_INT(bench_id), SQL_TEXT(name)), metric_id, err,
		      "find a metric to resume");
}

static int benchmark_row(struct batch_rows *r, struct store_stmt *s, struct error *err)
{
	struct result_benchmark *bench = result_batch_add_benchmark(r->batch);
	size_t nr = r->batch->nr_benchmarks;

	if (nr > r->alloc_ids) {
		r->alloc_ids = 2 * nr;
		r->ids = xreallocarray(r->ids, r->alloc_ids, sizeof(*r->ids));
		r->first_metric = xreallocarray(r->first_metric, r->alloc_ids,
						sizeof(*r->first_metric));
	}
	r->ids[nr - 1] = sql_int(s, 0);
	r->first_metric[nr - 1] = 0;
	bench->workload = sql_strdup(s, 1);
	bench->params = sql_strdup(s, 2);
	bench->nr_failed = (size_t)sql_int(s, 3);
	return 0;
}

/* A direction read back, checked: a bad one means damage. */
static int better_read(struct store *st, const char *text, enum better *out,
		       struct error *err)
{
	if (!better_parse(text, out))
		return 0;
	return error_set(err, EXIT_ENV, "cannot read store '%s': a metric's direction is "
			 "'%.32s', neither 'lower' nor 'higher': the store is damaged (check it "
			 "with 'sqlite3 FILE \"PRAGMA integrity_check\"')", st->location, text);
}

static int metric_row(struct batch_rows *r, struct store_stmt *s, struct error *err)
{
	struct result_benchmark *bench = batch_rows_benchmark(r, s, 0);
	struct result_metric *m;

	if (!bench)
		return 0;
	if (r->nr_metric_ids == r->alloc_metric_ids) {
		r->alloc_metric_ids = r->alloc_metric_ids ? 2 * r->alloc_metric_ids : 64;
		r->metric_ids = xreallocarray(r->metric_ids, r->alloc_metric_ids,
					      sizeof(*r->metric_ids));
	}
	if (!bench->nr_metrics)
		r->first_metric[r->at] = r->nr_metric_ids;
	r->metric_ids[r->nr_metric_ids++] = sql_int(s, 6);
	m = result_benchmark_add_metric(bench);
	m->name = sql_strdup(s, 1);
	m->unit = sql_strdup(s, 2);
	m->source = sql_strdup(s, 4);
	m->repetitions = (size_t)sql_int(s, 5);
	return better_read(r->st, sql_text(s, 3), &m->better, err);
}

int benchmarks_read(struct batch_rows *r, struct error *err)
{
	return batch_rows_each(r, "SELECT k.id, k.workload, k.params, (SELECT count(*) FROM "
			       "iterations i WHERE i.benchmark_id = k.id AND i.failure IS NOT "
			       "NULL) FROM benchmarks k WHERE k.batch_id = $1 ORDER BY k.position",
			       benchmark_row, err) ||
	       batch_rows_each(r, "SELECT m.benchmark_id, m.name, m.unit, m.better, m.source, "
			       "m.repetitions, m.id FROM benchmarks k JOIN metrics m ON "
			       "m.benchmark_id = k.id WHERE k.batch_id = $1 "
			       "ORDER BY k.position, m.position", metric_row, err) ? -1 : 0;
}
