// SPDX-License-Identifier: GPL-2.0
/*
 * The PostgreSQL backend's queries, the same as the SQLite backend's
 * (sqlite.c) in PostgreSQL's dialect. Every function runs inside the
 * transaction that store.c opened; a write transaction first takes the
 * store's write lock, so writers take turns as on SQLite, and a read is
 * one REPEATABLE READ snapshot, so that it sees whole iterations.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/postgres_lib.h"
#include "store/postgres_jobs.h"
#include "store/postgres_open.h"
#include "store/postgres_schema.h"
#include "store/postgres_profile.h"
#include "store/postgres_stmt.h"
#include "util/xalloc.h"

/* Constant SQL, no parameters: transaction control. */
static int control(struct pg_store *ps, const char *sql, struct error *err, const char *what)
{
	return pg_exec(ps, sql, NULL, err, what);
}

static int pg_begin(struct store *st, bool write, struct error *err)
{
	struct pg_store *ps = pg_of(st);

	if (!write)
		return control(ps, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", err,
			       "start reading");
	if (ps->read_only)
		return error_set(err, EXIT_INTERNAL, "a write to store '%s' opened for reading",
				 st->location);
	if (control(ps, "BEGIN", err, "start a transaction"))
		return -1;
	if (control(ps, "SELECT " PG_WRITE_LOCK, err, "take the store's write lock")) {
		PQclear(PQexec(ps->conn, "ROLLBACK"));
		return -1;
	}
	return 0;
}

static void pg_rollback(struct store *st)
{
	struct pg_store *ps = pg_of(st);

	if (PQtransactionStatus(ps->conn) != PQTRANS_IDLE &&
	    PQstatus(ps->conn) == CONNECTION_OK)
		PQclear(PQexec(ps->conn, "ROLLBACK"));
}

static int pg_commit(struct store *st, struct error *err)
{
	if (control(pg_of(st), "COMMIT", err, "commit")) {
		pg_rollback(st);
		return -1;
	}
	return 0;
}

/* A query for one value: 1 with *res on its row, 0 when there is none, -1 on a fault. */
static int lookup(struct pg_store *ps, const char *sql, const struct pg_params *p,
		  PGresult **res, struct error *err, const char *what)
{
	*res = pg_query(ps, sql, p, err, what);
	if (!*res)
		return -1;
	if (PQntuples(*res))
		return 1;
	PQclear(*res);
	*res = NULL;
	return 0;
}

/* The id that an INSERT ... RETURNING id gave. */
static int insert_id(struct pg_store *ps, const char *sql, const struct pg_params *p,
		     int64_t *id, struct error *err, const char *what)
{
	PGresult *res = pg_query(ps, sql, p, err, what);

	if (!res)
		return -1;
	*id = pg_int(res, 0, 0);
	PQclear(res);
	return 0;
}

static int pg_run_find(struct store *st, const char *name, bool create, int64_t *id,
		       struct error *err)
{
	struct pg_store *ps = pg_of(st);
	struct pg_params p = { .nr = 0 };
	PGresult *res;
	int rc;

	pg_param_text(&p, name);
	rc = lookup(ps, "SELECT id FROM runs WHERE name = $1", &p, &res, err, "find the run");
	if (rc > 0) {
		*id = pg_int(res, 0, 0);
		PQclear(res);
		return 1;
	}
	if (rc < 0 || !create)
		return rc;
	if (insert_id(ps, "INSERT INTO runs (name) VALUES ($1) RETURNING id", &p, id, err,
		      "add a run"))
		return -1;
	return 1;
}

/* A process identity as three parameters (boot, pid, start), or two without the boot. */
static void param_process(struct pg_params *p, const struct process_id *id, bool with_boot)
{
	if (with_boot)
		pg_param_text(p, id->pid ? id->boot : NULL);
	if (!id->pid) {
		pg_param_text(p, NULL);
		pg_param_text(p, NULL);
		return;
	}
	pg_param_int(p, id->pid);
	pg_param_int(p, (int64_t)id->start);
}

static int insert_environment(struct pg_store *ps, const struct result_batch *batch,
			      struct error *err)
{
	for (size_t i = 0; i < batch->nr_env; i++) {
		struct pg_params p = { .nr = 0 };

		pg_param_int(&p, batch->id);
		pg_param_text(&p, batch->env[i].key);
		pg_param_text(&p, batch->env[i].value);
		if (pg_exec(ps, "INSERT INTO environment (batch_id, key, value) "
			    "VALUES ($1, $2, $3)", &p, err, "record the environment"))
			return -1;
	}
	return 0;
}

