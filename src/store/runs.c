// SPDX-License-Identifier: GPL-2.0
/*
 * Runs and their batches: a run is a name; each `schedperf run` under it
 * adds a batch with its environment, its writer (transactions.c) and its
 * plan. A load starts here and reads each part in its own file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/queries.h"
#include "util/iso8601.h"
#include "util/utf8.h"

int run_find(struct store *st, const char *name, bool create, int64_t *id,
	     struct error *err)
{
	int rc = sql_id(st, "SELECT id FROM runs WHERE name = $1", SQL_ARGS(SQL_TEXT(name)), id,
			err, "find the run");

	if (rc || !create)
		return rc;
	return sql_insert(st, "INSERT INTO runs (name) VALUES ($1) RETURNING id",
			  SQL_ARGS(SQL_TEXT(name)), id, err, "add a run") ? -1 : 2;
}

/*
 * Batch b holds its run: it is not job @job's (an earlier, lost attempt
 * of the job this process runs) nor an unfinished one of a job cancelled
 * or failed, which no one will finish or show, even with its worker dead.
 */
#define HOLDS_RUN(job)								\
	"(b.job_id IS NULL OR (b.job_id <> " job " AND (b.complete OR b.job_id NOT IN "	\
	"(SELECT id FROM jobs WHERE state IN ('cancelled', 'failed')))))"

/* Every batch with its run: the join most of this file's queries start from. */
#define BATCHES_AND_RUNS "batches b JOIN runs r ON r.id = b.run_id"

/*
 * Batch b is what an experiment killed before its first sample left, of
 * no job: incomplete, and none of its iterations a measured one (not a
 * warm-up, not failed).
 */
#define LEFT_UNSAMPLED								\
	"(NOT b.complete AND b.job_id IS NULL AND NOT EXISTS (SELECT 1 FROM "	\
	"benchmarks bm JOIN iterations i ON i.benchmark_id = bm.id WHERE "	\
	"bm.batch_id = b.id AND NOT i.warmup AND i.failure IS NULL) AND "	\
	"EXISTS (SELECT 1 FROM environment e WHERE e.batch_id = b.id AND "	\
	"e.key = 'experiment'))"

int run_taken_beyond_unsampled(struct store *st, const char *name, int64_t job_id,
			       struct error *err)
{
	int64_t batch_id;

	return sql_id(st, "SELECT b.id FROM " BATCHES_AND_RUNS " "
		      "WHERE r.name = $1 AND " HOLDS_RUN("$2") " AND NOT "
		      LEFT_UNSAMPLED " LIMIT 1",
		      SQL_ARGS(SQL_TEXT(name), SQL_INT(job_id)), &batch_id, err,
		      "find the run's batches");
}

/*
 * The kind of experiment a batch's environment "experiment" names, as the
 * queries below select it: 2 a bisection's (bisect), 1 any other (ab).
 */
#define EXPERIMENT_KIND(value) "CASE " value " WHEN 'bisect' THEN 2 ELSE 1 END"

static int run_own_error(const char *name, int64_t kind, struct error *err)
{
	if (kind == 2)
		return error_set(err, EXIT_USAGE, "run '%.128s' is a bisection's own, and "
				 "compare, bisect --show and bisect --resume would take a batch "
				 "added to it for the bisection's (store it under another run "
				 "name)", name);
	return error_set(err, EXIT_USAGE, "run '%.128s' is an ab experiment's own, and compare "
			 "would pool a batch added to it with the experiment's samples (store it "
			 "under another run name)", name);
}

/*
 * An experiment's runs are its own (their batches' environment has the
 * key "experiment": ab's sides, a bisection's measurements): compare pools
 * every batch of a run, and samples the experiment did not take must not
 * join those it took, nor replace them. An ab's run holds its one batch;
 * a bisection's gets one a measurement (each step, each --resume), so its
 * own may join it (@may_grow): another bisection's runs are refused at its
 * start, by name. An import may not grow a run it found: a batch marked
 * "bisect" there is not the bisection's (an edited export, another
 * store's), and the store cannot tell it from one.
 */
