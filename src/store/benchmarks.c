// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmarks and their metrics: a benchmark is one workload with every
 * parameter fixed, at a position in its batch's plan; a metric is what it
 * measures (name, unit, direction, source, repetitions per iteration).
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/queries.h"
#include "util/xalloc.h"

static struct sql_insert insert_benchmarks = {
	.table = "benchmarks",
	.names = "batch_id, position, workload, params",
	.columns = 4,
	.tail = "RETURNING id, batch_id, position",
	.key = 2,
	.every_row = true,
};

static struct sql_insert insert_metrics = {
	.table = "metrics",
	.names = "benchmark_id, position, name, unit, better, source, repetitions",
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
							  SQL_TEXT(m->source ? m->source :
								   "workload"),
							  SQL_INT(result_metric_repetitions(m))),
					  err);
		}
	rc = sql_rows_finish(&rows, rc, err);
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
	rc = sql_rows_finish(&rows, rc, err);
	return rc ? -1 : insert_metric_rows(st, benches, nr, bench_ids, metric_ids, err);
}

/*
 * A benchmark the runner adds goes after the batch's last: the positions
 * are 0, 1, ... in the order added, found from the largest in one step of
 * the index (counting them made a batch of n benchmarks cost n^2).
 */
int store_benchmark_add(struct store *st, int64_t batch_id,
			const struct result_benchmark *bench, int64_t *bench_id,
			int64_t *metric_ids, struct error *err)
{
	int64_t position;
	int rc;

	if (sql_begin(st, TXN_WRITE, err))
		return -1;
	rc = sql_id(st, "SELECT coalesce(max(position) + 1, 0) FROM benchmarks "
		    "WHERE batch_id = $1", SQL_ARGS(SQL_INT(batch_id)), &position, err,
		    "add a benchmark") < 0 ? -1 :
	     benchmarks_insert(st, batch_id, (size_t)position, bench, 1, bench_id, metric_ids,
			       err);
	return sql_end_write(st, rc, err);
}

#define PROGRESS(field) SQL_FIELD(INT, struct benchmark_progress, field)
static const struct sql_field progress_fields[] = {
	PROGRESS(next_seq), PROGRESS(warmup_done), PROGRESS(measured_done),
};
static const struct sql_shape progress_shape =
	SQL_SHAPE(struct benchmark_progress, progress_fields);

static int find_progress(struct store *st, int64_t batch_id, size_t position,
			 const struct result_benchmark *bench, int64_t *bench_id,
			 int64_t *metric_ids, struct benchmark_progress *progress,
			 struct error *err)
{
	int rc = sql_id(st, "SELECT id FROM benchmarks WHERE batch_id = $1 AND position = $2",
			SQL_ARGS(SQL_INT(batch_id), SQL_INT(position)), bench_id, err,
			"find the benchmark to resume");

	if (rc <= 0)
		return rc < 0 ? -1 : 1;
	for (size_t i = 0; i < bench->nr_metrics; i++) {
		/* A metric this machine did not have then stays unrecorded: 0 = skip. */
		rc = sql_id(st, "SELECT id FROM metrics WHERE benchmark_id = $1 AND name = $2",
			    SQL_ARGS(SQL_INT(*bench_id), SQL_TEXT(bench->metrics[i].name)),
			    &metric_ids[i], err, "find a metric to resume");
		if (rc < 0)
			return -1;
		if (!rc)
			metric_ids[i] = 0;
	}
	rc = sql_one(st, "SELECT coalesce(max(seq) + 1, 0), "
		     "count(*) FILTER (WHERE warmup AND failure IS NULL AND NOT rerun), "
		     "count(*) FILTER (WHERE NOT warmup AND failure IS NULL AND NOT rerun) "
		     "FROM iterations WHERE benchmark_id = $1", SQL_ARGS(SQL_INT(*bench_id)),
		     &progress_shape, progress, err, "count iterations");
	if (rc == 0)
		return error_set(err, EXIT_INTERNAL, "counting iterations returned no row");
	return rc < 0 ? -1 : 0;
}

int store_benchmark_progress(struct store *st, int64_t batch_id, size_t position,
			     const struct result_benchmark *bench, int64_t *bench_id,
			     int64_t *metric_ids, struct benchmark_progress *progress,
			     struct error *err)
{
	memset(progress, 0, sizeof(*progress));
	return IN_READ_TXN(st, err, find_progress(st, batch_id, position, bench, bench_id,
						  metric_ids, progress, err));
}

/* Whether @text is what every writer stores as params: a JSON object of strings. */
static bool params_intact(const char *text)
{
	json_t *params = json_loads(text, 0, NULL), *v;
	bool intact = json_is_object(params);
	const char *k;

	json_object_foreach(params, k, v)
		intact = intact && json_is_string(v);
	json_decref(params);
	return intact;
}

static int benchmark_row(struct load *l, struct store_stmt *s, struct error *err)
{
	struct result_batch *batch = load_batch(l, sql_int(s, 0));
	struct result_benchmark *bench;
	struct load_bench *b;

	if (!batch)
		return 0;
	/* what db check calls damage is never read as a benchmark of no parameters */
	if (!params_intact(sql_text(s, 3)))
		return error_set(err, EXIT_ENV, "cannot read store '%s': the parameters of a %.64s "
				 "benchmark of run '%.64s' are not a JSON object of strings: the "
				 "store was changed by other means than schedperf, or is damaged "
				 "(restore it from a copy)", l->st->location, sql_text(s, 2),
				 batch->name);
	bench = result_batch_add_benchmark(batch);
	bench->workload = sql_strdup(s, 2);
	bench->params = sql_strdup(s, 3);
	if (l->nr_benches == l->alloc_benches) {
		l->alloc_benches = l->alloc_benches ? 2 * l->alloc_benches : 64;
		l->benches = xreallocarray(l->benches, l->alloc_benches, sizeof(*l->benches));
	}
	b = &l->benches[l->nr_benches++];
	*b = (struct load_bench){ .id = sql_int(s, 1), .batch = (size_t)(batch - l->set->batches),
				  .index = batch->nr_benchmarks - 1, .last_seq = -1 };
	return 0;
}

