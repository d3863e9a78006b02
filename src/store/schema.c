// SPDX-License-Identifier: GPL-2.0
/*
 * The store's schema and its history, in each dialect, under one numbering
 * (STORE_SCHEMA_VERSION): one version says what a store holds on either
 * backend, and results move between them unchanged.
 *
 * A run is a name; each `schedperf run` under it adds a batch, which records
 * its environment and benchmarks (a workload and its full parameters); a
 * benchmark has metrics and iterations; a sample is one metric's value in
 * one iteration, or in one repetition of it (futex-wake's `repeat`). An
 * absent value has no row: an unsupported counter is never a zero.
 *
 * Ids are never reused (AUTOINCREMENT, identity columns): a process that
 * holds the id of a batch another deleted must fail on its next insert,
 * never write into the batch that got the id next (transactions.c,
 * "Writers"). PostgreSQL text that is sorted or compared is COLLATE "C":
 * byte order, as SQLite sorts, whatever the database's locale.
 *
 * A new store is made as version 3 (where PostgreSQL stores begin) and
 * brought up by the migrations, so that new and upgraded stores are made by
 * the same text. A new version is one row of migrations[], its tables
 * written once with each dialect's words pasted in (LITE_, PG_), or a text
 * each where they differ more; run in one transaction, the version stamped
 * by the driver. tests/unit/test_store.c checks that a store upgraded from
 * version 1 and a new one have the same tables.
 */
#include <stdio.h>

#include "store/schema.h"
#include "store/sql.h"
#include "util/array.h"

/*
 * Each dialect's words. SQLite's are as they always were (a store's columns
 * are checked against a new store's, types and all); PostgreSQL's have
 * 64-bit ids and counts (BIG), booleans, and COLLATE "C" (NAME).
 */
#define LITE_ID "INTEGER PRIMARY KEY AUTOINCREMENT"
#define PG_ID "bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY"
#define LITE_BIG "INTEGER"
#define PG_BIG "bigint"
#define LITE_INT "INTEGER"
#define PG_INT "integer"
#define LITE_REAL "REAL"
#define PG_REAL "double precision"
#define LITE_TEXT "TEXT"
#define PG_TEXT "text"
#define LITE_NAME "TEXT"
#define PG_NAME "text COLLATE \"C\""
#define LITE_BOOL "INTEGER"
#define PG_BOOL "boolean"
#define LITE_FALSE "0"
#define PG_FALSE "false"
#define LITE_FLAG(col) "INTEGER NOT NULL CHECK (" col " IN (0, 1))"
#define PG_FLAG(col) "boolean NOT NULL"
#define LITE_TIME "TEXT"
#define PG_TIME "timestamptz"
/* The end of a table keyed by its primary key, which needs no rowid of its own. */
#define LITE_KEYED ") WITHOUT ROWID;"
#define PG_KEYED ");"

/* ---- Version 3: the tables a new store begins with ---- */

#define RUNS(d, name)								\
	"CREATE TABLE " name " ("						\
	"  id " d##_ID ","							\
	"  name " d##_NAME " NOT NULL UNIQUE);"

/*
 * A batch knows whether it replaces (transactions.c, "--replace") and its
 * writer: writer_*, the process running it (boot id, pid, start time);
 * tasks_*, the process group of the iteration it runs now, by its leader.
 */
#define BATCHES(d, name)							\
	"CREATE TABLE " name " ("						\
	"  id " d##_ID ","							\
	"  run_id " d##_BIG " NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"	\
	"  started " d##_NAME " NOT NULL,"					\
	"  finished " d##_TEXT ","						\
	"  complete " d##_BOOL " NOT NULL DEFAULT " d##_FALSE ","		\
	"  replacing " d##_BOOL " NOT NULL DEFAULT " d##_FALSE ","		\
	"  plan " d##_TEXT ","							\
	"  writer_boot " d##_TEXT ","						\
	"  writer_pid " d##_BIG ","						\
	"  writer_start " d##_BIG ","						\
	"  tasks_pgid " d##_BIG ","						\
	"  tasks_start " d##_BIG ","						\
	"  UNIQUE (run_id, started));"

#define ENVIRONMENT(d)								\
	"CREATE TABLE environment ("						\
	"  batch_id " d##_BIG " NOT NULL REFERENCES batches(id) ON DELETE CASCADE,"	\
	"  key " d##_NAME " NOT NULL,"						\
	"  value " d##_TEXT " NOT NULL,"					\
	"  PRIMARY KEY (batch_id, key)" d##_KEYED