int batch_may_join(struct store *st, int64_t run_id, const struct result_batch *batch,
		   bool may_grow, struct error *err)
{
	const char *own = result_batch_env(batch, "experiment");
	bool bisection = own && !strcmp(own, "bisect");
	bool grows = bisection && may_grow;
	int64_t kind;
	int rc = sql_id(st, own ?
			"SELECT 1 FROM batches b WHERE b.run_id = $1 AND b.id <> $2 AND "
			HOLDS_RUN("$3") " AND NOT ($4 <> 0 AND EXISTS (SELECT 1 FROM "
			"environment e WHERE e.batch_id = b.id AND e.key = 'experiment' AND "
			"e.value = 'bisect')) LIMIT 1" :
			"SELECT " EXPERIMENT_KIND("e.value") " FROM batches b JOIN environment e "
			"ON e.batch_id = b.id AND e.key = 'experiment' WHERE b.run_id = $1 AND "
			"b.id <> $2 AND " HOLDS_RUN("$3") " AND $4 = 0 LIMIT 1",
			SQL_ARGS(SQL_INT(run_id), SQL_INT(batch->id), SQL_INT(st->job_id),
				 SQL_INT(grows)), &kind, err, "find the run's batches");

	if (rc <= 0)
		return rc;
	if (!own)
		return run_own_error(batch->name, kind, err);
	if (grows)
		return error_set(err, EXIT_USAGE, "run '%.128s' holds batches already that "
				 "are not a bisection's, and compare would pool them with its "
				 "samples (bisect under another --name)", batch->name);
	return error_set(err, EXIT_USAGE, "run '%.128s' holds batches already, and compare "
			 "would pool them with this %s's samples (store it under another run "
			 "name)", batch->name, bisection ? "bisection" : "ab experiment");
}

int run_own(struct store *st, const char *name, struct error *err)
{
	int64_t kind;
	int rc = sql_id(st, "SELECT " EXPERIMENT_KIND("e.value") " FROM batches b JOIN runs r "
			"ON r.id = b.run_id JOIN environment e ON e.batch_id = b.id AND "
			"e.key = 'experiment' WHERE r.name = $1 AND " HOLDS_RUN("$2") " LIMIT 1",
			SQL_ARGS(SQL_TEXT(name), SQL_INT(st->job_id)), &kind, err,
			"find the run's batches");

	return rc <= 0 ? rc : run_own_error(name, kind, err);
}

int batch_insert(struct store *st, int64_t run_id, struct result_batch *batch,
		 const struct batch_state *state, struct error *err)
{
	int rc;

	rc = sql_id(st, "INSERT INTO batches (run_id, started, complete, replacing, plan, "
		    "writer_boot, writer_pid, writer_start, tasks_pgid, tasks_start) "
		    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) "
		    "ON CONFLICT (run_id, started) DO NOTHING RETURNING id",
		    SQL_ARGS(SQL_INT(run_id), SQL_TEXT(batch->started), SQL_INT(batch->complete),
			     SQL_INT(state->replacing), SQL_TEXT(state->plan),
			     SQL_PROCESS(&state->writer.runner),
			     SQL_PID_START(&state->writer.tasks)),
		    &batch->id, err, "add a batch");
	if (rc <= 0)
		return rc < 0 ? -1 : 1;
	rc = 0;
	for (size_t i = 0; i < batch->nr_env && !rc; i++)
		rc = sql_exec(st, "INSERT INTO environment (batch_id, key, value) "
			      "VALUES ($1, $2, $3)",
			      SQL_ARGS(SQL_INT(batch->id), SQL_TEXT(batch->env[i].key),
				       SQL_TEXT(batch->env[i].value)),
			      err, "record the environment");
	return rc;
}

/* The value of @key in a batch's environment, '' when it has none. */
#define ENV_OF(batch, key)							\
	"COALESCE((SELECT value FROM environment WHERE batch_id = " batch	\
	" AND key = '" key "'), '')"

/*
 * A batch's machine: its machine id and host name, "ID/HOST", as
 * machine_batch_key() says of this one (machines cloned from one image
 * share their id, not their name).
 */
#define MACHINE_OF(batch)							\
	"(" ENV_OF(batch, "machine.id") " || '/' || " ENV_OF(batch, "machine.hostname") ")"

/*
 * A writer recorded by schema version 2 has a pid but no start time: it
 * cannot be told from a process that got its pid later, and is taken for
 * gone (no pid). The tasks' boot is the writer's.
 */
