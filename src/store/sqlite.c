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
		if (sqlite3_errcode(ss->db) == SQLITE_CONSTRAINT)
			error_set(err, EXIT_USAGE, "run '%s' already has a batch started at %s "
				  "(it was imported before; nothing was changed)",
				  batch->name, batch->started);
		sqlite3_finalize(stmt);
		return -1;
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

static int load_env(struct sqlite_store *ss, struct result_batch *batch, struct error *err)
{
	sqlite3_stmt *stmt = sqlite_prepare_cached(ss, "SELECT key, value FROM environment "
						   "WHERE batch_id = ? ORDER BY key", err);
	int rc;

	if (!stmt)
		return -1;
	sqlite3_bind_int64(stmt, 1, batch->id);
	while ((rc = sqlite_step(ss, stmt, err, "read the results")) > 0)
		result_batch_add_env(batch, column_text(stmt, 0), column_text(stmt, 1));
	sqlite3_reset(stmt);
	return rc;
}

/*
 * The statements that read a batch's benchmarks: prepared once per
 * connection (sqlite_prepare_cached()), since a store of 10,000 batches
 * spent more time preparing them for each batch than running them.
 */
struct batch_reader {
	sqlite3_stmt *benchmarks, *metrics, *samples, *failed, *iterations, *culprits;
	sqlite3_stmt *profiles, *symbols;
};

static void batch_reader_release(struct batch_reader *r)
{
	sqlite3_reset(r->benchmarks);
	sqlite3_reset(r->metrics);
	sqlite3_reset(r->samples);
	sqlite3_reset(r->failed);
	sqlite3_reset(r->iterations);
	sqlite3_reset(r->culprits);
	sqlite3_reset(r->profiles);
	sqlite3_reset(r->symbols);
}

/* batch_reader's queries (constants: sqlite_prepare_cached() knows them by address) */
static const char read_benchmarks[] =
	"SELECT id, workload, params FROM benchmarks WHERE batch_id = ? ORDER BY position";
static const char read_metrics[] =
	"SELECT name, unit, better, source, repetitions FROM metrics "
	"WHERE benchmark_id = ? ORDER BY position";
static const char read_samples[] =
	"SELECT m.position, i.warmup, s.value, i.disturbed FROM iterations i "
	"JOIN samples s ON s.iteration_id = i.id JOIN metrics m ON m.id = s.metric_id "
	"WHERE i.benchmark_id = ? ORDER BY i.seq, m.position, s.rep";
static const char read_failed[] =
	"SELECT count(*) FROM iterations WHERE benchmark_id = ? AND failure IS NOT NULL";
/* The successful iterations that hold samples, in the order of the samples. */
static const char read_iterations[] =
	"SELECT id, warmup, disturbed, rerun, cpu_taken, cpu_steal, cpu_available, started, "
	"ended FROM iterations i WHERE benchmark_id = ? AND failure IS NULL AND EXISTS "
	"(SELECT 1 FROM samples s WHERE s.iteration_id = i.id) ORDER BY seq";
static const char read_culprits[] =
	"SELECT pid, name, cpu FROM culprits WHERE iteration_id = ? ORDER BY rank";
static const char read_profiles[] =
	"SELECT id, seq, extra, event, scope, frequency, samples, lost, total FROM profiles "
	"WHERE benchmark_id = ? ORDER BY extra, seq";
static const char read_symbols[] =
	"SELECT name, dso, self, children FROM profile_symbols WHERE profile_id = ? "
	"ORDER BY position";

static int batch_reader_prepare(struct sqlite_store *ss, struct batch_reader *r,
				struct error *err)
{
	r->benchmarks = sqlite_prepare_cached(ss, read_benchmarks, err);
	r->metrics = sqlite_prepare_cached(ss, read_metrics, err);
	r->samples = sqlite_prepare_cached(ss, read_samples, err);
	r->failed = sqlite_prepare_cached(ss, read_failed, err);
	r->iterations = sqlite_prepare_cached(ss, read_iterations, err);
	r->culprits = sqlite_prepare_cached(ss, read_culprits, err);
	r->profiles = sqlite_prepare_cached(ss, read_profiles, err);
	r->symbols = sqlite_prepare_cached(ss, read_symbols, err);
	return r->benchmarks && r->metrics && r->samples && r->failed && r->iterations &&
	       r->culprits && r->profiles && r->symbols ? 0 : -1;
}

static int load_metrics(struct sqlite_store *ss, struct batch_reader *r,
			struct result_benchmark *bench, int64_t bench_id, struct error *err)
{
	int rc;

