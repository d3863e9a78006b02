// SPDX-License-Identifier: GPL-2.0
/*
 * Iterations and what they hold: an iteration is one run of a benchmark's
 * workload in its own child, committed in a transaction of its own with
 * its samples (one value of one metric, per repetition) and, when others
 * disturbed it, the tasks that took most (doc/design.md, "Interference").
 * Absent values have no row: an unsupported counter is never a zero.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/queries.h"
#include "util/xalloc.h"

static struct sql_insert insert_iterations = {
	.table = "iterations",
	.names = "benchmark_id, seq, warmup, failure, cpu_taken, cpu_steal, cpu_available, "
		 "disturbed, rerun, started, ended",
	.columns = 11,
	.tail = "RETURNING id, benchmark_id, seq",
	.key = 2,
	.every_row = true,
};

static struct sql_insert insert_samples = {
	.table = "samples",
	.names = "iteration_id, metric_id, rep, value",
	.columns = 4,
};

static struct sql_insert insert_culprits = {
	.table = "culprits",
	.names = "iteration_id, rank, pid, name, cpu",
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
	const struct sql_arg row[] = {
		SQL_INT(bench_id), SQL_INT(seq), SQL_INT(warmup), SQL_TEXT(failure),
		SQL_REAL(info ? info->cpu_taken : NAN), SQL_REAL(info ? info->cpu_steal : NAN),
		SQL_REAL(info ? info->cpu_available : NAN), SQL_INT(info && info->disturbed),
		SQL_INT(info && info->rerun), SQL_REAL(info ? info->started : NAN),
		SQL_REAL(info ? info->ended : NAN),
	};

	p->info = info;
	p->nr = nr_samples;
	return sql_rows_add(&w->iterations, row, ARRAY_SIZE(row), err);
}

int iteration_rows_finish(struct iteration_rows *w, int rc, struct error *err)
{
	/* an iteration's culprits and samples go once its id is known: after it */
	rc = sql_rows_finish(&w->iterations, rc, err);
	rc = sql_rows_finish(&w->culprits, rc, err);
	rc = sql_rows_finish(&w->samples, rc, err);
	for (size_t i = 0; i < SQL_ROWS; i++)
		free(w->pending[i].samples);
	return rc;
}

int store_iteration_drop(struct store *st, int64_t bench_id, int seq, struct error *err)
{
	return IN_WRITE_TXN(st, err, sql_exec(st, "DELETE FROM profiles WHERE benchmark_id = $1 "
					      "AND seq = $2 AND extra = $3",
					      SQL_ARGS(SQL_INT(bench_id), SQL_INT(seq), SQL_INT(0)),
					      err, "delete the iteration's profile") ||
				     sql_exec(st, "DELETE FROM iterations WHERE benchmark_id = $1 "
					      "AND seq = $2",
					      SQL_ARGS(SQL_INT(bench_id), SQL_INT(seq)), err,
					      "delete the iteration") ? -1 : 0);
}

int store_iteration_add(struct store *st, int64_t bench_id, int seq, bool warmup,
			const char *failure, const struct result_iteration *info,
			const struct store_sample *samples, size_t nr_samples,
			struct error *err)
{
	struct iteration_rows w;
	int rc;

	if (sql_begin(st, TXN_WRITE, err))
		return -1;
	iteration_rows_init(&w, st);
	if (nr_samples)
		memcpy(iteration_rows_room(&w, nr_samples), samples,
		       nr_samples * sizeof(*samples));
	rc = iteration_rows_add(&w, bench_id, seq, warmup, failure, info, nr_samples, err);
	return sql_end_write(st, iteration_rows_finish(&w, rc, err), err);
}

/*
 * The iterations after the last that succeeded and was not rerun, in
 * order, walked as run_slot() made them: a failure past the budget, or
 * a change between warm-ups and measured ones, began a slot of its own.
 */
int store_benchmark_open_slot(struct store *st, int64_t bench_id, int retries,
			      struct open_slot *slot, struct error *err)
{
	struct store_stmt *s;
	int rc;