#define SELECT_BATCH_STATE							\
	"SELECT b.id, b.run_id, r.name, b.replacing, b.plan, b.writer_boot, "	\
	"CASE WHEN b.writer_start IS NULL THEN NULL ELSE b.writer_pid END, "	\
	"b.writer_start, b.writer_boot, b.tasks_pgid, b.tasks_start, "		\
	MACHINE_OF("b.id") ", " ENV_OF("b.id", "machine.hostname") ", "	\
	"coalesce(b.job_id, 0) FROM " BATCHES_AND_RUNS " "

#define STATE(t, field) SQL_FIELD(t, struct batch_state, field)
static const struct sql_field state_fields[] = {
	STATE(INT, id), STATE(INT, run_id), STATE(TEXT, run_name), STATE(INT, replacing),
	STATE(TEXT_OR_NULL, plan), STATE(PROCESS, writer.runner), STATE(PROCESS, writer.tasks),
	STATE(TEXT, machine), STATE(TEXT, host), STATE(INT, job_id),
};
static const struct sql_shape state_shape = SQL_SHAPE(struct batch_state, state_fields);

int batch_get(struct store *st, int64_t batch_id, struct batch_state *state,
	      struct error *err)
{
	int rc = sql_one(st, SELECT_BATCH_STATE "WHERE b.id = $1", SQL_ARGS(SQL_INT(batch_id)),
			 &state_shape, state, err, "find the batch");

	if (!rc)
		return error_set(err, EXIT_ENV, "batch %lld is no longer in store '%s' (it was "
				 "replaced; start a new run)", (long long)batch_id, st->location);
	return rc < 0 ? -1 : 0;
}

int batches_incomplete(struct store *st, int64_t run_id, struct batch_state **out,
		       size_t *nr, struct error *err)
{
	return sql_list(st, SELECT_BATCH_STATE "WHERE b.run_id = $1 AND NOT b.complete "
			"ORDER BY b.started DESC, b.id DESC", SQL_ARGS(SQL_INT(run_id)),
			&state_shape, out, nr, err, "find the run's incomplete batches");
}

int batches_left_unsampled(struct store *st, const char *name, struct batch_state **out,
			   size_t *nr, struct error *err)
{
	return sql_list(st, SELECT_BATCH_STATE "WHERE r.name = $1 AND " LEFT_UNSAMPLED,
			SQL_ARGS(SQL_TEXT(name)), &state_shape, out, nr, err,
			"find the batches a killed experiment left");
}

int batch_delete(struct store *st, int64_t batch_id, struct error *err, const char *what)
{
	return sql_exec(st, "DELETE FROM batches WHERE id = $1", SQL_ARGS(SQL_INT(batch_id)),
			err, what);
}

void batch_state_release(struct batch_state *state)
{
	sql_release(&state_shape, state);
}

void batch_states_release(struct batch_state *states, size_t nr)
{
	sql_release_list(&state_shape, states, nr);
}

int batch_set_writer(struct store *st, int64_t batch_id, const struct batch_writer *writer,
		     struct error *err)
{
	return sql_exec(st, "UPDATE batches SET writer_boot = $1, writer_pid = $2, "
			"writer_start = $3, tasks_pgid = $4, tasks_start = $5 WHERE id = $6",
			SQL_ARGS(SQL_PROCESS(&writer->runner), SQL_PID_START(&writer->tasks),
				 SQL_INT(batch_id)),
			err, "record the batch's writer");
}

/*
 * A replacing batch takes its run's place only now, complete; until then
 * readers see the earlier batches. Those begun after it (larger ids) stay,
 * and so do other machines': a run's name (the kernel release by default)
 * is shared by the machines of a fleet, and one machine's --replace must
 * not discard another's results.
 */
int batch_finish(struct store *st, int64_t batch_id, bool complete, bool measured,
		 struct error *err)
{
	struct batch_state state = { 0 };
	int rc = batch_get(st, batch_id, &state, err);

	/* one that measured nothing replaces nothing: it stays hidden, resumable */
	if (!rc && state.replacing && !measured)
		complete = false;
	/*
	 * nor is a job's stored: its job fails, and its batches are whole or
	 * not at all (unfinished, they hold no run name once it has failed)
	 */
	if (!measured && st->job_id)
		complete = false;
	rc = rc || sql_exec(st, "UPDATE batches SET complete = $1, finished = {now} WHERE id = $2",
			    SQL_ARGS(SQL_INT(complete), SQL_INT(batch_id)), err,
			    "finish the batch") ||
	     (complete && state.replacing &&
	      sql_exec(st, "DELETE FROM batches WHERE run_id = $1 AND id < $2 AND "
		       MACHINE_OF("batches.id") " = " MACHINE_OF("$2"),
		       SQL_ARGS(SQL_INT(state.run_id), SQL_INT(batch_id)), err,
		       "discard earlier batches")) ? -1 : 0;
	batch_state_release(&state);
	return rc;
}

