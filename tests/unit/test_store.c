// SPDX-License-Identifier: GPL-2.0
/*
 * The store through its interface: round trips, resume bookkeeping,
 * --replace, ids never reused, schema upgrades, the guards against a
 * second writer, and faults in the middle of a call (a lock held by
 * another connection, a trigger that refuses an insert, a damaged page, a
 * full store, a bad stored direction): each must come back as an error,
 * never as "no row".
 *
 * The tests of the interface run on both backends: on SQLite, and on
 * PostgreSQL in a new database of the throwaway server that tests/run.sh
 * starts ($SCHEDPERF_TEST_PGHOST: its socket directory). Without that
 * server the PostgreSQL tests fail: they are never skipped. Those that need
 * no file run again on a store in memory (store_open_memory()). `make unit`
 * (no server) sets $SCHEDPERF_TEST_NO_POSTGRES and runs SQLite's alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <libpq-fe.h>

#include "store/postgres/lib.h"
#include "store/sqlite/sqlite.h"
#include "store/store.h"
#include "util/array.h"
#include "util/machine.h"
#include "util/process.h"
#include "util/xalloc.h"

static char dir[64];
static char path[256];		/* the store's location: a file, or a PostgreSQL URL */
static char pg_db[64];		/* the PostgreSQL database of this test */
static bool in_memory;		/* the store is store_open_memory()'s */

static int setup(void **state)
{
	snprintf(dir, sizeof(dir), "/tmp/test_store.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/store.db", dir);
	setenv("SCHEDPERF_BUSY_TIMEOUT_MS", "100", 1);
	return 0;
}

static int teardown(void **state)
{
	char cmd[160];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

/* A connection to the throwaway server's database @db. */
static PGconn *pg_connect(const char *db)
{
	const char *host = getenv("SCHEDPERF_TEST_PGHOST");
	static const char *const keys[] = { "dbname", NULL };
	char url[256];
	const char *values[] = { url, NULL };
	struct error err = { 0 };
	PGconn *conn;

	if (!host || !*host)
		fail_msg("SCHEDPERF_TEST_PGHOST is not set: run the PostgreSQL tests through "
			 "tests/run.sh (make check), which starts a server");
	snprintf(url, sizeof(url), "postgresql:///%s?host=%s&user=postgres", db, host);
	/* libpq as schedperf has it: loaded on first use (store/postgres/lib.c) */
	if (pg_library_load(url, &err))
		fail_msg("%s", err.msg);
	conn = PQconnectdbParams(keys, values, 1);
	if (PQstatus(conn) != CONNECTION_OK)
		fail_msg("cannot connect to %s: %s", url, PQerrorMessage(conn));
	return conn;
}

static void pg_sql(PGconn *conn, const char *text)
{
	PGresult *res = PQexec(conn, text);

	if (PQresultStatus(res) != PGRES_COMMAND_OK && PQresultStatus(res) != PGRES_TUPLES_OK)
		fail_msg("%s: %s", text, PQresultErrorMessage(res));
	PQclear(res);
}

/* A new database for each test, its URL the store's location. */
static int setup_pg(void **state)
{
	static int nr;
	char text[128];
	PGconn *conn;

	setup(state);
	snprintf(pg_db, sizeof(pg_db), "test_store_%d_%d", (int)getpid(), nr++);
	conn = pg_connect("postgres");
	snprintf(text, sizeof(text), "CREATE DATABASE %s", pg_db);
	pg_sql(conn, text);
	PQfinish(conn);
	snprintf(path, sizeof(path), "postgresql:///%s?host=%s&user=postgres", pg_db,
		 getenv("SCHEDPERF_TEST_PGHOST"));
	return 0;
}

static int teardown_pg(void **state)
{
	char text[128];
	PGconn *conn = pg_connect("postgres");

	snprintf(text, sizeof(text), "DROP DATABASE %s WITH (FORCE)", pg_db);
	pg_sql(conn, text);
	PQfinish(conn);
	snprintf(path, sizeof(path), "%s/store.db", dir);
	return teardown(state);
}

static bool on_pg(void)
{
	return !strncmp(path, "postgresql://", 13);
}

/* A store in memory for each test: nothing in it can be opened twice. */
static int setup_memory(void **state)
{
	in_memory = true;
	return setup(state);
}

static int teardown_memory(void **state)
{
	in_memory = false;
	return teardown(state);
}

static struct store *open_store(void)
{
	struct error err = { 0 };
	struct store *st = NULL;

	if (in_memory ? store_open_memory(&st, &err) : store_open(path, &st, &err))
		fail_msg("store_open: %s", err.msg);
	return st;
}

/* A raw connection for what the interface cannot do: damage, locks, triggers. */
static sqlite3 *raw(void)
{
	sqlite3 *db;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	sqlite3_busy_timeout(db, 2000);
	return db;
}

static void sql(sqlite3 *db, const char *text)
{
	char *msg = NULL;

	if (sqlite3_exec(db, text, NULL, NULL, &msg) != SQLITE_OK)
		fail_msg("%s: %s", text, msg);
}

static long long sql_int(const char *query)
{
	sqlite3 *db;
	sqlite3_stmt *stmt;
	long long v = -1;

	if (on_pg()) {
		PGconn *conn = pg_connect(pg_db);
		PGresult *res = PQexec(conn, query);

		if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res))
			v = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
		PQclear(res);
		PQfinish(conn);
		return v;
	}
	db = raw();

	assert_int_equal(sqlite3_prepare_v2(db, query, -1, &stmt, NULL), SQLITE_OK);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		v = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	sqlite3_close(db);
	return v;
}

/*
 * Change the store behind the interface's back, in SQLite's words or in
 * PostgreSQL's (@pg_text; NULL: the same words).
 */
static void db_exec(const char *sqlite_text, const char *pg_text)
{
	sqlite3 *db;

	if (on_pg()) {
		PGconn *conn = pg_connect(pg_db);

		pg_sql(conn, pg_text ? pg_text : sqlite_text);
		PQfinish(conn);
		return;
	}
	db = raw();
	sql(db, "PRAGMA foreign_keys = ON");
	sql(db, sqlite_text);
	sqlite3_close(db);
}

/* A string constant where the result structures hold their own (never written here). */
#define TEXT(s) ((char *)(s))

static struct result_metric metrics_def[2] = {
	{ .name = TEXT("seconds"), .unit = TEXT("s"), .better = BETTER_LOWER,
	  .source = TEXT("workload") },
	{ .name = TEXT("ops"), .unit = TEXT("ops/s"), .better = BETTER_HIGHER,
	  .source = TEXT("workload"), .repetitions = 2 },
};

static const struct result_benchmark bench_def = {
	.workload = TEXT("pipe"), .params = TEXT("{\"loops\":\"10\"}"), .metrics = metrics_def,
	.nr_metrics = 2,
};

/* Begin a batch of run @name, started at @started. */
static int64_t begin(struct store *st, const char *name, const char *started, bool replace,
		     const char *plan)
{
	struct result_set set = { NULL, 0 };
	struct result_batch *batch = result_set_add_batch(&set);
	struct error err = { 0 };
	int64_t id;

	batch->name = xstrdup(name);
	batch->started = xstrdup(started);
	result_batch_add_env(batch, "kernel.release", "6.1");
	if (store_batch_begin(st, batch, replace, plan, &err))
		fail_msg("store_batch_begin: %s", err.msg);
	id = batch->id;
	result_set_release(&set);
	return id;
}

/* Add the benchmark and @n measured iterations (value i, ops 10i and 10i + 1). */
static int64_t fill(struct store *st, int64_t batch_id, int warmup, int n, int64_t *metric_ids)
{
	struct error err = { 0 };
	int64_t bench_id;
	int seq = 0;

	assert_int_equal(store_benchmark_add(st, batch_id, &bench_def, &bench_id, metric_ids,
					     &err), 0);
	for (int i = 0; i < warmup + n; i++) {
		struct store_sample s[3] = {
			{ metric_ids[0], 0, i },
			{ metric_ids[1], 0, 10.0 * i },
			{ metric_ids[1], 1, 10.0 * i + 1 },
		};

		assert_int_equal(store_iteration_add(st, bench_id, seq++, i < warmup, NULL, NULL, s, 3,
						     &err), 0);
	}
	return bench_id;
}

static bool always_stopped(void)
{
	return true;
}

static void test_round_trip(void **state)
{
	struct store *st = open_store();
	struct result_set set = { NULL, 0 };
	struct error err = { 0 };
	int64_t ids[2], batch_id, bench_id;
	struct store_sample absent = { 0, 0, NAN };

	batch_id = begin(st, "a", "2026-01-01T00:00:00Z", false, NULL);
	bench_id = fill(st, batch_id, 1, 3, ids);
	assert_int_equal(store_iteration_add(st, bench_id, 4, false, "crashed", NULL, &absent, 1,
					     &err), 0);
	assert_int_equal(store_batch_finish(st, batch_id, true, &err), 0);

	assert_int_equal(store_load(st, "a", STORE_EVERYTHING, &set, &err), 0);
	assert_int_equal(set.nr_batches, 1);
	assert_true(set.batches[0].complete);
	assert_string_equal(result_batch_env(&set.batches[0], "kernel.release"), "6.1");
	assert_int_equal(set.batches[0].nr_benchmarks, 1);
	{
		const struct result_benchmark *b = &set.batches[0].benchmarks[0];

		assert_string_equal(b->workload, "pipe");
		assert_int_equal(b->nr_failed, 1);
		assert_int_equal(b->metrics[0].nr_samples, 3);
		assert_int_equal(b->metrics[0].nr_warmup, 1);
		assert_true(b->metrics[0].samples[2] == 3.0);
		assert_int_equal(b->metrics[1].better, BETTER_HIGHER);
		assert_int_equal(b->metrics[1].repetitions, 2);
		assert_int_equal(b->metrics[1].nr_samples, 6);
		assert_true(b->metrics[1].samples[5] == 31.0);
	}
	/* Import of what was loaded: a second run with the same numbers. */
	free(set.batches[0].name);
	set.batches[0].name = xstrdup("b");
	/* Stopped (a signal) before its first iteration: nothing of it is kept. */
	assert_int_equal(store_import(st, &set, always_stopped, &err), -1);
	{
		struct result_set none = { NULL, 0 };

		assert_int_equal(store_load(st, "b", STORE_EVERYTHING, &none, &err), -1);
		assert_int_equal(err.code, EXIT_USAGE);
	}
	assert_int_equal(store_import(st, &set, NULL, &err), 0);
	/* Importing it again is refused whole, nothing added. */
	assert_int_equal(store_import(st, &set, NULL, &err), -1);
	assert_int_equal(err.code, EXIT_USAGE);
	result_set_release(&set);
	assert_int_equal(store_load(st, "b", STORE_EVERYTHING, &set, &err), 0);
	assert_int_equal(set.nr_batches, 1);
	assert_int_equal(set.batches[0].benchmarks[0].metrics[1].nr_samples, 6);
	assert_int_equal(set.batches[0].benchmarks[0].nr_failed, 1);
	result_set_release(&set);

	assert_int_equal(store_load(st, "nosuch", STORE_EVERYTHING, &set, &err), -1);
	assert_int_equal(err.code, EXIT_USAGE);
	store_close(st);
}

