// SPDX-License-Identifier: GPL-2.0
/*
 * The PostgreSQL store's schema and its history: the same tables, columns
 * and constraints as the SQLite store's (sqlite_schema.c), and the same
 * version numbers, so that one STORE_SCHEMA_VERSION says what both hold
 * and results move between them unchanged.
 *
 * Text that is sorted or compared (names, start times, environment keys)
 * is COLLATE "C": byte order, as SQLite sorts, whatever the database's
 * locale. Ids are identity columns, whose sequences never give an id
 * twice. The version is the one row of schedperf_schema; that table marks
 * the database as a schedperf store.
 *
 * PostgreSQL stores begin at version 3: a new store is made as version 3
 * and brought up by the migrations, so that a new store and an upgraded
 * one are the same by construction. A new version is one more entry in
 * migrations[] here and in sqlite_schema.c, with the same number.
 */
#include <stdio.h>
#include <string.h>

#include "store/postgres_schema.h"
#include "store/postgres_stmt.h"
#include "util/array.h"

static const char schema_v3[] =
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

/* Version 4: the job queue, as in sqlite_schema.c. */
static const char upgrade_v3_to_v4[] =
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
	"CREATE INDEX batches_job ON batches(job_id);"
	"UPDATE schedperf_schema SET version = 4;";

/* Version 5: the knob journal of `schedperf ab`, as in sqlite_schema.c. */
static const char upgrade_v4_to_v5[] =
	"CREATE TABLE knob_journal ("
	"  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
	"  kind text COLLATE \"C\" NOT NULL CHECK (kind IN ('sysctl', 'feature')),"
	"  name text COLLATE \"C\" NOT NULL,"
	"  original text NOT NULL,"
	"  writer_boot text NOT NULL,"
	"  writer_pid bigint NOT NULL,"
	"  writer_start bigint NOT NULL,"
	"  started text NOT NULL,"
	"  UNIQUE (kind, name));"
	"UPDATE schedperf_schema SET version = 5;";

/* Version 6: what other tasks took from each iteration, as in sqlite_schema.c. */
static const char upgrade_v5_to_v6[] =
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
	"  PRIMARY KEY (iteration_id, rank));"
	"UPDATE schedperf_schema SET version = 6;";

/* Version 7: how often a job may be claimed, as in sqlite_schema.c. */
static const char upgrade_v6_to_v7[] =
	"ALTER TABLE jobs ADD COLUMN max_attempts integer NOT NULL DEFAULT 3 "
	"  CHECK (max_attempts >= 1);"
	"UPDATE schedperf_schema SET version = 7;";

/* Version 8: CPU profiles, as in sqlite_schema.c. */
static const char upgrade_v7_to_v8[] =
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
	"  PRIMARY KEY (profile_id, position));"
	"UPDATE schedperf_schema SET version = 8;";

/*
 * Version 9: what a job runs and what it decided; the machine whose
 * setting a journalled original is; an index of the failed iterations.
 * As in sqlite_schema.c.
 */
static const char upgrade_v8_to_v9[] =
	"ALTER TABLE jobs ADD COLUMN command text NOT NULL DEFAULT 'run' "
	"  CHECK (command IN ('run', 'ab', 'bisect-step')),"
	"  ADD COLUMN result text;"
	"ALTER TABLE knob_journal ADD COLUMN machine text COLLATE \"C\" NOT NULL DEFAULT '',"
	"  DROP CONSTRAINT knob_journal_kind_name_key,"
	"  ADD UNIQUE (machine, kind, name);"
	"CREATE INDEX iterations_failed ON iterations(benchmark_id) WHERE failure IS NOT NULL;"
	"UPDATE schedperf_schema SET version = 9;";

/* Version 10: bisections, as in sqlite_schema.c. */
static const char upgrade_v9_to_v10[] =
	"CREATE TABLE bisections ("
	"  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
	"  repo text COLLATE \"C\" NOT NULL,"
	"  machine text COLLATE \"C\" NOT NULL,"
	"  state text NOT NULL CHECK (state IN "
	"    ('running', 'interrupted', 'done', 'failed', 'abandoned')),"
	"  started text NOT NULL,"
	"  doc text NOT NULL);"
	"CREATE INDEX bisections_repo ON bisections(repo, machine);"
	"UPDATE schedperf_schema SET version = 10;";

/*
 * The history, numbered as sqlite_schema.c's: migrations[i] turns version
 * i + 1 into i + 2. Versions 1 and 2 predate PostgreSQL stores.
 */
static const char *const migrations[] = {
	NULL,
	NULL,
	upgrade_v3_to_v4,
	upgrade_v4_to_v5,
	upgrade_v5_to_v6,
	upgrade_v6_to_v7,
	upgrade_v7_to_v8,
	upgrade_v8_to_v9,
	upgrade_v9_to_v10,
};

#define FIRST_VERSION 3

_Static_assert(ARRAY_SIZE(migrations) == STORE_SCHEMA_VERSION - 1,
	       "one migration per schema version after the first, as on SQLite");