static int env_row(struct load *l, struct store_stmt *s, struct error *err)
{
	struct result_batch *batch = load_batch(l, sql_int(s, 0));

	if (batch)
		result_batch_add_env(batch, sql_text(s, 1), sql_text(s, 2));
	return 0;
}

/* Fill the batches of @l (their ids set) with their environments. */
static int env_read(struct load *l, struct error *err)
{
	return load_rows(l, "SELECT batch_id, key, value FROM environment ORDER BY batch_id, key",
			 "SELECT batch_id, key, value FROM environment WHERE batch_id = $1 "
			 "ORDER BY key", env_row, err);
}

/* Fill the batches of @l (their ids set) with their benchmarks and parts. */
static int benchmark_parts_read(struct load *l, struct error *err)
{
	int rc;

	rc = benchmarks_read(l, err) ||
	     (l->parts & STORE_SAMPLES && samples_read(l, err)) ||
	     (l->parts & STORE_COUNTS && counts_read(l, err)) ||
	     (l->parts & STORE_PROFILES && profiles_read(l, err));
	return rc ? -1 : 0;
}

/* What a load kept to find its rows' batches, benchmarks and metrics. */
static void load_release(struct load *l)
{
	free(l->benches);
	free(l->batches_by_id.ids);
	free(l->benches_by_id.ids);
	free(l->metric_ids);
	free(l->metric_positions);
	free(l->metrics_by_id.ids);
}

/*
 * A run's batches, or the whole store's: two texts, since SQLite uses the
 * index on runs.name only for a query that names a run (an "$1 IS NULL OR"
 * read every batch once for each run loaded). sampled: a plan whose
 * benchmarks count no iterations, as run --resume finds it (runner/plan.c);
 * a plan's text holds "iterations": only as its key, since a value's quote
 * would be escaped.
 */
#define LOAD_BATCHES(where)							\
	"SELECT b.id, r.name, b.started, b.complete, CASE WHEN b.plan IS NOT NULL AND "	\
	"b.plan NOT LIKE '%\"iterations\":%' THEN 1 ELSE 0 END FROM batches b JOIN runs r "	\
	"ON r.id = b.run_id WHERE " where "(b.complete OR (NOT b.replacing AND "	\
	"b.job_id IS NULL)) ORDER BY b.started, b.id"

#define LOADED(t, field) SQL_FIELD(t, struct result_batch, field)
static const struct sql_field loaded_fields[] = {
	LOADED(INT, id), LOADED(TEXT, name), LOADED(TEXT, started), LOADED(INT, complete),
	LOADED(INT, sampled),
};
static const struct sql_shape loaded_shape = SQL_SHAPE(struct result_batch, loaded_fields);

/* The batches of run @name (every run's when NULL) appended to @set: their ids, names, starts. */
static int batches_read(struct store *st, const char *name, struct result_set *set,
			struct error *err)
{
	struct store_stmt *s;
	int rc;

	s = name ? sql_query(st, LOAD_BATCHES("r.name = $1 AND "), SQL_ARGS(SQL_TEXT(name)), err) :
		   sql_query(st, LOAD_BATCHES(""), SQL_NO_ARGS, err);
	if (!s)
		return -1;
	while ((rc = sql_step(s, err, "read the results")) > 0)
		sql_read(s, &loaded_shape, result_set_add_batch(set));
	sql_done(s);
	return rc;
}

int batches_load(struct store *st, const char *name, unsigned parts,
		 struct result_set *set, struct error *err)
{
	struct load l = { .st = st, .set = set, .first = set->nr_batches, .whole = !name,
			  .parts = parts };
	int rc = batches_read(st, name, set, err);

	if (!rc && set->nr_batches > l.first)
		rc = env_read(&l, err) || benchmark_parts_read(&l, err) ? -1 : 0;
	load_release(&l);
	return rc;
}

/*
 * Batches @from .. @to of @set read together, through a view of @set that
 * holds them alone, so that the load's lookups and passes are those of a
 * load of them (by the whole store's queries when @whole); then handed to
 * @each one by one, and released. *@metrics: how many metrics they had.
 */