static int failed_row(struct load *l, struct store_stmt *s, struct error *err)
{
	struct load_bench *b = load_bench(l, sql_int(s, 0));

	if (b)
		result_benchmark_add_failure(load_benchmark(l, b), sql_text(s, 1));
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

/* Metric @at of @bench goes before those of higher positions read before it. */
static void metric_to_position(struct load *l, struct load_bench *b,
			       struct result_benchmark *bench, size_t at)
{
	int64_t *ids = l->metric_ids + b->first_metric;
	int *positions = l->metric_positions + b->first_metric;

#define SWAP(x, y) do { __typeof__(x) t_ = (x); (x) = (y); (y) = t_; } while (0)
	for (; at && positions[at - 1] > positions[at]; at--) {
		SWAP(bench->metrics[at], bench->metrics[at - 1]);
		SWAP(ids[at], ids[at - 1]);
		SWAP(positions[at], positions[at - 1]);
	}
#undef SWAP
}

/*
 * A benchmark's metrics come together, in any order: each is put at its
 * position among them, its id beside it in metric_ids.
 */
static int metric_row(struct load *l, struct store_stmt *s, struct error *err)
{
	struct load_bench *b = load_bench(l, sql_int(s, 0));
	struct result_benchmark *bench;
	struct result_metric *m;
	size_t at;

	if (!b)
		return 0;
	bench = load_benchmark(l, b);
	if (!bench->nr_metrics)
		b->first_metric = l->nr_metric_ids;
	else if (b->first_metric + bench->nr_metrics != l->nr_metric_ids)
		return error_set(err, EXIT_INTERNAL, "the metrics of a benchmark of store '%s' "
				 "came apart", l->st->location);
	if (l->nr_metric_ids == l->alloc_metric_ids) {
		l->alloc_metric_ids = l->alloc_metric_ids ? 2 * l->alloc_metric_ids : 64;
		l->metric_ids = xreallocarray(l->metric_ids, l->alloc_metric_ids,
					      sizeof(*l->metric_ids));
		l->metric_positions = xreallocarray(l->metric_positions, l->alloc_metric_ids,
						    sizeof(*l->metric_positions));
	}
	l->metric_positions[l->nr_metric_ids] = (int)sql_int(s, 1);
	l->metric_ids[l->nr_metric_ids++] = sql_int(s, 7);
	at = bench->nr_metrics;
	m = result_benchmark_add_metric(bench);
	m->name = sql_strdup(s, 2);
	m->unit = sql_strdup(s, 3);
	m->source = sql_strdup(s, 5);
	m->repetitions = (size_t)sql_int(s, 6);
	if (better_read(l->st, sql_text(s, 4), &m->better, err))
		return -1;
	metric_to_position(l, b, bench, at);
	return 0;
}

#define BENCHMARKS "SELECT batch_id, id, workload, params FROM benchmarks "
#define METRICS "SELECT m.benchmark_id, m.position, m.name, m.unit, m.better, m.source, " \
	"m.repetitions, m.id FROM "

int benchmarks_read(struct load *l, struct error *err)
{
	if (load_rows(l, BENCHMARKS "ORDER BY batch_id, position, id",
		      BENCHMARKS "WHERE batch_id = $1 ORDER BY position, id", benchmark_row, err))
		return -1;
	id_index_build(&l->benches_by_id, l->benches, l->nr_benches, sizeof(*l->benches));
	/* Each failed iteration's reason, which show and export give. */
	if (load_rows(l, "SELECT benchmark_id, failure FROM iterations "
		      "WHERE failure IS NOT NULL ORDER BY benchmark_id, seq",
		      "SELECT i.benchmark_id, i.failure FROM benchmarks k JOIN iterations i "
		      "ON i.benchmark_id = k.id WHERE k.batch_id = $1 AND i.failure IS NOT NULL "
		      "ORDER BY i.benchmark_id, i.seq", failed_row, err) ||
	    load_rows(l, METRICS "metrics m ORDER BY m.benchmark_id",
		      METRICS "benchmarks k JOIN metrics m ON m.benchmark_id = k.id "
		      "WHERE k.batch_id = $1 ORDER BY k.position, k.id", metric_row, err))
		return -1;
	id_index_build(&l->metrics_by_id, l->metric_ids, l->nr_metric_ids,
		       sizeof(*l->metric_ids));
	return 0;
}

static void params_row(struct store_stmt *s, struct sql_arg *args, char *buf, size_t len)
{
	args[0] = SQL_INT(sql_int(s, 0));
	if (!params_intact(sql_text(s, 1)))
		snprintf(buf, len, "the parameters of a %.64s benchmark of run '%.64s' are not a "
			 "JSON object of strings (restore the store from a backup)",
			 sql_text(s, 3), sql_text(s, 2));
}

const struct sql_check benchmarks_damage = {
	"SELECT k.id, k.params, r.name, k.workload FROM benchmarks k JOIN batches b ON "
	"b.id = k.batch_id JOIN runs r ON r.id = b.run_id WHERE k.id > $1 ORDER BY k.id "
	"LIMIT $2", 1, 1000, params_row, 0,
};
