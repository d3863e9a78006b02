// SPDX-License-Identifier: GPL-2.0
/*
 * The SQLite store's schema and its history.
 *
 * A run is a name; each `schedperf run` under that name adds a batch (after
 * a reboot, say). A batch records its environment and benchmarks (a
 * workload with its full parameter set); a benchmark has its metrics and
 * iterations; a sample is one metric's value in one iteration, or in one
 * repetition of it for a metric that a workload measures several times per
 * iteration (futex-wake's `repeat`). Absent values have no row: an
 * unsupported counter is never a zero.
 *
 * Ids are never reused (AUTOINCREMENT): a process that still holds the id
 * of a batch that another deleted must fail on its next insert, never
 * write into whatever batch got the id next (store.c, "Writers").
 *
 * The version is PRAGMA user_version; PRAGMA application_id marks the file
 * as a schedperf store, so that a command never takes another program's
 * database for one. A new version is one more entry in migrations[] (the
 * SQL that turns the version before into it, run in the same transaction
 * as every other step a store needs) and, in schema_current, the tables as
 * that version has them; tests/unit/test_store.c checks that an upgraded
 * store and a new one have the same tables.
 */
#include <stdio.h>
#include <string.h>

#include "store/sqlite_schema.h"
#include "store/sqlite_stmt.h"
#include "util/array.h"
#include "util/sqlite_file.h"

#define APPLICATION_ID SQLITE_FILE_SCHEDPERF_ID

/* Tables as they are since version 2, unchanged since. */
#define SAMPLES_V2(name)							\
	"CREATE TABLE " name " ("						\
	"  iteration_id INTEGER NOT NULL REFERENCES iterations(id) ON DELETE CASCADE,"	\
	"  metric_id INTEGER NOT NULL REFERENCES metrics(id) ON DELETE CASCADE,"	\
	"  rep INTEGER NOT NULL DEFAULT 0 CHECK (rep >= 0),"			\
	"  value REAL NOT NULL,"						\
	"  PRIMARY KEY (iteration_id, metric_id, rep)) WITHOUT ROWID;"

#define ENVIRONMENT_V1								\
	"CREATE TABLE environment ("						\
	"  batch_id INTEGER NOT NULL REFERENCES batches(id) ON DELETE CASCADE,"	\
	"  key TEXT NOT NULL,"							\
	"  value TEXT NOT NULL,"						\
	"  PRIMARY KEY (batch_id, key)) WITHOUT ROWID;"

/* Version 3: ids never reused; a batch knows its writer and whether it replaces. */
#define RUNS_V3(name)								\
	"CREATE TABLE " name " ("						\
	"  id INTEGER PRIMARY KEY AUTOINCREMENT,"				\
	"  name TEXT NOT NULL UNIQUE);"

/*
 * writer_*: the process running the batch (boot id, pid, start time);
 * tasks_*: the process group of the iteration it runs now, by its leader.
 */
#define BATCHES_COLUMNS_V3							\
	"  id INTEGER PRIMARY KEY AUTOINCREMENT,"				\
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"	\
	"  started TEXT NOT NULL,"						\
	"  finished TEXT,"							\
	"  complete INTEGER NOT NULL DEFAULT 0,"				\
	"  replacing INTEGER NOT NULL DEFAULT 0,"				\
	"  plan TEXT,"								\
	"  writer_boot TEXT,"							\
	"  writer_pid INTEGER,"							\
	"  writer_start INTEGER,"						\
	"  tasks_pgid INTEGER,"							\
	"  tasks_start INTEGER,"

#define BATCHES_V3(name)							\
	"CREATE TABLE " name " ("						\
	BATCHES_COLUMNS_V3							\
	"  UNIQUE (run_id, started));"

#define BENCHMARKS_V3(name)							\
	"CREATE TABLE " name " ("						\
	"  id INTEGER PRIMARY KEY AUTOINCREMENT,"				\
	"  batch_id INTEGER NOT NULL REFERENCES batches(id) ON DELETE CASCADE,"	\
	"  position INTEGER NOT NULL,"						\
	"  workload TEXT NOT NULL,"						\
	"  params TEXT NOT NULL);"