static int pg_batch_insert(struct store *st, int64_t run_id, struct result_batch *batch,
			   const struct batch_state *state, struct error *err)
{
	static const char sql[] =
		"INSERT INTO batches (run_id, started, complete, replacing, plan, writer_boot, "
		"writer_pid, writer_start, tasks_pgid, tasks_start) "
		"VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) "
		"ON CONFLICT (run_id, started) DO NOTHING RETURNING id";
	struct pg_store *ps = pg_of(st);
	struct pg_params p = { .nr = 0 };
	PGresult *res;
	int rc;

	pg_param_int(&p, run_id);
	pg_param_text(&p, batch->started);
	pg_param_bool(&p, batch->complete);
	pg_param_bool(&p, state->replacing);
	pg_param_text(&p, state->plan);
	param_process(&p, &state->writer.runner, true);
	param_process(&p, &state->writer.tasks, false);
	rc = lookup(ps, sql, &p, &res, err, "add a batch");
	if (rc < 0)
		return -1;
	if (!rc)
		return 1;
	batch->id = pg_int(res, 0, 0);
	PQclear(res);
	return insert_environment(ps, batch, err);
}

static void column_process(const PGresult *res, int row, int col, const char *boot,
			   struct process_id *id)
{
	memset(id, 0, sizeof(*id));
	if (PQgetisnull(res, row, col))
		return;
	snprintf(id->boot, sizeof(id->boot), "%s", boot);
	id->pid = pg_int(res, row, col);
	id->start = (uint64_t)pg_int(res, row, col + 1);
}

#define SELECT_BATCH_STATE							\
	"SELECT b.id, b.run_id, r.name, b.complete, b.replacing, b.plan, "	\
	"b.writer_boot, b.writer_pid, b.writer_start, b.tasks_pgid, b.tasks_start " \
	"FROM batches b JOIN runs r ON r.id = b.run_id "

static void column_batch_state(const PGresult *res, int row, struct batch_state *state)
{
	const char *boot = pg_text(res, row, 6);

	state->id = pg_int(res, row, 0);
	state->run_id = pg_int(res, row, 1);
	state->run_name = xstrdup(pg_text(res, row, 2));
	state->complete = pg_bool(res, row, 3);
	state->replacing = pg_bool(res, row, 4);
	state->plan = PQgetisnull(res, row, 5) ? NULL : xstrdup(pg_text(res, row, 5));
	column_process(res, row, 7, boot, &state->writer.runner);
	column_process(res, row, 9, boot, &state->writer.tasks);
}

static int pg_batch_get(struct store *st, int64_t batch_id, struct batch_state *state,
			struct error *err)
{
	struct pg_params p = { .nr = 0 };
	PGresult *res;
	int rc;

	pg_param_int(&p, batch_id);
	rc = lookup(pg_of(st), SELECT_BATCH_STATE "WHERE b.id = $1", &p, &res, err,
		    "find the batch");
	if (rc > 0) {
		column_batch_state(res, 0, state);
		PQclear(res);
	}
	return rc;
}

static int pg_batches_incomplete(struct store *st, int64_t run_id, struct batch_state **out,
				 size_t *nr, struct error *err)
{
	struct pg_params p = { .nr = 0 };
	PGresult *res;

	*out = NULL;
	*nr = 0;
	pg_param_int(&p, run_id);
	res = pg_query(pg_of(st), SELECT_BATCH_STATE "WHERE b.run_id = $1 AND NOT b.complete "
		       "ORDER BY b.started DESC, b.id DESC", &p, err,
		       "find the run's incomplete batches");
	if (!res)
		return -1;
	*nr = (size_t)PQntuples(res);
	*out = *nr ? xcalloc(*nr, sizeof(**out)) : NULL;
	for (size_t i = 0; i < *nr; i++)
		column_batch_state(res, (int)i, &(*out)[i]);
	PQclear(res);
	return 0;
}