static int load_view(struct store *st, unsigned parts, struct result_set *set, size_t from,
		     size_t to, bool whole, const struct store_each *each, size_t *metrics,
		     struct error *err)
{
	struct result_set view = { &set->batches[from], to - from };
	struct load l = { .st = st, .set = &view, .whole = whole, .parts = parts };
	int rc = benchmark_parts_read(&l, err);

	load_release(&l);
	*metrics = l.nr_metric_ids;
	for (size_t i = from; i < to && !rc; i++)
		rc = each->batch(set, i, each->arg, err);
	for (size_t i = from; i < to; i++)
		result_batch_drop_benchmarks(&set->batches[i]);
	return rc;
}

/*
 * A batch at a time by the queries of one batch, which cost more a batch
 * than the whole store's: a store whose batches are smaller than its
 * driver's load_each_metrics (driver.h) is read whole after its first, as
 * it holds little a batch (the first batch stands for the others: a
 * store's runs are mostly of one suite).
 */
int batches_load_each(struct store *st, unsigned parts, struct result_set *set,
		      const struct store_each *each, struct error *err)
{
	struct load l = { .st = st, .set = set, .whole = true };
	size_t metrics;
	int rc = batches_read(st, NULL, set, err);

	if (!rc && set->nr_batches)
		rc = env_read(&l, err);
	load_release(&l);
	if (rc || (each->chosen && each->chosen(set, each->arg, err)))
		return -1;
	if (!set->nr_batches)
		return 0;
	rc = load_view(st, parts, set, 0, 1, false, each, &metrics, err);
	if (!rc && metrics < st->driver->load_each_metrics)
		return load_view(st, parts, set, 1, set->nr_batches, true, each, &metrics, err);
	for (size_t i = 1; i < set->nr_batches && !rc; i++)
		rc = load_view(st, parts, set, i, i + 1, false, each, &metrics, err);
	return rc;
}

/* As LOAD_BATCHES(): one text for a run, one for the whole store. */
#define UNFINISHED(where)							\
	"SELECT b.id, r.name, b.started FROM " BATCHES_AND_RUNS " "		\
	"WHERE " where "b.replacing AND NOT b.complete ORDER BY r.name, b.started, b.id"

#define UNFINISHED_ROW(t, field) SQL_FIELD(t, struct unfinished_replacement, field)
static const struct sql_field unfinished_fields[] = {
	UNFINISHED_ROW(INT, batch_id), UNFINISHED_ROW(TEXT, name), UNFINISHED_ROW(TEXT, started),
};
static const struct sql_shape unfinished_shape =
	SQL_SHAPE(struct unfinished_replacement, unfinished_fields);

int store_unfinished_replacements(struct store *st, const char *name,
				  struct unfinished_replacement **list, size_t *nr,
				  struct error *err)
{
	const char *what = "read the unfinished replacements";

	*list = NULL;
	*nr = 0;
	return IN_READ_TXN(st, err, name ?
			   sql_list(st, UNFINISHED("r.name = $1 AND "), SQL_ARGS(SQL_TEXT(name)),
				    &unfinished_shape, list, nr, err, what) :
			   sql_list(st, UNFINISHED(""), SQL_NO_ARGS, &unfinished_shape, list, nr,
				    err, what));
}

void unfinished_replacements_release(struct unfinished_replacement *list, size_t nr)
{
	sql_release_list(&unfinished_shape, list, nr);
}

/* A batch whose start is not an ISO 8601 time, in the pages sql_check_pages() reads. */
static void batch_started_row(struct store_stmt *s, struct sql_arg *args, char *buf, size_t len)
{
	char normal[64], shown[3 * 64 + 1];
	const char *why = iso8601(sql_text(s, 1), normal, sizeof(normal));

	args[0] = SQL_INT(sql_int(s, 0));
	if (!why)
		return;
	utf8_escape(shown, sizeof(shown), sql_text(s, 1));
	snprintf(buf, len, "the start of a batch of run '%.64s', '%s', is %s (restore the store "
		 "from a backup)", sql_text(s, 2), shown, why);
}

const struct sql_check batches_damage = {
	"SELECT b.id, b.started, r.name FROM " BATCHES_AND_RUNS " "
	"WHERE b.id > $1 ORDER BY b.id LIMIT $2", 1, 1000, batch_started_row, 0,
};