#define METRICS_V3(name)							\
	"CREATE TABLE " name " ("						\
	"  id INTEGER PRIMARY KEY AUTOINCREMENT,"				\
	"  benchmark_id INTEGER NOT NULL REFERENCES benchmarks(id) ON DELETE CASCADE,"	\
	"  position INTEGER NOT NULL,"						\
	"  name TEXT NOT NULL,"							\
	"  unit TEXT NOT NULL,"							\
	"  better TEXT NOT NULL CHECK (better IN ('lower', 'higher')),"		\
	"  source TEXT NOT NULL,"						\
	"  repetitions INTEGER NOT NULL DEFAULT 1 CHECK (repetitions >= 1),"	\
	"  UNIQUE (benchmark_id, name));"

/* @more: the columns a later version adds, each followed by a comma. */
#define ITERATIONS(name, more)							\
	"CREATE TABLE " name " ("						\
	"  id INTEGER PRIMARY KEY AUTOINCREMENT,"				\
	"  benchmark_id INTEGER NOT NULL REFERENCES benchmarks(id) ON DELETE CASCADE,"	\
	"  seq INTEGER NOT NULL,"						\
	"  warmup INTEGER NOT NULL,"						\
	"  failure TEXT,"							\
	more									\
	"  UNIQUE (benchmark_id, seq));"

#define ITERATIONS_V3(name) ITERATIONS(name, "")

/*
 * Version 4: the job queue (src/store/store.h, "Jobs"). A batch that a
 * job's run writes names the job and the claim it ran under; it is seen
 * only once complete, and completing it completes the job.
 */
#define BATCHES_V4(name)							\
	"CREATE TABLE " name " ("						\
	BATCHES_COLUMNS_V3							\
	"  job_id INTEGER REFERENCES jobs(id) ON DELETE SET NULL,"		\
	"  job_claim TEXT,"							\
	"  UNIQUE (run_id, started));"

#define JOBS_V4 JOBS_TABLE("")

/*
 * Version 7: how often a job may be claimed before it fails
 * (STORE_JOB_MAX_ATTEMPTS by default); the column comes last, where
 * ALTER TABLE puts it.
 */
#define MAX_ATTEMPTS_V7								\
	"max_attempts INTEGER NOT NULL DEFAULT 3 CHECK (max_attempts >= 1)"

/*
 * Version 9: a job is a run, an ab or a bisect-step (store.h, "Jobs"),
 * and keeps what the command decided (ab's or bisect-step's verdict as
 * JSON; NULL for a run, whose result is its batch). A job of an older
 * store is a run. A journalled original is one machine's (its id: one
 * store serves many); one of an older store has machine '', any machine's.
 */
#define COMMAND_V9								\
	"command TEXT NOT NULL DEFAULT 'run' CHECK (command IN "		\
	"('run', 'ab', 'bisect-step'))"
#define RESULT_V9 "result TEXT"
#define JOBS_V9 JOBS_TABLE(", " MAX_ATTEMPTS_V7 ", " COMMAND_V9 ", " RESULT_V9)

/*
 * Also version 9: the failed iterations of a benchmark found without
 * reading the others (reading a store counts them for every benchmark:
 * 12 % of reading 100,000 benchmarks of three iterations each).
 */
#define ITERATIONS_FAILED_V9							\
	"CREATE INDEX iterations_failed ON iterations(benchmark_id) "		\
	"WHERE failure IS NOT NULL;"

_Static_assert(STORE_JOB_MAX_ATTEMPTS == 3, "MAX_ATTEMPTS_V7 spells the default");

#define JOBS_TABLE(more)							\
	"CREATE TABLE jobs ("							\
	"  id INTEGER PRIMARY KEY AUTOINCREMENT,"				\
	"  state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN "		\
	"    ('queued', 'running', 'done', 'failed', 'cancelled')),"		\
	"  args TEXT NOT NULL,"							\
	"  machine TEXT NOT NULL,"						\
	"  machine_like TEXT NOT NULL,"						\
	"  priority INTEGER NOT NULL DEFAULT 0,"				\
	"  submitted TEXT NOT NULL,"						\
	"  since TEXT NOT NULL,"						\
	"  attempts INTEGER NOT NULL DEFAULT 0,"				\
	"  worker TEXT,"							\
	"  claim TEXT,"								\
	"  lease_until TEXT,"							\
	"  reason TEXT,"							\
	"  result_batch INTEGER REFERENCES batches(id) ON DELETE SET NULL"	\
	more ");"								\
	"CREATE INDEX jobs_queue ON jobs(state, priority, id);"