/* What runs counted of a batch from a load of its samples and records. */
static void counted_by_reading(const struct result_batch *b, size_t *samples,
			       size_t *disturbed)
{
	*samples = *disturbed = 0;
	for (size_t k = 0; k < b->nr_benchmarks; k++) {
		const struct result_benchmark *bench = &b->benchmarks[k];

		for (size_t m = 0; m < bench->nr_metrics; m++)
			if (!strcmp(bench->metrics[m].source, "workload"))
				*samples += bench->metrics[m].nr_samples;
		for (size_t i = 0; i < bench->nr_iterations; i++)
			*disturbed += !bench->iterations[i].warmup &&
				      bench->iterations[i].disturbed;
	}
}

/* Add to @batch_id a benchmark with a monitor's metric, and disturbed iterations. */
static void fill_disturbed(struct store *st, int64_t batch_id)
{
	struct result_metric defs[2] = {
		{ .name = TEXT("usec"), .unit = TEXT("usec"), .better = BETTER_LOWER,
		  .source = TEXT("workload") },
		{ .name = TEXT("wall"), .unit = TEXT("s"), .better = BETTER_LOWER,
		  .source = TEXT("rusage") },
	};
	const struct result_benchmark def = {
		.workload = TEXT("pipe"), .params = TEXT("{\"loops\":\"20\"}"),
		.metrics = defs, .nr_metrics = 2,
	};
	struct result_iteration calm = { .cpu_taken = 0, .cpu_steal = 0, .cpu_available = 1,
					 .started = NAN, .ended = NAN };
	struct result_iteration hit = calm;
	struct error err = { 0 };
	int64_t bench_id, ids[2];

	hit.disturbed = true;
	hit.cpu_taken = 0.5;
	assert_int_equal(store_benchmark_add(st, batch_id, &def, &bench_id, ids, &err), 0);
	for (int seq = 0; seq < 6; seq++) {
		struct store_sample s[2] = { { ids[0], 0, seq }, { ids[1], 0, 1.0 + seq } };
		/*
		 * seq 0 a disturbed warm-up, 1 calm, 2 and 4 disturbed, 3 failed
		 * while disturbed (its sample kept), 5 disturbed with no sample
		 */
		bool warmup = seq == 0, disturbed = seq != 1;
		const char *failure = seq == 3 ? "crashed" : NULL;

		assert_int_equal(store_iteration_add(st, bench_id, seq, warmup, failure,
						     disturbed ? &hit : &calm, s,
						     seq == 5 ? 0 : 2, &err), 0);
	}
}

/* STORE_COUNTS counts in the store what a load of every sample would. */
static void test_load_counts(void **state)
{
	struct store *st = open_store();
	struct error err = { 0 };
	int64_t ids[2], a, b;
	const char *names[] = { NULL, "a", "b" };
	/* a: 3 + 6 of bench_def, 4 (seq 1 to 4) of usec; 2 disturbed. b: 2 + 4 */
	const size_t samples[] = { 13, 6 }, disturbed[] = { 2, 0 };

	a = begin(st, "a", "2026-01-01T00:00:00Z", false, NULL);
	fill(st, a, 1, 3, ids);
	fill_disturbed(st, a);
	assert_int_equal(store_batch_finish(st, a, true, &err), 0);
	b = begin(st, "b", "2026-01-02T00:00:00Z", false, NULL);
	fill(st, b, 2, 2, ids);
	assert_int_equal(store_batch_finish(st, b, true, &err), 0);
	for (size_t n = 0; n < 3; n++) {
		struct result_set counted = { NULL, 0 }, read = { NULL, 0 };

		assert_int_equal(store_load(st, names[n], STORE_COUNTS, &counted, &err), 0);
		assert_int_equal(store_load(st, names[n], STORE_SAMPLES | STORE_ITERATIONS, &read,
					    &err), 0);
		assert_int_equal(counted.nr_batches, read.nr_batches);
		for (size_t i = 0; i < counted.nr_batches; i++) {
			const struct result_batch *c = &counted.batches[i];
			size_t at = c->id == a ? 0 : 1, s, d;

			counted_by_reading(&read.batches[i], &s, &d);
			assert_int_equal(c->nr_samples, samples[at]);
			assert_int_equal(c->nr_disturbed, disturbed[at]);
			assert_int_equal(c->nr_samples, s);
			assert_int_equal(c->nr_disturbed, d);
			/* nothing read */
			assert_int_equal(c->benchmarks[0].metrics[0].nr_samples, 0);
		}
		result_set_release(&counted);
		result_set_release(&read);
	}
	store_close(st);
}

/* A profile comes back as stored: counts, symbols in order, timed before extra. */
static void test_profile_round_trip(void **state)
{
	struct store *st = open_store();
	struct result_set set = { NULL, 0 };
	struct result_benchmark b = { 0 };
	struct result_profile *p = result_benchmark_add_profile(&b);
	const struct result_benchmark *lb;
	struct error err = { 0 };
	int64_t ids[2], batch_id, bench_id;

	batch_id = begin(st, "a", "2026-01-01T00:00:00Z", false, NULL);
	bench_id = fill(st, batch_id, 0, 2, ids);
	p->seq = 0;
	p->extra = true;
	p->event = xstrdup("cpu-clock");
	p->scope = xstrdup("tasks");
	p->frequency = 1000;
	p->samples = 7;
	p->lost = 1;
	p->total = 7000000;
	result_profile_add_symbol(p, "pipe_write", "[kernel.kallsyms]", 3000000, 5000000);
	result_profile_add_symbol(p, "main", "schedperf", 0, 7000000);
	assert_int_equal(store_profile_add(st, bench_id, p, &err), 0);
	p->seq = 1;
	p->extra = false;
	assert_int_equal(store_profile_add(st, bench_id, p, &err), 0);
	/* one profile per iteration */
	assert_int_equal(store_profile_add(st, bench_id, p, &err), -1);
	assert_int_equal(store_batch_finish(st, batch_id, true, &err), 0);

	assert_int_equal(store_load(st, "a", STORE_EVERYTHING, &set, &err), 0);
	lb = &set.batches[0].benchmarks[0];
	assert_int_equal(lb->nr_profiles, 2);
	assert_int_equal(lb->profiles[0].seq, 1);
	assert_false(lb->profiles[0].extra);
	assert_true(lb->profiles[1].extra);
	assert_string_equal(lb->profiles[0].event, "cpu-clock");
	assert_string_equal(lb->profiles[0].scope, "tasks");
	assert_int_equal(lb->profiles[0].frequency, 1000);
	assert_int_equal(lb->profiles[0].samples, 7);
	assert_int_equal(lb->profiles[0].lost, 1);
	assert_int_equal(lb->profiles[0].total, 7000000);
	assert_int_equal(lb->profiles[0].nr_symbols, 2);
	assert_string_equal(lb->profiles[0].symbols[0].dso, "[kernel.kallsyms]");
	assert_int_equal(lb->profiles[0].symbols[0].self, 3000000);
	assert_int_equal(lb->profiles[0].symbols[0].children, 5000000);
	assert_string_equal(lb->profiles[0].symbols[1].name, "main");
	result_set_release(&set);
	/* without samples, without profiles */
	assert_int_equal(store_load(st, "a", 0, &set, &err), 0);
	assert_int_equal(set.batches[0].benchmarks[0].nr_profiles, 0);
	result_set_release(&set);
	result_profile_release(p);
	free(b.profiles);
	store_close(st);
}

static void test_resume_bookkeeping(void **state)
{
	struct store *st = open_store();
	struct result_iteration rerun = { .rerun = true, .started = NAN, .ended = NAN };
	struct benchmark_progress p;
	struct open_slot slot;
	struct error err = { 0 };
	int64_t ids[2], found[2], batch_id, bench_id, resumed;
	char *plan = NULL;

	batch_id = begin(st, "r", "2026-01-01T00:00:00Z", false, "{\"plan\":1}");
	bench_id = fill(st, batch_id, 2, 3, ids);
	assert_int_equal(store_iteration_add(st, bench_id, 5, false, "timed out", NULL, NULL, 0, &err),
			 0);
	assert_int_equal(store_batch_finish(st, batch_id, false, &err), 0);

	assert_int_equal(store_resume_find(st, "r", &resumed, &plan, &err), 0);
	assert_int_equal(resumed, batch_id);
	assert_string_equal(plan, "{\"plan\":1}");
	free(plan);
	assert_int_equal(store_benchmark_progress(st, batch_id, 0, &bench_def, &found[0], found,
						  &p, &err), 0);
	assert_int_equal(found[0], ids[0]);
	assert_int_equal(found[1], ids[1]);
	assert_int_equal(p.next_seq, 6);
	assert_int_equal(p.warmup_done, 2);
	assert_int_equal(p.measured_done, 3);
	/* No benchmark at position 1 yet: 1, not an error. */
	assert_int_equal(store_benchmark_progress(st, batch_id, 1, &bench_def, &bench_id, found,
						  &p, &err), 1);
	/*
	 * The slot cut short: after the last success, a failure, a disturbed
	 * attempt run again and a failure: two failed and one rerun of a
	 * budget of 1 + 2 attempts, or a slot spent (1 + 1) and none open.
	 */
	assert_int_equal(store_benchmark_open_slot(st, found[0], 2, &slot, &err), 0);
	assert_false(slot.warmup);
	assert_int_equal(slot.failed, 1);
	assert_int_equal(slot.reruns, 0);
	assert_int_equal(store_iteration_add(st, found[0], 6, false, NULL, &rerun, NULL, 0, &err),
			 0);
	assert_int_equal(store_iteration_add(st, found[0], 7, false, "failed", NULL, NULL, 0,
					     &err), 0);
	assert_int_equal(store_benchmark_open_slot(st, found[0], 2, &slot, &err), 0);
	assert_false(slot.warmup);
	assert_int_equal(slot.failed, 2);
	assert_int_equal(slot.reruns, 1);
	assert_int_equal(store_benchmark_open_slot(st, found[0], 1, &slot, &err), 0);
	assert_int_equal(slot.failed, 0);
	assert_int_equal(slot.reruns, 0);
	/* a success not rerun closes the slot */
	assert_int_equal(store_iteration_add(st, found[0], 8, false, NULL, NULL, NULL, 0, &err), 0);
	assert_int_equal(store_benchmark_open_slot(st, found[0], 2, &slot, &err), 0);
	assert_int_equal(slot.failed + slot.reruns, 0);
	/* A run with no incomplete batch. */
	assert_int_equal(store_batch_finish(st, batch_id, true, &err), 0);
	assert_int_equal(store_resume_find(st, "r", &resumed, &plan, &err), -1);
	assert_int_equal(err.code, EXIT_USAGE);
	assert_int_equal(store_resume_find(st, "nosuch", &resumed, &plan, &err), -1);
	assert_int_equal(err.code, EXIT_USAGE);
	store_close(st);
}