static int pg_batch_set_writer(struct store *st, int64_t batch_id,
			       const struct batch_writer *writer, struct error *err)
{
	struct pg_params p = { .nr = 0 };

	param_process(&p, &writer->runner, true);
	param_process(&p, &writer->tasks, false);
	pg_param_int(&p, batch_id);
	return pg_exec(pg_of(st), "UPDATE batches SET writer_boot = $1, writer_pid = $2, "
		       "writer_start = $3, tasks_pgid = $4, tasks_start = $5 WHERE id = $6", &p,
		       err, "record the batch's writer");
}

static int pg_batch_finish(struct store *st, int64_t batch_id, bool complete,
			   struct error *err)
{
	struct pg_params p = { .nr = 0 };

	pg_param_bool(&p, complete);
	pg_param_int(&p, batch_id);
	return pg_exec(pg_of(st), "UPDATE batches SET complete = $1, finished = " PG_NOW
		       " WHERE id = $2", &p, err, "finish the batch");
}

static int pg_batches_delete_before(struct store *st, int64_t run_id, int64_t batch_id,
				    struct error *err)
{
	struct pg_params p = { .nr = 0 };

	pg_param_int(&p, run_id);
	pg_param_int(&p, batch_id);
	return pg_exec(pg_of(st), "DELETE FROM batches WHERE run_id = $1 AND id < $2", &p,
		       err, "discard earlier batches");
}

static int insert_metrics(struct pg_store *ps, const struct result_benchmark *bench,
			  int64_t bench_id, int64_t *metric_ids, struct error *err)
{
	static const char sql[] =
		"INSERT INTO metrics (benchmark_id, position, name, unit, better, source, "
		"repetitions) VALUES ($1, $2, $3, $4, $5, $6, $7) "
		"ON CONFLICT (benchmark_id, name) DO NOTHING RETURNING id";

	for (size_t i = 0; i < bench->nr_metrics; i++) {
		const struct result_metric *m = &bench->metrics[i];
		struct pg_params p = { .nr = 0 };
		PGresult *res;
		int rc;

		pg_param_int(&p, bench_id);
		pg_param_int(&p, (int64_t)i);
		pg_param_text(&p, m->name);
		pg_param_text(&p, m->unit);
		pg_param_text(&p, better_name(m->better));
		pg_param_text(&p, m->source ? m->source : "workload");
		pg_param_int(&p, (int64_t)result_metric_repetitions(m));
		rc = lookup(ps, sql, &p, &res, err, "add a metric");
		if (rc < 0)
			return -1;
		if (!rc)
			return error_set(err, EXIT_USAGE, "benchmark %s has metric '%s' twice "
					 "(give each metric once)", bench->workload, m->name);
		metric_ids[i] = pg_int(res, 0, 0);
		PQclear(res);
	}
	return 0;
}

static int pg_benchmark_insert(struct store *st, int64_t batch_id,
			       const struct result_benchmark *bench, int64_t *bench_id,
			       int64_t *metric_ids, struct error *err)
{
	struct pg_store *ps = pg_of(st);
	struct pg_params p = { .nr = 0 };

	pg_param_int(&p, batch_id);
	pg_param_text(&p, bench->workload);
	pg_param_text(&p, bench->params);
	if (insert_id(ps, "INSERT INTO benchmarks (batch_id, position, workload, params) "
		      "VALUES ($1, (SELECT count(*) FROM benchmarks WHERE batch_id = $1), "
		      "$2, $3) RETURNING id", &p, bench_id, err, "add a benchmark"))
		return -1;
	return insert_metrics(ps, bench, *bench_id, metric_ids, err);
}

/* NAN (not measured) as SQL NULL, never PostgreSQL's 'NaN'. */
static void param_real_or_null(struct pg_params *p, double v)
{
	if (isnan(v))
		pg_param_text(p, NULL);
	else
		pg_param_double(p, v);
}

static int insert_culprits(struct pg_store *ps, int64_t iteration_id,
			   const struct result_iteration *info, struct error *err)
{
	for (size_t i = 0; info && i < info->nr_culprits; i++) {
		const struct result_culprit *c = &info->culprits[i];
		struct pg_params p = { .nr = 0 };

		pg_param_int(&p, iteration_id);
		pg_param_int(&p, (int64_t)i);
		pg_param_int(&p, c->pid);
		pg_param_text(&p, c->name);
		pg_param_double(&p, c->cpu);
		if (pg_exec(ps, "INSERT INTO culprits (iteration_id, rank, pid, name, cpu) "
			    "VALUES ($1, $2, $3, $4, $5)", &p, err, "add a culprit"))
			return -1;
	}
	return 0;
}