/* Constant SQL of several statements (DDL): no parameters, so not prepared. */
static int run_script(struct pg_store *ps, const char *sql, struct error *err,
		      const char *what)
{
	PGresult *res = PQexec(ps->conn, sql);
	int rc = 0;

	if (PQresultStatus(res) != PGRES_COMMAND_OK && PQresultStatus(res) != PGRES_TUPLES_OK)
		rc = error_set(err, EXIT_ENV, "cannot %s in store '%s': %.*s (check the "
			       "server's log, and that this role may create tables)", what,
			       ps->base.location,
			       (int)strcspn(PQresultErrorMessage(res), "\n"),
			       PQresultErrorMessage(res));
	PQclear(res);
	return rc;
}

/*
 * The version of the store, 0 for a database without tables, -1 with @err
 * for another program's database or a newer store.
 */
static int read_version(struct pg_store *ps, struct error *err)
{
	static const char facts_sql[] =
		"SELECT to_regclass('schedperf_schema') IS NOT NULL, "
		"(SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
		" WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm'))";
	static const char version_sql[] = "SELECT max(version) FROM schedperf_schema";
	PGresult *res = pg_query(ps, facts_sql, NULL, err, "read the schema");
	bool ours;
	int64_t tables, version;

	if (!res)
		return -1;
	ours = pg_bool(res, 0, 0);
	tables = pg_int(res, 0, 1);
	PQclear(res);
	if (!ours)
		return tables ? store_not_ours(ps->base.location, "it is a PostgreSQL database "
					       "with other tables", err) : 0;
	res = pg_query(ps, version_sql, NULL, err, "read the schema version");
	if (!res)
		return -1;
	version = pg_int(res, 0, 0);
	PQclear(res);
	if (version > STORE_SCHEMA_VERSION)
		return store_too_new(ps->base.location, (int)version, err);
	if (version < FIRST_VERSION)
		return store_not_ours(ps->base.location, "its schema version is missing", err);
	return (int)version;
}

int pg_schema_check(struct pg_store *ps, bool empty_ok, struct error *err)
{
	int version = read_version(ps, err);

	if (!version && !empty_ok)
		return error_set(err, EXIT_USAGE, "no store at '%s': the database has no "
				 "schedperf tables yet (run 'schedperf db init' or 'schedperf "
				 "run' first)", ps->base.location);
	return version;
}

static int migrate(struct pg_store *ps, int version, struct error *err)
{
	char what[64];

	if (!version) {
		if (run_script(ps, schema_v3, err, "create the schema"))
			return -1;
		version = FIRST_VERSION;
	}
	for (int v = version; v < STORE_SCHEMA_VERSION; v++) {
		snprintf(what, sizeof(what), "upgrade the schema from version %d to %d", v,
			 v + 1);
		if (run_script(ps, migrations[v - 1], err, what))
			return -1;
	}
	return 0;
}

int pg_schema_upgrade(struct pg_store *ps, struct error *err)
{
	int version = read_version(ps, err);
	int rc;

	if (version < 0 || version == STORE_SCHEMA_VERSION)
		return version < 0 ? -1 : 0;
	/* Under the write lock, look again: another process may have done it meanwhile. */
	if (run_script(ps, "BEGIN; SELECT " PG_WRITE_LOCK, err,
		       "start the upgrade"))
		return -1;
	version = read_version(ps, err);
	rc = version < 0 || (version < STORE_SCHEMA_VERSION && migrate(ps, version, err)) ||
	     run_script(ps, "COMMIT", err, "commit the upgrade") ? -1 : 0;
	if (rc)
		PQclear(PQexec(ps->conn, "ROLLBACK"));
	return rc;
}

/* The tables of a store, and the version that brought each. */
static const struct {
	const char *name;
	int since;
} store_tables[] = {
	{ "schedperf_schema", 3 }, { "runs", 3 }, { "batches", 3 }, { "environment", 3 },
	{ "benchmarks", 3 }, { "metrics", 3 }, { "iterations", 3 }, { "samples", 3 },
	{ "jobs", 4 }, { "knob_journal", 5 }, { "culprits", 6 }, { "profiles", 8 },
	{ "profile_symbols", 8 }, { "bisections", 10 },
};

int pg_schema_damage(struct store *st, int version, char *buf, size_t len,
		     struct error *err)
{
	struct pg_store *ps = pg_of(st);
	static const char table_sql[] = "SELECT to_regclass($1) IS NOT NULL";
	static const char rows_sql[] = "SELECT count(*) FROM schedperf_schema";
	struct pg_params p;
	PGresult *res;
	int64_t rows;

	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(store_tables); i++) {
		bool present;

		if (store_tables[i].since > version)
			continue;
		p.nr = 0;
		pg_param_text(&p, store_tables[i].name);
		res = pg_query(ps, table_sql, &p, err, "check the store's tables");
		if (!res)
			return -1;
		present = pg_bool(res, 0, 0);
		PQclear(res);
		if (!present) {
			snprintf(buf, len, "table %s of schema version %d is missing (restore the "
				 "database from a backup)", store_tables[i].name, version);
			return 0;
		}
	}
	res = pg_query(ps, rows_sql, NULL, err, "check the schema version");
	if (!res)
		return -1;
	rows = pg_int(res, 0, 0);
	PQclear(res);
	if (rows != 1)
		snprintf(buf, len, "table schedperf_schema has %lld rows, not one (keep the row "
			 "of version %d and delete the others)", (long long)rows, version);
	return 0;
}