/*
 * Version 5: the knob journal of `schedperf ab` (store.h), its writer by
 * boot id, pid and start time as a batch's.
 */
#define KNOB_JOURNAL_COLUMNS							\
	"  id INTEGER PRIMARY KEY AUTOINCREMENT,"				\
	"  kind TEXT NOT NULL CHECK (kind IN ('sysctl', 'feature')),"		\
	"  name TEXT NOT NULL,"							\
	"  original TEXT NOT NULL,"						\
	"  writer_boot TEXT NOT NULL,"						\
	"  writer_pid INTEGER NOT NULL,"					\
	"  writer_start INTEGER NOT NULL,"					\
	"  started TEXT NOT NULL,"

#define KNOB_JOURNAL_V5								\
	"CREATE TABLE knob_journal (" KNOB_JOURNAL_COLUMNS			\
	"  UNIQUE (kind, name));"

/* Version 9: the machine the original is of (see JOBS_V9's comment). */
#define KNOB_JOURNAL_V9(name)							\
	"CREATE TABLE " name " (" KNOB_JOURNAL_COLUMNS				\
	"  machine TEXT NOT NULL DEFAULT '',"					\
	"  UNIQUE (machine, kind, name));"

/*
 * Version 6: what other tasks took from each iteration (doc/design.md,
 * "Interference"), NULL when it was not measured, the tasks that took
 * most, and when it ran (seconds since the epoch, from its go to its
 * reap). The columns come last, where ALTER TABLE puts them in an upgrade.
 */
#define ITERATIONS_V6_COLUMNS							\
	"  cpu_taken REAL,"							\
	"  cpu_steal REAL,"							\
	"  cpu_available REAL,"							\
	"  disturbed INTEGER NOT NULL DEFAULT 0,"				\
	"  rerun INTEGER NOT NULL DEFAULT 0,"					\
	"  started REAL,"							\
	"  ended REAL,"

#define ITERATIONS_V6(name) ITERATIONS(name, ITERATIONS_V6_COLUMNS)

#define CULPRITS_V6								\
	"CREATE TABLE culprits ("						\
	"  iteration_id INTEGER NOT NULL REFERENCES iterations(id) ON DELETE CASCADE,"	\
	"  rank INTEGER NOT NULL CHECK (rank >= 0),"				\
	"  pid INTEGER NOT NULL,"						\
	"  name TEXT NOT NULL,"							\
	"  cpu REAL NOT NULL,"							\
	"  PRIMARY KEY (iteration_id, rank)) WITHOUT ROWID;"

/*
 * Version 8: CPU profiles (the profile monitor). A profile belongs to a
 * benchmark and the iteration it was taken in (seq), or to an extra
 * iteration run only to be profiled (extra = 1, seq counting those); a
 * symbol's self and children are the weight of its samples, of total.
 */
#define PROFILES_V8							\
	"CREATE TABLE profiles ("						\
	"  id INTEGER PRIMARY KEY AUTOINCREMENT,"				\
	"  benchmark_id INTEGER NOT NULL REFERENCES benchmarks(id) ON DELETE CASCADE,"	\
	"  seq INTEGER NOT NULL,"						\
	"  extra INTEGER NOT NULL CHECK (extra IN (0, 1)),"			\
	"  event TEXT NOT NULL,"						\
	"  scope TEXT NOT NULL,"						\
	"  frequency INTEGER NOT NULL,"						\
	"  samples INTEGER NOT NULL,"						\
	"  lost INTEGER NOT NULL,"						\
	"  total INTEGER NOT NULL,"						\
	"  UNIQUE (benchmark_id, extra, seq));"					\
	"CREATE TABLE profile_symbols ("					\
	"  profile_id INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,"	\
	"  position INTEGER NOT NULL,"						\
	"  name TEXT NOT NULL,"							\
	"  dso TEXT NOT NULL,"							\
	"  self INTEGER NOT NULL,"						\
	"  children INTEGER NOT NULL,"						\
	"  PRIMARY KEY (profile_id, position)) WITHOUT ROWID;"

/*
 * Version 10: bisections (schedperf bisect), one row each: the repository
 * and machine it bisects, its state, and its record as JSON
 * (doc/design.md, "Bisection"), rewritten after each step.
 */