	memset(slot, 0, sizeof(*slot));
	if (sql_begin(st, TXN_READ, err))
		return -1;
	s = sql_query(st, "SELECT warmup, failure IS NOT NULL, rerun FROM iterations "
		      "WHERE benchmark_id = $1 AND seq > (SELECT coalesce(max(seq), -1) "
		      "FROM iterations WHERE benchmark_id = $1 AND failure IS NULL AND "
		      "NOT rerun) ORDER BY seq", SQL_ARGS(SQL_INT(bench_id)), err);
	rc = s ? 1 : -1;
	while (rc > 0 && (rc = sql_step(s, err, "read a slot's attempts")) > 0) {
		bool warmup = sql_int(s, 0), failed = sql_int(s, 1);

		if (warmup != slot->warmup)
			*slot = (struct open_slot){ .warmup = warmup };
		if (!failed)
			slot->reruns++;
		else if (++slot->failed > retries)
			*slot = (struct open_slot){ .warmup = warmup };
	}
	sql_done(s);
	sql_end_read(st);
	if (rc < 0)
		memset(slot, 0, sizeof(*slot));
	return rc < 0 ? -1 : 0;
}

/*
 * The samples, and with them, when the load asks, the records of the
 * successful iterations (what other tasks took from them); a benchmark's
 * in seq order, each iteration's by metric and repetition.
 *
 * Most stores hold no records (those from before they were measured,
 * imports of other tools' results), and a load keeps a benchmark's only
 * where one has interference (result_benchmark_has_interference()): a pass
 * first reads only whether each iteration has (BARE_COLUMN, disturbed),
 * and once one has, it and the passes after it read the records. The six
 * columns and the iterations made for nothing were a sixth of an export's
 * CPU time.
 *
 * A pass reads a range of iteration ids, the store's or a batch's: one
 * walk of the samples in their order, each finding its iteration by rowid
 * (SQLite's CROSS JOIN keeps that order), not three index searches an
 * iteration; rows of a benchmark not read, or of another batch, are passed
 * over. Every writer adds a benchmark's iterations in seq order, so id
 * order is seq order; a store where it is not (a seq read after a later
 * one, or fewer iterations than a batch's range promises) is read again a
 * batch at a time in index order (k.id makes the order total: SQLite then
 * sorts nothing).
 */
#define SAMPLE_COLUMNS "SELECT i.benchmark_id, i.id, i.seq, s.metric_id, s.value, i.warmup, " \
	"i.disturbed, i.failure IS NULL"
#define BARE_COLUMN ", coalesce(i.cpu_taken, i.started) IS NULL AND NOT i.rerun"
#define RECORD_COLUMNS ", i.rerun, i.cpu_taken, i.cpu_steal, i.cpu_available, i.started, " \
	"i.ended"
#define SAMPLES_IN_RANGE " FROM samples s CROSS JOIN iterations i WHERE s.iteration_id " \
	"BETWEEN $1 AND $2 AND i.id = s.iteration_id ORDER BY s.iteration_id, s.metric_id, s.rep"
/* A batch's iterations, through its benchmarks (k.batch_id). */
#define ITERATIONS_OF_BENCHMARKS "benchmarks k JOIN iterations i ON i.benchmark_id = k.id "
#define SAMPLES_OF_BATCH " FROM " ITERATIONS_OF_BENCHMARKS \
	"JOIN samples s ON s.iteration_id = i.id WHERE k.batch_id = $1 " \
	"ORDER BY k.position, k.id, i.seq, s.metric_id, s.rep"

/* What a pass reads of the iterations' records. */
enum records {
	RECORDS_NONE,		/* nothing: the load does not ask for them */
	RECORDS_UNSEEN,		/* whether an iteration has interference: none so far */
	RECORDS_READ,		/* them */
};

/* [enum records][by range, by batch in order] */
#define READ_SAMPLES(columns) { SAMPLE_COLUMNS columns SAMPLES_IN_RANGE, \
	SAMPLE_COLUMNS columns SAMPLES_OF_BATCH }
static const char *const read_samples[3][2] = {
	READ_SAMPLES(""), READ_SAMPLES(BARE_COLUMN), READ_SAMPLES(RECORD_COLUMNS),
};

