// SPDX-License-Identifier: GPL-2.0
/*
 * The SQLite backend's queries: one file, WAL journal (sqlite_open.c), the
 * schema of sqlite_schema.c. Every function runs inside the transaction
 * that store.c opened, and every sqlite3_step() goes through
 * sqlite_step(), which tells "no row" from a fault.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/sqlite_open.h"
#include "store/sqlite_schema.h"
#include "store/sqlite_stmt.h"
#include "util/xalloc.h"

/* One statement run once: prepare, step to its end, finalize. */
static int run_once(struct sqlite_store *ss, sqlite3_stmt *stmt, struct error *err,
		    const char *what)
{
	int rc;

	if (!stmt)
		return -1;
	rc = sqlite_step_done(ss, stmt, err, what);
	sqlite3_finalize(stmt);
	return rc;
}

/*
 * A query for one value: 1 with the statement on its row (the caller reads
 * it, then finalizes), 0 when there is no row (finalized), -1 on a fault.
 */
static int lookup(struct sqlite_store *ss, sqlite3_stmt *stmt, struct error *err,
		  const char *what)
{
	int rc;

	if (!stmt)
		return -1;
	rc = sqlite_step(ss, stmt, err, what);
	if (rc <= 0)
		sqlite3_finalize(stmt);
	return rc;
}

static int sqlite_begin(struct store *st, bool write, struct error *err)
{
	/*
	 * IMMEDIATE takes the write lock now, so a busy store waits here, not
	 * mid-way; a read is one transaction so that it sees whole iterations.
	 */
	return sqlite_exec(sqlite_of(st), write ? "BEGIN IMMEDIATE" : "BEGIN", err,
			   write ? "start a transaction" : "start reading");
}

static void sqlite_rollback(struct store *st)
{
	struct sqlite_store *ss = sqlite_of(st);

	if (!sqlite3_get_autocommit(ss->db))
		sqlite3_exec(ss->db, "ROLLBACK", NULL, NULL, NULL);
}

static int sqlite_commit(struct store *st, struct error *err)
{
	if (sqlite_exec(sqlite_of(st), "COMMIT", err, "commit")) {
		sqlite_rollback(st);
		return -1;
	}
	return 0;
}

static int sqlite_run_find(struct store *st, const char *name, bool create, int64_t *id,
			   struct error *err)
{
	struct sqlite_store *ss = sqlite_of(st);
	sqlite3_stmt *stmt = sqlite_prepare(ss, "SELECT id FROM runs WHERE name = ?", err);
	int rc;

	if (stmt)
		sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
	rc = lookup(ss, stmt, err, "find the run");
	if (rc > 0) {
		*id = sqlite3_column_int64(stmt, 0);
		sqlite3_finalize(stmt);
		return 1;
	}
	if (rc < 0 || !create)
		return rc;
	stmt = sqlite_prepare(ss, "INSERT INTO runs (name) VALUES (?)", err);
	if (stmt)
		sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
	if (run_once(ss, stmt, err, "add a run"))
		return -1;
	*id = sqlite3_last_insert_rowid(ss->db);
	return 1;
}

/* Bind a process identity to columns @col (boot), @col + 1 (pid), @col + 2 (start). */
static void bind_process(sqlite3_stmt *stmt, int col, const struct process_id *p,
			 bool with_boot)
{
	if (!p->pid)
		return;		/* NULLs: no process */
	if (with_boot)
		sqlite3_bind_text(stmt, col, p->boot, -1, SQLITE_STATIC);
	sqlite3_bind_int64(stmt, col + 1, p->pid);
	sqlite3_bind_int64(stmt, col + 2, (int64_t)p->start);
}

static int insert_environment(struct sqlite_store *ss, const struct result_batch *batch,
			      struct error *err)
{
	sqlite3_stmt *stmt;
	int rc = 0;

	stmt = sqlite_prepare(ss, "INSERT INTO environment (batch_id, key, value) "
			      "VALUES (?, ?, ?)", err);
	if (!stmt)
		return -1;
	for (size_t i = 0; i < batch->nr_env && !rc; i++) {
		sqlite3_bind_int64(stmt, 1, batch->id);
		sqlite3_bind_text(stmt, 2, batch->env[i].key, -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 3, batch->env[i].value, -1, SQLITE_STATIC);
		rc = sqlite_step_done(ss, stmt, err, "record the environment");
	}
	sqlite3_finalize(stmt);
	return rc;
}

static int sqlite_batch_insert(struct store *st, int64_t run_id, struct result_batch *batch,
			       const struct batch_state *state, struct error *err)
{
	struct sqlite_store *ss = sqlite_of(st);
	sqlite3_stmt *stmt;

	stmt = sqlite_prepare(ss, "INSERT INTO batches (run_id, started, complete, replacing, "
			      "plan, writer_boot, writer_pid, writer_start, tasks_pgid, "
			      "tasks_start) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", err);
	if (!stmt)
		return -1;
	sqlite3_bind_int64(stmt, 1, run_id);
	sqlite3_bind_text(stmt, 2, batch->started, -1, SQLITE_STATIC);
	sqlite3_bind_int(stmt, 3, batch->complete);
	sqlite3_bind_int(stmt, 4, state->replacing);
	if (state->plan)
		sqlite3_bind_text(stmt, 5, state->plan, -1, SQLITE_STATIC);
	bind_process(stmt, 6, &state->writer.runner, true);
	bind_process(stmt, 8, &state->writer.tasks, false);
	if (sqlite_step(ss, stmt, err, "add a batch") < 0) {
		bool taken = sqlite3_errcode(ss->db) == SQLITE_CONSTRAINT;

		sqlite3_finalize(stmt);
		return taken ? 1 : -1;
	}
	sqlite3_finalize(stmt);
	batch->id = sqlite3_last_insert_rowid(ss->db);
	return insert_environment(ss, batch, err);
}