#define BISECTIONS_V10								\
	"CREATE TABLE bisections ("						\
	"  id INTEGER PRIMARY KEY AUTOINCREMENT,"				\
	"  repo TEXT NOT NULL,"							\
	"  machine TEXT NOT NULL,"						\
	"  state TEXT NOT NULL CHECK (state IN "				\
	"    ('running', 'interrupted', 'done', 'failed', 'abandoned')),"	\
	"  started TEXT NOT NULL,"						\
	"  doc TEXT NOT NULL);"							\
	"CREATE INDEX bisections_repo ON bisections(repo, machine);"

#define STAMP(version)								\
	"PRAGMA application_id = 1399023696;"					\
	"PRAGMA user_version = " #version ";"

_Static_assert(APPLICATION_ID == 1399023696, "STAMP() spells APPLICATION_ID");

static const char schema_current[] =
	RUNS_V3("runs")
	BATCHES_V4("batches")
	JOBS_V9
	ENVIRONMENT_V1
	BENCHMARKS_V3("benchmarks")
	"CREATE INDEX benchmarks_batch ON benchmarks(batch_id, position);"
	METRICS_V3("metrics")
	ITERATIONS_V6("iterations")
	ITERATIONS_FAILED_V9
	SAMPLES_V2("samples")
	"CREATE INDEX samples_metric ON samples(metric_id);"
	KNOB_JOURNAL_V9("knob_journal")
	CULPRITS_V6
	PROFILES_V8
	BISECTIONS_V10
	STAMP(10);

/* Version 1 had no repetitions: its samples become repetition 0. */
static const char upgrade_v1_to_v2[] =
	"ALTER TABLE metrics ADD COLUMN repetitions INTEGER NOT NULL DEFAULT 1 "
	"  CHECK (repetitions >= 1);"
	SAMPLES_V2("samples_v2")
	"INSERT INTO samples_v2 (iteration_id, metric_id, rep, value) "
	"  SELECT iteration_id, metric_id, 0, value FROM samples;"
	"DROP TABLE samples;"
	"ALTER TABLE samples_v2 RENAME TO samples;"
	"CREATE INDEX samples_metric ON samples(metric_id);"
	"PRAGMA user_version = 2;";

/*
 * AUTOINCREMENT cannot be added to a table: each table with ids is built
 * again and its rows copied, ids kept (sqlite_sequence starts above the
 * largest). The batch's pid becomes writer_pid, with no start time: such a
 * writer is taken for gone (see process.h).
 */
#define REBUILD(table, def, columns, from)					\
	def(table "_v3")							\
	"INSERT INTO " table "_v3 (" columns ") SELECT " from " FROM " table ";"	\
	"DROP TABLE " table ";"							\
	"ALTER TABLE " table "_v3 RENAME TO " table ";"

static const char upgrade_v2_to_v3[] =
	REBUILD("runs", RUNS_V3, "id, name", "id, name")
	REBUILD("batches", BATCHES_V3,
		"id, run_id, started, finished, complete, plan, writer_pid",
		"id, run_id, started, finished, complete, plan, pid")
	REBUILD("benchmarks", BENCHMARKS_V3, "id, batch_id, position, workload, params",
		"id, batch_id, position, workload, params")
	"CREATE INDEX benchmarks_batch ON benchmarks(batch_id, position);"
	REBUILD("metrics", METRICS_V3,
		"id, benchmark_id, position, name, unit, better, source, repetitions",
		"id, benchmark_id, position, name, unit, better, source, repetitions")
	REBUILD("iterations", ITERATIONS_V3, "id, benchmark_id, seq, warmup, failure",
		"id, benchmark_id, seq, warmup, failure")
	STAMP(3);

static const char upgrade_v3_to_v4[] =
	JOBS_V4
	"ALTER TABLE batches ADD COLUMN job_id INTEGER REFERENCES jobs(id) ON DELETE SET NULL;"
	"ALTER TABLE batches ADD COLUMN job_claim TEXT;"
	STAMP(4);

static const char upgrade_v4_to_v5[] =
	KNOB_JOURNAL_V5
	STAMP(5);