/* The culprits of the disturbed ones of those iterations, in the same order. */
#define CULPRITS_OF "SELECT c.iteration_id, c.pid, c.name, c.cpu FROM "
#define CULPRITS_WHERE "i.disturbed AND i.failure IS NULL AND EXISTS " \
	"(SELECT 1 FROM samples s WHERE s.iteration_id = i.id) "
static const char *const read_culprits[2] = {
	CULPRITS_OF "iterations i JOIN culprits c ON c.iteration_id = i.id WHERE "
	"c.iteration_id BETWEEN $1 AND $2 AND " CULPRITS_WHERE
	"ORDER BY c.iteration_id, c.rank",
	CULPRITS_OF ITERATIONS_OF_BENCHMARKS
	"JOIN culprits c ON c.iteration_id = i.id WHERE k.batch_id = $1 AND "
	CULPRITS_WHERE "ORDER BY k.position, k.id, i.seq, c.rank",
};

/* The samples read so far. */
struct sample_rows {
	bool by_batch;			/* this pass: a batch in the order of the indexes */
	enum records records;		/* what it reads of the records */
	bool record_seen;		/* RECORDS_UNSEEN: an iteration read has interference */
	const struct result_batch *batch;	/* the batch of the pass, NULL: any */
	struct sql_arg range[2];	/* the query's values: a range, or a batch's id */
	int64_t in_range;		/* the batch's iterations in its range */
	int64_t expected;		/* and of those, the ones that did not fail */
	int64_t read_ok;		/* the batch's that did not fail, read by range */
	int64_t iteration_id;		/* of the last sample read */
	bool warmup, disturbed;		/* that iteration's */
	struct load_bench *bench;	/* its benchmark, NULL when not one to read here */
	bool out_of_order;		/* a benchmark's iterations came not in seq order */
	/* the culprits' query, from the first disturbed iteration on (most have none) */
	struct store_stmt *culprits;
	int culprits_rc;		/* its last step's */
};

/*
 * The culprits of the iteration read (added to @it, unless NULL: its
 * benchmark is not one read here), the query's next rows: it visits the
 * disturbed successful iterations that have samples in the samples'
 * order.
 */
static int take_culprits(struct load *l, struct sample_rows *sr, struct result_iteration *it,
			 struct error *err)
{
	struct store_stmt *c = sr->culprits;

	if (!c) {
		c = sr->culprits = sql_query(l->st, read_culprits[sr->by_batch], sr->range,
					     sr->by_batch ? 1 : 2, err);
		if (!c)
			return -1;
		sr->culprits_rc = sql_step(c, err, "read the results");
	}
	for (; sr->culprits_rc > 0 && sql_int(c, 0) == sr->iteration_id;
	     sr->culprits_rc = sql_step(c, err, "read the results"))
		if (it)
			result_iteration_add_culprit(it, sql_text(c, 2), sql_int(c, 1),
						     sql_real(c, 3));
	return sr->culprits_rc < 0 ? -1 : 0;
}

/* A successful iteration's record: what other tasks took from it. */
static int iteration_record(struct load *l, struct sample_rows *sr, struct store_stmt *s,
			    struct error *err)
{
	struct result_iteration *it = NULL;

	if (sr->bench) {
		it = result_benchmark_add_iteration(load_benchmark(l, sr->bench));
		it->warmup = sr->warmup;
		it->disturbed = sr->disturbed;
		it->rerun = sql_int(s, 8);
		it->cpu_taken = sql_real(s, 9);
		it->cpu_steal = sql_real(s, 10);
		it->cpu_available = sql_real(s, 11);
		it->started = sql_real(s, 12);
		it->ended = sql_real(s, 13);
	}
	return sr->disturbed ? take_culprits(l, sr, it, err) : 0;
}

