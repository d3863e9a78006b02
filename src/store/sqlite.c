// SPDX-License-Identifier: GPL-2.0
/*
 * The SQLite store: one file, WAL journal, one transaction per write.
 *
 * Schema version 2. A run is a name; each `schedperf run` under that name
 * adds a batch (after a reboot, say). A batch records its environment and
 * benchmarks (a workload with its full parameter set); a benchmark has its
 * metrics and iterations; a sample is one metric's value in one iteration,
 * or in one repetition of it for a metric that a workload measures several
 * times per iteration (futex-wake's `repeat`). Absent values have no row:
 * an unsupported counter is never a zero.
 *
 * Version 1 had no repetitions; a version 1 store is upgraded on open, in
 * one transaction, its samples becoming repetition 0.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/store.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

struct store {
	sqlite3 *db;
	char *path;
	bool read_only;		/* on a read-only file system: opened immutable */
};

#define SAMPLES_TABLE(name)							\
	"CREATE TABLE " name " ("						\
	"  iteration_id INTEGER NOT NULL REFERENCES iterations(id) ON DELETE CASCADE,"	\
	"  metric_id INTEGER NOT NULL REFERENCES metrics(id) ON DELETE CASCADE,"	\
	"  rep INTEGER NOT NULL DEFAULT 0 CHECK (rep >= 0),"			\
	"  value REAL NOT NULL,"						\
	"  PRIMARY KEY (iteration_id, metric_id, rep)) WITHOUT ROWID;"

static const char schema_v2[] =
	"CREATE TABLE runs ("
	"  id INTEGER PRIMARY KEY,"
	"  name TEXT NOT NULL UNIQUE);"
	"CREATE TABLE batches ("
	"  id INTEGER PRIMARY KEY,"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  started TEXT NOT NULL,"
	"  finished TEXT,"
	"  complete INTEGER NOT NULL DEFAULT 0,"
	"  plan TEXT,"
	"  pid INTEGER,"
	"  UNIQUE (run_id, started));"
	"CREATE TABLE environment ("
	"  batch_id INTEGER NOT NULL REFERENCES batches(id) ON DELETE CASCADE,"
	"  key TEXT NOT NULL,"
	"  value TEXT NOT NULL,"
	"  PRIMARY KEY (batch_id, key)) WITHOUT ROWID;"
	"CREATE TABLE benchmarks ("
	"  id INTEGER PRIMARY KEY,"
	"  batch_id INTEGER NOT NULL REFERENCES batches(id) ON DELETE CASCADE,"
	"  position INTEGER NOT NULL,"
	"  workload TEXT NOT NULL,"
	"  params TEXT NOT NULL);"
	"CREATE INDEX benchmarks_batch ON benchmarks(batch_id, position);"
	"CREATE TABLE metrics ("
	"  id INTEGER PRIMARY KEY,"
	"  benchmark_id INTEGER NOT NULL REFERENCES benchmarks(id) ON DELETE CASCADE,"
	"  position INTEGER NOT NULL,"
	"  name TEXT NOT NULL,"
	"  unit TEXT NOT NULL,"
	"  better TEXT NOT NULL CHECK (better IN ('lower', 'higher')),"
	"  source TEXT NOT NULL,"
	"  repetitions INTEGER NOT NULL DEFAULT 1 CHECK (repetitions >= 1),"
	"  UNIQUE (benchmark_id, name));"
	"CREATE TABLE iterations ("
	"  id INTEGER PRIMARY KEY,"
	"  benchmark_id INTEGER NOT NULL REFERENCES benchmarks(id) ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL,"
	"  warmup INTEGER NOT NULL,"
	"  failure TEXT,"
	"  UNIQUE (benchmark_id, seq));"
	SAMPLES_TABLE("samples")
	"CREATE INDEX samples_metric ON samples(metric_id);"
	"PRAGMA user_version = 2;";

static const char upgrade_v1_to_v2[] =
	"ALTER TABLE metrics ADD COLUMN repetitions INTEGER NOT NULL DEFAULT 1 "
	"  CHECK (repetitions >= 1);"
	SAMPLES_TABLE("samples_v2")
	"INSERT INTO samples_v2 (iteration_id, metric_id, rep, value) "
	"  SELECT iteration_id, metric_id, 0, value FROM samples;"
	"DROP TABLE samples;"
	"ALTER TABLE samples_v2 RENAME TO samples;"
	"CREATE INDEX samples_metric ON samples(metric_id);"
	"PRAGMA user_version = 2;";

/*
 * SQLite reports a write beyond the file-size limit (EFBIG, schedperf
 * ignores SIGXFSZ) as a plain I/O error, and does not always keep the
 * errno: the limit is to blame when the store or its log has reached it.
 */
#define FILE_SIZE_LIMIT_HINT "the file-size limit is too small for the store: raise 'ulimit -f'"

static bool reached_size(const char *path, const char *suffix, rlim_t limit)
{
	char name[PATH_MAX];
	struct stat sb;

	snprintf(name, sizeof(name), "%s%s", path, suffix);
	return !stat(name, &sb) && (rlim_t)sb.st_size + 65536 >= limit;
}

