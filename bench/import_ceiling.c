// SPDX-License-Identifier: GPL-2.0
/*
 * What SQLite itself can store a second, without schedperf: the floor
 * under `schedperf import` (bench/import-ceiling.sh). It writes BENCHMARKS
 * benchmarks of one metric and SAMPLES iterations of one sample each, the
 * shape of bench/scale_data.py's file, into a store schedperf made (its
 * real tables, indexes and foreign keys), in one transaction, with
 * statements of ROWS rows as the store's writer sends them, and prints
 * the CPU seconds it took. Nothing here parses JSON or checks a value.
 *
 *   rows        one row a sample and one an iteration, foreign keys on:
 *               the store's model as schedperf writes it
 *   rows-nofk   the same with foreign keys off
 *   packed      a metric's samples of a benchmark as one row (a blob of
 *               doubles, in a scratch table), no iteration rows: the
 *               model 1,000,000 samples a second would need
 *
 * usage: import_ceiling DB MODE BENCHMARKS SAMPLES
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* rows a statement, as the store's writer sends them (src/store/sql.h) */
#define ROWS 64

static double cpu_seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static sqlite3_stmt *prepare(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *s;

	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK) {
		fprintf(stderr, "import_ceiling: %s: %s\n", sql, sqlite3_errmsg(db));
		exit(1);
	}
	return s;
}

static void run(sqlite3 *db, sqlite3_stmt *s)
{
	if (sqlite3_step(s) != SQLITE_DONE) {
		fprintf(stderr, "import_ceiling: %s: %s\n", sqlite3_sql(s), sqlite3_errmsg(db));
		exit(1);
	}
	sqlite3_reset(s);
}

/* "INSERT INTO @head VALUES " and @rows copies of @row */
static sqlite3_stmt *prepare_rows(sqlite3 *db, const char *head, const char *row, int rows)
{
	size_t len = strlen(head) + 32 + (size_t)rows * (strlen(row) + 2);
	char *sql = malloc(len);
	sqlite3_stmt *s;

	snprintf(sql, len, "INSERT INTO %s VALUES ", head);
	for (int r = 0; r < rows; r++) {
		strcat(sql, r ? ", " : "");
		strcat(sql, row);
	}
	s = prepare(db, sql);
	free(sql);
	return s;
}

struct row {
	sqlite3_int64 iteration, benchmark, metric;
	int seq;
};

struct writer {
	sqlite3 *db;
	sqlite3_stmt *benchmark, *metric, *packed;
	sqlite3_stmt *iterations[2], *samples[2];	/* of ROWS rows, of one */
	sqlite3_int64 batch, next_iteration;
	struct row pending[ROWS];
	int nr_pending;
};

/* Pending rows [@first, @first + @n) in the statements of @n rows, [0] or [1]. */
static void send_rows(struct writer *w, int first, int n)
{
	sqlite3_stmt *it = w->iterations[n != ROWS], *s = w->samples[n != ROWS];

	for (int i = 0; i < n; i++) {
		const struct row *r = &w->pending[first + i];

		sqlite3_bind_int64(it, 3 * i + 1, r->iteration);
		sqlite3_bind_int64(it, 3 * i + 2, r->benchmark);
		sqlite3_bind_int(it, 3 * i + 3, r->seq);
		sqlite3_bind_int64(s, 3 * i + 1, r->iteration);
		sqlite3_bind_int64(s, 3 * i + 2, r->metric);
		sqlite3_bind_double(s, 3 * i + 3, 1.0 + r->seq * 1e-3);
	}
	run(w->db, it);
	run(w->db, s);
}

static void flush_rows(struct writer *w)
{
	if (w->nr_pending == ROWS)
		send_rows(w, 0, ROWS);
	else
		for (int i = 0; i < w->nr_pending; i++)
			send_rows(w, i, 1);
	w->nr_pending = 0;
}

/* Iteration @seq of @benchmark and its sample of @metric, sent ROWS at a time. */
static void add_row(struct writer *w, sqlite3_int64 benchmark, sqlite3_int64 metric, int seq)
{
	w->pending[w->nr_pending++] = (struct row){ w->next_iteration++, benchmark, metric, seq };
	if (w->nr_pending == ROWS)
		flush_rows(w);
}