/* The values of @m, measured then warm-up, as "1 2 3 | 0". */
static void values_of(const struct result_metric *m, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < m->nr_samples; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%g%s", i ? " " : "",
					 m->samples[i], m->disturbed && m->disturbed[i] ? "!" : "");
	used += (size_t)snprintf(buf + used, len - used, " |");
	for (size_t i = 0; i < m->nr_warmup; i++)
		used += (size_t)snprintf(buf + used, len - used, " %g", m->warmup[i]);
}

/* What a load read of run @name, as text: its benchmarks, metrics, samples and records. */
static void loaded(const struct result_set *set, const char *name, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < set->nr_batches; i++) {
		const struct result_batch *batch = &set->batches[i];

		if (strcmp(batch->name, name))
			continue;
		for (size_t j = 0; j < batch->nr_benchmarks; j++) {
			const struct result_benchmark *b = &batch->benchmarks[j];

			used += (size_t)snprintf(buf + used, len - used, "[%s %s failed %zu",
						 b->workload, b->params, b->nr_failed);
			for (size_t k = 0; k < b->nr_metrics; k++) {
				char values[256];

				values_of(&b->metrics[k], values, sizeof(values));
				used += (size_t)snprintf(buf + used, len - used, " %s: %s;",
							 b->metrics[k].name, values);
			}
			for (size_t k = 0; k < b->nr_iterations; k++)
				used += (size_t)snprintf(buf + used, len - used, " it%s%s %g/%zu",
							 b->iterations[k].warmup ? "w" : "",
							 b->iterations[k].disturbed ? "!" : "",
							 b->iterations[k].cpu_taken,
							 b->iterations[k].nr_culprits);
			used += (size_t)snprintf(buf + used, len - used, "]");
		}
	}
}

/* Run @name read by name and with the whole store: both give @expected. */
static void assert_loads(struct store *st, const char *name, const char *expected)
{
	struct result_set one = { NULL, 0 }, all = { NULL, 0 };
	struct error err = { 0 };
	char by_name[2048], whole[2048];

	assert_int_equal(store_load(st, name, STORE_EVERYTHING, &one, &err), 0);
	assert_int_equal(store_load(st, NULL, STORE_EVERYTHING, &all, &err), 0);
	loaded(&one, name, by_name, sizeof(by_name));
	loaded(&all, name, whole, sizeof(whole));
	assert_string_equal(by_name, expected);
	assert_string_equal(whole, expected);
	result_set_release(&one);
	result_set_release(&all);
}

/* What store_load_each() handed over, as loaded() shows each batch. */
struct each_text {
	char buf[4096];
	size_t used;
};

static void batch_text(const struct result_set *set, size_t at, struct each_text *t)
{
	const struct result_set one = { &set->batches[at], 1 };

	loaded(&one, set->batches[at].name, t->buf + t->used, sizeof(t->buf) - t->used);
	t->used += strlen(t->buf + t->used);
}

static int each_batch(struct result_set *set, size_t at, void *arg, struct error *err)
{
	batch_text(set, at, arg);
	return 0;
}

/* Batch @started of run @name, imported: a benchmark of @nr metrics of three samples. */
static void import_wide(struct store *st, const char *name, const char *started, size_t nr)
{
	struct result_set set = { NULL, 0 };
	struct result_batch *batch = result_set_add_batch(&set);
	struct result_benchmark *bench = result_batch_add_benchmark(batch);
	struct error err = { 0 };

	batch->name = xstrdup(name);
	batch->started = xstrdup(started);
	bench->workload = xstrdup("pipe");
	bench->params = xstrdup("{}");
	for (size_t i = 0; i < nr; i++) {
		struct result_metric *m = result_benchmark_add_metric(bench);

		m->name = xasprintf("m%zu", i);
		m->unit = xstrdup("s");
		for (int k = 0; k < 3; k++)
			result_metric_add_sample(m, 10.0 * (double)i + k, false);
	}
	assert_int_equal(store_import(st, &set, NULL, &err), 0);
	result_set_release(&set);
}

/*
 * store_load_each() hands over each batch as store_load() of the whole
 * store reads it, and keeps none of their benchmarks: the batches after
 * the first read a batch at a time when the first is wide (on SQLite: 8
 * metrics and more), or the rest at once when it is narrow.
 */
static void assert_each_loads_as_whole(struct store *st)
{
	struct each_text each = { .used = 0 }, whole = { .used = 0 };
	const struct store_each calls = { NULL, each_batch, &each };
	struct result_set all = { NULL, 0 }, set = { NULL, 0 };
	unsigned parts = STORE_SAMPLES | STORE_ITERATIONS;
	struct error err = { 0 };
	int64_t ids[2];

	fill(st, begin(st, "rows", "2026-01-03T00:00:00Z", false, NULL), 1, 2, ids);
	import_wide(st, "wide", "2026-01-04T00:00:00Z", 9);
	assert_int_equal(store_load(st, NULL, parts, &all, &err), 0);
	for (size_t i = 0; i < all.nr_batches; i++)
		batch_text(&all, i, &whole);
	assert_int_equal(store_load_each(st, parts, &set, &calls, &err), 0);
	assert_string_equal(each.buf, whole.buf);
	assert_int_equal(set.nr_batches, all.nr_batches);
	for (size_t i = 0; i < set.nr_batches; i++)
		assert_int_equal(set.batches[i].nr_benchmarks, 0);
	result_set_release(&all);
	result_set_release(&set);
}

static void test_load_each_wide_first(void **state)
{
	struct store *st = open_store();

	import_wide(st, "first", "2026-01-01T00:00:00Z", 8);
	import_wide(st, "narrow", "2026-01-02T00:00:00Z", 1);
	assert_each_loads_as_whole(st);
	store_close(st);
}

static void test_load_each_narrow_first(void **state)
{
	struct store *st = open_store();

	import_wide(st, "first", "2026-01-01T00:00:00Z", 1);
	import_wide(st, "wider", "2026-01-02T00:00:00Z", 12);
	assert_each_loads_as_whole(st);
	store_close(st);
}

/*
 * Results imported without records are packed (packs.c), a row a metric:
 * they load as the rows they came from did, warm-ups, repetitions, an
 * absent value and failures alike, by name and with the whole store, and
 * are counted as those.
 */
static void test_import_packed(void **state)
{
	struct store *st = open_store();
	struct result_set set = { NULL, 0 }, counted = { NULL, 0 };
	struct store_sample only_seconds = { 0, 0, 4.5 }, absent = { 0, 0, NAN };
	struct error err = { 0 };
	int64_t ids[2], a, bench_id;
	char rows[2048];

	a = begin(st, "a", "2026-01-01T00:00:00Z", false, NULL);
	bench_id = fill(st, a, 1, 3, ids);
	only_seconds.metric_id = ids[0];
	assert_int_equal(store_iteration_add(st, bench_id, 4, false, NULL, NULL, &only_seconds, 1,
					     &err), 0);
	assert_int_equal(store_iteration_add(st, bench_id, 5, false, "crashed", NULL, &absent, 1,
					     &err), 0);
	fill(st, a, 2, 2, ids);
	assert_int_equal(store_batch_finish(st, a, true, &err), 0);
	assert_int_equal(store_load(st, "a", STORE_EVERYTHING, &set, &err), 0);
	loaded(&set, "a", rows, sizeof(rows));
	assert_non_null(strstr(rows, "failed 1 seconds: 1 2 3 4.5 | 0; ops: 10 11 20 21 30 31 "));

	free(set.batches[0].name);
	set.batches[0].name = xstrdup("p");
	assert_int_equal(store_import(st, &set, NULL, &err), 0);
	assert_loads(st, "p", rows);
	/* two benchmarks of two metrics, each a part of warm-ups and one of the rest */
	assert_int_equal(sql_int("SELECT count(*) FROM packed_samples"), 8);
	assert_int_equal(sql_int("SELECT count(DISTINCT metric_id) FROM packed_samples"), 4);
	/* no iteration but the failed one */
	assert_int_equal(sql_int("SELECT count(*) FROM iterations i JOIN benchmarks k ON "
				 "k.id = i.benchmark_id JOIN batches b ON b.id = k.batch_id "
				 "JOIN runs r ON r.id = b.run_id WHERE r.name = 'p'"), 1);
	assert_int_equal(store_load(st, NULL, STORE_COUNTS, &counted, &err), 0);
	assert_int_equal(counted.nr_batches, 2);
	/* the workload's measured values: 4 + 6 of the first benchmark, 2 + 4 of the second */
	assert_int_equal(counted.batches[0].nr_samples, 16);
	assert_int_equal(counted.batches[1].nr_samples, 16);
	result_set_release(&counted);
	assert_int_equal(store_load(st, "p", STORE_COUNTS, &counted, &err), 0);
	assert_int_equal(counted.batches[0].nr_samples, 16);
	result_set_release(&counted);
	result_set_release(&set);
	store_close(st);
}

/* A metric of @bench named @name with @reps repetitions, @nr_warmup and @nr values. */
static void add_metric(struct result_benchmark *bench, const char *name, size_t reps,
		       size_t nr_warmup, size_t nr)
{
	struct result_metric *m = result_benchmark_add_metric(bench);

	m->name = xstrdup(name);
	m->unit = xstrdup("s");
	m->source = xstrdup("workload");
	m->repetitions = reps;
	for (size_t i = 0; i < nr_warmup; i++)
		result_metric_add_sample(m, 100.0 + (double)i, true);
	for (size_t i = 0; i < nr; i++)
		result_metric_add_sample(m, 1.0 + (double)i, false);
}