static int insert_samples(struct pg_store *ps, int64_t iteration_id,
			  const struct store_sample *samples, size_t nr_samples,
			  struct error *err)
{
	for (size_t i = 0; i < nr_samples; i++) {
		struct pg_params p = { .nr = 0 };

		if (isnan(samples[i].value) || !samples[i].metric_id)
			continue;
		pg_param_int(&p, iteration_id);
		pg_param_int(&p, samples[i].metric_id);
		pg_param_int(&p, samples[i].rep);
		pg_param_double(&p, samples[i].value);
		if (pg_exec(ps, "INSERT INTO samples (iteration_id, metric_id, rep, value) "
			    "VALUES ($1, $2, $3, $4)", &p, err, "add a sample"))
			return -1;
	}
	return 0;
}

static int pg_iteration_insert(struct store *st, int64_t bench_id, int seq, bool warmup,
			       const char *failure, const struct result_iteration *info,
			       const struct store_sample *samples, size_t nr_samples,
			       struct error *err)
{
	struct pg_store *ps = pg_of(st);
	struct pg_params p = { .nr = 0 };
	int64_t iteration_id;

	pg_param_int(&p, bench_id);
	pg_param_int(&p, seq);
	pg_param_bool(&p, warmup);
	pg_param_text(&p, failure);
	param_real_or_null(&p, info ? info->cpu_taken : NAN);
	param_real_or_null(&p, info ? info->cpu_steal : NAN);
	param_real_or_null(&p, info ? info->cpu_available : NAN);
	pg_param_bool(&p, info && info->disturbed);
	pg_param_bool(&p, info && info->rerun);
	param_real_or_null(&p, info ? info->started : NAN);
	param_real_or_null(&p, info ? info->ended : NAN);
	if (insert_id(ps, "INSERT INTO iterations (benchmark_id, seq, warmup, failure, "
		      "cpu_taken, cpu_steal, cpu_available, disturbed, rerun, started, ended) "
		      "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id", &p,
		      &iteration_id, err, "add an iteration"))
		return -1;
	if (insert_culprits(ps, iteration_id, info, err))
		return -1;
	return insert_samples(ps, iteration_id, samples, nr_samples, err);
}

/* A lookup of one id by two parameters. */
static int find_id(struct pg_store *ps, const char *sql, struct pg_params *p, int64_t *id,
		   struct error *err, const char *what)
{
	PGresult *res;
	int rc = lookup(ps, sql, p, &res, err, what);

	if (rc > 0) {
		*id = pg_int(res, 0, 0);
		PQclear(res);
	}
	return rc;
}

static int pg_benchmark_find(struct store *st, int64_t batch_id, size_t position,
			     int64_t *bench_id, struct error *err)
{
	struct pg_params p = { .nr = 0 };

	pg_param_int(&p, batch_id);
	pg_param_int(&p, (int64_t)position);
	return find_id(pg_of(st), "SELECT id FROM benchmarks WHERE batch_id = $1 AND "
		       "position = $2", &p, bench_id, err, "find the benchmark to resume");
}

static int pg_metric_find(struct store *st, int64_t bench_id, const char *name,
			  int64_t *metric_id, struct error *err)
{
	struct pg_params p = { .nr = 0 };

	pg_param_int(&p, bench_id);
	pg_param_text(&p, name);
	return find_id(pg_of(st), "SELECT id FROM metrics WHERE benchmark_id = $1 AND "
		       "name = $2", &p, metric_id, err, "find a metric to resume");
}

static int pg_iterations_count(struct store *st, int64_t bench_id,
			       struct benchmark_progress *progress, struct error *err)
{
	struct pg_params p = { .nr = 0 };
	PGresult *res;
	int rc;

	pg_param_int(&p, bench_id);
	rc = lookup(pg_of(st), "SELECT coalesce(max(seq) + 1, 0), "
		    "count(*) FILTER (WHERE warmup AND failure IS NULL AND NOT rerun), "
		    "count(*) FILTER (WHERE NOT warmup AND failure IS NULL AND NOT rerun) "
		    "FROM iterations WHERE benchmark_id = $1", &p, &res, err, "count iterations");
	if (rc == 0)
		return error_set(err, EXIT_INTERNAL, "counting iterations returned no row");
	if (rc < 0)
		return -1;
	progress->next_seq = (int)pg_int(res, 0, 0);
	progress->warmup_done = (int)pg_int(res, 0, 1);
	progress->measured_done = (int)pg_int(res, 0, 2);
	PQclear(res);
	return 0;
}