static void column_process(sqlite3_stmt *stmt, int col, const char *boot,
			   struct process_id *p)
{
	memset(p, 0, sizeof(*p));
	if (sqlite3_column_type(stmt, col) == SQLITE_NULL)
		return;
	snprintf(p->boot, sizeof(p->boot), "%s", boot);
	p->pid = sqlite3_column_int64(stmt, col);
	p->start = (uint64_t)sqlite3_column_int64(stmt, col + 1);
}

static const char *column_text(sqlite3_stmt *stmt, int col)
{
	const unsigned char *s = sqlite3_column_text(stmt, col);

	return s ? (const char *)s : "";
}

static char *column_strdup(sqlite3_stmt *stmt, int col)
{
	return xstrdup(column_text(stmt, col));
}

#define SELECT_BATCH_STATE							\
	"SELECT b.id, b.run_id, r.name, b.complete, b.replacing, b.plan, "	\
	"b.writer_boot, b.writer_pid, b.writer_start, b.tasks_pgid, b.tasks_start " \
	"FROM batches b JOIN runs r ON r.id = b.run_id "

static void column_batch_state(sqlite3_stmt *stmt, struct batch_state *state)
{
	const char *boot = column_text(stmt, 6);

	state->id = sqlite3_column_int64(stmt, 0);
	state->run_id = sqlite3_column_int64(stmt, 1);
	state->run_name = column_strdup(stmt, 2);
	state->complete = sqlite3_column_int(stmt, 3);
	state->replacing = sqlite3_column_int(stmt, 4);
	state->plan = sqlite3_column_type(stmt, 5) == SQLITE_NULL ? NULL :
		      column_strdup(stmt, 5);
	column_process(stmt, 7, boot, &state->writer.runner);
	column_process(stmt, 9, boot, &state->writer.tasks);
	/*
	 * A writer recorded by schema version 2 has a pid but no start time:
	 * it cannot be told from a process that got its pid later, and is
	 * taken for gone.
	 */
	if (sqlite3_column_type(stmt, 8) == SQLITE_NULL)
		memset(&state->writer.runner, 0, sizeof(state->writer.runner));
}

static int sqlite_batch_get(struct store *st, int64_t batch_id, struct batch_state *state,
			    struct error *err)
{
	struct sqlite_store *ss = sqlite_of(st);
	sqlite3_stmt *stmt = sqlite_prepare(ss, SELECT_BATCH_STATE "WHERE b.id = ?", err);
	int rc;

	if (stmt)
		sqlite3_bind_int64(stmt, 1, batch_id);
	rc = lookup(ss, stmt, err, "find the batch");
	if (rc > 0) {
		column_batch_state(stmt, state);
		sqlite3_finalize(stmt);
	}
	return rc;
}

static int sqlite_batches_incomplete(struct store *st, int64_t run_id,
				     struct batch_state **out, size_t *nr, struct error *err)
{
	struct sqlite_store *ss = sqlite_of(st);
	sqlite3_stmt *stmt = sqlite_prepare(ss, SELECT_BATCH_STATE "WHERE b.run_id = ? AND "
					    "b.complete = 0 ORDER BY b.started DESC, b.id DESC", err);
	int rc;

	*out = NULL;
	*nr = 0;
	if (!stmt)
		return -1;
	sqlite3_bind_int64(stmt, 1, run_id);
	while ((rc = sqlite_step(ss, stmt, err, "find the run's incomplete batches")) > 0) {
		*out = xreallocarray(*out, *nr + 1, sizeof(**out));
		column_batch_state(stmt, &(*out)[(*nr)++]);
	}
	sqlite3_finalize(stmt);
	return rc;
}

static int sqlite_batch_set_writer(struct store *st, int64_t batch_id,
				   const struct batch_writer *writer, struct error *err)
{
	struct sqlite_store *ss = sqlite_of(st);
	sqlite3_stmt *stmt;

	stmt = sqlite_prepare(ss, "UPDATE batches SET writer_boot = ?, writer_pid = ?, "
			      "writer_start = ?, tasks_pgid = ?, tasks_start = ? WHERE id = ?",
			      err);
	if (!stmt)
		return -1;
	bind_process(stmt, 1, &writer->runner, true);
	bind_process(stmt, 3, &writer->tasks, false);
	sqlite3_bind_int64(stmt, 6, batch_id);
	return run_once(ss, stmt, err, "record the batch's writer");
}

static int sqlite_batch_finish(struct store *st, int64_t batch_id, bool complete,
			       struct error *err)
{
	struct sqlite_store *ss = sqlite_of(st);
	sqlite3_stmt *stmt;

	stmt = sqlite_prepare(ss, "UPDATE batches SET complete = ?, "
			      "finished = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?", err);
	if (stmt) {
		sqlite3_bind_int(stmt, 1, complete);
		sqlite3_bind_int64(stmt, 2, batch_id);
	}
	return run_once(ss, stmt, err, "finish the batch");
}

static int sqlite_batches_delete_before(struct store *st, int64_t run_id, int64_t batch_id,
					struct error *err)
{
	struct sqlite_store *ss = sqlite_of(st);
	sqlite3_stmt *stmt;

	stmt = sqlite_prepare(ss, "DELETE FROM batches WHERE run_id = ? AND id < ?", err);
	if (stmt) {
		sqlite3_bind_int64(stmt, 1, run_id);
		sqlite3_bind_int64(stmt, 2, batch_id);
	}
	return run_once(ss, stmt, err, "discard earlier batches");
}

