// SPDX-License-Identifier: GPL-2.0
/*
 * Packed samples: an imported metric's values in a few rows, not a row an
 * iteration and one a sample. An import of results without records of
 * their iterations (another tool's, an export without interference) knows
 * no more of an iteration than its place, and a row per sample spent as
 * long in SQLite's inserts as the whole import may take
 * (bench/import-ceiling.sh: 0.2 s CPU for 150,000 samples as rows, 17 ms
 * packed).
 *
 * A metric's warm-up values, then its measured ones, go in parts (rows) of
 * at most PACK_VALUES in order, so that a statement of SQL_ROWS parts stays
 * far below the gigabyte SQLite takes of a text and PostgreSQL of a
 * message: its iterations in turn, a value a repetition, a NaN where one
 * is absent. The iterations are the metric's own (those its values fill:
 * import_shape()), so no part is longer than its values (a million
 * repetitions and one value beside a thousand iterations were sixteen
 * gigabytes of NaNs); a part of absent values only is not written. A value
 * is sixteen hex digits of its IEEE 754 bits: exact, text every driver
 * reads and writes (a blob would be two more primitives in each), twice a
 * blob's size. @present counts a part's values there, so that counting the
 * store's samples need not read them. Failed iterations stay rows
 * (iterations.c), numbered after the others.
 *
 * Only an import writes them, and an imported batch has no plan, so it is
 * never resumed: no metric has both packed samples and rows of them. A
 * load checks each part (in order, none missing, whole values, finite, as
 * many present as it says), so that a damaged one is never read as fewer
 * samples; `db check` does with the same code (pack_check()).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/queries.h"
#include "util/xalloc.h"

#define HEX_DIGITS 16		/* a value's */

/* A part's values at most: 1 MB of text, 64 MB a statement of SQL_ROWS parts. */
#define PACK_VALUES 65536

static struct sql_insert insert_packs = {
	.table = "packed_samples",
	.names = "metric_id, part, warmup, present, hex",
	.columns = 5,
};

void pack_rows_init(struct pack_rows *w, struct store *st)
{
	memset(w, 0, sizeof(*w));
	sql_rows_init(&w->rows, st, &insert_packs, NULL, NULL, "add packed samples");
}

static void pack_put(char *at, double value)
{
	static const char digits[] = "0123456789abcdef";
	uint64_t bits;

	memcpy(&bits, &value, sizeof(bits));
	for (int i = HEX_DIGITS - 1; i >= 0; i--, bits >>= 4)
		at[i] = digits[bits & 0xf];
}

/*
 * The part of @m's warm-up (or measured) values from value @first, at
 * most PACK_VALUES of the @n, unless none is there; *@part numbers it.
 */
static int pack_part(struct pack_rows *w, int64_t metric_id, const struct result_metric *m,
		     bool warmup, size_t first, size_t n, int *part, struct error *err)
{
	size_t reps = result_metric_repetitions(m), present = 0;
	char *hex, *at;
	size_t slot = w->rows.nr;
	int rc;

	if (n - first > PACK_VALUES)
		n = first + PACK_VALUES;
	at = hex = xmalloc((n - first) * HEX_DIGITS + 1);
	for (size_t i = first; i < n; i++, at += HEX_DIGITS) {
		double v = result_metric_value(m, warmup, i / reps, i % reps);

		pack_put(at, v);
		present += !isnan(v);
	}
	*at = '\0';
	if (!present) {
		free(hex);
		return 0;
	}
	w->hex[slot] = hex;
	rc = sql_rows_add(&w->rows, SQL_ARGS(SQL_INT(metric_id), SQL_INT((*part)++),
					     SQL_INT(warmup), SQL_INT(present), SQL_TEXT(hex)),
			  err);
	/* the chunk was sent (or failed): its texts are no longer needed */
	if (rc || !w->rows.nr)
		for (size_t i = 0; i <= slot; i++) {
			free(w->hex[i]);
			w->hex[i] = NULL;
		}
	return rc;
}

static size_t at_most(size_t a, size_t b)
{
	return a < b ? a : b;
}

int pack_rows_add(struct pack_rows *w, int64_t metric_id, const struct result_metric *m,
		  size_t nr_warmup, size_t nr_measured, struct error *err)
{
	size_t reps = result_metric_repetitions(m);
	size_t n[2] = {
		at_most(result_metric_iterations(m, true), nr_warmup) * reps,
		at_most(result_metric_iterations(m, false), nr_measured) * reps,
	};
	int part = 0, rc = 0;

	for (int measured = 0; measured < 2; measured++)
		for (size_t first = 0; first < n[measured] && !rc; first += PACK_VALUES)
			rc = pack_part(w, metric_id, m, !measured, first, n[measured], &part,
				       err);
	return rc;
}

int pack_rows_finish(struct pack_rows *w, int rc, struct error *err)
{
	rc = sql_rows_finish(&w->rows, rc, err);
	for (size_t i = 0; i < SQL_ROWS; i++)
		free(w->hex[i]);
	return rc;
}