static void write_benchmark(struct writer *w, const char *mode, int position, int samples,
			    double *values)
{
	sqlite3_int64 benchmark, metric;

	sqlite3_bind_int64(w->benchmark, 1, w->batch);
	sqlite3_bind_int(w->benchmark, 2, position);
	run(w->db, w->benchmark);
	benchmark = sqlite3_last_insert_rowid(w->db);
	sqlite3_bind_int64(w->metric, 1, benchmark);
	run(w->db, w->metric);
	metric = sqlite3_last_insert_rowid(w->db);
	if (strcmp(mode, "packed")) {
		for (int i = 0; i < samples; i++)
			add_row(w, benchmark, metric, i);
		return;
	}
	for (int i = 0; i < samples; i++)
		values[i] = 1.0 + i * 1e-3;
	sqlite3_bind_int64(w->packed, 1, metric);
	sqlite3_bind_blob(w->packed, 2, values, samples * (int)sizeof(double), SQLITE_STATIC);
	run(w->db, w->packed);
}

static sqlite3_int64 next_iteration(sqlite3 *db)
{
	sqlite3_stmt *s = prepare(db, "SELECT coalesce(max(id), 0) + 1 FROM iterations");
	sqlite3_int64 id = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 1;

	sqlite3_finalize(s);
	return id;
}

int main(int argc, char **argv)
{
	struct writer w = { 0 };
	const char *mode;
	int benchmarks, samples;
	double start, *values;

	if (argc != 5 || (strcmp(argv[2], "rows") && strcmp(argv[2], "rows-nofk") &&
			  strcmp(argv[2], "packed")) ||
	    (benchmarks = atoi(argv[3])) < 1 || (samples = atoi(argv[4])) < 1) {
		fprintf(stderr, "usage: import_ceiling DB rows|rows-nofk|packed BENCHMARKS "
			"SAMPLES\n");
		return 2;
	}
	mode = argv[2];
	values = calloc((size_t)samples, sizeof(double));
	if (sqlite3_open(argv[1], &w.db) != SQLITE_OK)
		return 1;
	sqlite3_exec(w.db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;",
		     NULL, NULL, NULL);
	sqlite3_exec(w.db, strcmp(mode, "rows-nofk") ? "PRAGMA foreign_keys = ON" :
		     "PRAGMA foreign_keys = OFF", NULL, NULL, NULL);
	sqlite3_exec(w.db, "CREATE TABLE IF NOT EXISTS ceiling_packed (metric_id INTEGER "
		     "PRIMARY KEY REFERENCES metrics(id) ON DELETE CASCADE, v BLOB NOT NULL)",
		     NULL, NULL, NULL);

	start = cpu_seconds();
	sqlite3_exec(w.db, "BEGIN; INSERT INTO runs (name) VALUES ('ceiling'); "
		     "INSERT INTO batches (run_id, started, complete) VALUES "
		     "(last_insert_rowid(), '2026-01-01T00:00:00Z', 1)", NULL, NULL, NULL);
	w.batch = sqlite3_last_insert_rowid(w.db);
	w.benchmark = prepare(w.db, "INSERT INTO benchmarks (batch_id, position, workload, "
			      "params) VALUES (?, ?, 'w', '{}')");
	w.metric = prepare(w.db, "INSERT INTO metrics (benchmark_id, position, name, unit, "
			   "better, source) VALUES (?, 0, 's', 's', 'lower', 'workload')");
	for (int one = 0; one < 2; one++) {
		w.iterations[one] = prepare_rows(w.db, "iterations (id, benchmark_id, seq, "
						 "warmup)", "(?, ?, ?, 0)", one ? 1 : ROWS);
		w.samples[one] = prepare_rows(w.db, "samples (iteration_id, metric_id, value)",
					      "(?, ?, ?)", one ? 1 : ROWS);
	}
	w.packed = prepare(w.db, "INSERT INTO ceiling_packed (metric_id, v) VALUES (?, ?)");
	w.next_iteration = next_iteration(w.db);
	for (int b = 0; b < benchmarks; b++)
		write_benchmark(&w, mode, b, samples, values);
	flush_rows(&w);
	if (sqlite3_exec(w.db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		fprintf(stderr, "import_ceiling: commit: %s\n", sqlite3_errmsg(w.db));
		return 1;
	}
	printf("%s %.4f\n", mode, cpu_seconds() - start);
	/* not a table of schedperf's: `db check` would call the store damaged */
	sqlite3_exec(w.db, "DROP TABLE ceiling_packed", NULL, NULL, NULL);
	sqlite3_finalize(w.benchmark);
	sqlite3_finalize(w.metric);
	for (int one = 0; one < 2; one++) {
		sqlite3_finalize(w.iterations[one]);
		sqlite3_finalize(w.samples[one]);
	}
	sqlite3_finalize(w.packed);
	sqlite3_close(w.db);
	free(values);
	return 0;
}