static int insert_metrics(struct sqlite_store *ss, const struct result_benchmark *bench,
			  int64_t bench_id, int64_t *metric_ids, struct error *err)
{
	sqlite3_stmt *stmt;
	int rc = 0;

	stmt = sqlite_prepare(ss, "INSERT INTO metrics (benchmark_id, position, name, unit, "
			      "better, source, repetitions) VALUES (?, ?, ?, ?, ?, ?, ?)", err);
	if (!stmt)
		return -1;
	for (size_t i = 0; i < bench->nr_metrics && !rc; i++) {
		const struct result_metric *m = &bench->metrics[i];

		sqlite3_bind_int64(stmt, 1, bench_id);
		sqlite3_bind_int64(stmt, 2, (int64_t)i);
		sqlite3_bind_text(stmt, 3, m->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 4, m->unit, -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 5, better_name(m->better), -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 6, m->source ? m->source : "workload", -1,
				  SQLITE_STATIC);
		sqlite3_bind_int64(stmt, 7, (int64_t)result_metric_repetitions(m));
		rc = sqlite_step_done(ss, stmt, err, "add a metric");
		if (rc && sqlite3_errcode(ss->db) == SQLITE_CONSTRAINT)
			error_set(err, EXIT_USAGE, "benchmark %s has metric '%s' twice "
				  "(give each metric once)", bench->workload, m->name);
		metric_ids[i] = sqlite3_last_insert_rowid(ss->db);
	}
	sqlite3_finalize(stmt);
	return rc;
}

static int sqlite_benchmark_insert(struct store *st, int64_t batch_id,
				   const struct result_benchmark *bench, int64_t *bench_id,
				   int64_t *metric_ids, struct error *err)
{
	struct sqlite_store *ss = sqlite_of(st);
	sqlite3_stmt *stmt;

	stmt = sqlite_prepare(ss, "INSERT INTO benchmarks (batch_id, position, workload, params) "
			      "VALUES (?, (SELECT count(*) FROM benchmarks WHERE batch_id = ?1), "
			      "?, ?)", err);
	if (stmt) {
		sqlite3_bind_int64(stmt, 1, batch_id);
		sqlite3_bind_text(stmt, 2, bench->workload, -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 3, bench->params, -1, SQLITE_STATIC);
	}
	if (run_once(ss, stmt, err, "add a benchmark"))
		return -1;
	*bench_id = sqlite3_last_insert_rowid(ss->db);
	return insert_metrics(ss, bench, *bench_id, metric_ids, err);
}

static void bind_real_or_null(sqlite3_stmt *stmt, int col, double v)
{
	if (!isnan(v))
		sqlite3_bind_double(stmt, col, v);
}

static int insert_culprits(struct sqlite_store *ss, int64_t iteration_id,
			   const struct result_iteration *info, struct error *err)
{
	sqlite3_stmt *stmt;
	int rc = 0;

	if (!info || !info->nr_culprits)
		return 0;
	stmt = sqlite_prepare(ss, "INSERT INTO culprits (iteration_id, rank, pid, name, cpu) "
			      "VALUES (?, ?, ?, ?, ?)", err);
	if (!stmt)
		return -1;
	for (size_t i = 0; i < info->nr_culprits && !rc; i++) {
		const struct result_culprit *c = &info->culprits[i];

		sqlite3_bind_int64(stmt, 1, iteration_id);
		sqlite3_bind_int64(stmt, 2, (int64_t)i);
		sqlite3_bind_int64(stmt, 3, c->pid);
		sqlite3_bind_text(stmt, 4, c->name, -1, SQLITE_STATIC);
		sqlite3_bind_double(stmt, 5, c->cpu);
		rc = sqlite_step_done(ss, stmt, err, "add a culprit");
	}
	sqlite3_finalize(stmt);
	return rc;
}

static int insert_samples(struct sqlite_store *ss, int64_t iteration_id,
			  const struct store_sample *samples, size_t nr_samples,
			  struct error *err)
{
	sqlite3_stmt *stmt;
	int rc = 0;

	stmt = sqlite_prepare(ss, "INSERT INTO samples (iteration_id, metric_id, rep, value) "
			      "VALUES (?, ?, ?, ?)", err);
	if (!stmt)
		return -1;
	for (size_t i = 0; i < nr_samples && !rc; i++) {
		if (isnan(samples[i].value) || !samples[i].metric_id)
			continue;
		sqlite3_bind_int64(stmt, 1, iteration_id);
		sqlite3_bind_int64(stmt, 2, samples[i].metric_id);
		sqlite3_bind_int(stmt, 3, samples[i].rep);
		sqlite3_bind_double(stmt, 4, samples[i].value);
		rc = sqlite_step_done(ss, stmt, err, "add a sample");
	}
	sqlite3_finalize(stmt);
	return rc;
}

static int sqlite_iteration_insert(struct store *st, int64_t bench_id, int seq, bool warmup,
				   const char *failure, const struct result_iteration *info,
				   const struct store_sample *samples, size_t nr_samples,
				   struct error *err)
{
	struct sqlite_store *ss = sqlite_of(st);
	sqlite3_stmt *stmt;
	int64_t iteration_id;