static int hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The value at @at; false when it is not sixteen hex digits. */
static bool pack_get(const char *at, double *value)
{
	uint64_t bits = 0;

	for (int i = 0; i < HEX_DIGITS; i++) {
		int d = hex_digit(at[i]);

		if (d < 0)
			return false;
		bits = bits << 4 | (uint64_t)d;
	}
	memcpy(value, &bits, sizeof(*value));
	return true;
}

/* The metric whose parts are being read, and the part that must come next. */
struct pack_read {
	int64_t metric_id;
	int64_t next_part;
};

/*
 * What is wrong with the part on @s (NULL: nothing), checked as a load
 * reads it and as `db check` does: columns 1 to 5 are the metric's id,
 * the part, warm-up, present and the values, in order of metric and part;
 * @beside, the metric has rows of samples. Each value there goes to @m
 * unless it is NULL.
 */
static const char *pack_check(struct pack_read *pr, struct store_stmt *s, bool beside,
			      struct result_metric *m)
{
	int64_t metric_id = sql_int(s, 1);
	bool warmup = sql_int(s, 3);
	const char *hex = sql_text(s, 5);
	size_t len = hex ? strlen(hex) : 0, present = 0;

	if (metric_id != pr->metric_id) {
		pr->metric_id = metric_id;
		pr->next_part = 0;
		if (beside)
			return "are stored beside rows of its samples";
	}
	if (sql_int(s, 2) != pr->next_part++)
		return "lack a part";
	if (!len || len % HEX_DIGITS)
		return "are not whole values";
	for (size_t i = 0; i < len / HEX_DIGITS; i++) {
		double v;

		if (!pack_get(hex + i * HEX_DIGITS, &v))
			return "are not hex digits";
		if (isnan(v))
			continue;
		/* no writer stores one, and order statistics have none to sort */
		if (!isfinite(v))
			return "hold a value that is not a finite number";
		if (m)
			result_metric_add_sample(m, v, warmup);
		present++;
	}
	if ((int64_t)present != sql_int(s, 4))
		return "are not as many as their count";
	return NULL;
}

/* Rows: benchmark, then pack_check()'s. */
static int pack_row(struct load *l, struct store_stmt *s, struct error *err)
{
	struct load_bench *b = load_bench(l, sql_int(s, 0));
	struct result_metric *m;
	const char *why;

	if (!b || !(m = load_metric(l, b, sql_int(s, 1))) ||
	    !(why = pack_check(l->part, s, m->nr_samples || m->nr_warmup, m)))
		return 0;
	return error_set(err, EXIT_ENV, "cannot read store '%s': the packed samples of metric "
			 "'%.64s' %s: the store was changed by other means than schedperf, or "
			 "is damaged (restore it from a copy)", l->st->location, m->name, why);
}

#define PACK_COLUMNS "SELECT m.benchmark_id, p.metric_id, p.part, p.warmup, p.present, p.hex "

int packs_read(struct load *l, struct error *err)
{
	struct pack_read pr = { 0 };
	int rc;

	l->part = &pr;
	rc = load_rows(l, PACK_COLUMNS "FROM packed_samples p CROSS JOIN metrics m "
		       "WHERE m.id = p.metric_id ORDER BY p.metric_id, p.part",
		       PACK_COLUMNS "FROM benchmarks k CROSS JOIN metrics m "
		       "CROSS JOIN packed_samples p WHERE k.batch_id = $1 AND "
		       "m.benchmark_id = k.id AND p.metric_id = m.id ORDER BY p.metric_id, p.part",
		       pack_row, err);
	l->part = NULL;
	return rc;
}

static void pack_check_row(struct store_stmt *s, struct sql_arg *args, char *buf, size_t len)
{
	/* the key is where the part before left pack_check(): (0, 0) is no metric's */
	struct pack_read pr = { args[0].i, args[1].i };
	const char *why = pack_check(&pr, s, sql_int(s, 7), NULL);

	args[0] = SQL_INT(pr.metric_id);
	args[1] = SQL_INT(pr.next_part);
	if (why)
		snprintf(buf, len, "the packed samples of metric '%.64s' of run '%.64s' %s "
			 "(restore the store from a backup)", sql_text(s, 6), sql_text(s, 0), why);
}

/*
 * pack_check()'s rows, then the run and the metric's name, a page of $3
 * at a time from the part ($1, $2) the page before left next: at most
 * 16 MB of text, all a driver that takes a result whole (PostgreSQL's)
 * holds at once. Without m.id >= $1 PostgreSQL's merge join read the
 * metrics from the first at every page. Packed samples came with version 13.
 */
const struct sql_check packs_damage = {
	"SELECT r.name, p.metric_id, p.part, p.warmup, p.present, p.hex, m.name, EXISTS "
	"(SELECT 1 FROM samples s WHERE s.metric_id = p.metric_id) FROM packed_samples p "
	"CROSS JOIN metrics m CROSS JOIN benchmarks k CROSS JOIN batches b CROSS JOIN runs r "
	"WHERE (p.metric_id, p.part) >= ($1, $2) AND m.id >= $1 AND m.id = p.metric_id AND "
	"k.id = m.benchmark_id AND b.id = k.batch_id AND r.id = b.run_id "
	"ORDER BY p.metric_id, p.part LIMIT $3", 2, 16, pack_check_row, 13,
};