static bool over_file_size_limit(struct store *st)
{
	struct rlimit rl;

	if (!st->db || (sqlite3_errcode(st->db) != SQLITE_IOERR &&
			sqlite3_errcode(st->db) != SQLITE_CANTOPEN))
		return false;
	if (sqlite3_system_errno(st->db) == EFBIG)
		return true;
	return !getrlimit(RLIMIT_FSIZE, &rl) && rl.rlim_cur != RLIM_INFINITY &&
	       (reached_size(st->path, "", rl.rlim_cur) ||
		reached_size(st->path, "-wal", rl.rlim_cur) ||
		reached_size(st->path, "-shm", rl.rlim_cur));
}

static int db_error(struct store *st, struct error *err, const char *what)
{
	int code = sqlite3_errcode(st->db);
	/* A full disk, a read-only file or a lock held too long is the machine's doing. */
	return error_set(err, EXIT_ENV, "cannot %s in store '%s': %s (%s)", what, st->path,
			 sqlite3_errmsg(st->db),
			 over_file_size_limit(st) ? FILE_SIZE_LIMIT_HINT :
			 code == SQLITE_FULL ? "free disk space and run again" :
			 code == SQLITE_BUSY ? "another process holds the store's write lock; "
					       "run again when it is done" :
			 code == SQLITE_READONLY ? "make the store writable or give another --db" :
			 "check the file with 'sqlite3 FILE \"PRAGMA integrity_check\"'");
}

static int exec(struct store *st, const char *sql, struct error *err, const char *what)
{
	if (sqlite3_exec(st->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return db_error(st, err, what);
	return 0;
}

static sqlite3_stmt *prepare(struct store *st, const char *sql, struct error *err)
{
	sqlite3_stmt *stmt = NULL;

	if (sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL) != SQLITE_OK) {
		db_error(st, err, "prepare a query");
		return NULL;
	}
	return stmt;
}

static void rollback(struct store *st)
{
	if (!sqlite3_get_autocommit(st->db))
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
}

static int begin(struct store *st, struct error *err)
{
	/* IMMEDIATE takes the write lock now, so a busy store waits here, not mid-way. */
	return exec(st, "BEGIN IMMEDIATE", err, "start a transaction");
}

static int commit(struct store *st, struct error *err)
{
	if (exec(st, "COMMIT", err, "commit")) {
		rollback(st);
		return -1;
	}
	return 0;
}

static int check_schema(struct store *st, struct error *err)
{
	sqlite3_stmt *stmt = prepare(st, "PRAGMA user_version", err);
	int version;

	if (!stmt)
		return -1;
	if (sqlite3_step(stmt) != SQLITE_ROW) {
		sqlite3_finalize(stmt);
		return db_error(st, err, "read the schema version");
	}
	version = sqlite3_column_int(stmt, 0);
	sqlite3_finalize(stmt);

	if (version > STORE_SCHEMA_VERSION)
		return error_set(err, EXIT_ENV,
			"cannot open store '%s': its schema version %d is newer than this "
			"schedperf knows (%d) (use a newer schedperf or another --db)",
			st->path, version, STORE_SCHEMA_VERSION);
	if (version == STORE_SCHEMA_VERSION)
		return 0;
	if (st->read_only && version == 1)
		return error_set(err, EXIT_ENV, "cannot read store '%s': its schema version 1 "
				 "must be upgraded, and it is on a read-only file system (open it "
				 "once with this schedperf where it is writable)", st->path);
	if (st->read_only)
		return error_set(err, EXIT_ENV, "cannot read store '%s': it is not a schedperf "
				 "store (give the --db of one)", st->path);
	if (version != 0 && version != 1)
		return error_set(err, EXIT_ENV, "cannot open store '%s': unknown schema "
				 "version %d (give another --db)", st->path, version);

	if (begin(st, err))
		return -1;
	/* Someone may have created or upgraded it between our read and our lock. */
	stmt = prepare(st, "PRAGMA user_version", err);
	if (!stmt) {
		rollback(st);
		return -1;
	}
	version = sqlite3_step(stmt) == SQLITE_ROW ? sqlite3_column_int(stmt, 0) : -1;
	sqlite3_finalize(stmt);
	if ((version == 0 && exec(st, schema_v2, err, "create the schema")) ||
	    (version == 1 && exec(st, upgrade_v1_to_v2, err,
				  "upgrade the schema from version 1 to 2"))) {
		rollback(st);
		return -1;
	}
	return commit(st, err);
}

/*
 * How long a write waits for another writer (a second `schedperf run` on
 * the same store commits one iteration at a time, so waits are short) before
 * giving up with an error: 10 s, or $SCHEDPERF_BUSY_TIMEOUT_MS (tests).
 */
#define BUSY_TIMEOUT_MS 10000

static int busy_timeout_ms(void)
{
	const char *env = getenv("SCHEDPERF_BUSY_TIMEOUT_MS");
	char *end;
	long ms;

	if (!env || !*env)
		return BUSY_TIMEOUT_MS;
	errno = 0;
	ms = strtol(env, &end, 10);
	if (errno || *end || ms < 0 || ms > 3600 * 1000)
		return BUSY_TIMEOUT_MS;
	return (int)ms;
}

/*
 * SQLite says "unable to open database file" whether the path is wrong or
 * the file system is read-only (a WAL store needs its -shm file even to be
 * read); ask the file system which, for a message that says what to fix.
 */
static const char *read_only_reason(const char *location)
{
	const char *slash = strrchr(location, '/');
	char dir[4096];

	if (!access(location, W_OK))
		return NULL;
	if (errno == EROFS)
		return "it is on a read-only file system";
	if (errno == EACCES)
		return "it is not writable by this user";
	if (errno != ENOENT)
		return NULL;
	/* A new store: its directory must be writable. */
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == location ? 1 : (int)(slash - location),
			 location);
	if (!access(dir, W_OK) || (errno != EROFS && errno != EACCES))
		return NULL;
	return errno == EROFS ? "its directory is on a read-only file system" :
				"its directory is not writable by this user";
}