#define BENCHMARKS(d, name)							\
	"CREATE TABLE " name " ("						\
	"  id " d##_ID ","							\
	"  batch_id " d##_BIG " NOT NULL REFERENCES batches(id) ON DELETE CASCADE,"	\
	"  position " d##_INT " NOT NULL,"					\
	"  workload " d##_TEXT " NOT NULL,"					\
	"  params " d##_TEXT " NOT NULL);"

#define METRICS(d, name)							\
	"CREATE TABLE " name " ("						\
	"  id " d##_ID ","							\
	"  benchmark_id " d##_BIG " NOT NULL REFERENCES benchmarks(id) ON DELETE CASCADE,"	\
	"  position " d##_INT " NOT NULL,"					\
	"  name " d##_NAME " NOT NULL,"						\
	"  unit " d##_TEXT " NOT NULL,"						\
	"  better " d##_TEXT " NOT NULL CHECK (better IN ('lower', 'higher')),"	\
	"  source " d##_TEXT " NOT NULL,"					\
	"  repetitions " d##_INT " NOT NULL DEFAULT 1 CHECK (repetitions >= 1),"	\
	"  UNIQUE (benchmark_id, name));"

#define ITERATIONS(d, name)							\
	"CREATE TABLE " name " ("						\
	"  id " d##_ID ","							\
	"  benchmark_id " d##_BIG " NOT NULL REFERENCES benchmarks(id) ON DELETE CASCADE,"	\
	"  seq " d##_INT " NOT NULL,"						\
	"  warmup " d##_BOOL " NOT NULL,"					\
	"  failure " d##_TEXT ","						\
	"  UNIQUE (benchmark_id, seq));"

/* A sample is one repetition of a metric in an iteration (version 2). */
#define SAMPLES(d, name)							\
	"CREATE TABLE " name " ("						\
	"  iteration_id " d##_BIG " NOT NULL REFERENCES iterations(id) ON DELETE CASCADE,"	\
	"  metric_id " d##_BIG " NOT NULL REFERENCES metrics(id) ON DELETE CASCADE,"	\
	"  rep " d##_INT " NOT NULL DEFAULT 0 CHECK (rep >= 0),"		\
	"  value " d##_REAL " NOT NULL,"					\
	"  PRIMARY KEY (iteration_id, metric_id, rep)" d##_KEYED

#define BENCHMARKS_BATCH "CREATE INDEX benchmarks_batch ON benchmarks(batch_id, position);"
#define SAMPLES_METRIC "CREATE INDEX samples_metric ON samples(metric_id);"

#define V3(d)									\
	RUNS(d, "runs") BATCHES(d, "batches") ENVIRONMENT(d)			\
	BENCHMARKS(d, "benchmarks") BENCHMARKS_BATCH METRICS(d, "metrics")	\
	ITERATIONS(d, "iterations") SAMPLES(d, "samples") SAMPLES_METRIC

/* A new store: version 3, and PostgreSQL's table of the version. */
#define FRESH_VERSION 3

static const char *const fresh[NR_DIALECTS] = {
	[DIALECT_SQLITE] = V3(LITE),
	[DIALECT_POSTGRES] = "CREATE TABLE schedperf_schema (version integer NOT NULL);"
			     V3(PG) "INSERT INTO schedperf_schema (version) VALUES (3);",
};

/* ---- The history of SQLite stores before PostgreSQL's began ---- */

/* Version 1 had no repetitions: its samples become repetition 0. */
static const char lite_v1_to_v2[] =
	"ALTER TABLE metrics ADD COLUMN repetitions INTEGER NOT NULL DEFAULT 1 "
	"  CHECK (repetitions >= 1);"
	SAMPLES(LITE, "samples_v2")
	"INSERT INTO samples_v2 (iteration_id, metric_id, rep, value) "
	"  SELECT iteration_id, metric_id, 0, value FROM samples;"
	"DROP TABLE samples;"
	"ALTER TABLE samples_v2 RENAME TO samples;"
	SAMPLES_METRIC;

/*
 * AUTOINCREMENT cannot be added to a table: each with ids is built again,
 * ids kept (sqlite_sequence starts above the largest). A batch's pid becomes
 * writer_pid without a start time: a writer taken for gone (process.h).
 */
#define REBUILD(table, def, columns, from)					\
	def(LITE, table "_v3")							\
	"INSERT INTO " table "_v3 (" columns ") SELECT " from " FROM " table ";"	\
	"DROP TABLE " table ";"							\
	"ALTER TABLE " table "_v3 RENAME TO " table ";"