	stmt = sqlite_prepare(ss, "INSERT INTO iterations (benchmark_id, seq, warmup, failure, "
			      "cpu_taken, cpu_steal, cpu_available, disturbed, rerun, started, "
			      "ended) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", err);
	if (stmt) {
		sqlite3_bind_int64(stmt, 1, bench_id);
		sqlite3_bind_int(stmt, 2, seq);
		sqlite3_bind_int(stmt, 3, warmup);
		if (failure)
			sqlite3_bind_text(stmt, 4, failure, -1, SQLITE_STATIC);
		bind_real_or_null(stmt, 5, info ? info->cpu_taken : NAN);
		bind_real_or_null(stmt, 6, info ? info->cpu_steal : NAN);
		bind_real_or_null(stmt, 7, info ? info->cpu_available : NAN);
		sqlite3_bind_int(stmt, 8, info && info->disturbed);
		sqlite3_bind_int(stmt, 9, info && info->rerun);
		bind_real_or_null(stmt, 10, info ? info->started : NAN);
		bind_real_or_null(stmt, 11, info ? info->ended : NAN);
	}
	if (run_once(ss, stmt, err, "add an iteration"))
		return -1;
	iteration_id = sqlite3_last_insert_rowid(ss->db);
	if (insert_culprits(ss, iteration_id, info, err))
		return -1;
	return insert_samples(ss, iteration_id, samples, nr_samples, err);
}

static int insert_profile_symbols(struct sqlite_store *ss, int64_t profile_id,
				  const struct result_profile *profile, struct error *err)
{
	sqlite3_stmt *stmt;
	int rc = 0;

	stmt = sqlite_prepare(ss, "INSERT INTO profile_symbols (profile_id, position, name, dso, "
			      "self, children) VALUES (?, ?, ?, ?, ?, ?)", err);
	if (!stmt)
		return -1;
	for (size_t i = 0; i < profile->nr_symbols && !rc; i++) {
		const struct result_profile_symbol *sym = &profile->symbols[i];

		sqlite3_bind_int64(stmt, 1, profile_id);
		sqlite3_bind_int64(stmt, 2, (int64_t)i);
		sqlite3_bind_text(stmt, 3, sym->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 4, sym->dso, -1, SQLITE_STATIC);
		sqlite3_bind_int64(stmt, 5, (int64_t)sym->self);
		sqlite3_bind_int64(stmt, 6, (int64_t)sym->children);
		rc = sqlite_step_done(ss, stmt, err, "add a profile's symbol");
	}
	sqlite3_finalize(stmt);
	return rc;
}

static int sqlite_profile_insert(struct store *st, int64_t bench_id,
				 const struct result_profile *profile, struct error *err)
{
	struct sqlite_store *ss = sqlite_of(st);
	sqlite3_stmt *stmt;

	stmt = sqlite_prepare(ss, "INSERT INTO profiles (benchmark_id, seq, extra, event, scope, "
			      "frequency, samples, lost, total) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
			      err);
	if (stmt) {
		sqlite3_bind_int64(stmt, 1, bench_id);
		sqlite3_bind_int(stmt, 2, profile->seq);
		sqlite3_bind_int(stmt, 3, profile->extra);
		sqlite3_bind_text(stmt, 4, profile->event, -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 5, profile->scope, -1, SQLITE_STATIC);
		sqlite3_bind_int64(stmt, 6, (int64_t)profile->frequency);
		sqlite3_bind_int64(stmt, 7, (int64_t)profile->samples);
		sqlite3_bind_int64(stmt, 8, (int64_t)profile->lost);
		sqlite3_bind_int64(stmt, 9, (int64_t)profile->total);
	}
	if (run_once(ss, stmt, err, "add a profile"))
		return -1;
	return insert_profile_symbols(ss, sqlite3_last_insert_rowid(ss->db), profile, err);
}

static int sqlite_benchmark_find(struct store *st, int64_t batch_id, size_t position,
				 int64_t *bench_id, struct error *err)
{
	struct sqlite_store *ss = sqlite_of(st);
	sqlite3_stmt *stmt = sqlite_prepare(ss, "SELECT id FROM benchmarks "
					    "WHERE batch_id = ? AND position = ?", err);
	int rc;

	if (stmt) {
		sqlite3_bind_int64(stmt, 1, batch_id);
		sqlite3_bind_int64(stmt, 2, (int64_t)position);
	}
	rc = lookup(ss, stmt, err, "find the benchmark to resume");
	if (rc > 0) {
		*bench_id = sqlite3_column_int64(stmt, 0);
		sqlite3_finalize(stmt);
	}
	return rc;
}

static int sqlite_metric_find(struct store *st, int64_t bench_id, const char *name,
			      int64_t *metric_id, struct error *err)
{
	struct sqlite_store *ss = sqlite_of(st);
	sqlite3_stmt *stmt = sqlite_prepare(ss, "SELECT id FROM metrics "
					    "WHERE benchmark_id = ? AND name = ?", err);
	int rc;

	if (stmt) {
		sqlite3_bind_int64(stmt, 1, bench_id);
		sqlite3_bind_text(stmt, 2, name, -1, SQLITE_STATIC);
	}
	rc = lookup(ss, stmt, err, "find a metric to resume");
	if (rc > 0) {
		*metric_id = sqlite3_column_int64(stmt, 0);
		sqlite3_finalize(stmt);
	}
	return rc;
}

static int sqlite_iterations_count(struct store *st, int64_t bench_id,
				   struct benchmark_progress *progress, struct error *err)
{
	struct sqlite_store *ss = sqlite_of(st);
	sqlite3_stmt *stmt;
	int rc;

	stmt = sqlite_prepare(ss, "SELECT coalesce(max(seq) + 1, 0), "
			      "count(*) FILTER (WHERE warmup = 1 AND failure IS NULL AND rerun = 0), "
			      "count(*) FILTER (WHERE warmup = 0 AND failure IS NULL AND rerun = 0) "
			      "FROM iterations WHERE benchmark_id = ?", err);
	if (stmt)
		sqlite3_bind_int64(stmt, 1, bench_id);
	rc = lookup(ss, stmt, err, "count iterations");
	if (rc == 0)
		return error_set(err, EXIT_INTERNAL, "counting iterations returned no row");
	if (rc < 0)
		return -1;
	progress->next_seq = sqlite3_column_int(stmt, 0);
	progress->warmup_done = sqlite3_column_int(stmt, 1);
	progress->measured_done = sqlite3_column_int(stmt, 2);
	sqlite3_finalize(stmt);
	return 0;
}