static int open_error(const char *location, const char *why, const char *fix,
		      struct error *err)
{
	const char *read_only = read_only_reason(location);

	if (read_only)
		return error_set(err, EXIT_ENV, "cannot open store '%s': %s (make it writable "
				 "or give another --db)", location, read_only);
	return error_set(err, EXIT_ENV, "cannot open store '%s': %s (%s)", location, why, fix);
}

/*
 * Whether a store can be read without writing anything: it is on a
 * read-only file system (where nobody can change it, so SQLite may skip
 * the -shm file and its locks: immutable=1), and no -wal file holds
 * commits that are not yet in the database file, which immutable would
 * not read.
 */
static bool readable_immutable(const char *location)
{
	char wal[PATH_MAX + 8];
	struct stat sb;

	if (!access(location, W_OK) || errno != EROFS)
		return false;
	if (snprintf(wal, sizeof(wal), "%s-wal", location) >= (int)sizeof(wal))
		return false;
	if (stat(wal, &sb))
		return errno == ENOENT;
	return sb.st_size == 0;
}

/* "file:PATH?immutable=1", PATH escaped as RFC 3986 asks of an SQLite URI. */
static char *immutable_uri(const char *location)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t len = strlen(location);
	char *uri = xmalloc(5 + 3 * len + sizeof("?immutable=1")), *p = uri;

	p += sprintf(p, "file:");
	for (const unsigned char *c = (const unsigned char *)location; *c; c++) {
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		    (*c >= '0' && *c <= '9') || strchr("/-._~", *c)) {
			*p++ = (char)*c;
		} else {
			*p++ = '%';
			*p++ = hex[*c >> 4];
			*p++ = hex[*c & 15];
		}
	}
	strcpy(p, "?immutable=1");
	return uri;
}