/*
 * Shapes the rows took as they came and packs must take alike: a metric
 * with fewer warm-ups and iterations than its benchmark, one of warm-ups
 * only and more of them than the others (a benchmark whose measured
 * iterations all failed: its warm-ups are the benchmark's too, all kept),
 * and one of a million repetitions and no value (as rows, nothing;
 * packed, no row, not gigabytes of NaNs).
 */
static void test_import_packed_shapes(void **state)
{
	struct store *st = open_store();
	struct result_set set = { NULL, 0 }, one = { NULL, 0 };
	struct result_batch *batch = result_set_add_batch(&set);
	struct result_benchmark *bench = result_batch_add_benchmark(batch);
	struct error err = { 0 };
	char packed[2048], rows[2048];

	batch->name = xstrdup("p");
	batch->started = xstrdup("2026-01-01T00:00:00Z");
	batch->complete = true;
	bench->workload = xstrdup("pipe");
	bench->params = xstrdup("{}");
	add_metric(bench, "a", 1, 2, 5);
	add_metric(bench, "b", 2, 0, 4);
	add_metric(bench, "c", 1, 4, 0);
	add_metric(bench, "d", 1000000, 0, 0);
	result_benchmark_add_failure(bench, "crashed");
	assert_int_equal(store_import(st, &set, NULL, &err), 0);
	/* a's warm-ups and measured values, b's measured, c's warm-ups: d has none */
	assert_int_equal(sql_int("SELECT count(*) FROM packed_samples"), 4);
	assert_int_equal(sql_int("SELECT sum(length(hex)) / 16 FROM packed_samples"),
			 2 + 5 + 4 + 4);
	/* the same as run r, with a record: as rows */
	free(batch->name);
	batch->name = xstrdup("r");
	result_benchmark_add_iteration(bench);
	assert_int_equal(store_import(st, &set, NULL, &err), 0);
	assert_int_equal(sql_int("SELECT count(*) FROM packed_samples"), 4);

	assert_int_equal(store_load(st, "p", STORE_EVERYTHING, &one, &err), 0);
	loaded(&one, "p", packed, sizeof(packed));
	result_set_release(&one);
	assert_int_equal(store_load(st, "r", STORE_EVERYTHING, &one, &err), 0);
	loaded(&one, "r", rows, sizeof(rows));
	result_set_release(&one);
	assert_string_equal(packed, rows);
	assert_string_equal(packed, "[pipe {} failed 1 a: 1 2 3 4 5 | 100 101; b: 1 2 3 4 |; "
			    "c:  | 100 101 102 103; d:  |;]");
	result_set_release(&set);

	/*
	 * Beside 200,000 iterations, d's would be terabytes; a's go in parts
	 * (of 65,536 values: a part of a gigabyte is more than the databases take).
	 */
	batch = result_set_add_batch(&set);
	batch->name = xstrdup("big");
	batch->started = xstrdup("2026-01-01T00:00:00Z");
	bench = result_batch_add_benchmark(batch);
	bench->workload = xstrdup("pipe");
	bench->params = xstrdup("{}");
	add_metric(bench, "a", 1, 0, 200000);
	add_metric(bench, "d", 1000000, 0, 0);
	assert_int_equal(store_import(st, &set, NULL, &err), 0);
	assert_int_equal(sql_int("SELECT sum(length(hex)) / 16 FROM packed_samples"),
			 2 + 5 + 4 + 4 + 200000);
	assert_int_equal(sql_int("SELECT count(*) FROM packed_samples"), 4 + 4);
	result_set_release(&set);
	assert_int_equal(store_load(st, "big", STORE_SAMPLES, &set, &err), 0);
	{
		const struct result_metric *a = &set.batches[0].benchmarks[0].metrics[0];

		assert_int_equal(a->nr_samples, 200000);
		for (size_t i = 0; i < a->nr_samples; i++)
			if (a->samples[i] != 1.0 + (double)i)
				fail_msg("sample %zu of a part is %g", i, a->samples[i]);
	}
	result_set_release(&set);
	store_close(st);
}

/*
 * A text longer than SQLite takes is refused at its binding, which leaves
 * NULL in its place: a failed iteration's reason, so lost, would have made
 * it a successful one. The statement says why instead, and nothing is
 * imported.
 */
static void test_text_too_long(void **state)
{
	struct store *st = open_store();
	struct result_set set = { NULL, 0 }, none = { NULL, 0 };
	struct result_batch *batch = result_set_add_batch(&set);
	struct result_benchmark *bench = result_batch_add_benchmark(batch);
	char reason[3000];
	struct error err = { 0 };

	memset(reason, 'x', sizeof(reason) - 1);
	reason[sizeof(reason) - 1] = '\0';
	batch->name = xstrdup("long");
	batch->started = xstrdup("2026-01-01T00:00:00Z");
	bench->workload = xstrdup("pipe");
	bench->params = xstrdup("{}");
	add_metric(bench, "a", 1, 0, 3);
	result_benchmark_add_failure(bench, reason);
	sqlite3_limit(sqlite_of(st)->db, SQLITE_LIMIT_LENGTH, 2000);
	assert_int_equal(store_import(st, &set, NULL, &err), -1);
	assert_int_equal(err.code, EXIT_USAGE);
	assert_non_null(strstr(err.msg, "longer than SQLite takes"));
	assert_int_equal(store_load(st, "long", STORE_EVERYTHING, &none, &err), -1);
	assert_int_equal(err.code, EXIT_USAGE);
	result_set_release(&set);
	store_close(st);
}

/* A benchmark of batch @batch_id whose iterations are stored in the order of @seqs. */
static void add_in_order(struct store *st, int64_t batch_id, const int *seqs, size_t n,
			 const struct result_iteration *noisy)
{
	struct error err = { 0 };
	int64_t ids[2], bench_id;

	assert_int_equal(store_benchmark_add(st, batch_id, &bench_def, &bench_id, ids, &err), 0);
	for (size_t i = 0; i < n; i++) {
		struct store_sample s[3] = {
			{ ids[0], 0, seqs[i] }, { ids[1], 0, 10.0 * seqs[i] },
			{ ids[1], 1, 10.0 * seqs[i] + 1 },
		};

		assert_int_equal(store_iteration_add(st, bench_id, seqs[i], seqs[i] == 0, NULL,
						     seqs[i] == 2 ? noisy : NULL, s, 3, &err), 0);
	}
	assert_int_equal(store_iteration_add(st, bench_id, (int)n, false, "crashed", NULL, NULL, 0,
					     &err), 0);
}

/*
 * A load gives each benchmark its samples in seq order and its metrics in
 * position order, whatever order the store holds them in, and the same
 * whether it reads one run or the whole store at once (which reads the
 * iterations in the order of their ids, and reads again a batch at a time
 * when a benchmark's are not in seq order).
 */
static void test_load_orders(void **state)
{
	struct store *st = open_store();
	struct result_culprit culprit = { .name = TEXT("make"), .pid = 7, .cpu = 0.5 };
	struct result_iteration noisy = { .disturbed = true, .cpu_taken = 0.5, .cpu_steal = NAN,
					  .cpu_available = 2, .started = NAN, .ended = NAN,
					  .culprits = &culprit, .nr_culprits = 1 };
	static const int in_order[] = { 0, 1, 2, 3 }, out_of_order[] = { 3, 1, 0, 2 };
	struct error err = { 0 };
	int64_t ids[2], batch_id;

	batch_id = begin(st, "x", "2026-01-01T00:00:00Z", false, NULL);
	fill(st, batch_id, 1, 2, ids);
	add_in_order(st, batch_id, in_order, 4, &noisy);
	assert_int_equal(store_batch_finish(st, batch_id, true, &err), 0);
	/* the first benchmark's metrics stored in the other order */
	db_exec("UPDATE metrics SET position = 1 - position WHERE benchmark_id = "
		"(SELECT min(id) FROM benchmarks)", NULL);
	fill(st, begin(st, "y", "2026-01-02T00:00:00Z", false, NULL), 0, 1, ids);
	/* a replacing batch not complete is seen by neither */
	fill(st, begin(st, "x", "2026-01-03T00:00:00Z", true, NULL), 0, 3, ids);
	assert_loads(st, "x", "[pipe {\"loops\":\"10\"} failed 0 ops: 10 11 20 21 | 0 1; "
		     "seconds: 1 2 | 0;][pipe {\"loops\":\"10\"} failed 1 seconds: 1 2! 3 | 0; "
		     "ops: 10 11 20! 21! 30 31 | 0 1; itw nan/0 it nan/0 it! 0.5/1 it nan/0]");

	add_in_order(st, begin(st, "z", "2026-01-04T00:00:00Z", false, NULL), out_of_order, 4,
		     &noisy);
	assert_loads(st, "z", "[pipe {\"loops\":\"10\"} failed 1 seconds: 1 2! 3 | 0; "
		     "ops: 10 11 20! 21! 30 31 | 0 1; itw nan/0 it nan/0 it! 0.5/1 it nan/0]");
	store_close(st);
}

/* A record with only its @k-th of the six values an iteration stores (0: rerun). */
static struct result_iteration record_with(int k)
{
	struct result_iteration it = { .cpu_taken = NAN, .cpu_steal = NAN, .cpu_available = NAN,
				       .started = NAN, .ended = NAN };
	double *values[] = { &it.cpu_taken, &it.cpu_steal, &it.cpu_available, &it.started,
			     &it.ended };

	if (k)
		*values[k - 1] = 0.25;
	else
		it.rerun = true;
	return it;
}

/* A benchmark of batch @batch_id: seq 0 with no record, seq 1 with @info (NULL: none). */
static void add_recorded(struct store *st, int64_t batch_id, const struct result_iteration *info)
{
	struct error err = { 0 };
	int64_t ids[2], bench_id;

	assert_int_equal(store_benchmark_add(st, batch_id, &bench_def, &bench_id, ids, &err), 0);
	for (int seq = 0; seq < 2; seq++) {
		struct store_sample s = { ids[0], 0, seq };

		assert_int_equal(store_iteration_add(st, bench_id, seq, false, NULL,
						     seq ? info : NULL, &s, 1, &err), 0);
	}
}