static int pg_batches_load(struct store *st, const char *name, struct result_set *set,
			   struct error *err)
{
	struct pg_params p = { .nr = 0 };
	PGresult *res;

	pg_param_text(&p, name);
	res = pg_query(pg_of(st), "SELECT b.id, r.name, b.started, b.complete FROM batches b "
		       "JOIN runs r ON r.id = b.run_id WHERE ($1::text IS NULL OR r.name = $1) "
		       "AND (b.complete OR (NOT b.replacing AND b.job_id IS NULL)) "
		       "ORDER BY b.started, b.id", &p, err,
		       "read the results");
	if (!res)
		return -1;
	for (int i = 0; i < PQntuples(res); i++) {
		struct result_batch *batch = result_set_add_batch(set);

		batch->id = pg_int(res, i, 0);
		batch->name = xstrdup(pg_text(res, i, 1));
		batch->started = xstrdup(pg_text(res, i, 2));
		batch->complete = pg_bool(res, i, 3);
	}
	PQclear(res);
	return 0;
}

/* @sql's result with $1 the batch's id, or NULL with @err. */
static PGresult *batch_query(struct pg_store *ps, const char *sql,
			     const struct result_batch *batch, struct error *err)
{
	struct pg_params p = { .nr = 0 };

	pg_param_int(&p, batch->id);
	return pg_query(ps, sql, &p, err, "read the results");
}

static int load_env(struct pg_store *ps, struct result_batch *batch, struct error *err)
{
	PGresult *res = batch_query(ps, "SELECT key, value FROM environment WHERE batch_id = $1 "
				    "ORDER BY key", batch, err);

	if (!res)
		return -1;
	for (int i = 0; i < PQntuples(res); i++)
		result_batch_add_env(batch, pg_text(res, i, 0), pg_text(res, i, 1));
	PQclear(res);
	return 0;
}

/*
 * A batch's benchmarks, metrics and samples, each in one query for the
 * whole batch rather than one per benchmark (a round trip to a server
 * costs more than a row), ordered by the benchmarks' positions and merged
 * into them in one pass (store_benchmark_of()).
 */
static int load_metrics(struct pg_store *ps, struct result_batch *batch,
			const int64_t *bench_ids, struct error *err)
{
	PGresult *res;
	size_t b = 0;
	int rc = 0;

	res = batch_query(ps, "SELECT m.benchmark_id, m.name, m.unit, m.better, m.source, "
			  "m.repetitions FROM metrics m JOIN benchmarks k ON k.id = m.benchmark_id "
			  "WHERE k.batch_id = $1 ORDER BY k.position, m.position", batch, err);
	if (!res)
		return -1;
	for (int i = 0; i < PQntuples(res) && !rc; i++) {
		struct result_benchmark *bench = store_benchmark_of(batch, bench_ids, &b,
								    pg_int(res, i, 0));
		struct result_metric *m;

		if (!bench)
			break;
		m = result_benchmark_add_metric(bench);
		m->name = xstrdup(pg_text(res, i, 1));
		m->unit = xstrdup(pg_text(res, i, 2));
		m->source = xstrdup(pg_text(res, i, 4));
		m->repetitions = (size_t)pg_int(res, i, 5);
		rc = store_better_read(&ps->base, pg_text(res, i, 3), &m->better, err);
	}
	PQclear(res);
	return rc;
}

static double column_real_or_nan(const PGresult *res, int row, int col)
{
	return PQgetisnull(res, row, col) ? NAN : strtod(pg_text(res, row, col), NULL);
}

/*
 * The samples read so far, and the culprits of the batch's disturbed
 * iterations, asked for once the first of them comes (most batches have
 * none), in the order of the samples' iterations.
 */
struct sample_rows {
	int64_t iteration_id;		/* of the last sample read */
	struct result_benchmark pending;	/* its benchmark's iterations so far */
	struct result_benchmark *pending_for;
	PGresult *culprits;
	int culprit;			/* the next row of @culprits */
};

static void settle_iterations(struct sample_rows *r)
{
	if (r->pending_for)
		result_benchmark_take_iterations(r->pending_for, &r->pending);
	r->pending_for = NULL;
}