/* The first sample of iteration @id: which it is, and its record. */
static int iteration_row(struct load *l, struct sample_rows *sr, struct store_stmt *s,
			 int64_t id, struct error *err)
{
	struct load_bench *b = load_bench(l, sql_int(s, 0));
	bool ok = sql_int(s, 7);

	if (b && sr->batch && &l->set->batches[b->batch] != sr->batch)
		b = NULL;
	sr->bench = b;
	sr->iteration_id = id;
	sr->warmup = sql_int(s, 5);
	sr->disturbed = sql_int(s, 6);
	if (b && !sr->by_batch) {
		int64_t seq = sql_int(s, 2);

		if (seq <= b->last_seq) {
			sr->out_of_order = true;
			return -1;
		}
		b->last_seq = seq;
		sr->read_ok += ok;
	}
	if (!ok || sr->records == RECORDS_NONE)
		return 0;
	if (sr->records == RECORDS_READ)
		return iteration_record(l, sr, s, err);
	/* interference: the pass is read again with the records */
	sr->record_seen = b && (sr->disturbed || !sql_int(s, 8));
	return sr->record_seen ? -1 : 0;
}

/*
 * What is wrong with a sample read as @value, not finite: a NAN is one
 * the store holds (PostgreSQL) or text where a number should be (SQLite).
 */
static const char *sample_wrong(double value)
{
	if (isnan(value))
		return "is not a number";
	return value > 0 ? "is inf, not a finite number" : "is -inf, not a finite number";
}

static int sample_row(struct load *l, struct store_stmt *s, struct error *err)
{
	struct sample_rows *sr = l->part;
	int64_t id = sql_int(s, 1);
	struct result_metric *m;
	double value;

	if ((id != sr->iteration_id || !sr->iteration_id) && iteration_row(l, sr, s, id, err))
		return -1;
	if (!sr->bench || !(m = load_metric(l, sr->bench, sql_int(s, 3))))
		return 0;
	value = sql_real(s, 4);
	/* no writer stores one, and order statistics have none to sort */
	if (!isfinite(value))
		return error_set(err, EXIT_ENV, "cannot read store '%s': a sample of metric "
				 "'%.64s' %s: the store was changed by other means than "
				 "schedperf, or is damaged (restore it from a copy)",
				 l->st->location, m->name, sample_wrong(value));
	result_metric_add_sample(m, value, sr->warmup);
	if (!sr->warmup && sr->disturbed)
		result_metric_mark_disturbed(m);
	return 0;
}

/*
 * The range of a batch's iteration ids, from each benchmark's first and
 * last iteration by seq and its failed ones: a few index searches a
 * benchmark, where walking all its iterations took a tenth of compare's
 * time. Subqueries each, as both databases plan them: PostgreSQL joins
 * rows found by a subquery by hashing the table. The seqs from first to
 * last, less the failed, are the iterations the range gives when it holds
 * the batch's; fewer come when some lie outside it (not in id order).
 */
#define SEQ_END(column, order) "(SELECT " column " FROM iterations " \
	"WHERE benchmark_id = k.id ORDER BY seq" order " LIMIT 1)"
#define BATCH_RANGE "SELECT min(lo), max(hi), sum(span), sum(failed) FROM (SELECT " \
	SEQ_END("id", "") " AS lo, " SEQ_END("id", " DESC") " AS hi, " \
	"CAST(" SEQ_END("seq", " DESC") " AS BIGINT) - " SEQ_END("seq", "") " + 1 AS span, " \
	"0 AS failed FROM benchmarks k WHERE k.batch_id = $1 " \
	"UNION ALL SELECT i.id, i.id, 0, 1 FROM benchmarks k JOIN iterations i " \
	"ON i.benchmark_id = k.id WHERE k.batch_id = $1 AND i.failure IS NOT NULL) AS r"
#define STORE_RANGE "SELECT (SELECT min(id) FROM iterations), " \
	"(SELECT max(id) FROM iterations), 0, 0"

/* The range of the batch's iteration ids (or the store's), and how many it holds. */
static int range_row(struct load *l, struct store_stmt *s, struct error *err)
{
	struct sample_rows *sr = l->part;
	bool none = sql_null(s, 0);

	sr->range[0] = SQL_INT(sql_int(s, 0));
	sr->range[1] = SQL_INT(none ? -1 : sql_int(s, 1));
	sr->in_range = none ? 0 : sql_int(s, 2);
	/* beyond 64 bits (a hand-edited store's seqs): no count, read by the indexes */
	if (none)
		sr->expected = 0;
	else if (__builtin_sub_overflow(sr->in_range, sql_int(s, 3), &sr->expected))
		sr->expected = -1;
	return 0;
}