/* The iterations @b holds: none, or seq 1's record the @k-th of record_with(). */
static void assert_recorded(const struct result_benchmark *b, int k)
{
	const struct result_iteration *it = b->iterations;
	const double *values[2][5];

	if (k < 0) {
		assert_int_equal(b->nr_iterations, 0);
		return;
	}
	assert_int_equal(b->nr_iterations, 2);
	for (int i = 0; i < 2; i++) {
		const double *v[] = { &it[i].cpu_taken, &it[i].cpu_steal, &it[i].cpu_available,
				      &it[i].started, &it[i].ended };

		memcpy(values[i], v, sizeof(v));
	}
	assert_false(it[0].rerun);
	assert_int_equal(it[1].rerun, k == 0);
	for (int j = 0; j < 5; j++) {
		assert_true(isnan(*values[0][j]));
		if (j == k - 1)
			assert_true(*values[1][j] == 0.25);
		else
			assert_true(isnan(*values[1][j]));
	}
}

/* The benchmark of the batch of run @name started at @started in @set. */
static const struct result_benchmark *benchmark_of(const struct result_set *set,
						   const char *name, const char *started)
{
	for (size_t i = 0; i < set->nr_batches; i++)
		if (!strcmp(set->batches[i].name, name) &&
		    !strcmp(set->batches[i].started, started)) {
			assert_int_equal(set->batches[i].nr_benchmarks, 1);
			return &set->batches[i].benchmarks[0];
		}
	fail_msg("no batch of %s started at %s", name, started);
	return NULL;
}

/*
 * Iterations with no record read as none, and an iteration with one of
 * the six values (after others with none, after a batch with none) keeps
 * its benchmark's where that value is interference (rerun, cpu_taken,
 * started: result_benchmark_has_interference()): read one run at a time
 * and the whole store.
 */
static void test_load_records(void **state)
{
	struct store *st = open_store();
	static const bool kept[] = { true, true, false, false, true, false };
	struct result_set set = { NULL, 0 }, all = { NULL, 0 };
	struct error err = { 0 };
	char name[8];

	add_recorded(st, begin(st, "none", "2026-01-01T00:00:00Z", false, NULL), NULL);
	for (int k = 0; k < 6; k++) {
		struct result_iteration info = record_with(k);

		snprintf(name, sizeof(name), "r%d", k);
		add_recorded(st, begin(st, name, "2026-01-02T00:00:00Z", false, NULL), NULL);
		add_recorded(st, begin(st, name, "2026-01-03T00:00:00Z", false, NULL), &info);
	}
	assert_int_equal(store_load(st, NULL, STORE_EVERYTHING, &all, &err), 0);
	assert_int_equal(all.nr_batches, 13);
	assert_recorded(benchmark_of(&all, "none", "2026-01-01T00:00:00Z"), -1);
	for (int k = 0; k < 6; k++) {
		snprintf(name, sizeof(name), "r%d", k);
		assert_int_equal(store_load(st, name, STORE_EVERYTHING, &set, &err), 0);
		assert_int_equal(set.nr_batches, 2);
		for (int whole = 0; whole < 2; whole++) {
			const struct result_set *of = whole ? &all : &set;

			assert_recorded(benchmark_of(of, name, "2026-01-02T00:00:00Z"), -1);
			assert_recorded(benchmark_of(of, name, "2026-01-03T00:00:00Z"),
					kept[k] ? k : -1);
		}
		result_set_release(&set);
	}
	result_set_release(&all);
	store_close(st);
}

/*
 * A batch whose iterations are far apart in the store (resumed after
 * another run wrote many) is read in the order of the indexes, not
 * through all the iterations between: alike.
 */
static void test_load_far_apart(void **state)
{
	struct store *st = open_store();
	struct result_culprit culprit = { .name = TEXT("make"), .pid = 7, .cpu = 0.5 };
	struct result_iteration noisy = { .disturbed = true, .cpu_taken = 0.5, .cpu_steal = NAN,
					  .cpu_available = 2, .started = NAN, .ended = NAN,
					  .culprits = &culprit, .nr_culprits = 1 };
	struct result_set big = { NULL, 0 };
	struct result_batch *batch = result_set_add_batch(&big);
	struct result_metric *m;
	struct error err = { 0 };
	int64_t ids[2], bench_id;

	assert_int_equal(store_benchmark_add(st, begin(st, "late", "2026-01-01T00:00:00Z", false,
						       NULL), &bench_def, &bench_id, ids, &err), 0);
	for (int seq = 0; seq < 2; seq++) {
		struct store_sample s[3] = { { ids[0], 0, seq }, { ids[1], 0, 10 }, { ids[1], 1, 11 } };

		if (seq == 1) {
			batch->name = xstrdup("between");
			batch->started = xstrdup("2026-01-02T00:00:00Z");
			result_batch_add_benchmark(batch)->workload = xstrdup("pipe");
			batch->benchmarks[0].params = xstrdup("{}");
			m = result_benchmark_add_metric(&batch->benchmarks[0]);
			m->name = xstrdup("seconds");
			m->unit = xstrdup("s");
			/* and a record each, so that they are rows, not packed */
			for (int i = 0; i < 20000; i++) {
				result_metric_add_sample(m, i, false);
				result_benchmark_add_iteration(&batch->benchmarks[0]);
			}
			assert_int_equal(store_import(st, &big, NULL, &err), 0);
		}
		assert_int_equal(store_iteration_add(st, bench_id, seq, false, NULL,
						     seq ? &noisy : NULL, s, 3, &err), 0);
	}
	assert_loads(st, "late", "[pipe {\"loops\":\"10\"} failed 0 seconds: 0 1! |; "
		     "ops: 10 11 10! 11! |; it nan/0 it! 0.5/1]");
	result_set_release(&big);
	store_close(st);
}

/*
 * A failed iteration that holds samples, stored before the benchmark's
 * first by seq (so outside the ids of its first and last), is read as
 * the others are: a batch's range holds its failed iterations too.
 */
static void test_load_failed_first(void **state)
{
	struct store *st = open_store();
	static const int seqs[] = { 1, 0, 2 };
	struct error err = { 0 };
	int64_t ids[2], bench_id;

	assert_int_equal(store_benchmark_add(st, begin(st, "f", "2026-01-01T00:00:00Z", false,
						       NULL), &bench_def, &bench_id, ids, &err), 0);
	for (size_t i = 0; i < 3; i++) {
		struct store_sample s = { ids[0], 0, seqs[i] };

		assert_int_equal(store_iteration_add(st, bench_id, seqs[i], false,
						     seqs[i] == 1 ? "crashed" : NULL, NULL, &s, 1,
						     &err), 0);
	}
	assert_loads(st, "f", "[pipe {\"loops\":\"10\"} failed 1 seconds: 0 1 2 |; ops:  |;]");
	store_close(st);
}

static size_t batches_of(struct store *st, const char *name)
{
	struct result_set set = { NULL, 0 };
	struct error err = { 0 };
	size_t n;

	if (store_load(st, name, 0, &set, &err))
		return 0;
	n = set.nr_batches;
	result_set_release(&set);
	return n;
}

static void test_replace_when_complete(void **state)
{
	struct store *st = open_store();
	struct error err = { 0 };
	int64_t ids[2], old, failed, replacing;

	old = begin(st, "x", "2026-01-01T00:00:00Z", false, NULL);
	fill(st, old, 0, 2, ids);
	assert_int_equal(store_batch_finish(st, old, true, &err), 0);

	/* A replacing batch that ends incomplete leaves the earlier ones, and is not seen. */
	failed = begin(st, "x", "2026-01-02T00:00:00Z", true, NULL);
	assert_int_equal(batches_of(st, "x"), 1);
	assert_int_equal(store_batch_finish(st, failed, false, &err), 0);
	assert_int_equal(batches_of(st, "x"), 1);

	replacing = begin(st, "x", "2026-01-03T00:00:00Z", true, NULL);
	fill(st, replacing, 0, 1, ids);
	assert_int_equal(batches_of(st, "x"), 1);
	assert_int_equal(store_batch_finish(st, replacing, true, &err), 0);
	assert_int_equal(batches_of(st, "x"), 1);
	assert_int_equal(sql_int("SELECT count(*) FROM batches"), 1);
	assert_int_equal(sql_int("SELECT id FROM batches"), replacing);
	/* The old batch's iterations and samples went with it. */
	assert_int_equal(sql_int("SELECT count(*) FROM iterations"), 1);
	store_close(st);
}

/*
 * Two batches of one run begun in the same microsecond (two workers of a
 * repeated job): the second takes a later start time, and an import of a
 * batch stored before is still refused.
 */
static void test_same_start_time(void **state)
{
	struct store *st = open_store();
	struct result_set set = { NULL, 0 };
	struct result_batch *batch;
	struct error err = { 0 };
	int64_t first, second;

	first = begin(st, "fleet", "2026-12-01T23:49:13.373464Z", false, NULL);
	second = begin(st, "fleet", "2026-12-01T23:49:13.373464Z", false, NULL);
	assert_true(first > 0 && second > first);
	assert_int_equal(sql_int("SELECT count(DISTINCT started) FROM batches"), 2);
	assert_int_equal(sql_int("SELECT count(*) FROM batches WHERE started = "
				 "'2026-12-01T23:49:13.373464Z'"), 1);
	batch = result_set_add_batch(&set);
	batch->name = xstrdup("fleet");
	batch->started = xstrdup("2026-12-01T23:49:13.373464Z");
	batch->complete = true;
	assert_int_equal(store_import(st, &set, NULL, &err), -1);
	assert_int_equal(err.code, EXIT_USAGE);
	assert_non_null(strstr(err.msg, "already has a batch started at"));
	assert_int_equal(sql_int("SELECT count(*) FROM batches"), 2);
	result_set_release(&set);
	store_close(st);
}

static void test_ids_never_reused(void **state)
{
	struct store *st = open_store();
	struct error err = { 0 };
	int64_t ids[2], first, second, third, bench;

	first = begin(st, "x", "2026-01-01T00:00:00Z", false, NULL);
	fill(st, first, 0, 2, ids);
	assert_int_equal(store_batch_finish(st, first, true, &err), 0);
	second = begin(st, "x", "2026-01-02T00:00:00Z", true, NULL);
	bench = fill(st, second, 0, 1, ids);
	assert_int_equal(store_batch_finish(st, second, true, &err), 0);
	/* Delete the newest batch, as a replace by another process would. */
	db_exec("DELETE FROM batches", NULL);
	third = begin(st, "x", "2026-01-03T00:00:00Z", false, NULL);
	assert_true(third > second);
	assert_true(fill(st, third, 0, 1, ids) > bench);
	/* A writer still holding the deleted batch's benchmark fails, never mislabels. */
	assert_int_equal(store_iteration_add(st, bench, 5, false, NULL, NULL, NULL, 0, &err), -1);
	assert_int_equal(err.code, EXIT_ENV);
	assert_int_equal(sql_int("SELECT count(*) FROM iterations"), 1);
	store_close(st);
}

