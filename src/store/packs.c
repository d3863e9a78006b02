// SPDX-License-Identifier: GPL-2.0
/*
 * Packed samples: an imported metric's values in one row, not one row an
 * iteration and one a sample. An import of results that carry no record of
 * their iterations (another tool's, or an export without interference)
 * knows no more of an iteration than its place, and row per sample it
 * spent as long in SQLite's inserts as the whole import may take
 * (bench/import-ceiling.sh: 0.2 s CPU for 150,000 samples of rows, 17 ms
 * packed).
 *
 * A row holds one metric of a benchmark: the benchmark's warm-up
 * iterations that its values fill, then its measured ones so filled (the
 * benchmark's warm-ups are seq 0, 1 ..., its measured iterations follow,
 * its failed ones stay rows after them), each iteration's values one a
 * repetition, an absent one a NaN. A metric's own count, not the
 * benchmark's: a row is never longer than the values it holds (a metric
 * of a million repetitions and no value, beside one of a thousand
 * iterations, would have been sixteen gigabytes of NaNs). Its values are text, sixteen hex digits
 * of each one's IEEE 754 bits: exact, read and written by every driver as
 * any text is (a blob would be two more primitives in each), twice a
 * blob's size. @present counts the measured values that are there, so
 * that a count of the store's samples need not read them.
 *
 * Only an import writes them, and an imported batch has no plan: it is
 * never resumed, so no benchmark has both packed samples and rows of them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "store/queries.h"
#include "util/xalloc.h"

#define HEX_DIGITS 16		/* a value's */

static struct sql_insert insert_packs = {
	.table = "packed_samples",
	.names = "metric_id, warmups, measured, present, hex",
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

static size_t at_most(size_t a, size_t b)
{
	return a < b ? a : b;
}

int pack_rows_add(struct pack_rows *w, int64_t metric_id, const struct result_metric *m,
		  size_t nr_warmup, size_t nr_measured, struct error *err)
{
	size_t warmups = at_most(result_metric_iterations(m, true), nr_warmup);
	size_t measured = at_most(result_metric_iterations(m, false), nr_measured);
	size_t reps = result_metric_repetitions(m), n = (warmups + measured) * reps;
	size_t present = 0, any = 0;
	char *hex = xmalloc(n * HEX_DIGITS + 1), *at = hex;
	size_t slot = w->rows.nr;
	int rc;

	for (size_t k = 0; k < warmups + measured; k++) {
		bool warmup = k < warmups;

		for (size_t r = 0; r < reps; r++, at += HEX_DIGITS) {
			double v = result_metric_value(m, warmup, warmup ? k : k - warmups, r);

			pack_put(at, v);
			any += !isnan(v);
			present += !isnan(v) && !warmup;
		}
	}
	*at = '\0';
	/* no value at all: as no sample rows, no row */
	if (!any) {
		free(hex);
		return 0;
	}
	w->hex[slot] = hex;
	rc = sql_rows_add(&w->rows, SQL_ARGS(SQL_INT(metric_id), SQL_INT(warmups),
					     SQL_INT(measured), SQL_INT(present), SQL_TEXT(hex)),
			  err);
	/* the chunk was sent (or failed): its texts are no longer needed */
	if (rc || !w->rows.nr)
		for (size_t i = 0; i <= slot; i++) {
			free(w->hex[i]);
			w->hex[i] = NULL;
		}
	return rc;
}

int pack_rows_finish(struct pack_rows *w, int rc, struct error *err)
{
	rc = rc || sql_rows_flush(&w->rows, err) ? -1 : 0;
	sql_rows_release(&w->rows);
	for (size_t i = 0; i < SQL_ROWS; i++)
		free(w->hex[i]);
	return rc;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
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

static int pack_damaged(struct load *l, const struct result_metric *m, const char *why,
			struct error *err)
{
	return error_set(err, EXIT_ENV, "cannot read store '%s': the packed samples of metric "
			 "'%.64s' %s: the store was changed by other means than schedperf, or "
			 "is damaged (restore it from a copy)", l->st->location, m->name, why);
}

/* Rows: benchmark, metric, warm-up and measured iterations, the values. */
static int pack_row(struct load *l, struct store_stmt *s, struct error *err)
{
	struct load_bench *b = load_bench(l, sql_int(s, 0));
	struct result_metric *m;
	int64_t warmups = sql_int(s, 2), measured = sql_int(s, 3);
	const char *hex = sql_text(s, 4);
	size_t reps, len;

	if (!b || !(m = load_metric(l, b, sql_int(s, 1))))
		return 0;
	reps = result_metric_repetitions(m);
	len = hex ? strlen(hex) : 0;
	if (warmups < 0 || measured < 0 || len % HEX_DIGITS ||
	    len / HEX_DIGITS / reps != (uint64_t)warmups + (uint64_t)measured ||
	    len / HEX_DIGITS % reps)
		return pack_damaged(l, m, "are not as many as their iterations", err);
	for (size_t i = 0; i < len / HEX_DIGITS; i++) {
		bool warmup = i / reps < (uint64_t)warmups;
		double v;

		if (!pack_get(hex + i * HEX_DIGITS, &v))
			return pack_damaged(l, m, "are not hex digits", err);
		if (isnan(v))
			continue;
		/* no writer stores one, and order statistics have none to sort */
		if (!isfinite(v))
			return pack_damaged(l, m, "hold a value that is not a finite number",
					    err);
		result_metric_add_sample(m, v, warmup);
	}
	return 0;
}

int packs_read(struct load *l, struct error *err)
{
	return load_rows(l, "SELECT m.benchmark_id, p.metric_id, p.warmups, p.measured, p.hex "
			 "FROM packed_samples p CROSS JOIN metrics m WHERE m.id = p.metric_id",
			 "SELECT m.benchmark_id, p.metric_id, p.warmups, p.measured, p.hex "
			 "FROM benchmarks k CROSS JOIN metrics m CROSS JOIN packed_samples p "
			 "WHERE k.batch_id = $1 AND m.benchmark_id = k.id AND p.metric_id = m.id",
			 pack_row, err);
}
