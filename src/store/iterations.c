// SPDX-License-Identifier: GPL-2.0
/*
 * Iterations and what they hold: an iteration is one run of a benchmark's
 * workload in its own child, committed in a transaction of its own with
 * its samples (one value of one metric, per repetition) and, when others
 * disturbed it, the tasks that took most (doc/design.md, "Interference").
 * Absent values have no row: an unsupported counter is never a zero.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "store/queries.h"
#include "util/xalloc.h"

static struct sql_insert insert_iterations = {
	.head = "INSERT INTO iterations (benchmark_id, seq, warmup, failure, cpu_taken, "
		"cpu_steal, cpu_available, disturbed, rerun, started, ended)",
	.columns = 11,
	.tail = "RETURNING id, benchmark_id, seq",
	.key = 2,
};

static struct sql_insert insert_samples = {
	.head = "INSERT INTO samples (iteration_id, metric_id, rep, value)",
	.columns = 4,
};

static struct sql_insert insert_culprits = {
	.head = "INSERT INTO culprits (iteration_id, rank, pid, name, cpu)",
	.columns = 5,
};

/* An iteration's id is known: its culprits and samples can go. */
static int iteration_inserted(void *ctx, size_t row, int64_t id, struct error *err)
{
	struct iteration_rows *w = ctx;
	const struct iteration_pending *p = &w->pending[row];
	const struct result_iteration *info = p->info;
	int rc = 0;

	for (size_t i = 0; info && i < info->nr_culprits && !rc; i++) {
		const struct result_culprit *c = &info->culprits[i];

		rc = sql_rows_add(&w->culprits, SQL_ARGS(SQL_INT(id), SQL_INT(i), SQL_INT(c->pid),
							 SQL_TEXT(c->name), SQL_REAL(c->cpu)),
				  err);
	}
	for (size_t i = 0; i < p->nr && !rc; i++) {
		const struct store_sample *v = &p->samples[i];

		if (isnan(v->value) || !v->metric_id)
			continue;
		rc = sql_rows_add(&w->samples, SQL_ARGS(SQL_INT(id), SQL_INT(v->metric_id),
							SQL_INT(v->rep), SQL_REAL(v->value)),
				  err);
	}
	return rc;
}

void iteration_rows_init(struct iteration_rows *w, struct store *st)
{
	memset(w, 0, sizeof(*w));
	sql_rows_init(&w->iterations, st, &insert_iterations, iteration_inserted, w,
		      "add an iteration");
	sql_rows_init(&w->samples, st, &insert_samples, NULL, NULL, "add a sample");
	sql_rows_init(&w->culprits, st, &insert_culprits, NULL, NULL, "add a culprit");
}

struct store_sample *iteration_rows_room(struct iteration_rows *w, size_t nr)
{
	struct iteration_pending *p = &w->pending[w->iterations.nr];

	if (nr > p->alloc) {
		p->alloc = nr;
		p->samples = xreallocarray(p->samples, nr, sizeof(*p->samples));
	}
	return p->samples;
}

int iteration_rows_add(struct iteration_rows *w, int64_t bench_id, int seq, bool warmup,
		       const char *failure, const struct result_iteration *info,
		       size_t nr_samples, struct error *err)
{
	struct iteration_pending *p = &w->pending[w->iterations.nr];

	p->info = info;
	p->nr = nr_samples;
	return sql_rows_add(&w->iterations,
			    SQL_ARGS(SQL_INT(bench_id), SQL_INT(seq), SQL_INT(warmup),
				     SQL_TEXT(failure), SQL_REAL(info ? info->cpu_taken : NAN),
				     SQL_REAL(info ? info->cpu_steal : NAN),
				     SQL_REAL(info ? info->cpu_available : NAN),
				     SQL_INT(info && info->disturbed), SQL_INT(info && info->rerun),
				     SQL_REAL(info ? info->started : NAN),
				     SQL_REAL(info ? info->ended : NAN)), err);
}

int iteration_rows_finish(struct iteration_rows *w, int rc, struct error *err)
{
	rc = rc || sql_rows_flush(&w->iterations, err) || sql_rows_flush(&w->culprits, err) ||
	     sql_rows_flush(&w->samples, err) ? -1 : 0;
	sql_rows_release(&w->iterations);
	sql_rows_release(&w->samples);
	sql_rows_release(&w->culprits);
	for (size_t i = 0; i < SQL_ROWS; i++)
		free(w->pending[i].samples);
	return rc;
}

int iteration_insert(struct store *st, int64_t bench_id, int seq, bool warmup,
		     const char *failure, const struct result_iteration *info,
		     const struct store_sample *samples, size_t nr_samples, struct error *err)
{
	struct iteration_rows w;

	iteration_rows_init(&w, st);
	if (nr_samples)
		memcpy(iteration_rows_room(&w, nr_samples), samples,
		       nr_samples * sizeof(*samples));
	return iteration_rows_finish(&w, iteration_rows_add(&w, bench_id, seq, warmup, failure,
							    info, nr_samples, err), err);
}

int iterations_count(struct store *st, int64_t bench_id, struct benchmark_progress *progress,
		     struct error *err)
{
	struct store_stmt *s;
	int rc;