static const char *data_file(const char *name)
{
	static char buf[512];
	const char *slash = strrchr(__FILE__, '/');

	snprintf(buf, sizeof(buf), "%.*s/../data/%s", slash ? (int)(slash - __FILE__) : 1,
		 slash ? __FILE__ : ".", name);
	return buf;
}

/* "table(col type notnull default pk), ...;" for every table and index: the schema's shape. */
static char *schema_shape(const char *db_path)
{
	static const char query[] =
		"SELECT group_concat(x, ';') FROM (SELECT m.name || '(' || "
		"(SELECT group_concat(p.name || ' ' || p.type || ' ' || p.\"notnull\" || ' ' || "
		"coalesce(p.dflt_value, '') || ' ' || p.pk, ',') FROM pragma_table_info(m.name) p) "
		"|| ')' || (CASE WHEN m.sql LIKE '%AUTOINCREMENT%' THEN ' autoincrement' "
		"ELSE '' END) AS x FROM sqlite_master m WHERE m.type = 'table' UNION ALL "
		"SELECT 'index ' || name || ' on ' || tbl_name FROM sqlite_master "
		"WHERE type = 'index' ORDER BY 1)";
	sqlite3 *db;
	sqlite3_stmt *stmt;
	char *shape;

	assert_int_equal(sqlite3_open(db_path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, query, -1, &stmt, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
	shape = xstrdup((const char *)sqlite3_column_text(stmt, 0));
	sqlite3_finalize(stmt);
	sqlite3_close(db);
	return shape;
}

static void load_sql_file(const char *db_path, const char *file)
{
	FILE *f = fopen(file, "r");
	char *text = xcalloc(1, 1 << 20);
	sqlite3 *db;

	assert_non_null(f);
	assert_true(fread(text, 1, (1 << 20) - 1, f) > 0);
	fclose(f);
	assert_int_equal(sqlite3_open(db_path, &db), SQLITE_OK);
	sql(db, text);
	sql(db, "PRAGMA user_version = 1");
	sqlite3_close(db);
	free(text);
}

static void test_upgrade_matches_new(void **state)
{
	char old[160], *fresh, *upgraded;
	struct result_set set = { NULL, 0 };
	struct error err = { 0 };
	struct store *st;
	int64_t ids[2], id;

	store_close(open_store());
	fresh = schema_shape(path);
	snprintf(old, sizeof(old), "%s/v1.db", dir);
	load_sql_file(old, data_file("store-v1.sql"));
	/* Read: the copy in memory is upgraded, the file is not. */
	assert_int_equal(store_open_existing(old, &st, &err), 0);
	assert_int_equal(store_load(st, "v1-fw", STORE_EVERYTHING, &set, &err), 0);
	assert_int_equal(set.batches[0].benchmarks[0].metrics[0].repetitions, 1);
	assert_int_equal(set.batches[0].benchmarks[0].metrics[0].nr_samples, 2);
	result_set_release(&set);
	store_close(st);
	{
		char *still = schema_shape(old);

		assert_null(strstr(still, "autoincrement"));
		free(still);
	}
	/* Write: upgraded in place, to the very schema of a new store. */
	assert_int_equal(store_open(old, &st, &err), 0);
	upgraded = schema_shape(old);
	assert_string_equal(upgraded, fresh);
	/* The new ids come after the old ones. */
	snprintf(path, sizeof(path), "%s", old);
	id = begin(st, "v1-pipe", "2027-01-01T00:00:00Z", false, NULL);
	assert_true(id > 2);
	assert_true(fill(st, id, 0, 1, ids) > 2);
	store_close(st);
	snprintf(path, sizeof(path), "%s/store.db", dir);
	free(fresh);
	free(upgraded);
}

/* A bad direction stored (a damaged store) is an error naming the damage. */
static void test_bad_direction(void **state)
{
	struct store *st = open_store();
	struct result_set set = { NULL, 0 };
	struct error err = { 0 };
	int64_t ids[2], batch_id;

	batch_id = begin(st, "d", "2026-01-01T00:00:00Z", false, NULL);
	fill(st, batch_id, 0, 1, ids);
	assert_int_equal(store_batch_finish(st, batch_id, true, &err), 0);
	db_exec("PRAGMA ignore_check_constraints = ON; "
		"UPDATE metrics SET better = 'sideways' WHERE name = 'ops'",
		"ALTER TABLE metrics DROP CONSTRAINT metrics_better_check; "
		"UPDATE metrics SET better = 'sideways' WHERE name = 'ops'");
	assert_int_equal(store_load(st, "d", STORE_EVERYTHING, &set, &err), -1);
	assert_int_equal(err.code, EXIT_ENV);
	assert_non_null(strstr(err.msg, "'sideways'"));
	assert_non_null(strstr(err.msg, "damaged"));
	result_set_release(&set);
	store_close(st);
}

/* Whether the store's own connection checks foreign keys (1), or not (0). */
static int checks_references(struct store *st)
{
	sqlite3_stmt *stmt;
	int on = -1;

	assert_int_equal(sqlite3_prepare_v2(sqlite_of(st)->db, "PRAGMA foreign_keys", -1, &stmt,
					    NULL), SQLITE_OK);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		on = sqlite3_column_int(stmt, 0);
	sqlite3_finalize(stmt);
	return on;
}

/*
 * An import adds its rows without SQLite looking up each reference
 * (TXN_ADD): it makes them right itself, under the write lock. The
 * checks are on again for whatever the connection writes next, whether
 * the import went in, was refused, or could not start (another writer
 * held the lock); and a delete, which waits for the lock, takes the
 * imported rows with the run (its samples packed: packs.c).
 */
static void test_import_checks_again(void **state)
{
	struct store *st = open_store();
	struct result_set set = { NULL, 0 };
	struct error err = { 0 };
	int64_t ids[2], batch_id;
	sqlite3 *db;

	batch_id = begin(st, "a", "2026-01-01T00:00:00Z", false, NULL);
	fill(st, batch_id, 1, 3, ids);
	assert_int_equal(store_batch_finish(st, batch_id, true, &err), 0);
	assert_int_equal(store_load(st, "a", STORE_EVERYTHING, &set, &err), 0);
	free(set.batches[0].name);
	set.batches[0].name = xstrdup("b");
	assert_int_equal(checks_references(st), 1);

	db = raw();
	sql(db, "BEGIN IMMEDIATE");
	assert_int_equal(store_import(st, &set, NULL, &err), -1);
	assert_int_equal(err.code, EXIT_ENV);
	assert_int_equal(checks_references(st), 1);
	sql(db, "ROLLBACK");
	sqlite3_close(db);

	assert_int_equal(store_import(st, &set, NULL, &err), 0);
	assert_int_equal(checks_references(st), 1);
	assert_int_equal(store_import(st, &set, NULL, &err), -1);
	assert_int_equal(err.code, EXIT_USAGE);
	assert_int_equal(checks_references(st), 1);
	/* every reference leads somewhere, and what refers to the run goes with it */
	assert_int_equal(sql_int("SELECT count(*) FROM pragma_foreign_key_check"), 0);
	assert_int_equal(sql_int("SELECT count(*) FROM samples"), 3 * 4);
	/* fill()'s warm-up and three measured iterations of three values, two metrics */
	assert_int_equal(sql_int("SELECT sum(length(hex)) / 16 FROM packed_samples"), 4 * 3);
	assert_int_equal(sql_int("SELECT sum(present) FROM packed_samples WHERE NOT warmup"),
			 3 * 3);
	db_exec("DELETE FROM runs WHERE name = 'b'", NULL);
	assert_int_equal(sql_int("SELECT count(*) FROM samples"), 3 * 4);
	assert_int_equal(sql_int("SELECT count(*) FROM packed_samples"), 0);
	assert_int_equal(sql_int("SELECT count(*) FROM pragma_foreign_key_check"), 0);
	result_set_release(&set);
	store_close(st);
}

/*
 * Another connection holds the store's exclusive lock: every lookup must
 * fail with "locked", never answer "nothing there". In WAL mode a writer
 * never blocks readers, so the store is put back into rollback mode for
 * this test, where an EXCLUSIVE lock keeps readers out.
 */
static void test_busy_is_not_no_row(void **state)
{
	struct store *st = open_store();
	struct benchmark_progress p;
	struct result_set set = { NULL, 0 };
	struct error err = { 0 };
	int64_t ids[2], batch_id, bench_id, resumed;
	char *plan = NULL;
	sqlite3 *db;

	batch_id = begin(st, "b", "2026-01-01T00:00:00Z", false, "{}");
	fill(st, batch_id, 0, 1, ids);
	assert_int_equal(store_batch_finish(st, batch_id, false, &err), 0);
	assert_int_equal(sqlite3_exec(sqlite_of(st)->db, "PRAGMA journal_mode = DELETE", NULL,
				      NULL, NULL), SQLITE_OK);
	db = raw();
	sql(db, "BEGIN EXCLUSIVE; INSERT INTO runs (name) VALUES ('holder');");

	memset(&err, 0, sizeof(err));
	assert_int_equal(store_benchmark_progress(st, batch_id, 0, &bench_def, &bench_id, ids,
						  &p, &err), -1);
	assert_int_equal(err.code, EXIT_ENV);
	assert_non_null(strstr(err.msg, "locked"));
	assert_int_equal(store_resume_find(st, "b", &resumed, &plan, &err), -1);
	assert_int_equal(err.code, EXIT_ENV);
	assert_int_equal(store_load(st, "b", STORE_EVERYTHING, &set, &err), -1);
	assert_int_equal(err.code, EXIT_ENV);
	result_set_release(&set);
	assert_int_equal(store_iteration_add(st, ids[0], 9, false, NULL, NULL, NULL, 0, &err), -1);
	assert_non_null(strstr(err.msg, "write lock"));

	sql(db, "ROLLBACK");
	sqlite3_close(db);
	assert_int_equal(store_benchmark_progress(st, batch_id, 0, &bench_def, &bench_id, ids,
						  &p, &err), 0);
	store_close(st);
}

/* A trigger that refuses the insert: the iteration is not half stored. */
static void test_trigger_refuses_insert(void **state)
{
	struct store *st = open_store();
	struct store_sample s = { 0, 0, 1.0 };
	struct error err = { 0 };
	int64_t ids[2], batch_id, bench_id;

	batch_id = begin(st, "t", "2026-01-01T00:00:00Z", false, NULL);
	bench_id = fill(st, batch_id, 0, 1, ids);
	db_exec("CREATE TRIGGER refuse BEFORE INSERT ON samples "
		"BEGIN SELECT RAISE(ABORT, 'refused by test'); END;",
		"CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS "
		"$$BEGIN RAISE EXCEPTION 'refused by test'; END$$; "
		"CREATE TRIGGER refuse BEFORE INSERT ON samples "
		"FOR EACH ROW EXECUTE FUNCTION refuse();");
	s.metric_id = ids[0];
	assert_int_equal(store_iteration_add(st, bench_id, 1, false, NULL, NULL, &s, 1, &err), -1);
	assert_int_equal(err.code, EXIT_ENV);
	assert_non_null(strstr(err.msg, "refused by test"));
	/* The iteration row of that transaction was rolled back with it. */
	assert_int_equal(sql_int("SELECT count(*) FROM iterations"), 1);
	store_close(st);
}

/* The page that holds the iterations table, overwritten: progress must fail, not say 0. */
static void test_damaged_page(void **state)
{
	struct store *st = open_store();
	struct benchmark_progress p;
	struct error err = { 0 };
	int64_t ids[2], batch_id, bench_id;
	long long page, size;
	char junk[4096];
	int fd;

	batch_id = begin(st, "c", "2026-01-01T00:00:00Z", false, "{}");
	fill(st, batch_id, 0, 3, ids);
	store_close(st);	/* checkpointed: every page is in the file */
	page = sql_int("SELECT rootpage FROM sqlite_master WHERE name = 'iterations'");
	size = sql_int("PRAGMA page_size");
	assert_true(page > 1 && size == (long long)sizeof(junk));
	memset(junk, 0xff, sizeof(junk));
	fd = open(path, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, junk, sizeof(junk), (page - 1) * size), (ssize_t)sizeof(junk));
	close(fd);

	st = open_store();
	assert_int_equal(store_benchmark_progress(st, batch_id, 0, &bench_def, &bench_id, ids,
						  &p, &err), -1);
	assert_int_equal(err.code, EXIT_ENV);
	assert_non_null(strstr(err.msg, "malformed"));
	store_close(st);
}

/* The store's file may not grow (as on a full disk): a clear "no space", nothing half done. */
static void test_full(void **state)
{
	struct store *st = open_store();
	struct sqlite_store *ss = sqlite_of(st);
	struct error err = { 0 };
	int64_t ids[2], batch_id, bench_id;
	struct store_sample *many = xcalloc(4000, sizeof(*many));
	int rc = 0, seq = 0;

	batch_id = begin(st, "f", "2026-01-01T00:00:00Z", false, NULL);
	bench_id = fill(st, batch_id, 0, 1, ids);
	sqlite3_exec(ss->db, "PRAGMA max_page_count = 12", NULL, NULL, NULL);
	for (int i = 0; i < 4000; i++)
		many[i] = (struct store_sample){ ids[1], i, i };
	while (!rc && seq < 100)
		rc = store_iteration_add(st, bench_id, ++seq, false, NULL, NULL, many, 4000, &err);
	assert_int_equal(rc, -1);
	assert_int_equal(err.code, EXIT_ENV);
	assert_non_null(strstr(err.msg, "no space left"));
	assert_null(strstr(err.msg, "integrity_check"));
	free(many);
	store_close(st);
	assert_int_equal(sql_int("SELECT count(*) FROM iterations i WHERE NOT EXISTS "
				 "(SELECT 1 FROM samples s WHERE s.iteration_id = i.id)"), 0);
}

/* Run @fn in a child that stays alive (stopped) until the test kills it. */
static pid_t child_stopped(void (*fn)(void))
{
	pid_t pid = fork();
	int status;

	assert_true(pid >= 0);
	if (!pid) {
		setpgid(0, 0);
		fn();
		raise(SIGSTOP);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, WUNTRACED), pid);
	assert_true(WIFSTOPPED(status));
	return pid;
}