static int sqlite_batches_load(struct store *st, const char *name, struct result_set *set,
			       struct error *err)
{
	struct sqlite_store *ss = sqlite_of(st);
	sqlite3_stmt *stmt;
	int rc;

	stmt = sqlite_prepare(ss, "SELECT b.id, r.name, b.started, b.complete FROM batches b "
			      "JOIN runs r ON r.id = b.run_id WHERE (?1 IS NULL OR r.name = ?1) "
			      "AND (b.complete = 1 OR (b.replacing = 0 AND b.job_id IS NULL)) "
			      "ORDER BY b.started, b.id", err);
	if (!stmt)
		return -1;
	if (name)
		sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
	while ((rc = sqlite_step(ss, stmt, err, "read the results")) > 0) {
		struct result_batch *batch = result_set_add_batch(set);

		batch->id = sqlite3_column_int64(stmt, 0);
		batch->name = column_strdup(stmt, 1);
		batch->started = column_strdup(stmt, 2);
		batch->complete = sqlite3_column_int(stmt, 3);
	}
	sqlite3_finalize(stmt);
	return rc;
}

/*
 * A batch is read with one query for each of its parts, every query
 * ordered by the benchmarks' positions and merged into them in one pass
 * (store_benchmark_of()): a query per benchmark cost 500,000 statement
 * runs on a store of 100 batches of 1,000 benchmarks. The statements are
 * prepared once per connection (sqlite_prepare_cached() knows them by
 * their address).
 */
static const char read_env[] =
	"SELECT key, value FROM environment WHERE batch_id = ? ORDER BY key";
static const char read_benchmarks[] =
	"SELECT k.id, k.workload, k.params, (SELECT count(*) FROM iterations i "
	"WHERE i.benchmark_id = k.id AND i.failure IS NOT NULL) "
	"FROM benchmarks k WHERE k.batch_id = ? ORDER BY k.position";
static const char read_metrics[] =
	"SELECT m.benchmark_id, m.name, m.unit, m.better, m.source, m.repetitions, m.id "
	"FROM benchmarks k JOIN metrics m ON m.benchmark_id = k.id WHERE k.batch_id = ? "
	"ORDER BY k.position, m.position";
/*
 * The samples, and with them the iterations that hold them: those that
 * did not fail are recorded, with what other tasks took from them. Each
 * metric's samples come in the order of their iterations and repetitions,
 * the order of the indexes (k.id makes the benchmarks' order one: SQLite
 * then sorts nothing).
 */
static const char read_samples[] =
	"SELECT i.benchmark_id, i.id, s.metric_id, s.value, i.warmup, i.disturbed, "
	"i.failure IS NULL, i.rerun, i.cpu_taken, i.cpu_steal, i.cpu_available, "
	"i.started, i.ended FROM benchmarks k JOIN iterations i ON i.benchmark_id = k.id "
	"JOIN samples s ON s.iteration_id = i.id WHERE k.batch_id = ? "
	"ORDER BY k.position, k.id, i.seq, s.metric_id, s.rep";
/* The culprits of the disturbed ones of those iterations, in the same order. */
static const char read_culprits[] =
	"SELECT c.iteration_id, c.pid, c.name, c.cpu FROM benchmarks k "
	"JOIN iterations i ON i.benchmark_id = k.id JOIN culprits c ON c.iteration_id = i.id "
	"WHERE k.batch_id = ? AND i.disturbed AND i.failure IS NULL AND EXISTS "
	"(SELECT 1 FROM samples s WHERE s.iteration_id = i.id) "
	"ORDER BY k.position, i.seq, c.rank";

/* @sql's statement with the batch's id bound, or NULL with @err. */
static sqlite3_stmt *batch_query(struct sqlite_store *ss, const char *sql,
				 const struct result_batch *batch, struct error *err)
{
	sqlite3_stmt *stmt = sqlite_prepare_cached(ss, sql, err);

	if (stmt)
		sqlite3_bind_int64(stmt, 1, batch->id);
	return stmt;
}

/*
 * A batch being read: its benchmarks' ids, in order, and where a query is
 * in them; its metrics' ids, a benchmark's from first_metric[] on.
 */
struct batch_rows {
	struct sqlite_store *ss;
	struct result_batch *batch;
	int64_t *ids;
	size_t *first_metric;
	size_t alloc_ids;
	size_t at;
	int64_t *metric_ids;
	size_t nr_metric_ids, alloc_metric_ids;
	int64_t iteration_id;	/* of the last sample read */
	/* the iterations read of one benchmark, until the next one's come */
	struct result_benchmark pending;
	struct result_benchmark *pending_for;
	/* read_culprits, from the first disturbed iteration on; NULL before */
	sqlite3_stmt *culprits;
	int culprits_rc;	/* its last step's */
};

/* The benchmark of the row's first column (store_benchmark_of()). */
static struct result_benchmark *row_benchmark(struct batch_rows *r, sqlite3_stmt *stmt)
{
	return store_benchmark_of(r->batch, r->ids, &r->at, sqlite3_column_int64(stmt, 0));
}