static int add_culprits(struct pg_store *ps, const struct result_batch *batch,
			struct sample_rows *r, struct result_iteration *it, struct error *err)
{
	PGresult *c = r->culprits;

	if (!c) {
		c = r->culprits = batch_query(ps, "SELECT c.iteration_id, c.pid, c.name, c.cpu "
					      "FROM benchmarks k JOIN iterations i ON "
					      "i.benchmark_id = k.id JOIN culprits c ON "
					      "c.iteration_id = i.id WHERE k.batch_id = $1 AND "
					      "i.disturbed AND i.failure IS NULL AND EXISTS "
					      "(SELECT 1 FROM samples s WHERE s.iteration_id = i.id) "
					      "ORDER BY k.position, i.seq, c.rank", batch, err);
		if (!c)
			return -1;
	}
	for (; r->culprit < PQntuples(c) && pg_int(c, r->culprit, 0) == r->iteration_id;
	     r->culprit++)
		result_iteration_add_culprit(it, pg_text(c, r->culprit, 2),
					     pg_int(c, r->culprit, 1),
					     strtod(pg_text(c, r->culprit, 3), NULL));
	return 0;
}

/*
 * A successful iteration's record: what other tasks took from it, kept
 * only when some was measured, so that a store from before it was measured
 * loads as it did (as sqlite.c does).
 */
static int add_iteration(struct pg_store *ps, const struct result_batch *batch,
			 struct sample_rows *r, struct result_benchmark *bench,
			 const PGresult *res, int row, struct error *err)
{
	struct result_iteration *it;

	if (bench != r->pending_for)
		settle_iterations(r);
	r->pending_for = bench;
	it = result_benchmark_add_iteration(&r->pending);
	it->warmup = pg_bool(res, row, 4);
	it->disturbed = pg_bool(res, row, 5);
	it->rerun = pg_bool(res, row, 7);
	it->cpu_taken = column_real_or_nan(res, row, 8);
	it->cpu_steal = column_real_or_nan(res, row, 9);
	it->cpu_available = column_real_or_nan(res, row, 10);
	it->started = column_real_or_nan(res, row, 11);
	it->ended = column_real_or_nan(res, row, 12);
	return it->disturbed ? add_culprits(ps, batch, r, it, err) : 0;
}

/* The samples, and the successful iterations that hold them. */
static int load_samples(struct pg_store *ps, struct result_batch *batch,
			const int64_t *bench_ids, struct error *err)
{
	struct sample_rows r = { .iteration_id = 0 };
	PGresult *res;
	size_t b = 0;
	int rc = 0;

	res = batch_query(ps, "SELECT i.benchmark_id, i.id, m.position, s.value, i.warmup, "
			  "i.disturbed, i.failure IS NULL, i.rerun, i.cpu_taken, i.cpu_steal, "
			  "i.cpu_available, i.started, i.ended FROM benchmarks k "
			  "JOIN iterations i ON i.benchmark_id = k.id "
			  "JOIN samples s ON s.iteration_id = i.id "
			  "JOIN metrics m ON m.id = s.metric_id WHERE k.batch_id = $1 "
			  "ORDER BY k.position, i.seq, m.position, s.rep", batch, err);
	if (!res)
		return -1;
	for (int i = 0; i < PQntuples(res) && !rc; i++) {
		struct result_benchmark *bench = store_benchmark_of(batch, bench_ids, &b,
								    pg_int(res, i, 0));
		int64_t pos = pg_int(res, i, 2);
		struct result_metric *m;

		if (!bench)
			break;
		if (pg_int(res, i, 1) != r.iteration_id) {
			r.iteration_id = pg_int(res, i, 1);
			if (pg_bool(res, i, 6) &&
			    add_iteration(ps, batch, &r, bench, res, i, err)) {
				rc = -1;
				break;
			}
		}
		if (pos < 0 || (size_t)pos >= bench->nr_metrics)
			continue;
		m = &bench->metrics[pos];
		result_metric_add_sample(m, strtod(pg_text(res, i, 3), NULL), pg_bool(res, i, 4));
		if (!pg_bool(res, i, 4) && pg_bool(res, i, 5))
			result_metric_mark_disturbed(m);
	}
	settle_iterations(&r);
	result_benchmark_drop_iterations(&r.pending);
	PQclear(r.culprits);
	PQclear(res);
	return rc;
}