static void end_child(pid_t pid)
{
	kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
}

static void nothing(void)
{
}

/*
 * Record @pid as the batch's writer, as its own store_resume_find() would
 * (a forked child must not use SQLite opened before fork()).
 */
static void record_writer(int64_t batch_id, pid_t pid)
{
	struct process_id id;
	char text[256];

	assert_int_equal(process_id_of(pid, &id), 0);
	snprintf(text, sizeof(text), "UPDATE batches SET writer_boot = '%s', writer_pid = %lld, "
		 "writer_start = %llu WHERE id = %lld", id.boot, (long long)id.pid,
		 (unsigned long long)id.start, (long long)batch_id);
	db_exec(text, NULL);
}

static void test_one_resume_at_once(void **state)
{
	struct store *st = open_store();
	struct error err = { 0 };
	int64_t batch_id, resumed;
	char *plan = NULL, pid_text[32];
	pid_t child;

	batch_id = begin(st, "w", "2026-01-01T00:00:00Z", false, "{}");
	assert_int_equal(store_batch_finish(st, batch_id, false, &err), 0);
	child = child_stopped(nothing);
	record_writer(batch_id, child);
	assert_int_equal(store_resume_find(st, "w", &resumed, &plan, &err), -1);
	assert_int_equal(err.code, EXIT_ENV);
	snprintf(pid_text, sizeof(pid_text), "process %d", (int)child);
	assert_non_null(strstr(err.msg, pid_text));
	/* Replacing is refused as well, nothing stored. */
	{
		struct result_set set = { NULL, 0 };
		struct result_batch *b = result_set_add_batch(&set);

		b->name = xstrdup("w");
		b->started = xstrdup("2026-01-02T00:00:00Z");
		assert_int_equal(store_batch_begin(st, b, true, NULL, &err), -1);
		assert_int_equal(err.code, EXIT_ENV);
		result_set_release(&set);
		assert_int_equal(sql_int("SELECT count(*) FROM batches"), 1);
	}
	end_child(child);
	/* The holder was killed: the name is free again. */
	assert_int_equal(store_resume_find(st, "w", &resumed, &plan, &err), 0);
	assert_int_equal(resumed, batch_id);
	free(plan);
	store_close(st);
}

static void test_tasks_of_a_dead_runner(void **state)
{
	struct store *st = open_store();
	struct error err = { 0 };
	int64_t batch_id, resumed;
	char *plan = NULL, group_text[48];
	pid_t task;

	batch_id = begin(st, "o", "2026-01-01T00:00:00Z", false, "{}");
	task = child_stopped(nothing);
	/* This process is the runner; the stopped child leads the iteration's group. */
	assert_int_equal(store_batch_tasks(st, batch_id, task, &err), 0);
	assert_int_equal(store_batch_finish(st, batch_id, false, &err), 0);
	/* This process may resume its own batch: make the runner one that is gone. */
	db_exec("UPDATE batches SET writer_start = writer_start + 1", NULL);
	assert_int_equal(store_resume_find(st, "o", &resumed, &plan, &err), -1);
	assert_int_equal(err.code, EXIT_ENV);
	snprintf(group_text, sizeof(group_text), "process group %d", (int)task);
	assert_non_null(strstr(err.msg, group_text));
	end_child(task);
	assert_int_equal(store_resume_find(st, "o", &resumed, &plan, &err), 0);
	free(plan);
	store_close(st);
}

/* Liveness across pid reuse: a record with another start time is another process. */
static void test_process_identity(void **state)
{
	struct process_id me, other;
	pid_t child = child_stopped(nothing);

	assert_int_equal(process_id_of(getpid(), &me), 0);
	assert_true(process_is_self(&me));
	assert_true(process_alive(&me));
	other = me;
	other.start++;
	assert_false(process_alive(&other));
	snprintf(other.boot, sizeof(other.boot), "another boot");
	other.start = me.start;
	assert_false(process_alive(&other));

	assert_int_equal(process_id_of(child, &other), 0);
	assert_true(process_alive(&other));
	assert_true(process_group_alive(&other));
	kill(child, SIGKILL);
	/* Killed, not yet reaped: a zombie (or SIGKILL pending) is not alive. */
	assert_false(process_alive(&other));
	assert_false(process_group_alive(&other));
	assert_int_equal(waitpid(child, NULL, 0), child);
	assert_false(process_alive(&other));
	assert_false(process_group_alive(&other));
	assert_int_equal(process_id_of(child, &other), -1);
}

/* Reading changes nothing: no -wal, -shm or -journal left, no schema in an empty file. */
static void test_reading_creates_nothing(void **state)
{
	struct store *st;
	struct error err = { 0 };
	char name[160];
	struct stat sb;
	int fd;

	store_close(open_store());
	assert_int_equal(store_open_existing(path, &st, &err), 0);
	store_close(st);
	snprintf(name, sizeof(name), "%s-wal", path);
	assert_int_equal(stat(name, &sb), -1);
	snprintf(name, sizeof(name), "%s-shm", path);
	assert_int_equal(stat(name, &sb), -1);

	snprintf(name, sizeof(name), "%s/empty.db", dir);
	fd = open(name, O_CREAT | O_WRONLY, 0644);
	close(fd);
	assert_int_equal(store_open_existing(name, &st, &err), -1);
	assert_int_equal(err.code, EXIT_USAGE);
	assert_int_equal(stat(name, &sb), 0);
	assert_int_equal(sb.st_size, 0);
	assert_int_equal(store_open_existing("/dev/null", &st, &err), -1);
	assert_int_equal(err.code, EXIT_USAGE);
	assert_non_null(strstr(err.msg, "it is a device"));
}

/*
 * PostgreSQL: another connection holds the store's write lock; a write
 * gives up after the lock timeout with a clear error, a read is not held up.
 */