/* Iterations before version 6 have no interference measured: NULL, not zero. */
static const char upgrade_v5_to_v6[] =
	"ALTER TABLE iterations ADD COLUMN cpu_taken REAL;"
	"ALTER TABLE iterations ADD COLUMN cpu_steal REAL;"
	"ALTER TABLE iterations ADD COLUMN cpu_available REAL;"
	"ALTER TABLE iterations ADD COLUMN disturbed INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE iterations ADD COLUMN rerun INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE iterations ADD COLUMN started REAL;"
	"ALTER TABLE iterations ADD COLUMN ended REAL;"
	CULPRITS_V6
	STAMP(6);

/* Jobs before version 7 may be claimed as often as the default allows. */
static const char upgrade_v6_to_v7[] =
	"ALTER TABLE jobs ADD COLUMN " MAX_ATTEMPTS_V7 ";"
	STAMP(7);

static const char upgrade_v7_to_v8[] =
	PROFILES_V8
	STAMP(8);

/* Jobs before version 9 are runs; originals journalled before it, any machine's. */
#define KNOB_JOURNAL_V5_COLUMNS							\
	"id, kind, name, original, writer_boot, writer_pid, writer_start, started"

static const char upgrade_v8_to_v9[] =
	"ALTER TABLE jobs ADD COLUMN " COMMAND_V9 ";"
	"ALTER TABLE jobs ADD COLUMN " RESULT_V9 ";"
	REBUILD("knob_journal", KNOB_JOURNAL_V9, KNOB_JOURNAL_V5_COLUMNS,
		KNOB_JOURNAL_V5_COLUMNS)
	ITERATIONS_FAILED_V9
	STAMP(9);

static const char upgrade_v9_to_v10[] =
	BISECTIONS_V10
	STAMP(10);

/* The history: migrations[i] turns version i + 1 into i + 2. */
static const char *const migrations[] = {
	upgrade_v1_to_v2,
	upgrade_v2_to_v3,
	upgrade_v3_to_v4,
	upgrade_v4_to_v5,
	upgrade_v5_to_v6,
	upgrade_v6_to_v7,
	upgrade_v7_to_v8,
	upgrade_v8_to_v9,
	upgrade_v9_to_v10,
};

_Static_assert(ARRAY_SIZE(migrations) == STORE_SCHEMA_VERSION - 1,
	       "one migration per schema version after the first");

/* What a database says of itself. */
struct schema_facts {
	int version;		/* PRAGMA user_version */
	int application_id;
	int objects;		/* tables, indexes ... in sqlite_master */
	bool store_tables;	/* the six tables every version has */
};

static int pragma_int(struct sqlite_store *ss, const char *sql, int *out, struct error *err)
{
	sqlite3_stmt *stmt = sqlite_prepare(ss, sql, err);
	int rc;

	if (!stmt)
		return -1;
	rc = sqlite_step(ss, stmt, err, "read the schema");
	if (rc == 0)
		rc = error_set(err, EXIT_INTERNAL, "'%s' returned no row", sql);
	if (rc > 0)
		*out = sqlite3_column_int(stmt, 0);
	sqlite3_finalize(stmt);
	return rc > 0 ? 0 : -1;
}

static int read_facts(struct sqlite_store *ss, struct schema_facts *facts, struct error *err)
{
	int tables;

	if (pragma_int(ss, "PRAGMA user_version", &facts->version, err) ||
	    pragma_int(ss, "PRAGMA application_id", &facts->application_id, err) ||
	    pragma_int(ss, "SELECT count(*) FROM sqlite_master", &facts->objects, err) ||
	    pragma_int(ss, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
		       "name IN ('runs', 'batches', 'environment', 'benchmarks', 'metrics', "
		       "'samples')", &tables, err))
		return -1;
	facts->store_tables = tables == 6;
	return 0;
}

/*
 * 1: a schedperf store (facts->version says which); 0: an empty database,
 * which a writer makes a store; -1 with @err: another program's database,
 * or a store of a newer schema. Stores before version 3 have no
 * application id and are known by their version and tables.
 */
static int identify(struct sqlite_store *ss, const struct schema_facts *facts,
		    struct error *err)
{
	const char *path = ss->base.location;

