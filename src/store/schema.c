// SPDX-License-Identifier: GPL-2.0
/*
 * The store's schema and its history, in each dialect: one numbering,
 * STORE_SCHEMA_VERSION, so that one version says what a store holds on
 * either backend and results move between them unchanged.
 *
 * A run is a name; each `schedperf run` under that name adds a batch (after
 * a reboot, say). A batch records its environment and benchmarks (a
 * workload with its full parameter set); a benchmark has its metrics and
 * iterations; a sample is one metric's value in one iteration, or in one
 * repetition of it for a metric that a workload measures several times per
 * iteration (futex-wake's `repeat`). Absent values have no row: an
 * unsupported counter is never a zero.
 *
 * Ids are never reused (AUTOINCREMENT, identity columns): a process that
 * still holds the id of a batch that another deleted must fail on its next
 * insert, never write into whatever batch got the id next (transactions.c,
 * "Writers"). On PostgreSQL text that is sorted or compared (names, start
 * times, environment keys) is COLLATE "C": byte order, as SQLite sorts,
 * whatever the database's locale.
 *
 * A new SQLite store is made as sqlite_current, a PostgreSQL one as
 * version 3 (PostgreSQL stores begin there) brought up by the migrations.
 * A new version is one row of migrations[]: the SQL that turns the version
 * before into it, in SQLite's words and, where they differ, PostgreSQL's,
 * run in one transaction with the version stamped by the driver; and, in
 * sqlite_current, the tables as that version has them.
 * tests/unit/test_store.c checks that an upgraded store and a new one have
 * the same tables.
 */
#include <stdio.h>

#include "store/schema.h"
#include "store/sql.h"
#include "util/array.h"

/* ---- SQLite ---- */

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
 * Version 11: jobs that need a kernel (store.h, "Jobs"): the release, the
 * one its machine ran before it booted for it, and its boot's deadline
 * (ISO 8601 UTC text, as every time the queue compares), while its state
 * is 'booting' (PostgreSQL's queue only: an SQLite store's jobs table
 * holds what an import brings).
 */
#define JOBS_V11 JOBS_TABLE(", " MAX_ATTEMPTS_V7 ", " COMMAND_V9 ", " RESULT_V9	\
			    ", kernel TEXT, home_kernel TEXT, boot_deadline TEXT")

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
 * Version 12: any kind of setting (runner/knobs.h's table: sysfs,
 * scratch-cgroup ...), not only the first two; the columns otherwise
 * version 9's.
 */
#define KNOB_JOURNAL_V12(name)							\
	"CREATE TABLE " name " ("						\
	"  id INTEGER PRIMARY KEY AUTOINCREMENT,"				\
	"  kind TEXT NOT NULL CHECK (kind <> ''),"				\
	"  name TEXT NOT NULL,"							\
	"  original TEXT NOT NULL,"						\
	"  writer_boot TEXT NOT NULL,"						\
	"  writer_pid INTEGER NOT NULL,"					\
	"  writer_start INTEGER NOT NULL,"					\
	"  started TEXT NOT NULL,"						\
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

static const char sqlite_current[] =
	RUNS_V3("runs")
	BATCHES_V4("batches")
	JOBS_V11
	ENVIRONMENT_V1
	BENCHMARKS_V3("benchmarks")
	"CREATE INDEX benchmarks_batch ON benchmarks(batch_id, position);"
	METRICS_V3("metrics")
	ITERATIONS_V6("iterations")
	ITERATIONS_FAILED_V9
	SAMPLES_V2("samples")
	"CREATE INDEX samples_metric ON samples(metric_id);"
	KNOB_JOURNAL_V12("knob_journal")
	CULPRITS_V6
	PROFILES_V8
	BISECTIONS_V10;

/* Version 1 had no repetitions: its samples become repetition 0. */
static const char sqlite_v1_to_v2[] =
	"ALTER TABLE metrics ADD COLUMN repetitions INTEGER NOT NULL DEFAULT 1 "
	"  CHECK (repetitions >= 1);"
	SAMPLES_V2("samples_v2")
	"INSERT INTO samples_v2 (iteration_id, metric_id, rep, value) "
	"  SELECT iteration_id, metric_id, 0, value FROM samples;"
	"DROP TABLE samples;"
	"ALTER TABLE samples_v2 RENAME TO samples;"
	"CREATE INDEX samples_metric ON samples(metric_id);";

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

static const char sqlite_v2_to_v3[] =
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
		"id, benchmark_id, seq, warmup, failure");

static const char sqlite_v3_to_v4[] =
	JOBS_V4
	"ALTER TABLE batches ADD COLUMN job_id INTEGER REFERENCES jobs(id) ON DELETE SET NULL;"
	"ALTER TABLE batches ADD COLUMN job_claim TEXT;";