/*
 * Whether the range [@lo, @hi] holds many more ids than a batch's @n (one
 * resumed after other runs wrote theirs): then it is read in the order of
 * the indexes, its own rows, not all those between. In doubles: a
 * hand-edited store's ids and sums of seqs may lie anywhere in 64 bits.
 */
static bool range_too_wide(int64_t lo, int64_t hi, int64_t n)
{
	return (double)hi - (double)lo > 4 * (double)n + 4096;
}

/* Forget the samples and records read of @batch's benchmarks (of every one: NULL). */
static void forget_samples(struct load *l, const struct result_batch *batch)
{
	for (size_t i = 0; i < l->nr_benches; i++) {
		struct result_benchmark *bench = load_benchmark(l, &l->benches[i]);

		if (batch && &l->set->batches[l->benches[i].batch] != batch)
			continue;
		for (size_t k = 0; k < bench->nr_metrics; k++)
			result_metric_drop_samples(&bench->metrics[k]);
		result_benchmark_drop_iterations(bench);
		l->benches[i].last_seq = -1;
	}
}

/*
 * The samples' query of a pass, its values in sr->range; read again from
 * the start with the records when an iteration is seen to have interference.
 */
static int read_samples_query(struct load *l, struct sample_rows *sr, struct error *err)
{
	int rc;

	do {
		if (sr->record_seen) {
			forget_samples(l, sr->batch);
			sr->records = RECORDS_READ;
			sr->record_seen = false;
		}
		sr->iteration_id = 0;
		sr->read_ok = 0;
		rc = load_query(l, read_samples[sr->records][sr->by_batch], sr->range,
				sr->by_batch ? 1 : 2, sample_row, err);
	} while (rc && sr->record_seen);
	return rc;
}

/*
 * One pass of the samples' query: of the range of iteration ids of
 * @batch (every batch when NULL), or in the order of the indexes.
 */
static int read_pass(struct load *l, struct sample_rows *sr, const struct result_batch *batch,
		     bool by_batch, struct error *err)
{
	int rc;

	sr->batch = batch;
	if (!by_batch) {
		struct sql_arg id = SQL_INT(batch ? batch->id : 0);

		if (load_query(l, batch ? BATCH_RANGE : STORE_RANGE, &id, !!batch, range_row, err))
			return -1;
		by_batch = batch && range_too_wide(sr->range[0].i, sr->range[1].i, sr->in_range);
	}
	if (by_batch)
		sr->range[0] = SQL_INT(batch->id);
	sr->by_batch = by_batch;
	rc = read_samples_query(l, sr, err);
	/*
	 * Fewer than the seqs promise: some lay outside the range (out of
	 * order) or have no sample; the order of the indexes reads them all.
	 */
	if (!rc && batch && !by_batch && sr->read_ok != sr->expected) {
		sr->out_of_order = true;
		rc = -1;
	}
	sql_done(sr->culprits);
	sr->culprits = NULL;
	return rc;
}

/* Every pass of a load: of the whole store's range, or of each batch. */
static int read_passes(struct load *l, struct sample_rows *sr, bool by_batch,
		       struct error *err)
{
	if (l->whole && !by_batch)
		return read_pass(l, sr, NULL, false, err);
	for (size_t i = l->first; i < l->set->nr_batches; i++)
		if (read_pass(l, sr, &l->set->batches[i], by_batch, err))
			return -1;
	return 0;
}

/*
 * The records are kept only where some interference was measured, so
 * that a store from before it was measured loads as it did.
 */
int samples_read(struct load *l, struct error *err)
{
	enum records records = l->parts & STORE_ITERATIONS ? RECORDS_UNSEEN : RECORDS_NONE;
	struct sample_rows sr = { .by_batch = false, .records = records };
	int rc;

	l->part = &sr;
	rc = read_passes(l, &sr, false, err);
	if (rc && sr.out_of_order) {
		forget_samples(l, NULL);
		sr = (struct sample_rows){ .by_batch = true, .records = records };
		rc = read_passes(l, &sr, true, err);
	}
	l->part = NULL;
	for (size_t i = 0; i < l->nr_benches && !rc; i++) {
		struct result_benchmark *bench = load_benchmark(l, &l->benches[i]);

		if (!result_benchmark_has_interference(bench))
			result_benchmark_drop_iterations(bench);
	}
	return rc || packs_read(l, err) ? -1 : 0;
}