	if (facts->application_id == APPLICATION_ID) {
		if (facts->version > STORE_SCHEMA_VERSION)
			return store_too_new(path, facts->version, err);
		if (facts->version >= 1 && facts->store_tables)
			return 1;
		return store_not_ours(path, "its schedperf tables are missing", err);
	}
	if (facts->application_id)
		return store_not_ours(path, "it is another program's SQLite database", err);
	if (!facts->version && !facts->objects)
		return 0;
	if (facts->version >= 1 && facts->version < 3 && facts->store_tables)
		return 1;
	return store_not_ours(path, "it is an SQLite database with other tables", err);
}

/*
 * Where the schema stands: -1 with @err when the database is refused, 0
 * when it is current, 1 when migrate() must bring it from *version (0: an
 * empty database).
 */
static int schema_behind(struct sqlite_store *ss, int *version, struct error *err)
{
	struct schema_facts facts;
	int rc;

	if (read_facts(ss, &facts, err))
		return -1;
	rc = identify(ss, &facts, err);
	if (rc < 0)
		return -1;
	*version = rc ? facts.version : 0;
	return *version != STORE_SCHEMA_VERSION;
}

int sqlite_schema_check(struct sqlite_store *ss, bool empty_ok, struct error *err)
{
	int version;

	if (schema_behind(ss, &version, err) < 0)
		return -1;
	if (!version && !empty_ok)
		return store_not_ours(ss->base.location, "it is an empty database", err);
	return version;
}

/* Create the schema, or run the migrations from @version; in a transaction. */
static int migrate(struct sqlite_store *ss, int version, struct error *err)
{
	char what[64];

	if (!version)
		return sqlite_exec(ss, schema_current, err, "create the schema");
	for (int v = version; v < STORE_SCHEMA_VERSION; v++) {
		snprintf(what, sizeof(what), "upgrade the schema from version %d to %d", v,
			 v + 1);
		if (sqlite_exec(ss, migrations[v - 1], err, what))
			return -1;
	}
	return 0;
}

/* Every reference still leads somewhere after a migration. */
static int references_intact(struct sqlite_store *ss, struct error *err)
{
	sqlite3_stmt *stmt = sqlite_prepare(ss, "PRAGMA foreign_key_check", err);
	int rc;

	if (!stmt)
		return -1;
	rc = sqlite_step(ss, stmt, err, "check the upgraded schema");
	if (rc > 0)
		error_set(err, EXIT_ENV, "cannot upgrade store '%s': table %s has rows whose "
			  "references lead nowhere; nothing was changed (check the file with "
			  "'sqlite3 FILE \"PRAGMA foreign_key_check\"')", ss->base.location,
			  (const char *)sqlite3_column_text(stmt, 0));
	sqlite3_finalize(stmt);
	return rc ? -1 : 0;
}

/*
 * Under the write lock, the facts again: another process may have created
 * or upgraded the store between our first look and our lock.
 */
static int upgrade_locked(struct sqlite_store *ss, struct error *err)
{
	int version, rc = schema_behind(ss, &version, err);

	if (rc <= 0)
		return rc;
	if (migrate(ss, version, err))
		return -1;
	return references_intact(ss, err);
}

int sqlite_schema_upgrade(struct sqlite_store *ss, struct error *err)
{
	int version, rc = schema_behind(ss, &version, err);

	if (rc <= 0)
		return rc;
	/*
	 * Tables are rebuilt: with foreign keys on, dropping one would delete
	 * the rows that refer to it. The pragma is a no-op inside a
	 * transaction, so it is set around it.
	 */
	if (sqlite_exec(ss, "PRAGMA foreign_keys = OFF", err, "prepare the upgrade"))
		return -1;
	rc = sqlite_exec(ss, "BEGIN IMMEDIATE", err, "start the upgrade");
	if (!rc) {
		rc = upgrade_locked(ss, err);
		if (!rc)
			rc = sqlite_exec(ss, "COMMIT", err, "commit the upgrade");
		if (rc && !sqlite3_get_autocommit(ss->db))
			sqlite3_exec(ss->db, "ROLLBACK", NULL, NULL, NULL);
	}
	if (sqlite_exec(ss, "PRAGMA foreign_keys = ON", rc ? NULL : err,
			"enable foreign keys"))
		return -1;
	return rc;
}

/* The first row's text of @sql, when it gives one, into @buf; 0, or -1 with @err. */
static int first_text(struct sqlite_store *ss, const char *sql, char *buf, size_t len,
		      struct error *err)
{
	sqlite3_stmt *stmt = sqlite_prepare(ss, sql, err);
	int rc;