static const char sqlite_v4_to_v5[] =
	KNOB_JOURNAL_V5;

/* Iterations before version 6 have no interference measured: NULL, not zero. */
static const char sqlite_v5_to_v6[] =
	"ALTER TABLE iterations ADD COLUMN cpu_taken REAL;"
	"ALTER TABLE iterations ADD COLUMN cpu_steal REAL;"
	"ALTER TABLE iterations ADD COLUMN cpu_available REAL;"
	"ALTER TABLE iterations ADD COLUMN disturbed INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE iterations ADD COLUMN rerun INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE iterations ADD COLUMN started REAL;"
	"ALTER TABLE iterations ADD COLUMN ended REAL;"
	CULPRITS_V6;

/* Jobs before version 7 may be claimed as often as the default allows. */
static const char sqlite_v6_to_v7[] =
	"ALTER TABLE jobs ADD COLUMN " MAX_ATTEMPTS_V7 ";";

static const char sqlite_v7_to_v8[] =
	PROFILES_V8;

/* Jobs before version 9 are runs; originals journalled before it, any machine's. */
#define KNOB_JOURNAL_V5_COLUMNS							\
	"id, kind, name, original, writer_boot, writer_pid, writer_start, started"

static const char sqlite_v8_to_v9[] =
	"ALTER TABLE jobs ADD COLUMN " COMMAND_V9 ";"
	"ALTER TABLE jobs ADD COLUMN " RESULT_V9 ";"
	REBUILD("knob_journal", KNOB_JOURNAL_V9, KNOB_JOURNAL_V5_COLUMNS,
		KNOB_JOURNAL_V5_COLUMNS)
	ITERATIONS_FAILED_V9;

static const char sqlite_v9_to_v10[] =
	BISECTIONS_V10;

static const char sqlite_v10_to_v11[] =
	"ALTER TABLE jobs ADD COLUMN kernel TEXT;"
	"ALTER TABLE jobs ADD COLUMN home_kernel TEXT;"
	"ALTER TABLE jobs ADD COLUMN boot_deadline TEXT;";

#define KNOB_JOURNAL_V9_COLUMNS KNOB_JOURNAL_V5_COLUMNS ", machine"

static const char sqlite_v11_to_v12[] =
	REBUILD("knob_journal", KNOB_JOURNAL_V12, KNOB_JOURNAL_V9_COLUMNS,
		KNOB_JOURNAL_V9_COLUMNS);

/* ---- PostgreSQL ---- */

static const char pg_v3[] =
	"CREATE TABLE schedperf_schema (version integer NOT NULL);"
	"CREATE TABLE runs ("
	"  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
	"  name text COLLATE \"C\" NOT NULL UNIQUE);"
	"CREATE TABLE batches ("
	"  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
	"  run_id bigint NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  started text COLLATE \"C\" NOT NULL,"
	"  finished text,"
	"  complete boolean NOT NULL DEFAULT false,"
	"  replacing boolean NOT NULL DEFAULT false,"
	"  plan text,"
	"  writer_boot text,"
	"  writer_pid bigint,"
	"  writer_start bigint,"
	"  tasks_pgid bigint,"
	"  tasks_start bigint,"
	"  UNIQUE (run_id, started));"
	"CREATE TABLE environment ("
	"  batch_id bigint NOT NULL REFERENCES batches(id) ON DELETE CASCADE,"
	"  key text COLLATE \"C\" NOT NULL,"
	"  value text NOT NULL,"
	"  PRIMARY KEY (batch_id, key));"
	"CREATE TABLE benchmarks ("
	"  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
	"  batch_id bigint NOT NULL REFERENCES batches(id) ON DELETE CASCADE,"
	"  position integer NOT NULL,"
	"  workload text NOT NULL,"
	"  params text NOT NULL);"
	"CREATE INDEX benchmarks_batch ON benchmarks(batch_id, position);"
	"CREATE TABLE metrics ("
	"  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
	"  benchmark_id bigint NOT NULL REFERENCES benchmarks(id) ON DELETE CASCADE,"
	"  position integer NOT NULL,"
	"  name text COLLATE \"C\" NOT NULL,"
	"  unit text NOT NULL,"
	"  better text NOT NULL CHECK (better IN ('lower', 'higher')),"
	"  source text NOT NULL,"
	"  repetitions integer NOT NULL DEFAULT 1 CHECK (repetitions >= 1),"
	"  UNIQUE (benchmark_id, name));"
	"CREATE TABLE iterations ("
	"  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
	"  benchmark_id bigint NOT NULL REFERENCES benchmarks(id) ON DELETE CASCADE,"
	"  seq integer NOT NULL,"
	"  warmup boolean NOT NULL,"
	"  failure text,"
	"  UNIQUE (benchmark_id, seq));"
	"CREATE TABLE samples ("
	"  iteration_id bigint NOT NULL REFERENCES iterations(id) ON DELETE CASCADE,"
	"  metric_id bigint NOT NULL REFERENCES metrics(id) ON DELETE CASCADE,"
	"  rep integer NOT NULL DEFAULT 0 CHECK (rep >= 0),"
	"  value double precision NOT NULL,"
	"  PRIMARY KEY (iteration_id, metric_id, rep));"
	"CREATE INDEX samples_metric ON samples(metric_id);"
	"INSERT INTO schedperf_schema (version) VALUES (3);";