static void test_pg_write_lock(void **state)
{
	struct store *st = open_store();
	struct result_set set = { NULL, 0 };
	struct error err = { 0 };
	int64_t ids[2], batch_id, bench_id;
	PGconn *holder;

	batch_id = begin(st, "l", "2026-01-01T00:00:00Z", false, NULL);
	bench_id = fill(st, batch_id, 0, 1, ids);
	holder = pg_connect(pg_db);
	pg_sql(holder, "BEGIN; SELECT pg_advisory_xact_lock(6008761022114056532)");
	assert_int_equal(store_iteration_add(st, bench_id, 9, false, NULL, NULL, NULL, 0, &err), -1);
	assert_int_equal(err.code, EXIT_ENV);
	assert_non_null(strstr(err.msg, "write lock"));
	assert_int_equal(store_load(st, "l", STORE_EVERYTHING, &set, &err), 0);
	assert_int_equal(set.batches[0].benchmarks[0].metrics[0].nr_samples, 1);
	result_set_release(&set);
	pg_sql(holder, "ROLLBACK");
	PQfinish(holder);
	assert_int_equal(store_iteration_add(st, bench_id, 9, false, NULL, NULL, NULL, 0, &err), 0);
	store_close(st);
}

/*
 * PostgreSQL: what is not a store is refused and left as it was; a server
 * that cannot be reached is a missing resource; a password is never shown.
 */
static void test_pg_refusals(void **state)
{
	struct store *st;
	struct error err = { 0 };
	char url[300];

	/* Reading an empty database creates nothing in it. */
	assert_int_equal(store_open_existing(path, &st, &err), -1);
	assert_int_equal(err.code, EXIT_USAGE);
	assert_int_equal(sql_int("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"),
			 0);
	/* A newer store is left untouched. */
	store_close(open_store());
	db_exec("UPDATE schedperf_schema SET version = 99", NULL);
	assert_int_equal(store_open(path, &st, &err), -1);
	assert_int_equal(err.code, EXIT_ENV);
	assert_non_null(strstr(err.msg, "newer"));
	/* Another program's tables. */
	db_exec("DROP TABLE schedperf_schema", NULL);
	assert_int_equal(store_open(path, &st, &err), -1);
	assert_int_equal(err.code, EXIT_USAGE);
	assert_non_null(strstr(err.msg, "not a schedperf store"));
	/* No server there: exit 3, the password left out of the message. */
	snprintf(url, sizeof(url), "postgresql://me:secret@/x?host=%s/nowhere", dir);
	assert_int_equal(store_open(url, &st, &err), -1);
	assert_int_equal(err.code, EXIT_ENV);
	assert_null(strstr(err.msg, "secret"));
	assert_non_null(strstr(err.msg, "postgresql://me@/x"));
	snprintf(url, sizeof(url), "postgresql:///x?host=%s/nowhere&password=secret", dir);
	assert_int_equal(store_open_existing(url, &st, &err), -1);
	assert_int_equal(err.code, EXIT_ENV);
	assert_null(strstr(err.msg, "secret"));
}

/*
 * The knob journal: written whole or not at all, read back with its
 * writer's identity, a setting journalled twice refused, forgotten one by
 * one or all at once; an original's bytes not UTF-8 copied as \xHH.
 */
static void test_knob_journal(void **state)
{
	struct store *st = open_store();
	struct knob_original k[2] = {
		{ TEXT("sysctl"), TEXT("kernel.sched_autogroup_enabled"), TEXT("1"), { "", 0, 0 },
		  TEXT("2026-01-01"), NULL, NULL },
		{ TEXT("feature"), TEXT("TTWU_QUEUE"), TEXT("NO_TTWU_QUEUE"), { "", 0, 0 },
		  TEXT("2026-01-01"), NULL, NULL },
	}, *got;
	char machine[256];
	struct error err = { 0 };
	size_t n;

	assert_int_equal(process_id_of(getpid(), &k[0].writer), 0);
	k[1].writer = k[0].writer;
	assert_int_equal(store_journal_read(st, false, &got, &n, &err), 0);
	assert_int_equal(n, 0);
	assert_int_equal(store_journal_write(st, k, 2, &err), 0);
	/* The second write's first row is taken, the transaction undone whole. */
	k[0].name = TEXT("kernel.sched_child_runs_first");
	k[1].kind = TEXT("sysctl");
	k[1].name = TEXT("kernel.sched_autogroup_enabled");
	assert_int_equal(store_journal_write(st, k, 2, &err), -1);
	assert_int_equal(err.code, EXIT_ENV);
	assert_non_null(strstr(err.msg, "journalled already"));
	assert_int_equal(store_journal_read(st, false, &got, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(got[0].kind, "sysctl");
	assert_string_equal(got[0].name, "kernel.sched_autogroup_enabled");
	assert_string_equal(got[0].value, "1");
	assert_string_equal(got[1].value, "NO_TTWU_QUEUE");
	assert_true(process_is_self(&got[1].writer));
	assert_true(process_alive(&got[0].writer));
	store_journal_release(got, n);
	/* Every machine's, for jobs: each row says whose it is. */
	machine_identity(machine, sizeof(machine));
	assert_int_equal(store_journal_read(st, true, &got, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(got[0].machine, machine);
	assert_string_equal(got[1].machine, machine);
	store_journal_release(got, n);

	assert_int_equal(store_journal_remove(st, "feature", "TTWU_QUEUE", &err), 0);
	assert_int_equal(store_journal_read(st, false, &got, &n, &err), 0);
	assert_int_equal(n, 1);
	store_journal_release(got, n);
	assert_int_equal(store_journal_remove(st, NULL, NULL, &err), 0);
	assert_int_equal(store_journal_read(st, false, &got, &n, &err), 0);
	assert_int_equal(n, 0);
	assert_null(got);
	/*
	 * An original not UTF-8, which PostgreSQL refuses as text, is copied
	 * as \xHH, a '\' as "\\": both read back as the bytes they were, the
	 * text \xff told from the byte.
	 */
	k[0].value = TEXT("\xff\xfe odd");
	k[1].value = TEXT("\\xff\\\\x41\\");
	assert_int_equal(store_journal_write(st, k, 2, &err), 0);
	assert_int_equal(store_journal_read(st, false, &got, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(got[0].value, "\xff\xfe odd");
	assert_string_equal(got[1].value, "\\xff\\\\x41\\");
	store_journal_release(got, n);
	store_close(st);
}

int main(void)
{
	const struct CMUnitTest sqlite_tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_profile_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_load_counts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_import_packed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_import_packed_shapes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_text_too_long, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resume_bookkeeping, setup, teardown),
		cmocka_unit_test_setup_teardown(test_load_orders, setup, teardown),
		cmocka_unit_test_setup_teardown(test_load_far_apart, setup, teardown),
		cmocka_unit_test_setup_teardown(test_load_each_wide_first, setup, teardown),
		cmocka_unit_test_setup_teardown(test_load_each_narrow_first, setup, teardown),
		cmocka_unit_test_setup_teardown(test_load_records, setup, teardown),
		cmocka_unit_test_setup_teardown(test_load_failed_first, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replace_when_complete, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ids_never_reused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_same_start_time, setup, teardown),
		cmocka_unit_test_setup_teardown(test_upgrade_matches_new, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_direction, setup, teardown),
		cmocka_unit_test_setup_teardown(test_busy_is_not_no_row, setup, teardown),
		cmocka_unit_test_setup_teardown(test_import_checks_again, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trigger_refuses_insert, setup, teardown),
		cmocka_unit_test_setup_teardown(test_damaged_page, setup, teardown),
		cmocka_unit_test_setup_teardown(test_full, setup, teardown),
		cmocka_unit_test_setup_teardown(test_one_resume_at_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tasks_of_a_dead_runner, setup, teardown),
		cmocka_unit_test_setup_teardown(test_process_identity, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reading_creates_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_knob_journal, setup, teardown),
	};
	/* Those that read back only through the interface, on a store in memory. */
	const struct CMUnitTest memory_tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip, setup_memory, teardown_memory),
		cmocka_unit_test_setup_teardown(test_profile_round_trip, setup_memory,
						teardown_memory),
		cmocka_unit_test_setup_teardown(test_resume_bookkeeping, setup_memory,
						teardown_memory),
		cmocka_unit_test_setup_teardown(test_knob_journal, setup_memory, teardown_memory),
	};
	/* The same on PostgreSQL, where they apply. */
	const struct CMUnitTest pg_tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip, setup_pg, teardown_pg),
		cmocka_unit_test_setup_teardown(test_profile_round_trip, setup_pg, teardown_pg),
		cmocka_unit_test_setup_teardown(test_load_counts, setup_pg, teardown_pg),
		cmocka_unit_test_setup_teardown(test_import_packed, setup_pg, teardown_pg),
		cmocka_unit_test_setup_teardown(test_import_packed_shapes, setup_pg, teardown_pg),
		cmocka_unit_test_setup_teardown(test_resume_bookkeeping, setup_pg, teardown_pg),
		cmocka_unit_test_setup_teardown(test_load_orders, setup_pg, teardown_pg),
		cmocka_unit_test_setup_teardown(test_load_far_apart, setup_pg, teardown_pg),
		cmocka_unit_test_setup_teardown(test_load_each_wide_first, setup_pg, teardown_pg),
		cmocka_unit_test_setup_teardown(test_load_records, setup_pg, teardown_pg),
		cmocka_unit_test_setup_teardown(test_load_failed_first, setup_pg, teardown_pg),
		cmocka_unit_test_setup_teardown(test_replace_when_complete, setup_pg, teardown_pg),
		cmocka_unit_test_setup_teardown(test_ids_never_reused, setup_pg, teardown_pg),
		cmocka_unit_test_setup_teardown(test_same_start_time, setup_pg, teardown_pg),
		cmocka_unit_test_setup_teardown(test_bad_direction, setup_pg, teardown_pg),
		cmocka_unit_test_setup_teardown(test_trigger_refuses_insert, setup_pg, teardown_pg),
		cmocka_unit_test_setup_teardown(test_one_resume_at_once, setup_pg, teardown_pg),
		cmocka_unit_test_setup_teardown(test_tasks_of_a_dead_runner, setup_pg, teardown_pg),
		cmocka_unit_test_setup_teardown(test_pg_write_lock, setup_pg, teardown_pg),
		cmocka_unit_test_setup_teardown(test_knob_journal, setup_pg, teardown_pg),
		cmocka_unit_test_setup_teardown(test_pg_refusals, setup_pg, teardown_pg),
	};
	int failed = cmocka_run_group_tests_name("sqlite", sqlite_tests, NULL, NULL) +
		     cmocka_run_group_tests_name("memory", memory_tests, NULL, NULL);

	if (!getenv("SCHEDPERF_TEST_NO_POSTGRES"))
		failed += cmocka_run_group_tests_name("postgresql", pg_tests, NULL, NULL);
	return failed;
}