/* Every row of @sql's query through @row: 0, or -1 with @err. */
static int each_row(struct batch_rows *r, const char *sql,
		    int (*row)(struct batch_rows *r, sqlite3_stmt *stmt, struct error *err),
		    struct error *err)
{
	sqlite3_stmt *stmt = batch_query(r->ss, sql, r->batch, err);
	int rc;

	if (!stmt)
		return -1;
	r->at = 0;
	while ((rc = sqlite_step(r->ss, stmt, err, "read the results")) > 0)
		if (row(r, stmt, err)) {
			rc = -1;
			break;
		}
	sqlite3_reset(stmt);
	return rc;
}

static int env_row(struct batch_rows *r, sqlite3_stmt *stmt, struct error *err)
{
	result_batch_add_env(r->batch, column_text(stmt, 0), column_text(stmt, 1));
	return 0;
}

static int benchmark_row(struct batch_rows *r, sqlite3_stmt *stmt, struct error *err)
{
	struct result_benchmark *bench = result_batch_add_benchmark(r->batch);

	if (r->batch->nr_benchmarks > r->alloc_ids) {
		r->alloc_ids = 2 * r->batch->nr_benchmarks;
		r->ids = xreallocarray(r->ids, r->alloc_ids, sizeof(*r->ids));
		r->first_metric = xreallocarray(r->first_metric, r->alloc_ids,
						sizeof(*r->first_metric));
	}
	r->ids[r->batch->nr_benchmarks - 1] = sqlite3_column_int64(stmt, 0);
	bench->workload = column_strdup(stmt, 1);
	bench->params = column_strdup(stmt, 2);
	bench->nr_failed = (size_t)sqlite3_column_int64(stmt, 3);
	return 0;
}

static int metric_row(struct batch_rows *r, sqlite3_stmt *stmt, struct error *err)
{
	struct result_benchmark *bench = row_benchmark(r, stmt);
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
	r->metric_ids[r->nr_metric_ids++] = sqlite3_column_int64(stmt, 6);
	m = result_benchmark_add_metric(bench);
	m->name = column_strdup(stmt, 1);
	m->unit = column_strdup(stmt, 2);
	m->source = column_strdup(stmt, 4);
	m->repetitions = (size_t)sqlite3_column_int64(stmt, 5);
	return store_better_read(&r->ss->base, column_text(stmt, 3), &m->better, err);
}

static double column_real_or_nan(sqlite3_stmt *stmt, int col)
{
	return sqlite3_column_type(stmt, col) == SQLITE_NULL ? NAN :
	       sqlite3_column_double(stmt, col);
}

/* The pending iterations go to their benchmark if they hold interference. */
static void settle_iterations(struct batch_rows *r)
{
	if (r->pending_for)
		result_benchmark_take_iterations(r->pending_for, &r->pending);
	r->pending_for = NULL;
}

/* The culprits of @it, a disturbed iteration, the query's next rows. */
static int add_culprits(struct batch_rows *r, struct result_iteration *it, int64_t id,
			struct error *err)
{
	sqlite3_stmt *c = r->culprits;

	if (!c) {
		c = r->culprits = batch_query(r->ss, read_culprits, r->batch, err);
		if (!c)
			return -1;
		r->culprits_rc = sqlite_step(r->ss, c, err, "read the results");
	}
	for (; r->culprits_rc > 0 && sqlite3_column_int64(c, 0) == id;
	     r->culprits_rc = sqlite_step(r->ss, c, err, "read the results"))
		result_iteration_add_culprit(it, column_text(c, 2), sqlite3_column_int64(c, 1),
					     sqlite3_column_double(c, 3));
	return r->culprits_rc < 0 ? -1 : 0;
}

/*
 * A successful iteration's record: what other tasks took from it. They are
 * kept only when some was measured, so that a store from before it was
 * measured loads as it did; most benchmarks have none, and reading each
 * one's into the same array spares allocating one for each.
 */
static int iteration_row(struct batch_rows *r, sqlite3_stmt *stmt,
			 struct result_benchmark *bench, struct error *err)
{
	struct result_iteration *it;

	if (bench != r->pending_for)
		settle_iterations(r);
	r->pending_for = bench;
	it = result_benchmark_add_iteration(&r->pending);
	it->warmup = sqlite3_column_int(stmt, 4);
	it->disturbed = sqlite3_column_int(stmt, 5);
	it->rerun = sqlite3_column_int(stmt, 7);
	it->cpu_taken = column_real_or_nan(stmt, 8);
	it->cpu_steal = column_real_or_nan(stmt, 9);
	it->cpu_available = column_real_or_nan(stmt, 10);
	it->started = column_real_or_nan(stmt, 11);
	it->ended = column_real_or_nan(stmt, 12);
	return it->disturbed ? add_culprits(r, it, r->iteration_id, err) : 0;
}

/* The metric of @bench, the benchmark a query is on, with store id @id; NULL if none. */
static struct result_metric *row_metric(struct batch_rows *r, struct result_benchmark *bench,
					int64_t id)
{
	for (size_t i = 0; i < bench->nr_metrics; i++)
		if (r->metric_ids[r->first_metric[r->at] + i] == id)
			return &bench->metrics[i];
	return NULL;
}

static int sample_row(struct batch_rows *r, sqlite3_stmt *stmt, struct error *err)
{
	struct result_benchmark *bench = row_benchmark(r, stmt);
	bool warmup = sqlite3_column_int(stmt, 4);
	struct result_metric *m;

	if (!bench)
		return 0;
	if (sqlite3_column_int64(stmt, 1) != r->iteration_id) {
		r->iteration_id = sqlite3_column_int64(stmt, 1);
		if (sqlite3_column_int(stmt, 6) && iteration_row(r, stmt, bench, err))
			return -1;
	}
	m = row_metric(r, bench, sqlite3_column_int64(stmt, 2));
	if (!m)
		return 0;
	result_metric_add_sample(m, sqlite3_column_double(stmt, 3), warmup);
	if (!warmup && sqlite3_column_int(stmt, 5))
		result_metric_mark_disturbed(m);
	return 0;
}