	buf[0] = '\0';
	if (!stmt)
		return -1;
	rc = sqlite_step(ss, stmt, err, "check the store");
	if (rc > 0)
		snprintf(buf, len, "%s", (const char *)sqlite3_column_text(stmt, 0));
	for (char *nl = strchr(buf, '\n'); nl; nl = strchr(nl, '\n'))
		*nl = ' ';	/* the report is one line */
	sqlite3_finalize(stmt);
	return rc < 0 ? -1 : 0;
}

/* Each column of each table, "table.column TYPE [NOT NULL]", in order. */
static const char columns_sql[] =
	"SELECT m.name || '.' || p.name || ' ' || p.type || "
	"  CASE WHEN p.\"notnull\" THEN ' NOT NULL' ELSE '' END "
	"FROM sqlite_master m, pragma_table_info(m.name) p "
	"WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY 1";

/* The next column of @stmt, or NULL at the end (or on an error, which @rc keeps). */
static const char *next_column(sqlite3_stmt *stmt, int *rc)
{
	if (*rc)
		return NULL;
	switch (sqlite3_step(stmt)) {
	case SQLITE_ROW:
		return (const char *)sqlite3_column_text(stmt, 0);
	case SQLITE_DONE:
		return NULL;
	default:
		*rc = -1;
		return NULL;
	}
}

/*
 * The first column that a new store has and @ss lacks, or that @ss has
 * and a new store does not, into @buf: both lists come sorted.
 */
static int columns_differ(struct sqlite_store *ss, char *buf, size_t len, struct error *err)
{
	sqlite3 *fresh = NULL;
	sqlite3_stmt *want = NULL, *have = NULL;
	const char *w, *h;
	int rc = 0;

	buf[0] = '\0';
	if (sqlite3_open_v2(":memory:", &fresh, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK ||
	    sqlite3_exec(fresh, schema_current, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(fresh, columns_sql, -1, &want, NULL) != SQLITE_OK) {
		rc = error_set(err, EXIT_INTERNAL, "cannot build the schema to compare store "
			       "'%s' with: %s", ss->base.location, sqlite3_errmsg(fresh));
		goto out;
	}
	have = sqlite_prepare(ss, columns_sql, err);
	if (!have) {
		rc = -1;
		goto out;
	}
	w = next_column(want, &rc);
	h = next_column(have, &rc);
	while (!rc && (w || h) && !buf[0]) {
		int order = !w ? 1 : !h ? -1 : strcmp(w, h);

		if (order < 0)
			snprintf(buf, len, "column %s is missing", w);
		else if (order > 0)
			snprintf(buf, len, "column %s is not schedperf's", h);
		w = order <= 0 ? next_column(want, &rc) : w;
		h = order >= 0 ? next_column(have, &rc) : h;
	}
	if (rc)
		sqlite_error(ss, err, "check the store's tables");
out:
	sqlite3_finalize(want);
	sqlite3_finalize(have);
	sqlite3_close(fresh);
	return rc;
}

int sqlite_schema_damage(struct store *st, int version, char *buf, size_t len,
			 struct error *err)
{
	struct sqlite_store *ss = sqlite_of(st);
	char what[256];

	if (first_text(ss, "PRAGMA integrity_check(1)", what, sizeof(what), err))
		return -1;
	if (strcmp(what, "ok")) {
		snprintf(buf, len, "SQLite's integrity check says: %s (restore it from a "
			 "backup; 'sqlite3 FILE .recover' may save its rows)", what);
		return 0;
	}
	if (first_text(ss, "PRAGMA foreign_key_check", what, sizeof(what), err))
		return -1;
	if (what[0]) {
		snprintf(buf, len, "table %s has rows whose references lead nowhere (see "
			 "them with 'sqlite3 FILE \"PRAGMA foreign_key_check\"')", what);
		return 0;
	}
	if (version < STORE_SCHEMA_VERSION)
		return 0;
	if (columns_differ(ss, what, sizeof(what), err))
		return -1;
	if (what[0])
		snprintf(buf, len, "its tables are not those of schema version %d: %s (restore "
			 "it from a backup, or export its runs with the schedperf that made it)",
			 version, what);
	return 0;
}