	sqlite3_bind_int64(r->metrics, 1, bench_id);
	while ((rc = sqlite_step(ss, r->metrics, err, "read the results")) > 0) {
		struct result_metric *m = result_benchmark_add_metric(bench);

		m->name = column_strdup(r->metrics, 0);
		m->unit = column_strdup(r->metrics, 1);
		m->source = column_strdup(r->metrics, 3);
		m->repetitions = (size_t)sqlite3_column_int64(r->metrics, 4);
		if (store_better_read(&ss->base, column_text(r->metrics, 2), &m->better, err)) {
			rc = -1;
			break;
		}
	}
	sqlite3_reset(r->metrics);
	return rc;
}

static int load_samples(struct sqlite_store *ss, struct batch_reader *r,
			struct result_benchmark *bench, int64_t bench_id, struct error *err)
{
	int rc;

	sqlite3_bind_int64(r->samples, 1, bench_id);
	while ((rc = sqlite_step(ss, r->samples, err, "read the results")) > 0) {
		int64_t pos = sqlite3_column_int64(r->samples, 0);
		bool warmup = sqlite3_column_int(r->samples, 1);
		struct result_metric *m;

		if (pos < 0 || (size_t)pos >= bench->nr_metrics)
			continue;
		m = &bench->metrics[pos];
		result_metric_add_sample(m, sqlite3_column_double(r->samples, 2), warmup);
		if (!warmup && sqlite3_column_int(r->samples, 3))
			result_metric_mark_disturbed(m);
	}
	sqlite3_reset(r->samples);
	return rc;
}

static double column_real_or_nan(sqlite3_stmt *stmt, int col)
{
	return sqlite3_column_type(stmt, col) == SQLITE_NULL ? NAN :
	       sqlite3_column_double(stmt, col);
}

static int load_culprits(struct sqlite_store *ss, struct batch_reader *r,
			 struct result_iteration *it, int64_t iteration_id, struct error *err)
{
	int rc;

	sqlite3_bind_int64(r->culprits, 1, iteration_id);
	while ((rc = sqlite_step(ss, r->culprits, err, "read the results")) > 0)
		result_iteration_add_culprit(it, column_text(r->culprits, 1),
					     sqlite3_column_int64(r->culprits, 0),
					     sqlite3_column_double(r->culprits, 2));
	sqlite3_reset(r->culprits);
	return rc;
}

/*
 * What other tasks took from each iteration; kept only when some was
 * measured, so that a store from before it was measured loads as it did.
 */
static int load_iterations(struct sqlite_store *ss, struct batch_reader *r,
			   struct result_benchmark *bench, int64_t bench_id, struct error *err)
{
	sqlite3_stmt *stmt = r->iterations;
	int rc;

	sqlite3_bind_int64(stmt, 1, bench_id);
	while ((rc = sqlite_step(ss, stmt, err, "read the results")) > 0) {
		struct result_iteration *it = result_benchmark_add_iteration(bench);

		it->warmup = sqlite3_column_int(stmt, 1);
		it->disturbed = sqlite3_column_int(stmt, 2);
		it->rerun = sqlite3_column_int(stmt, 3);
		it->cpu_taken = column_real_or_nan(stmt, 4);
		it->cpu_steal = column_real_or_nan(stmt, 5);
		it->cpu_available = column_real_or_nan(stmt, 6);
		it->started = column_real_or_nan(stmt, 7);
		it->ended = column_real_or_nan(stmt, 8);
		if (it->disturbed &&
		    load_culprits(ss, r, it, sqlite3_column_int64(stmt, 0), err) < 0) {
			rc = -1;
			break;
		}
	}
	sqlite3_reset(stmt);
	if (rc < 0)
		return -1;
	if (!result_benchmark_has_interference(bench))
		result_benchmark_drop_iterations(bench);
	return 0;
}

static int load_failed(struct sqlite_store *ss, struct batch_reader *r,
		       struct result_benchmark *bench, int64_t bench_id, struct error *err)
{
	int rc;

	sqlite3_bind_int64(r->failed, 1, bench_id);
	rc = sqlite_step(ss, r->failed, err, "read the results");
	if (rc > 0)
		bench->nr_failed = (size_t)sqlite3_column_int64(r->failed, 0);
	sqlite3_reset(r->failed);
	return rc < 0 ? -1 : 0;
}

static int load_profile_symbols(struct sqlite_store *ss, struct batch_reader *r,
				struct result_profile *p, int64_t profile_id, struct error *err)
{
	int rc;

	sqlite3_bind_int64(r->symbols, 1, profile_id);
	while ((rc = sqlite_step(ss, r->symbols, err, "read the results")) > 0)
		result_profile_add_symbol(p, column_text(r->symbols, 0),
					  column_text(r->symbols, 1),
					  (uint64_t)sqlite3_column_int64(r->symbols, 2),
					  (uint64_t)sqlite3_column_int64(r->symbols, 3));
	sqlite3_reset(r->symbols);
	return rc;
}