static int load_samples(struct batch_rows *r, struct error *err)
{
	int rc = each_row(r, read_samples, sample_row, err);

	if (r->culprits)
		sqlite3_reset(r->culprits);
	settle_iterations(r);
	result_benchmark_drop_iterations(&r->pending);
	return rc;
}

/*
 * A batch's profiles, in the order of their benchmarks; each profile's
 * symbols are read with it (most batches have no profile, and then this
 * is one query that returns nothing).
 */
static const char read_profiles[] =
	"SELECT p.benchmark_id, p.id, p.seq, p.extra, p.event, p.scope, p.frequency, "
	"p.samples, p.lost, p.total FROM benchmarks k JOIN profiles p ON "
	"p.benchmark_id = k.id WHERE k.batch_id = ? ORDER BY k.position, p.extra, p.seq";
static const char read_symbols[] =
	"SELECT name, dso, self, children FROM profile_symbols WHERE profile_id = ? "
	"ORDER BY position";

static int load_profile_symbols(struct sqlite_store *ss, struct result_profile *p,
				int64_t profile_id, struct error *err)
{
	sqlite3_stmt *stmt = sqlite_prepare_cached(ss, read_symbols, err);
	int rc;

	if (!stmt)
		return -1;
	sqlite3_bind_int64(stmt, 1, profile_id);
	while ((rc = sqlite_step(ss, stmt, err, "read the results")) > 0)
		result_profile_add_symbol(p, column_text(stmt, 0), column_text(stmt, 1),
					  (uint64_t)sqlite3_column_int64(stmt, 2),
					  (uint64_t)sqlite3_column_int64(stmt, 3));
	sqlite3_reset(stmt);
	return rc;
}

static int profile_row(struct batch_rows *r, sqlite3_stmt *stmt, struct error *err)
{
	struct result_benchmark *bench = row_benchmark(r, stmt);
	struct result_profile *p;

	if (!bench)
		return 0;
	p = result_benchmark_add_profile(bench);
	p->seq = sqlite3_column_int(stmt, 2);
	p->extra = sqlite3_column_int(stmt, 3);
	p->event = column_strdup(stmt, 4);
	p->scope = column_strdup(stmt, 5);
	p->frequency = (uint64_t)sqlite3_column_int64(stmt, 6);
	p->samples = (uint64_t)sqlite3_column_int64(stmt, 7);
	p->lost = (uint64_t)sqlite3_column_int64(stmt, 8);
	p->total = (uint64_t)sqlite3_column_int64(stmt, 9);
	return load_profile_symbols(r->ss, p, sqlite3_column_int64(stmt, 1), err);
}

static int sqlite_batch_load(struct store *st, struct result_batch *batch, bool with_samples,
			     struct error *err)
{
	struct batch_rows r = { .ss = sqlite_of(st), .batch = batch };
	int rc;

	rc = each_row(&r, read_env, env_row, err) ||
	     each_row(&r, read_benchmarks, benchmark_row, err) ||
	     each_row(&r, read_metrics, metric_row, err) ||
	     (with_samples && (load_samples(&r, err) ||
			       each_row(&r, read_profiles, profile_row, err)));
	free(r.ids);
	free(r.first_metric);
	free(r.metric_ids);
	return rc ? -1 : 0;
}

static int sqlite_journal_insert(struct store *st, const char *machine,
				 const struct knob_original *k, struct error *err)
{
	struct sqlite_store *ss = sqlite_of(st);
	sqlite3_stmt *stmt;

	stmt = sqlite_prepare(ss, "INSERT INTO knob_journal (kind, name, original, writer_boot, "
			      "writer_pid, writer_start, started, machine) VALUES (?, ?, ?, ?, ?, ?, "
			      "?, ?)", err);
	if (!stmt)
		return -1;
	sqlite3_bind_text(stmt, 1, k->kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 2, k->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 3, k->value, -1, SQLITE_STATIC);
	bind_process(stmt, 4, &k->writer, true);
	sqlite3_bind_text(stmt, 7, k->started, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 8, machine, -1, SQLITE_STATIC);
	if (sqlite_step(ss, stmt, err, "journal a setting's original value") < 0) {
		if (sqlite3_extended_errcode(ss->db) == SQLITE_CONSTRAINT_UNIQUE)
			error_set(err, EXIT_ENV, "%s %s is journalled already by another ab "
				  "(run 'schedperf ab --restore')", k->kind, k->name);
		sqlite3_finalize(stmt);
		return -1;
	}
	sqlite3_finalize(stmt);
	return 0;
}

static int sqlite_journal_list(struct store *st, const char *machine,
			       struct knob_original **out, size_t *nr, struct error *err)
{
	struct sqlite_store *ss = sqlite_of(st);
	sqlite3_stmt *stmt = sqlite_prepare(ss, machine ? "SELECT kind, name, original, "
					    "writer_boot, writer_pid, writer_start, started, machine "
					    "FROM knob_journal WHERE machine IN (?, '') ORDER BY id" :
					    "SELECT kind, name, original, writer_boot, writer_pid, "
					    "writer_start, started, machine FROM knob_journal "
					    "ORDER BY id", err);
	int rc;