/* Version 4: the job queue. */
static const char pg_v3_to_v4[] =
	"CREATE TABLE jobs ("
	"  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
	"  state text NOT NULL DEFAULT 'queued' CHECK (state IN "
	"    ('queued', 'running', 'done', 'failed', 'cancelled')),"
	"  args text NOT NULL,"
	"  machine text NOT NULL,"
	"  machine_like text NOT NULL,"
	"  priority integer NOT NULL DEFAULT 0,"
	"  submitted text NOT NULL,"
	"  since text NOT NULL,"
	"  attempts integer NOT NULL DEFAULT 0,"
	"  worker text,"
	"  claim text,"
	"  lease_until timestamptz,"
	"  reason text,"
	"  result_batch bigint REFERENCES batches(id) ON DELETE SET NULL);"
	"CREATE INDEX jobs_queue ON jobs(state, priority, id);"
	"ALTER TABLE batches ADD COLUMN job_id bigint REFERENCES jobs(id) ON DELETE SET NULL,"
	"  ADD COLUMN job_claim text;"
	"CREATE INDEX batches_job ON batches(job_id);";

/* Version 5: the knob journal of `schedperf ab`. */
static const char pg_v4_to_v5[] =
	"CREATE TABLE knob_journal ("
	"  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
	"  kind text COLLATE \"C\" NOT NULL CHECK (kind IN ('sysctl', 'feature')),"
	"  name text COLLATE \"C\" NOT NULL,"
	"  original text NOT NULL,"
	"  writer_boot text NOT NULL,"
	"  writer_pid bigint NOT NULL,"
	"  writer_start bigint NOT NULL,"
	"  started text NOT NULL,"
	"  UNIQUE (kind, name));";

/* Version 6: what other tasks took from each iteration. */
static const char pg_v5_to_v6[] =
	"ALTER TABLE iterations ADD COLUMN cpu_taken double precision,"
	"  ADD COLUMN cpu_steal double precision,"
	"  ADD COLUMN cpu_available double precision,"
	"  ADD COLUMN disturbed boolean NOT NULL DEFAULT false,"
	"  ADD COLUMN rerun boolean NOT NULL DEFAULT false,"
	"  ADD COLUMN started double precision,"
	"  ADD COLUMN ended double precision;"
	"CREATE TABLE culprits ("
	"  iteration_id bigint NOT NULL REFERENCES iterations(id) ON DELETE CASCADE,"
	"  rank integer NOT NULL CHECK (rank >= 0),"
	"  pid bigint NOT NULL,"
	"  name text NOT NULL,"
	"  cpu double precision NOT NULL,"
	"  PRIMARY KEY (iteration_id, rank));";

/* Version 8: CPU profiles. */
static const char pg_v7_to_v8[] =
	"CREATE TABLE profiles ("
	"  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
	"  benchmark_id bigint NOT NULL REFERENCES benchmarks(id) ON DELETE CASCADE,"
	"  seq integer NOT NULL,"
	"  extra boolean NOT NULL,"
	"  event text NOT NULL,"
	"  scope text NOT NULL,"
	"  frequency bigint NOT NULL,"
	"  samples bigint NOT NULL,"
	"  lost bigint NOT NULL,"
	"  total bigint NOT NULL,"
	"  UNIQUE (benchmark_id, extra, seq));"
	"CREATE TABLE profile_symbols ("
	"  profile_id bigint NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,"
	"  position integer NOT NULL,"
	"  name text NOT NULL,"
	"  dso text NOT NULL,"
	"  self bigint NOT NULL,"
	"  children bigint NOT NULL,"
	"  PRIMARY KEY (profile_id, position));";

/*
 * Version 9: what a job runs and what it decided; the machine whose
 * setting a journalled original is; an index of the failed iterations.
 */
static const char pg_v8_to_v9[] =
	"ALTER TABLE jobs ADD COLUMN command text NOT NULL DEFAULT 'run' "
	"  CHECK (command IN ('run', 'ab', 'bisect-step')),"
	"  ADD COLUMN result text;"
	"ALTER TABLE knob_journal ADD COLUMN machine text COLLATE \"C\" NOT NULL DEFAULT '',"
	"  DROP CONSTRAINT knob_journal_kind_name_key,"
	"  ADD UNIQUE (machine, kind, name);"
	"CREATE INDEX iterations_failed ON iterations(benchmark_id) WHERE failure IS NOT NULL;";