static int pg_batch_load(struct store *st, struct result_batch *batch, bool with_samples,
			 struct error *err)
{
	struct pg_store *ps = pg_of(st);
	int64_t *bench_ids;
	PGresult *res;
	int rc;

	if (load_env(ps, batch, err))
		return -1;
	res = batch_query(ps, "SELECT k.id, k.workload, k.params, (SELECT count(*) FROM "
			  "iterations i WHERE i.benchmark_id = k.id AND i.failure IS NOT NULL) "
			  "FROM benchmarks k WHERE k.batch_id = $1 ORDER BY k.position", batch, err);
	if (!res)
		return -1;
	bench_ids = xcalloc((size_t)PQntuples(res) + 1, sizeof(*bench_ids));
	for (int i = 0; i < PQntuples(res); i++) {
		struct result_benchmark *bench = result_batch_add_benchmark(batch);

		bench_ids[i] = pg_int(res, i, 0);
		bench->workload = xstrdup(pg_text(res, i, 1));
		bench->params = xstrdup(pg_text(res, i, 2));
		bench->nr_failed = (size_t)pg_int(res, i, 3);
	}
	PQclear(res);
	rc = load_metrics(ps, batch, bench_ids, err) ||
	     (with_samples && (load_samples(ps, batch, bench_ids, err) ||
			       pg_profiles_load(ps, batch, bench_ids, err))) ? -1 : 0;
	free(bench_ids);
	return rc;
}

static int pg_journal_insert(struct store *st, const char *machine,
			     const struct knob_original *k, struct error *err)
{
	struct pg_params p = { .nr = 0 };
	PGresult *res;
	int rc;

	pg_param_text(&p, k->kind);
	pg_param_text(&p, k->name);
	pg_param_text(&p, k->value);
	param_process(&p, &k->writer, true);
	pg_param_text(&p, k->started);
	pg_param_text(&p, machine);
	rc = lookup(pg_of(st), "INSERT INTO knob_journal (kind, name, original, writer_boot, "
		    "writer_pid, writer_start, started, machine) VALUES ($1, $2, $3, $4, $5, $6, "
		    "$7, $8) ON CONFLICT (machine, kind, name) DO NOTHING RETURNING id", &p, &res,
		    err,
		    "journal a setting's original value");
	if (rc > 0)
		PQclear(res);
	if (!rc)
		return error_set(err, EXIT_ENV, "%s %s is journalled already by another ab "
				 "(run 'schedperf ab --restore')", k->kind, k->name);
	return rc < 0 ? -1 : 0;
}

static int pg_journal_list(struct store *st, const char *machine,
			   struct knob_original **out, size_t *nr, struct error *err)
{
	struct pg_params p = { .nr = 0 };
	PGresult *res;

	if (machine)
		pg_param_text(&p, machine);
	res = pg_query(pg_of(st), machine ? "SELECT kind, name, original, writer_boot, "
		       "writer_pid, writer_start, started, machine FROM knob_journal WHERE "
		       "machine IN ($1, '') ORDER BY id" : "SELECT kind, name, original, "
		       "writer_boot, writer_pid, writer_start, started, machine FROM knob_journal "
		       "ORDER BY id", &p, err, "read the knob journal");
	if (!res)
		return -1;
	for (int i = 0; i < PQntuples(res); i++) {
		struct knob_original *k;

		*out = xreallocarray(*out, *nr + 1, sizeof(**out));
		k = &(*out)[(*nr)++];
		k->kind = xstrdup(pg_text(res, i, 0));
		k->name = xstrdup(pg_text(res, i, 1));
		k->value = xstrdup(pg_text(res, i, 2));
		column_process(res, i, 4, pg_text(res, i, 3), &k->writer);
		k->started = xstrdup(pg_text(res, i, 6));
		k->machine = xstrdup(pg_text(res, i, 7));
	}
	PQclear(res);
	return 0;
}

static int pg_journal_delete(struct store *st, const char *machine, const char *kind,
			     const char *name, struct error *err)
{
	struct pg_params p = { .nr = 0 };

	pg_param_text(&p, machine);
	if (!kind)
		return pg_exec(pg_of(st), "DELETE FROM knob_journal WHERE machine IN ($1, '')",
			       &p, err, "forget the restored settings");
	pg_param_text(&p, kind);
	pg_param_text(&p, name);
	return pg_exec(pg_of(st), "DELETE FROM knob_journal WHERE machine IN ($1, '') AND "
		       "kind = $2 AND name = $3", &p, err, "forget a restored setting");
}