/*
 * What a load would count (STORE_COUNTS), counted in the store: the
 * measured samples of the workloads' metrics (all, less the warm-ups'),
 * the measured iterations a load marks disturbed (CULPRITS_WHERE), and
 * the measured packed values (packs.c: none disturbed). A row: batch id,
 * samples, warm-ups' samples, disturbed. The samples are counted a metric
 * at a time (SQLite walks its index of metrics), the iterations in a scan
 * each. Joins, not a subquery a row: PostgreSQL compiled those first,
 * which took longer than the query. Only `runs` counts, and it loads
 * every run: a load of some runs counts the whole store too, and keeps
 * the rows of its batches (count_row()).
 */
static const char count_parts[] = "SELECT k.batch_id, sum(c.n), 0, 0 FROM (SELECT "
	"s.metric_id, count(*) AS n FROM samples s GROUP BY s.metric_id) c CROSS JOIN metrics m "
	"CROSS JOIN benchmarks k WHERE m.id = c.metric_id AND m.source = 'workload' AND "
	"k.id = m.benchmark_id GROUP BY k.batch_id UNION ALL "
	"SELECT k.batch_id, 0, count(*), 0 FROM iterations i CROSS JOIN samples s CROSS JOIN "
	"metrics m CROSS JOIN benchmarks k WHERE i.warmup AND s.iteration_id = i.id AND "
	"m.id = s.metric_id AND m.source = 'workload' AND k.id = i.benchmark_id "
	"GROUP BY k.batch_id UNION ALL "
	"SELECT k.batch_id, 0, 0, count(*) FROM iterations i CROSS JOIN benchmarks k WHERE "
	"NOT i.warmup AND " CULPRITS_WHERE "AND k.id = i.benchmark_id GROUP BY k.batch_id "
	"UNION ALL SELECT k.batch_id, sum(p.present), 0, 0 FROM packed_samples p CROSS JOIN "
	"metrics m CROSS JOIN benchmarks k WHERE m.id = p.metric_id AND NOT p.warmup AND "
	"m.source = 'workload' AND k.id = m.benchmark_id GROUP BY k.batch_id";

static int count_row(struct load *l, struct store_stmt *s, struct error *err)
{
	struct result_batch *batch = load_batch(l, sql_int(s, 0));

	if (batch) {
		batch->nr_samples += (size_t)sql_int(s, 1);
		batch->nr_samples -= (size_t)sql_int(s, 2);
		batch->nr_disturbed += (size_t)sql_int(s, 3);
	}
	return 0;
}

int counts_read(struct load *l, struct error *err)
{
	return load_query(l, count_parts, SQL_NO_ARGS, count_row, err);
}

/*
 * A sample that no reader takes (sample_row()), the first one: a number
 * beyond the largest finite double is an infinity, and on PostgreSQL a
 * NaN; on SQLite every text and blob, which compare above every number.
 */
static void sample_damage_row(struct store_stmt *s, struct sql_arg *args, char *buf, size_t len)
{
	snprintf(buf, len, "a sample of metric '%.64s' of run '%.64s' %s (restore the store "
		 "from a backup)", sql_text(s, 1), sql_text(s, 0), sample_wrong(sql_real(s, 2)));
}

/* A page of one row, and no key: the first such sample is the damage. */
const struct sql_check samples_damage = {
	"SELECT r.name, m.name, s.value FROM samples s CROSS JOIN metrics m CROSS JOIN "
	"benchmarks k CROSS JOIN batches b CROSS JOIN runs r WHERE (s.value > "
	"1.7976931348623157e308 OR s.value < -1.7976931348623157e308) AND m.id = s.metric_id "
	"AND k.id = m.benchmark_id AND b.id = k.batch_id AND r.id = b.run_id LIMIT $1",
	0, 1, sample_damage_row, 0,
};