static int load_profiles(struct sqlite_store *ss, struct batch_reader *r,
			 struct result_benchmark *bench, int64_t bench_id, struct error *err)
{
	int rc;

	sqlite3_bind_int64(r->profiles, 1, bench_id);
	while ((rc = sqlite_step(ss, r->profiles, err, "read the results")) > 0) {
		struct result_profile *p = result_benchmark_add_profile(bench);

		p->seq = sqlite3_column_int(r->profiles, 1);
		p->extra = sqlite3_column_int(r->profiles, 2);
		p->event = column_strdup(r->profiles, 3);
		p->scope = column_strdup(r->profiles, 4);
		p->frequency = (uint64_t)sqlite3_column_int64(r->profiles, 5);
		p->samples = (uint64_t)sqlite3_column_int64(r->profiles, 6);
		p->lost = (uint64_t)sqlite3_column_int64(r->profiles, 7);
		p->total = (uint64_t)sqlite3_column_int64(r->profiles, 8);
		if (load_profile_symbols(ss, r, p, sqlite3_column_int64(r->profiles, 0), err)) {
			rc = -1;
			break;
		}
	}
	sqlite3_reset(r->profiles);
	return rc;
}

static int sqlite_batch_load(struct store *st, struct result_batch *batch, bool with_samples,
			     struct error *err)
{
	struct sqlite_store *ss = sqlite_of(st);
	struct batch_reader r = { 0 };
	int rc;

	if (load_env(ss, batch, err) || batch_reader_prepare(ss, &r, err)) {
		batch_reader_release(&r);
		return -1;
	}
	sqlite3_bind_int64(r.benchmarks, 1, batch->id);
	while ((rc = sqlite_step(ss, r.benchmarks, err, "read the results")) > 0) {
		struct result_benchmark *bench = result_batch_add_benchmark(batch);
		int64_t bench_id = sqlite3_column_int64(r.benchmarks, 0);

		bench->workload = column_strdup(r.benchmarks, 1);
		bench->params = column_strdup(r.benchmarks, 2);
		if (load_metrics(ss, &r, bench, bench_id, err) ||
		    load_failed(ss, &r, bench, bench_id, err) ||
		    (with_samples && (load_samples(ss, &r, bench, bench_id, err) ||
				      load_iterations(ss, &r, bench, bench_id, err) ||
				      load_profiles(ss, &r, bench, bench_id, err)))) {
			rc = -1;
			break;
		}
	}
	batch_reader_release(&r);
	return rc;
}

static int sqlite_journal_insert(struct store *st, const struct knob_original *k,
				 struct error *err)
{
	struct sqlite_store *ss = sqlite_of(st);
	sqlite3_stmt *stmt;

	stmt = sqlite_prepare(ss, "INSERT INTO knob_journal (kind, name, original, writer_boot, "
			      "writer_pid, writer_start, started) VALUES (?, ?, ?, ?, ?, ?, ?)",
			      err);
	if (!stmt)
		return -1;
	sqlite3_bind_text(stmt, 1, k->kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 2, k->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 3, k->value, -1, SQLITE_STATIC);
	bind_process(stmt, 4, &k->writer, true);
	sqlite3_bind_text(stmt, 7, k->started, -1, SQLITE_STATIC);
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

static int sqlite_journal_list(struct store *st, struct knob_original **out, size_t *nr,
			       struct error *err)
{
	struct sqlite_store *ss = sqlite_of(st);
	sqlite3_stmt *stmt = sqlite_prepare(ss, "SELECT kind, name, original, writer_boot, "
					    "writer_pid, writer_start, started "
					    "FROM knob_journal ORDER BY id", err);
	int rc;

	if (!stmt)
		return -1;
	while ((rc = sqlite_step(ss, stmt, err, "read the knob journal")) > 0) {
		struct knob_original *k;

		*out = xreallocarray(*out, *nr + 1, sizeof(**out));
		k = &(*out)[(*nr)++];
		k->kind = column_strdup(stmt, 0);
		k->name = column_strdup(stmt, 1);
		k->value = column_strdup(stmt, 2);
		column_process(stmt, 4, column_text(stmt, 3), &k->writer);
		k->started = column_strdup(stmt, 6);
	}
	sqlite3_finalize(stmt);
	return rc;
}

static int sqlite_journal_delete(struct store *st, const char *kind, const char *name,
				 struct error *err)
{
	struct sqlite_store *ss = sqlite_of(st);
	sqlite3_stmt *stmt;

	stmt = sqlite_prepare(ss, kind ? "DELETE FROM knob_journal WHERE kind = ? AND name = ?" :
			      "DELETE FROM knob_journal", err);
	if (stmt && kind) {
		sqlite3_bind_text(stmt, 1, kind, -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 2, name, -1, SQLITE_STATIC);
	}
	return run_once(ss, stmt, err, "forget a restored setting");
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
};