#define COPY(table, def, columns) REBUILD(table, def, columns, columns)

static const char lite_v2_to_v3[] =
	COPY("runs", RUNS, "id, name")
	REBUILD("batches", BATCHES,
		"id, run_id, started, finished, complete, plan, writer_pid",
		"id, run_id, started, finished, complete, plan, pid")
	COPY("benchmarks", BENCHMARKS, "id, batch_id, position, workload, params")
	BENCHMARKS_BATCH
	COPY("metrics", METRICS,
	     "id, benchmark_id, position, name, unit, better, source, repetitions")
	COPY("iterations", ITERATIONS, "id, benchmark_id, seq, warmup, failure");

/* ---- Versions 4 to 12 ---- */

/*
 * Version 4: the job queue (src/store/store.h, "Jobs"). A batch that a
 * job's run writes names the job and the claim it ran under; it is seen
 * only once complete, and completing it completes the job. @more: what
 * only one dialect has.
 */
#define V4(d, more)								\
	"CREATE TABLE jobs ("							\
	"  id " d##_ID ","							\
	"  state " d##_TEXT " NOT NULL DEFAULT 'queued' CHECK (state IN "	\
	"    ('queued', 'running', 'done', 'failed', 'cancelled')),"		\
	"  args " d##_TEXT " NOT NULL,"						\
	"  machine " d##_TEXT " NOT NULL,"					\
	"  machine_like " d##_TEXT " NOT NULL,"					\
	"  priority " d##_INT " NOT NULL DEFAULT 0,"				\
	"  submitted " d##_TEXT " NOT NULL,"					\
	"  since " d##_TEXT " NOT NULL,"					\
	"  attempts " d##_INT " NOT NULL DEFAULT 0,"				\
	"  worker " d##_TEXT ","						\
	"  claim " d##_TEXT ","							\
	"  lease_until " d##_TIME ","						\
	"  reason " d##_TEXT ","						\
	"  result_batch " d##_BIG " REFERENCES batches(id) ON DELETE SET NULL);"	\
	"CREATE INDEX jobs_queue ON jobs(state, priority, id);"			\
	"ALTER TABLE batches ADD COLUMN job_id " d##_BIG			\
	" REFERENCES jobs(id) ON DELETE SET NULL;"				\
	"ALTER TABLE batches ADD COLUMN job_claim " d##_TEXT ";"		\
	more

/*
 * Version 5: the knob journal of `schedperf ab` (store.h), its writer by
 * boot id, pid and start time as a batch's. @kinds: the kinds of setting
 * it takes; @more, the columns after its first ones.
 */
#define KNOB_JOURNAL(d, name, kinds, more)					\
	"CREATE TABLE " name " ("						\
	"  id " d##_ID ","							\
	"  kind " d##_NAME " NOT NULL CHECK (" kinds "),"			\
	"  name " d##_NAME " NOT NULL,"						\
	"  original " d##_TEXT " NOT NULL,"					\
	"  writer_boot " d##_TEXT " NOT NULL,"					\
	"  writer_pid " d##_BIG " NOT NULL,"					\
	"  writer_start " d##_BIG " NOT NULL,"					\
	"  started " d##_TEXT " NOT NULL,"					\
	more ");"

#define KINDS_V5 "kind IN ('sysctl', 'feature')"
#define V5(d) KNOB_JOURNAL(d, "knob_journal", KINDS_V5, "  UNIQUE (kind, name)")

/*
 * Version 6: what other tasks took from each iteration (doc/design.md,
 * "Interference"), NULL when it was not measured (so in the iterations
 * before it), the tasks that took most, and when it ran (seconds since
 * the epoch, from its go to its reap).
 */
#define V6(d)									\
	"ALTER TABLE iterations ADD COLUMN cpu_taken " d##_REAL ";"		\
	"ALTER TABLE iterations ADD COLUMN cpu_steal " d##_REAL ";"		\
	"ALTER TABLE iterations ADD COLUMN cpu_available " d##_REAL ";"		\
	"ALTER TABLE iterations ADD COLUMN disturbed " d##_BOOL			\
	" NOT NULL DEFAULT " d##_FALSE ";"					\
	"ALTER TABLE iterations ADD COLUMN rerun " d##_BOOL			\
	" NOT NULL DEFAULT " d##_FALSE ";"					\
	"ALTER TABLE iterations ADD COLUMN started " d##_REAL ";"		\
	"ALTER TABLE iterations ADD COLUMN ended " d##_REAL ";"			\
	"CREATE TABLE culprits ("						\
	"  iteration_id " d##_BIG " NOT NULL REFERENCES iterations(id) ON DELETE CASCADE,"	\
	"  rank " d##_INT " NOT NULL CHECK (rank >= 0),"			\
	"  pid " d##_BIG " NOT NULL,"						\
	"  name " d##_TEXT " NOT NULL,"						\
	"  cpu " d##_REAL " NOT NULL,"						\
	"  PRIMARY KEY (iteration_id, rank)" d##_KEYED