/* Open a store on a read-only file system for reading; see readable_immutable(). */
static int open_immutable(const char *location, struct store **out, struct error *err)
{
	struct store *st = xcalloc(1, sizeof(*st));
	char *uri = immutable_uri(location);
	int rc;

	st->path = xstrdup(location);
	st->read_only = true;
	rc = sqlite3_open_v2(uri, &st->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
	free(uri);
	if (rc != SQLITE_OK) {
		error_set(err, EXIT_ENV, "cannot open store '%s': %s (check the path, or "
			  "give another --db)", location,
			  st->db ? sqlite3_errmsg(st->db) : sqlite3_errstr(rc));
		goto fail;
	}
	sqlite3_extended_result_codes(st->db, 0);
	/* A file that is not a database fails here, with SQLITE_NOTADB. */
	if (exec(st, "PRAGMA foreign_keys = ON", err, "enable foreign keys") ||
	    check_schema(st, err))
		goto fail;
	*out = st;
	return 0;
fail:
	store_close(st);
	return -1;
}

/*
 * Switch the journal to WAL. Two processes opening a new store both try;
 * SQLite answers SQLITE_BUSY at once, without calling the busy handler,
 * when waiting could deadlock (each holds a shared lock and wants the
 * exclusive one), so the busy timeout is applied here by hand: retry,
 * with short sleeps, until it has passed.
 */
static int switch_to_wal(struct store *st)
{
	double deadline = time_now() + busy_timeout_ms() / 1000.0;
	double pause = 0.001;
	int rc;

	for (;;) {
		rc = sqlite3_exec(st->db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL);
		if (rc != SQLITE_BUSY || time_now() + pause > deadline)
			return rc;
		time_sleep_until(time_now() + pause);
		if (pause < 0.05)
			pause *= 2;
	}
}

int store_open(const char *location, struct store **out, struct error *err)
{
	struct store *st;
	int rc;

	if (!location || !*location)
		return error_set(err, EXIT_USAGE, "no store given: --db needs a file name "
				 "(give --db FILE)");
	if (!strncmp(location, "postgresql://", 13) || !strncmp(location, "postgres://", 11))
		return error_set(err, EXIT_ENV, "cannot open store '%s': this schedperf is built "
				 "with the SQLite store only (give --db FILE)", location);

	st = xcalloc(1, sizeof(*st));
	st->path = xstrdup(location);
	rc = sqlite3_open_v2(location, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
			     NULL);
	if (rc != SQLITE_OK) {
		open_error(location, st->db ? sqlite3_errmsg(st->db) : sqlite3_errstr(rc),
			   "check the path and its permissions, or give another --db", err);
		store_close(st);
		return -1;
	}
	sqlite3_extended_result_codes(st->db, 0);
	sqlite3_busy_timeout(st->db, busy_timeout_ms());
	if (exec(st, "PRAGMA foreign_keys = ON", err, "enable foreign keys"))
		goto fail;
	/*
	 * A file that is not a database fails here, with SQLITE_NOTADB; a
	 * store whose writer stopped inside a commit, with SQLITE_BUSY.
	 */
	if (switch_to_wal(st) != SQLITE_OK) {
		if (sqlite3_errcode(st->db) == SQLITE_BUSY)
			db_error(st, err, "open the store");
		else
			open_error(location, sqlite3_errmsg(st->db),
				   over_file_size_limit(st) ? FILE_SIZE_LIMIT_HINT :
				   "give a schedperf store or a new file name with --db", err);
		goto fail;
	}
	if (exec(st, "PRAGMA synchronous = NORMAL", err, "set synchronous mode"))
		goto fail;
	if (check_schema(st, err))
		goto fail;
	*out = st;
	return 0;
fail:
	store_close(st);
	return -1;
}

int store_open_existing(const char *location, struct store **out, struct error *err)
{
	if (location && *location && strncmp(location, "postgres", 8) &&
	    access(location, F_OK) && errno == ENOENT)
		return error_set(err, EXIT_USAGE, "no store at '%s': nothing was stored there "
				 "yet (give the --db of an existing store, or run 'schedperf run' "
				 "first)", location);
	if (location && readable_immutable(location))
		return open_immutable(location, out, err);
	return store_open(location, out, err);
}

void store_close(struct store *st)
{
	if (!st)
		return;
	sqlite3_close(st->db);
	free(st->path);
	free(st);
}

static int step_done(struct store *st, sqlite3_stmt *stmt, struct error *err,
		     const char *what)
{
	int rc = sqlite3_step(stmt);

	sqlite3_reset(stmt);
	if (rc != SQLITE_DONE)
		return db_error(st, err, what);
	return 0;
}

static int64_t run_id_for(struct store *st, const char *name, bool create,
			  struct error *err)
{
	sqlite3_stmt *stmt = prepare(st, "SELECT id FROM runs WHERE name = ?", err);
	int64_t id = 0;

	if (!stmt)
		return -1;
	sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		id = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	if (id || !create)
		return id;

	stmt = prepare(st, "INSERT INTO runs (name) VALUES (?)", err);
	if (!stmt)
		return -1;
	sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
	if (step_done(st, stmt, err, "add a run")) {
		sqlite3_finalize(stmt);
		return -1;
	}
	sqlite3_finalize(stmt);
	return sqlite3_last_insert_rowid(st->db);
}

/* Insert a batch and its environment; inside the caller's transaction. */
static int insert_batch(struct store *st, struct result_batch *batch, int64_t run_id,
			const char *plan, struct error *err)
{
	sqlite3_stmt *stmt;

	stmt = prepare(st, "INSERT INTO batches (run_id, started, complete, plan, pid) "
		       "VALUES (?, ?, ?, ?, ?)", err);
	if (!stmt)
		return -1;
	sqlite3_bind_int64(stmt, 1, run_id);
	sqlite3_bind_text(stmt, 2, batch->started, -1, SQLITE_STATIC);
	sqlite3_bind_int(stmt, 3, batch->complete);
	if (plan) {
		sqlite3_bind_text(stmt, 4, plan, -1, SQLITE_STATIC);
		sqlite3_bind_int64(stmt, 5, (int64_t)getpid());
	}
	if (sqlite3_step(stmt) != SQLITE_DONE) {
		if (sqlite3_errcode(st->db) == SQLITE_CONSTRAINT)
			error_set(err, EXIT_USAGE, "run '%s' already has a batch started at %s "
				  "(it was imported before; nothing was changed)",
				  batch->name, batch->started);
		else
			db_error(st, err, "add a batch");
		sqlite3_finalize(stmt);
		return -1;
	}
	sqlite3_finalize(stmt);
	batch->id = sqlite3_last_insert_rowid(st->db);

	stmt = prepare(st, "INSERT INTO environment (batch_id, key, value) VALUES (?, ?, ?)",
		       err);
	if (!stmt)
		return -1;
	for (size_t i = 0; i < batch->nr_env; i++) {
		sqlite3_bind_int64(stmt, 1, batch->id);
		sqlite3_bind_text(stmt, 2, batch->env[i].key, -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 3, batch->env[i].value, -1, SQLITE_STATIC);
		if (step_done(st, stmt, err, "record the environment")) {
			sqlite3_finalize(stmt);
			return -1;
		}
	}
	sqlite3_finalize(stmt);
	return 0;
}

int store_batch_begin(struct store *st, struct result_batch *batch, bool replace,
		      const char *plan, struct error *err)
{
	int64_t run_id;

	if (begin(st, err))
		return -1;
	run_id = run_id_for(st, batch->name, true, err);
	if (run_id < 0)
		goto fail;
	if (replace) {
		sqlite3_stmt *stmt = prepare(st, "DELETE FROM batches WHERE run_id = ?", err);

		if (!stmt)
			goto fail;
		sqlite3_bind_int64(stmt, 1, run_id);
		if (step_done(st, stmt, err, "discard earlier batches")) {
			sqlite3_finalize(stmt);
			goto fail;
		}
		sqlite3_finalize(stmt);
	}
	if (insert_batch(st, batch, run_id, plan, err))
		goto fail;
	return commit(st, err);
fail:
	rollback(st);
	return -1;
}

int store_batch_finish(struct store *st, int64_t batch_id, bool complete, struct error *err)
{
	sqlite3_stmt *stmt;
	int rc;

	stmt = prepare(st, "UPDATE batches SET complete = ?, "
		       "finished = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?", err);
	if (!stmt)
		return -1;
	sqlite3_bind_int(stmt, 1, complete);
	sqlite3_bind_int64(stmt, 2, batch_id);
	rc = step_done(st, stmt, err, "finish the batch");
	sqlite3_finalize(stmt);
	return rc;
}

/* Insert a benchmark and its metrics; inside the caller's transaction. */
static int insert_benchmark(struct store *st, int64_t batch_id,
			    const struct result_benchmark *bench, int64_t *bench_id,
			    int64_t *metric_ids, struct error *err)
{
	sqlite3_stmt *stmt;

	stmt = prepare(st, "INSERT INTO benchmarks (batch_id, position, workload, params) "
		       "VALUES (?, (SELECT count(*) FROM benchmarks WHERE batch_id = ?1), ?, ?)",
		       err);
	if (!stmt)
		return -1;
	sqlite3_bind_int64(stmt, 1, batch_id);
	sqlite3_bind_text(stmt, 2, bench->workload, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 3, bench->params, -1, SQLITE_STATIC);
	if (step_done(st, stmt, err, "add a benchmark")) {
		sqlite3_finalize(stmt);
		return -1;
	}
	sqlite3_finalize(stmt);
	*bench_id = sqlite3_last_insert_rowid(st->db);

	stmt = prepare(st, "INSERT INTO metrics (benchmark_id, position, name, unit, better, "
		       "source, repetitions) VALUES (?, ?, ?, ?, ?, ?, ?)", err);
	if (!stmt)
		return -1;
	for (size_t i = 0; i < bench->nr_metrics; i++) {
		const struct result_metric *m = &bench->metrics[i];

		sqlite3_bind_int64(stmt, 1, *bench_id);
		sqlite3_bind_int64(stmt, 2, (int64_t)i);
		sqlite3_bind_text(stmt, 3, m->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 4, m->unit, -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 5, better_name(m->better), -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 6, m->source ? m->source : "workload", -1,
				  SQLITE_STATIC);
		sqlite3_bind_int64(stmt, 7, (int64_t)result_metric_repetitions(m));
		if (sqlite3_step(stmt) != SQLITE_DONE) {
			if (sqlite3_errcode(st->db) == SQLITE_CONSTRAINT)
				error_set(err, EXIT_USAGE, "benchmark %s has metric '%s' twice "
					  "(give each metric once)", bench->workload, m->name);
			else
				db_error(st, err, "add a metric");
			sqlite3_finalize(stmt);
			return -1;
		}
		sqlite3_reset(stmt);
		metric_ids[i] = sqlite3_last_insert_rowid(st->db);
	}
	sqlite3_finalize(stmt);
	return 0;
}

int store_benchmark_add(struct store *st, int64_t batch_id,
			const struct result_benchmark *bench, int64_t *bench_id,
			int64_t *metric_ids, struct error *err)
{
	if (begin(st, err))
		return -1;
	if (insert_benchmark(st, batch_id, bench, bench_id, metric_ids, err)) {
		rollback(st);
		return -1;
	}
	return commit(st, err);
}

/* Insert one iteration and its samples; inside the caller's transaction. */
static int insert_iteration(struct store *st, int64_t bench_id, int seq, bool warmup,
			    const char *failure, const struct store_sample *samples,
			    size_t nr_samples, struct error *err)
{
	sqlite3_stmt *stmt;
	int64_t iteration_id;

	stmt = prepare(st, "INSERT INTO iterations (benchmark_id, seq, warmup, failure) "
		       "VALUES (?, ?, ?, ?)", err);
	if (!stmt)
		return -1;
	sqlite3_bind_int64(stmt, 1, bench_id);
	sqlite3_bind_int(stmt, 2, seq);
	sqlite3_bind_int(stmt, 3, warmup);
	if (failure)
		sqlite3_bind_text(stmt, 4, failure, -1, SQLITE_STATIC);
	if (step_done(st, stmt, err, "add an iteration")) {
		sqlite3_finalize(stmt);
		return -1;
	}
	sqlite3_finalize(stmt);
	iteration_id = sqlite3_last_insert_rowid(st->db);

	stmt = prepare(st, "INSERT INTO samples (iteration_id, metric_id, rep, value) "
		       "VALUES (?, ?, ?, ?)", err);
	if (!stmt)
		return -1;
	for (size_t i = 0; i < nr_samples; i++) {
		if (isnan(samples[i].value) || !samples[i].metric_id)
			continue;
		sqlite3_bind_int64(stmt, 1, iteration_id);
		sqlite3_bind_int64(stmt, 2, samples[i].metric_id);
		sqlite3_bind_int(stmt, 3, samples[i].rep);
		sqlite3_bind_double(stmt, 4, samples[i].value);
		if (step_done(st, stmt, err, "add a sample")) {
			sqlite3_finalize(stmt);
			return -1;
		}
	}
	sqlite3_finalize(stmt);
	return 0;
}

int store_iteration_add(struct store *st, int64_t bench_id, int seq, bool warmup,
			const char *failure, const struct store_sample *samples,
			size_t nr_samples, struct error *err)
{
	if (begin(st, err))
		return -1;
	if (insert_iteration(st, bench_id, seq, warmup, failure, samples, nr_samples, err)) {
		rollback(st);
		return -1;
	}
	return commit(st, err);
}

static char *column_strdup(sqlite3_stmt *stmt, int col)
{
	const unsigned char *s = sqlite3_column_text(stmt, col);

	return xstrdup(s ? (const char *)s : "");
}

/*
 * sqlite3_step() for a query: 1 for a row, 0 at the end, -1 with @err on a
 * fault. A damaged file shows up here (SQLITE_CORRUPT), part-way through a
 * read, and must not pass for the end of the rows.
 */
static int step_row(struct store *st, sqlite3_stmt *stmt, struct error *err)
{
	int rc = sqlite3_step(stmt);

	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	return db_error(st, err, "read the results");
}

static const char *column_text(sqlite3_stmt *stmt, int col)
{
	const unsigned char *s = sqlite3_column_text(stmt, col);

	return s ? (const char *)s : "";
}

static int load_env(struct store *st, struct result_batch *batch, struct error *err)
{
	sqlite3_stmt *stmt = prepare(st, "SELECT key, value FROM environment "
				     "WHERE batch_id = ? ORDER BY key", err);
	int rc;

	if (!stmt)
		return -1;
	sqlite3_bind_int64(stmt, 1, batch->id);
	while ((rc = step_row(st, stmt, err)) > 0)
		result_batch_add_env(batch, column_text(stmt, 0), column_text(stmt, 1));
	sqlite3_finalize(stmt);
	return rc;
}

static int load_samples(struct store *st, struct result_benchmark *bench, int64_t bench_id,
			sqlite3_stmt *stmt, struct error *err)
{
	int rc;

	sqlite3_bind_int64(stmt, 1, bench_id);
	while ((rc = step_row(st, stmt, err)) > 0) {
		int64_t pos = sqlite3_column_int64(stmt, 0);
		bool warmup = sqlite3_column_int(stmt, 1);

		if (pos >= 0 && (size_t)pos < bench->nr_metrics)
			result_metric_add_sample(&bench->metrics[pos],
						 sqlite3_column_double(stmt, 2), warmup);
	}
	sqlite3_reset(stmt);
	return rc;
}

static int load_benchmarks(struct store *st, struct result_batch *batch, bool with_samples,
			   struct error *err)
{
	sqlite3_stmt *bstmt, *mstmt, *sstmt, *fstmt;
	int rc = -1, row;

	bstmt = prepare(st, "SELECT id, workload, params FROM benchmarks "
			"WHERE batch_id = ? ORDER BY position", err);
	mstmt = prepare(st, "SELECT name, unit, better, source, repetitions FROM metrics "
			"WHERE benchmark_id = ? ORDER BY position", err);
	sstmt = prepare(st, "SELECT m.position, i.warmup, s.value FROM iterations i "
			"JOIN samples s ON s.iteration_id = i.id "
			"JOIN metrics m ON m.id = s.metric_id "
			"WHERE i.benchmark_id = ? ORDER BY i.seq, m.position, s.rep", err);
	fstmt = prepare(st, "SELECT count(*) FROM iterations "
			"WHERE benchmark_id = ? AND failure IS NOT NULL", err);
	if (!bstmt || !mstmt || !sstmt || !fstmt)
		goto out;

	sqlite3_bind_int64(bstmt, 1, batch->id);
	while ((row = step_row(st, bstmt, err)) > 0) {
		struct result_benchmark *bench = result_batch_add_benchmark(batch);
		int64_t bench_id = sqlite3_column_int64(bstmt, 0);

		bench->workload = column_strdup(bstmt, 1);
		bench->params = column_strdup(bstmt, 2);
		sqlite3_bind_int64(mstmt, 1, bench_id);
		while ((row = step_row(st, mstmt, err)) > 0) {
			struct result_metric *m = result_benchmark_add_metric(bench);

			m->name = column_strdup(mstmt, 0);
			m->unit = column_strdup(mstmt, 1);
			better_parse(column_text(mstmt, 2), &m->better);
			m->source = column_strdup(mstmt, 3);
			m->repetitions = (size_t)sqlite3_column_int64(mstmt, 4);
		}
		sqlite3_reset(mstmt);
		if (row < 0)
			goto out;
		sqlite3_bind_int64(fstmt, 1, bench_id);
		row = step_row(st, fstmt, err);
		if (row > 0)
			bench->nr_failed = (size_t)sqlite3_column_int64(fstmt, 0);
		sqlite3_reset(fstmt);
		if (row < 0 || (with_samples && load_samples(st, bench, bench_id, sstmt, err)))
			goto out;
	}
	if (row < 0)
		goto out;
	rc = 0;
out:
	sqlite3_finalize(bstmt);
	sqlite3_finalize(mstmt);
	sqlite3_finalize(sstmt);
	sqlite3_finalize(fstmt);
	return rc;
}

int store_load(struct store *st, const char *name, bool with_samples,
	       struct result_set *set, struct error *err)
{
	sqlite3_stmt *stmt;
	size_t first = set->nr_batches;
	int rc = 0;

	/* One read transaction: a run being written concurrently is seen whole-iteration. */
	if (exec(st, "BEGIN", err, "start reading"))
		return -1;
	stmt = prepare(st, "SELECT b.id, r.name, b.started, b.complete FROM batches b "
		       "JOIN runs r ON r.id = b.run_id WHERE ?1 IS NULL OR r.name = ?1 "
		       "ORDER BY b.started, b.id", err);
	if (!stmt) {
		rollback(st);
		return -1;
	}
	if (name)
		sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
	while ((rc = step_row(st, stmt, err)) > 0) {
		struct result_batch *batch = result_set_add_batch(set);

		batch->id = sqlite3_column_int64(stmt, 0);
		batch->name = column_strdup(stmt, 1);
		batch->started = column_strdup(stmt, 2);
		batch->complete = sqlite3_column_int(stmt, 3);
	}
	sqlite3_finalize(stmt);
	rc = rc < 0 ? -1 : 0;

	for (size_t i = first; i < set->nr_batches && !rc; i++) {
		rc = load_env(st, &set->batches[i], err);
		if (!rc)
			rc = load_benchmarks(st, &set->batches[i], with_samples, err);
	}
	rollback(st);
	if (rc)
		return -1;
	if (name && set->nr_batches == first)
		return error_set(err, EXIT_USAGE, "no run named '%.128s' in store '%s' "
				 "(see 'schedperf runs' for the runs it holds)", name, st->path);
	return 0;
}

static int import_benchmark(struct store *st, int64_t batch_id,
			    const struct result_benchmark *bench, struct error *err)
{
	int64_t bench_id, *metric_ids = xcalloc(bench->nr_metrics, sizeof(int64_t));
	size_t nr_warmup = 0, nr_measured = 0, width = 0;
	struct store_sample *samples;
	int seq = 0, rc = -1;

	for (size_t i = 0; i < bench->nr_metrics; i++) {
		const struct result_metric *m = &bench->metrics[i];
		size_t reps = result_metric_repetitions(m);

		size_t warmup = (m->nr_warmup + reps - 1) / reps;
		size_t measured = (m->nr_samples + reps - 1) / reps;

		if (warmup > nr_warmup)
			nr_warmup = warmup;
		if (measured > nr_measured)
			nr_measured = measured;
		width += reps;
	}
	samples = xcalloc(width, sizeof(*samples));
	if (insert_benchmark(st, batch_id, bench, &bench_id, metric_ids, err))
		goto out;
	/*
	 * Iteration k holds the k-th group of each metric's values, one per
	 * repetition; warm-ups come first.
	 */
	for (int pass = 0; pass < 2; pass++) {
		size_t nr = pass ? nr_measured : nr_warmup;

		for (size_t k = 0; k < nr; k++) {
			size_t n = 0;

			for (size_t i = 0; i < bench->nr_metrics; i++) {
				const struct result_metric *m = &bench->metrics[i];
				size_t have = pass ? m->nr_samples : m->nr_warmup;
				const double *v = pass ? m->samples : m->warmup;
				size_t reps = result_metric_repetitions(m);

				for (size_t r = 0; r < reps; r++, n++) {
					size_t at = k * reps + r;

					samples[n].metric_id = metric_ids[i];
					samples[n].rep = (int)r;
					samples[n].value = at < have ? v[at] : NAN;
				}
			}
			if (insert_iteration(st, bench_id, seq++, !pass, NULL, samples, n, err))
				goto out;
		}
	}
	for (size_t k = 0; k < bench->nr_failed; k++)
		if (insert_iteration(st, bench_id, seq++, false, "imported failure", NULL, 0,
				     err))
			goto out;
	rc = 0;
out:
	free(metric_ids);
	free(samples);
	return rc;
}

int store_import(struct store *st, const struct result_set *set, struct error *err)
{
	if (begin(st, err))
		return -1;
	for (size_t i = 0; i < set->nr_batches; i++) {
		struct result_batch batch = set->batches[i];
		int64_t run_id = run_id_for(st, batch.name, true, err);

		if (run_id < 0 || insert_batch(st, &batch, run_id, NULL, err))
			goto fail;
		for (size_t j = 0; j < batch.nr_benchmarks; j++)
			if (import_benchmark(st, batch.id, &batch.benchmarks[j], err))
				goto fail;
	}
	return commit(st, err);
fail:
	rollback(st);
	return -1;
}

int store_resume_find(struct store *st, const char *name, int64_t *batch_id, char **plan,
		      long *pid, struct error *err)
{
	sqlite3_stmt *stmt = prepare(st, "SELECT b.id, b.plan, b.pid FROM batches b "
				     "JOIN runs r ON r.id = b.run_id WHERE r.name = ? "
				     "AND b.complete = 0 ORDER BY b.started DESC, b.id DESC LIMIT 1",
				     err);
	int rc;

	if (!stmt)
		return -1;
	sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(stmt);
	if (rc != SQLITE_ROW) {
		sqlite3_finalize(stmt);
		if (rc != SQLITE_DONE)
			return db_error(st, err, "find a batch to resume");
		return error_set(err, EXIT_USAGE, "run '%.128s' has no incomplete batch to "
				 "resume (see 'schedperf runs')", name);
	}
	*batch_id = sqlite3_column_int64(stmt, 0);
	*plan = sqlite3_column_type(stmt, 1) == SQLITE_NULL ? NULL : column_strdup(stmt, 1);
	*pid = (long)sqlite3_column_int64(stmt, 2);
	sqlite3_finalize(stmt);
	return 0;
}

int store_batch_claim(struct store *st, int64_t batch_id, struct error *err)
{
	sqlite3_stmt *stmt = prepare(st, "UPDATE batches SET pid = ? WHERE id = ?", err);
	int rc;

	if (!stmt)
		return -1;
	sqlite3_bind_int64(stmt, 1, (int64_t)getpid());
	sqlite3_bind_int64(stmt, 2, batch_id);
	rc = step_done(st, stmt, err, "claim the batch");
	sqlite3_finalize(stmt);
	return rc;
}

static int count_iterations(struct store *st, int64_t bench_id, const char *where,
			    int *out, struct error *err)
{
	char sql[256];
	sqlite3_stmt *stmt;

	snprintf(sql, sizeof(sql), "SELECT count(*), coalesce(max(seq) + 1, 0) "
		 "FROM iterations WHERE benchmark_id = ? AND %s", where);
	stmt = prepare(st, sql, err);
	if (!stmt)
		return -1;
	sqlite3_bind_int64(stmt, 1, bench_id);
	if (sqlite3_step(stmt) != SQLITE_ROW) {
		sqlite3_finalize(stmt);
		return db_error(st, err, "count iterations");
	}
	out[0] = sqlite3_column_int(stmt, 0);
	out[1] = sqlite3_column_int(stmt, 1);
	sqlite3_finalize(stmt);
	return 0;
}

int store_benchmark_progress(struct store *st, int64_t batch_id, size_t position,
			     const struct result_benchmark *bench, int64_t *bench_id,
			     int64_t *metric_ids, struct benchmark_progress *progress,
			     struct error *err)
{
	sqlite3_stmt *stmt;
	int counts[2];

	memset(progress, 0, sizeof(*progress));
	stmt = prepare(st, "SELECT id FROM benchmarks WHERE batch_id = ? AND position = ?", err);
	if (!stmt)
		return -1;
	sqlite3_bind_int64(stmt, 1, batch_id);
	sqlite3_bind_int64(stmt, 2, (int64_t)position);
	if (sqlite3_step(stmt) != SQLITE_ROW) {
		sqlite3_finalize(stmt);
		return 1;
	}
	*bench_id = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);

	stmt = prepare(st, "SELECT id FROM metrics WHERE benchmark_id = ? AND name = ?", err);
	if (!stmt)
		return -1;
	for (size_t i = 0; i < bench->nr_metrics; i++) {
		sqlite3_bind_int64(stmt, 1, *bench_id);
		sqlite3_bind_text(stmt, 2, bench->metrics[i].name, -1, SQLITE_STATIC);
		/* A metric this machine did not have then stays unrecorded: 0 = skip. */
		metric_ids[i] = sqlite3_step(stmt) == SQLITE_ROW ? sqlite3_column_int64(stmt, 0) : 0;
		sqlite3_reset(stmt);
	}
	sqlite3_finalize(stmt);

	if (count_iterations(st, *bench_id, "1", counts, err))
		return -1;
	progress->next_seq = counts[1];
	if (count_iterations(st, *bench_id, "warmup = 1 AND failure IS NULL", counts, err))
		return -1;
	progress->warmup_done = counts[0];
	if (count_iterations(st, *bench_id, "warmup = 0 AND failure IS NULL", counts, err))
		return -1;
	progress->measured_done = counts[0];
	return 0;
}