	rc = sql_row(st, "SELECT coalesce(max(seq) + 1, 0), "
		     "count(*) FILTER (WHERE warmup AND failure IS NULL AND NOT rerun), "
		     "count(*) FILTER (WHERE NOT warmup AND failure IS NULL AND NOT rerun) "
		     "FROM iterations WHERE benchmark_id = $1", SQL_ARGS(SQL_INT(bench_id)), &s,
		     err, "count iterations");
	if (rc == 0)
		return error_set(err, EXIT_INTERNAL, "counting iterations returned no row");
	if (rc < 0)
		return -1;
	progress->next_seq = (int)sql_int(s, 0);
	progress->warmup_done = (int)sql_int(s, 1);
	progress->measured_done = (int)sql_int(s, 2);
	sql_done(s);
	return 0;
}

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
	"JOIN samples s ON s.iteration_id = i.id WHERE k.batch_id = $1 "
	"ORDER BY k.position, k.id, i.seq, s.metric_id, s.rep";
/* The culprits of the disturbed ones of those iterations, in the same order. */
static const char read_culprits[] =
	"SELECT c.iteration_id, c.pid, c.name, c.cpu FROM benchmarks k "
	"JOIN iterations i ON i.benchmark_id = k.id JOIN culprits c ON c.iteration_id = i.id "
	"WHERE k.batch_id = $1 AND i.disturbed AND i.failure IS NULL AND EXISTS "
	"(SELECT 1 FROM samples s WHERE s.iteration_id = i.id) "
	"ORDER BY k.position, i.seq, c.rank";

/* The samples read so far. */
struct sample_rows {
	int64_t iteration_id;	/* of the last sample read */
	bool warmup, disturbed;	/* that iteration's */
	/* the iterations read of one benchmark, until the next one's come */
	struct result_benchmark pending;
	struct result_benchmark *pending_for;
	/* read_culprits, from the first disturbed iteration on (most batches have none) */
	struct store_stmt *culprits;
	int culprits_rc;	/* its last step's */
};

/* The pending iterations go to their benchmark if they hold interference. */
static void settle_iterations(struct sample_rows *sr)
{
	if (sr->pending_for)
		result_benchmark_take_iterations(sr->pending_for, &sr->pending);
	sr->pending_for = NULL;
}

/* The culprits of @it, a disturbed iteration, the query's next rows. */
static int add_culprits(struct batch_rows *r, struct sample_rows *sr,
			struct result_iteration *it, struct error *err)
{
	struct store_stmt *c = sr->culprits;

	if (!c) {
		c = sr->culprits = sql_query(r->st, read_culprits,
					     SQL_ARGS(SQL_INT(r->batch->id)), err);
		if (!c)
			return -1;
		sr->culprits_rc = sql_step(c, err, "read the results");
	}
	for (; sr->culprits_rc > 0 && sql_int(c, 0) == sr->iteration_id;
	     sr->culprits_rc = sql_step(c, err, "read the results"))
		result_iteration_add_culprit(it, sql_text(c, 2), sql_int(c, 1), sql_real(c, 3));
	return sr->culprits_rc < 0 ? -1 : 0;
}

/*
 * A successful iteration's record: what other tasks took from it. They are
 * kept only when some was measured, so that a store from before it was
 * measured loads as it did; most benchmarks have none, and reading each
 * one's into the same array spares allocating one for each.
 */
static int iteration_row(struct batch_rows *r, struct sample_rows *sr, struct store_stmt *s,
			 struct result_benchmark *bench, struct error *err)
{
	struct result_iteration *it;

	if (bench != sr->pending_for)
		settle_iterations(sr);
	sr->pending_for = bench;
	it = result_benchmark_add_iteration(&sr->pending);
	it->warmup = sr->warmup;
	it->disturbed = sr->disturbed;
	it->rerun = sql_int(s, 7);
	it->cpu_taken = sql_real(s, 8);
	it->cpu_steal = sql_real(s, 9);
	it->cpu_available = sql_real(s, 10);
	it->started = sql_real(s, 11);
	it->ended = sql_real(s, 12);
	return it->disturbed ? add_culprits(r, sr, it, err) : 0;
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

static int sample_row(struct batch_rows *r, struct store_stmt *s, struct error *err)
{
	struct sample_rows *sr = r->part;
	struct result_benchmark *bench = batch_rows_benchmark(r, s, 0);
	int64_t iteration_id = sql_int(s, 1);
	struct result_metric *m;

	if (!bench)
		return 0;
	if (iteration_id != sr->iteration_id) {
		sr->iteration_id = iteration_id;
		sr->warmup = sql_int(s, 4);
		sr->disturbed = sql_int(s, 5);
		if (sql_int(s, 6) && iteration_row(r, sr, s, bench, err))
			return -1;
	}
	m = row_metric(r, bench, sql_int(s, 2));
	if (!m)
		return 0;
	result_metric_add_sample(m, sql_real(s, 3), sr->warmup);
	if (!sr->warmup && sr->disturbed)
		result_metric_mark_disturbed(m);
	return 0;
}

int samples_read(struct batch_rows *r, struct error *err)
{
	struct sample_rows sr = { .iteration_id = 0 };
	int rc;

	r->part = &sr;
	rc = batch_rows_each(r, read_samples, sample_row, err);
	sql_done(sr.culprits);
	settle_iterations(&sr);
	result_benchmark_drop_iterations(&sr.pending);
	r->part = NULL;
	return rc;
}