	if (!stmt)
		return -1;
	if (machine)
		sqlite3_bind_text(stmt, 1, machine, -1, SQLITE_STATIC);
	while ((rc = sqlite_step(ss, stmt, err, "read the knob journal")) > 0) {
		struct knob_original *k;

		*out = xreallocarray(*out, *nr + 1, sizeof(**out));
		k = &(*out)[(*nr)++];
		k->kind = column_strdup(stmt, 0);
		k->name = column_strdup(stmt, 1);
		k->value = column_strdup(stmt, 2);
		column_process(stmt, 4, column_text(stmt, 3), &k->writer);
		k->started = column_strdup(stmt, 6);
		k->machine = column_strdup(stmt, 7);
	}
	sqlite3_finalize(stmt);
	return rc;
}

static int sqlite_journal_delete(struct store *st, const char *machine, const char *kind,
				 const char *name, struct error *err)
{
	struct sqlite_store *ss = sqlite_of(st);
	sqlite3_stmt *stmt;

	stmt = sqlite_prepare(ss, kind ? "DELETE FROM knob_journal WHERE machine IN (?, '') AND "
			      "kind = ? AND name = ?" :
			      "DELETE FROM knob_journal WHERE machine IN (?, '')", err);
	if (stmt)
		sqlite3_bind_text(stmt, 1, machine, -1, SQLITE_STATIC);
	if (stmt && kind) {
		sqlite3_bind_text(stmt, 2, kind, -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 3, name, -1, SQLITE_STATIC);
	}
	return run_once(ss, stmt, err, "forget a restored setting");
}

static int sqlite_bisection_insert(struct store *st, const struct stored_bisection *b,
				   int64_t *id, struct error *err)
{
	struct sqlite_store *ss = sqlite_of(st);
	sqlite3_stmt *stmt = sqlite_prepare(ss, "INSERT INTO bisections (repo, machine, state, "
					    "started, doc) VALUES (?, ?, ?, ?, ?)", err);

	if (!stmt)
		return -1;
	sqlite3_bind_text(stmt, 1, b->repo, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 2, b->machine, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 3, b->state, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 4, b->started, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 5, b->doc, -1, SQLITE_STATIC);
	if (run_once(ss, stmt, err, "store a bisection"))
		return -1;
	*id = sqlite3_last_insert_rowid(ss->db);
	return 0;
}

static int sqlite_bisection_update(struct store *st, int64_t id, const char *state,
				   const char *doc, struct error *err)
{
	struct sqlite_store *ss = sqlite_of(st);
	sqlite3_stmt *stmt = sqlite_prepare(ss, "UPDATE bisections SET state = ?, "
					    "doc = coalesce(?, doc) WHERE id = ?", err);

	if (!stmt)
		return -1;
	sqlite3_bind_text(stmt, 1, state, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 2, doc, -1, SQLITE_STATIC);
	sqlite3_bind_int64(stmt, 3, id);
	return run_once(ss, stmt, err, "store a bisection's step");
}

static int sqlite_bisection_select(struct store *st, const struct bisection_filter *f,
				   struct stored_bisection **out, size_t *nr, struct error *err)
{
	struct sqlite_store *ss = sqlite_of(st);
	sqlite3_stmt *stmt = sqlite_prepare(ss, "SELECT id, repo, machine, state, started, doc "
					    "FROM bisections WHERE (?1 = 0 OR id = ?1) AND "
					    "(?2 IS NULL OR (repo = ?2 AND machine = ?3 AND state IN "
					    "('running', 'interrupted'))) ORDER BY id DESC LIMIT ?4",
					    err);
	int rc;

	if (!stmt)
		return -1;
	sqlite3_bind_int64(stmt, 1, f->id);
	sqlite3_bind_text(stmt, 2, f->repo, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 3, f->machine, -1, SQLITE_STATIC);
	sqlite3_bind_int64(stmt, 4, f->limit);
	while ((rc = sqlite_step(ss, stmt, err, "read the bisections")) > 0) {
		struct stored_bisection *b;

		*out = xreallocarray(*out, *nr + 1, sizeof(**out));
		b = &(*out)[(*nr)++];
		b->id = sqlite3_column_int64(stmt, 0);
		b->repo = column_strdup(stmt, 1);
		b->machine = column_strdup(stmt, 2);
		b->state = column_strdup(stmt, 3);
		b->started = column_strdup(stmt, 4);
		b->doc = column_strdup(stmt, 5);
	}
	sqlite3_finalize(stmt);
	return rc;
}

const struct store_backend store_sqlite = {
	.name = "SQLite",
	.schemes = NULL,
	.open = sqlite_open,
	.close = sqlite_close,
	.inspect = sqlite_inspect,
	.damage = sqlite_schema_damage,
	.begin = sqlite_begin,
	.commit = sqlite_commit,
	.rollback = sqlite_rollback,
	.run_find = sqlite_run_find,
	.batch_insert = sqlite_batch_insert,
	.batch_get = sqlite_batch_get,
	.batches_incomplete = sqlite_batches_incomplete,
	.batch_set_writer = sqlite_batch_set_writer,
	.batch_finish = sqlite_batch_finish,
	.batches_delete_before = sqlite_batches_delete_before,
	.benchmark_insert = sqlite_benchmark_insert,
	.iteration_insert = sqlite_iteration_insert,
	.profile_insert = sqlite_profile_insert,
	.benchmark_find = sqlite_benchmark_find,
	.metric_find = sqlite_metric_find,
	.iterations_count = sqlite_iterations_count,
	.batches_load = sqlite_batches_load,
	.batch_load = sqlite_batch_load,
	.journal_insert = sqlite_journal_insert,
	.journal_list = sqlite_journal_list,
	.journal_delete = sqlite_journal_delete,
	.bisection_insert = sqlite_bisection_insert,
	.bisection_update = sqlite_bisection_update,
	.bisection_select = sqlite_bisection_select,
};