/* Version 10: bisections. */
static const char pg_v9_to_v10[] =
	"CREATE TABLE bisections ("
	"  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
	"  repo text COLLATE \"C\" NOT NULL,"
	"  machine text COLLATE \"C\" NOT NULL,"
	"  state text NOT NULL CHECK (state IN "
	"    ('running', 'interrupted', 'done', 'failed', 'abandoned')),"
	"  started text NOT NULL,"
	"  doc text NOT NULL);"
	"CREATE INDEX bisections_repo ON bisections(repo, machine);";

/* Version 11: jobs that need a kernel; the state 'booting'. */
static const char pg_v10_to_v11[] =
	"ALTER TABLE jobs ADD COLUMN kernel text, ADD COLUMN home_kernel text,"
	"  ADD COLUMN boot_deadline text,"
	"  DROP CONSTRAINT jobs_state_check,"
	"  ADD CONSTRAINT jobs_state_check CHECK (state IN "
	"    ('queued', 'running', 'booting', 'done', 'failed', 'cancelled'));";

/* Version 12: any kind of setting in the knob journal, as in SQLite's. */
static const char pg_v11_to_v12[] =
	"ALTER TABLE knob_journal DROP CONSTRAINT knob_journal_kind_check,"
	"  ADD CONSTRAINT knob_journal_kind_check CHECK (kind <> '');";

/* A new store: the text that makes it, and the version that text is. */
static const struct {
	const char *sql;
	int version;
} starts[] = {
	[DIALECT_SQLITE] = { sqlite_current, STORE_SCHEMA_VERSION },
	[DIALECT_POSTGRES] = { pg_v3, 3 },
};

/*
 * The history: migrations[i] turns version i + 1 into i + 2, in each
 * dialect's words (one text where they agree). Versions 1 and 2 predate
 * PostgreSQL stores.
 */
#define BOTH(sql) { [DIALECT_SQLITE] = sql, [DIALECT_POSTGRES] = sql }

static const struct {
	const char *sql[2];
} migrations[] = {
	{ { [DIALECT_SQLITE] = sqlite_v1_to_v2 } },
	{ { [DIALECT_SQLITE] = sqlite_v2_to_v3 } },
	{ { sqlite_v3_to_v4, pg_v3_to_v4 } },
	{ { sqlite_v4_to_v5, pg_v4_to_v5 } },
	{ { sqlite_v5_to_v6, pg_v5_to_v6 } },
	{ BOTH(sqlite_v6_to_v7) },
	{ { sqlite_v7_to_v8, pg_v7_to_v8 } },
	{ { sqlite_v8_to_v9, pg_v8_to_v9 } },
	{ { sqlite_v9_to_v10, pg_v9_to_v10 } },
	{ { sqlite_v10_to_v11, pg_v10_to_v11 } },
	{ { sqlite_v11_to_v12, pg_v11_to_v12 } },
};

_Static_assert(ARRAY_SIZE(migrations) == STORE_SCHEMA_VERSION - 1,
	       "one migration per schema version after the first");

const char *store_schema_fresh(const struct store_driver *driver)
{
	return starts[driver->dialect].sql;
}

/* Create the schema, or run the migrations from @version; in the upgrade's transaction. */
static int migrate(struct store *st, int version, struct error *err)
{
	const struct store_driver *d = st->driver;
	char what[64];

	if (!version) {
		version = starts[d->dialect].version;
		if (d->script(st, starts[d->dialect].sql, err, "create the schema") ||
		    d->set_version(st, version, err))
			return -1;
	}
	for (int v = version; v < STORE_SCHEMA_VERSION; v++) {
		snprintf(what, sizeof(what), "upgrade the schema from version %d to %d", v,
			 v + 1);
		if (d->script(st, migrations[v - 1].sql[d->dialect], err, what) ||
		    d->set_version(st, v + 1, err))
			return -1;
	}
	return 0;
}

int store_schema_upgrade(struct store *st, struct error *err)
{
	int version = st->driver->version(st, err);
	int rc;

	if (version < 0 || version == STORE_SCHEMA_VERSION)
		return version < 0 ? -1 : 0;
	if (sql_begin(st, TXN_SCHEMA, err))
		return -1;
	/* Under the write lock, look again: another process may have done it meanwhile. */
	version = st->driver->version(st, err);
	rc = version < 0 || (version < STORE_SCHEMA_VERSION && migrate(st, version, err));
	return sql_end_write(st, rc ? -1 : 0, err);
}