static const char *const postgres_schemes[] = { "postgresql://", "postgres://", NULL };

static int pg_bisection_insert(struct store *st, const struct stored_bisection *b,
			       int64_t *id, struct error *err)
{
	struct pg_params p = { .nr = 0 };

	pg_param_text(&p, b->repo);
	pg_param_text(&p, b->machine);
	pg_param_text(&p, b->state);
	pg_param_text(&p, b->started);
	pg_param_text(&p, b->doc);
	return insert_id(pg_of(st), "INSERT INTO bisections (repo, machine, state, started, doc) "
			 "VALUES ($1, $2, $3, $4, $5) RETURNING id", &p, id, err,
			 "store a bisection");
}

static int pg_bisection_update(struct store *st, int64_t id, const char *state,
			       const char *doc, struct error *err)
{
	struct pg_params p = { .nr = 0 };

	pg_param_text(&p, state);
	pg_param_text(&p, doc);
	pg_param_int(&p, id);
	return pg_exec(pg_of(st), "UPDATE bisections SET state = $1, doc = coalesce($2, doc) "
		       "WHERE id = $3", &p, err, "store a bisection's step");
}

static int pg_bisection_select(struct store *st, const struct bisection_filter *f,
			       struct stored_bisection **out, size_t *nr, struct error *err)
{
	struct pg_params p = { .nr = 0 };
	PGresult *res;

	pg_param_int(&p, f->id);
	pg_param_text(&p, f->repo);
	pg_param_text(&p, f->machine);
	pg_param_int(&p, f->limit);
	res = pg_query(pg_of(st), "SELECT id, repo, machine, state, started, doc FROM bisections "
		       "WHERE ($1 = 0 OR id = $1) AND ($2::text IS NULL OR (repo = $2 AND "
		       "machine = $3 AND state IN ('running', 'interrupted'))) ORDER BY id DESC "
		       "LIMIT $4", &p, err, "read the bisections");
	if (!res)
		return -1;
	for (int i = 0; i < PQntuples(res); i++) {
		struct stored_bisection *b;

		*out = xreallocarray(*out, *nr + 1, sizeof(**out));
		b = &(*out)[(*nr)++];
		b->id = pg_int(res, i, 0);
		b->repo = xstrdup(pg_text(res, i, 1));
		b->machine = xstrdup(pg_text(res, i, 2));
		b->state = xstrdup(pg_text(res, i, 3));
		b->started = xstrdup(pg_text(res, i, 4));
		b->doc = xstrdup(pg_text(res, i, 5));
	}
	PQclear(res);
	return 0;
}

const struct store_backend store_postgres = {
	.name = "PostgreSQL",
	.schemes = postgres_schemes,
	.open = pg_open,
	.close = pg_close,
	.inspect = pg_inspect,
	.damage = pg_schema_damage,
	.begin = pg_begin,
	.commit = pg_commit,
	.rollback = pg_rollback,
	.run_find = pg_run_find,
	.batch_insert = pg_batch_insert,
	.batch_get = pg_batch_get,
	.batches_incomplete = pg_batches_incomplete,
	.batch_set_writer = pg_batch_set_writer,
	.batch_finish = pg_batch_finish,
	.batches_delete_before = pg_batches_delete_before,
	.benchmark_insert = pg_benchmark_insert,
	.iteration_insert = pg_iteration_insert,
	.profile_insert = pg_profile_insert,
	.benchmark_find = pg_benchmark_find,
	.metric_find = pg_metric_find,
	.iterations_count = pg_iterations_count,
	.batches_load = pg_batches_load,
	.batch_load = pg_batch_load,
	.job_submit = pg_job_submit,
	.job_claim = pg_job_claim,
	.job_renew = pg_job_renew,
	.job_fail = pg_job_fail,
	.forget_in_child = pg_library_forget,
	.jobs_list = pg_jobs_list,
	.job_get = pg_job_get,
	.job_cancel = pg_job_cancel,
	.batch_attach_job = pg_batch_attach_job,
	.job_complete = pg_job_complete,
	.journal_insert = pg_journal_insert,
	.journal_list = pg_journal_list,
	.journal_delete = pg_journal_delete,
	.bisection_insert = pg_bisection_insert,
	.bisection_update = pg_bisection_update,
	.bisection_select = pg_bisection_select,
};