/*
 * Version 7: how often a job may be claimed before it fails (jobs before
 * it, as often as the default allows).
 */
static const char v6_to_v7[] =
	"ALTER TABLE jobs ADD COLUMN max_attempts INTEGER NOT NULL DEFAULT 3 "
	"CHECK (max_attempts >= 1);";

_Static_assert(STORE_JOB_MAX_ATTEMPTS == 3, "v6_to_v7 spells the default");

/*
 * Version 8: CPU profiles (the profile monitor). A profile belongs to a
 * benchmark and the iteration it was taken in (seq), or to an extra
 * iteration run only to be profiled (extra = 1, seq counting those); a
 * symbol's self and children are the weight of its samples, of total.
 */
#define V8(d)									\
	"CREATE TABLE profiles ("						\
	"  id " d##_ID ","							\
	"  benchmark_id " d##_BIG " NOT NULL REFERENCES benchmarks(id) ON DELETE CASCADE,"	\
	"  seq " d##_INT " NOT NULL,"						\
	"  extra " d##_FLAG("extra") ","					\
	"  event " d##_TEXT " NOT NULL,"					\
	"  scope " d##_TEXT " NOT NULL,"					\
	"  frequency " d##_BIG " NOT NULL,"					\
	"  samples " d##_BIG " NOT NULL,"					\
	"  lost " d##_BIG " NOT NULL,"						\
	"  total " d##_BIG " NOT NULL,"						\
	"  UNIQUE (benchmark_id, extra, seq));"					\
	"CREATE TABLE profile_symbols ("					\
	"  profile_id " d##_BIG " NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,"	\
	"  position " d##_INT " NOT NULL,"					\
	"  name " d##_TEXT " NOT NULL,"						\
	"  dso " d##_TEXT " NOT NULL,"						\
	"  self " d##_BIG " NOT NULL,"						\
	"  children " d##_BIG " NOT NULL,"					\
	"  PRIMARY KEY (profile_id, position)" d##_KEYED

/*
 * Version 9: a job is a run (as every older one), an ab or a bisect-step,
 * and keeps the command's verdict as JSON (NULL for a run: its batch). A
 * journalled original is one machine's, '' any machine's in an older store
 * (@journal: SQLite cannot change a UNIQUE in place). A benchmark's failed
 * iterations are found without reading the others (12 % of reading 100,000
 * benchmarks).
 */
#define V9(d, journal)								\
	"ALTER TABLE jobs ADD COLUMN command " d##_TEXT " NOT NULL DEFAULT 'run' "	\
	"CHECK (command IN ('run', 'ab', 'bisect-step'));"			\
	"ALTER TABLE jobs ADD COLUMN result " d##_TEXT ";"			\
	journal									\
	"CREATE INDEX iterations_failed ON iterations(benchmark_id) "		\
	"WHERE failure IS NOT NULL;"

#define JOURNAL_V5_COLUMNS							\
	"id, kind, name, original, writer_boot, writer_pid, writer_start, started"
#define JOURNAL_V9(d, name, kinds)						\
	KNOB_JOURNAL(d, name, kinds, "  machine " d##_NAME " NOT NULL DEFAULT '',"	\
		     "  UNIQUE (machine, kind, name)")
#define KNOB_JOURNAL_V9(d, name) JOURNAL_V9(d, name, KINDS_V5)

/*
 * Version 10: bisections (schedperf bisect), one row each: the repository
 * and machine it bisects, its state, and its record as JSON
 * (doc/design.md, "Bisection"), rewritten after each step.
 */
#define V10(d)									\
	"CREATE TABLE bisections ("						\
	"  id " d##_ID ","							\
	"  repo " d##_NAME " NOT NULL,"						\
	"  machine " d##_NAME " NOT NULL,"					\
	"  state " d##_TEXT " NOT NULL CHECK (state IN "			\
	"    ('running', 'interrupted', 'done', 'failed', 'abandoned')),"	\
	"  started " d##_TEXT " NOT NULL,"					\
	"  doc " d##_TEXT " NOT NULL);"						\
	"CREATE INDEX bisections_repo ON bisections(repo, machine);"

/*
 * Version 11: jobs that need a kernel (store.h, "Jobs"): the release, the
 * one its machine ran before, and the boot's deadline (ISO 8601 UTC text,
 * as the queue compares times) while 'booting' (PostgreSQL only: SQLite's
 * jobs are what an import brings).
 */
#define V11(d, more)								\
	"ALTER TABLE jobs ADD COLUMN kernel " d##_TEXT ";"			\
	"ALTER TABLE jobs ADD COLUMN home_kernel " d##_TEXT ";"			\
	"ALTER TABLE jobs ADD COLUMN boot_deadline " d##_TEXT ";"		\
	more

/*
 * Version 12: any kind of setting in the knob journal (runner/knobs.h's
 * table: sysfs, scratch-cgroup ...), not only the first two.
 */
#define KINDS_V12 "kind <> ''"
#define KNOB_JOURNAL_V12(d, name) JOURNAL_V9(d, name, KINDS_V12)

/*
 * Version 13: an imported metric's samples packed (packs.c), its warm-ups'
 * and then its measured values in parts of many values each: how many are
 * there, and the values as hex text.
 */
#define V13(d)									\
	"CREATE TABLE packed_samples ("						\
	"  metric_id " d##_BIG " NOT NULL REFERENCES metrics(id) ON DELETE CASCADE,"	\
	"  part " d##_INT " NOT NULL CHECK (part >= 0),"			\
	"  warmup " d##_FLAG("warmup") ","					\
	"  present " d##_BIG " NOT NULL CHECK (present >= 0),"			\
	"  hex " d##_TEXT " NOT NULL,"						\
	"  PRIMARY KEY (metric_id, part)" d##_KEYED

/*
 * The history: migrations[i] turns version i + 1 into i + 2, in each
 * dialect's words. Versions 1 and 2 predate PostgreSQL stores.
 */
#define BOTH(sql) { [DIALECT_SQLITE] = sql, [DIALECT_POSTGRES] = sql }
#define EACH(v) { [DIALECT_SQLITE] = v(LITE), [DIALECT_POSTGRES] = v(PG) }

static const struct {
	const char *sql[NR_DIALECTS];
} migrations[] = {
	{ { [DIALECT_SQLITE] = lite_v1_to_v2 } },
	{ { [DIALECT_SQLITE] = lite_v2_to_v3 } },
	{ { V4(LITE, ""), V4(PG, "CREATE INDEX batches_job ON batches(job_id);") } },
	{ EACH(V5) },
	{ EACH(V6) },
	{ BOTH(v6_to_v7) },
	{ EACH(V8) },
	{ { V9(LITE, COPY("knob_journal", KNOB_JOURNAL_V9, JOURNAL_V5_COLUMNS)),
	    V9(PG, "ALTER TABLE knob_journal ADD COLUMN machine " PG_NAME " NOT NULL "
		   "DEFAULT '', DROP CONSTRAINT knob_journal_kind_name_key, "
		   "ADD UNIQUE (machine, kind, name);") } },
	{ EACH(V10) },
	{ { V11(LITE, ""),
	    V11(PG, "ALTER TABLE jobs DROP CONSTRAINT jobs_state_check, ADD CONSTRAINT "
		    "jobs_state_check CHECK (state IN ('queued', 'running', 'booting', "
		    "'done', 'failed', 'cancelled'));") } },
	{ { COPY("knob_journal", KNOB_JOURNAL_V12, JOURNAL_V5_COLUMNS ", machine"),
	    "ALTER TABLE knob_journal DROP CONSTRAINT knob_journal_kind_check, "
	    "ADD CONSTRAINT knob_journal_kind_check CHECK (" KINDS_V12 ");" } },
	{ EACH(V13) },
};

_Static_assert(ARRAY_SIZE(migrations) == STORE_SCHEMA_VERSION - 1,
	       "one migration per schema version after the first");

/* Create the schema, or run the migrations from @version; in the upgrade's transaction. */
static int migrate(struct store *st, int version, struct error *err)
{
	const struct store_driver *d = st->driver;
	char what[64];

	if (!version) {
		version = FRESH_VERSION;
		if (d->script(st, fresh[d->dialect], err, "create the schema") ||
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
	if (sql_end_write(st, rc ? -1 : 0, err))
		return -1;
	if (version < STORE_SCHEMA_VERSION)
		st->upgraded_from = version;
	return 0;
}
