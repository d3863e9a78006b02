// SPDX-License-Identifier: GPL-2.0
/*
 * benchstat's table, as cmd/benchstat of golang.org/x/perf prints it
 * (commit 71ba5bc, whose text output is that of the current 712aea8 tree,
 * with go-moremath f10218a) for samples given to it as lines
 *
 *     BenchmarkWORKLOAD/KEY=VALUE/... 1 VALUE METRIC
 *
 * one file per run, named by the run: a table per metric (benchstat's
 * unit), a row per workload and parameters, each run's median ± its
 * interval (moremath's QuantileCI) with a common SI prefix per row, then
 * against the baseline the change of medians and (p=P n=N), or `~` when the
 * Mann-Whitney p exceeds alpha, footnoted warnings, and a geomean row
 * closing every table of more than one row. Confidence is 1 - alpha.
 * The numbers are benchstat's own (stats/moremath.h); schedperf's verdict
 * follows each table on "schedperf:" lines.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report/texttab.h"
#include "stats/moremath.h"
#include "results/metric_key.h"
#include "util/numfmt.h"
#include "util/xalloc.h"

/* benchunit: SI (or IEC for bytes) prefixes with 3 to 4 significant digits. */
struct scaler {
	int prec;
	double factor;
	const char *prefix;
};

static bool unit_is_binary(const char *unit)
{
	bool denom = false;

	for (const char *p = unit; *p;) {
		size_t n;

		if (*p == '*' || *p == '/' || *p == '-' || *p == ' ' || *p == '\t') {
			if (*p == '*')
				denom = false;
			else if (*p == '/')
				denom = true;
			p++;
			continue;
		}
		n = strcspn(p, "*/- \t");
		if (!denom && ((n == 1 && !strncmp(p, "B", 1)) || (n == 2 && !strncmp(p, "MB", 2)) ||
			       (n == 5 && !strncmp(p, "bytes", 5))))
			return true;
		p += n;
	}
	return false;
}

static double parse_threshold(const char *mantissa, int exp)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%se%d", mantissa, exp);
	return strtod(buf, NULL);
}

static struct scaler common_scale(const double *vals, size_t n, bool binary)
{
	static const char *si[] = { "T", "G", "M", "k", "", "m", "µ", "n" };
	static const char *iec[] = { "Ti", "Gi", "Mi", "Ki", "" };
	double min = 0;

	for (size_t i = 0; i < n; i++) {
		double v = fabs(vals[i]);

		if (v != 0 && (min == 0 || v < min))
			min = v;
	}
	if (min == 0)
		return (struct scaler){ 3, 1, "" };
	if (!binary) {
		for (int i = 0, exp = 12; i < 8; i++, exp -= 3) {
			struct scaler s = { 0, pow(10, exp), si[i] };

			if (min >= parse_threshold("99.995", exp))
				return s.prec = 1, s;
			if (min >= parse_threshold("9.9995", exp))
				return s.prec = 2, s;
			if (min >= parse_threshold(".99995", exp))
				return s.prec = 3, s;
		}
	} else {
		for (int i = 0, exp = 40; i < 5; i++, exp -= 10) {
			struct scaler s = { 0, pow(2, exp), iec[i] };

			if (min >= ldexp(0x1.8ffae147ae148p0, 6 + exp))
				return s.prec = 1, s;
			if (min >= ldexp(0x1.3ffbe76c8b439p0, 3 + exp))
				return s.prec = 2, s;
			if (min >= ldexp(0x1.fff972474538fp0, -1 + exp))
				return s.prec = 3, s;
		}
	}
	/* below the smallest prefix: more decimals, up to 10 */
	{
		struct scaler s = binary ? (struct scaler){ 0, 1, "" } :
				  (struct scaler){ 0, 1e-9, "n" };
		double v = min / s.factor;

		for (int i = 0, exp = -1; exp > -9; i++, exp--) {
			if (v >= parse_threshold("9.9995", exp) || exp == -8)
				return s.prec = i + 3, s;
		}
		return s;
	}
}

/*
 * Beyond the largest prefix benchunit prints every digit of %f (309 near
 * DBL_MAX); from 1e15 the shortest form that reads back exactly instead.
 */
static void scaler_format(char *buf, size_t len, struct scaler s, double v)
{
	char num[32];

	/* Go prints an infinity as +Inf; a value the row's prefix overflows, unscaled */
	if (!isfinite(v)) {
		snprintf(buf, len, "%s", isnan(v) ? "NaN" : v > 0 ? "+Inf" : "-Inf");
		return;
	}
	if (!isfinite(v / s.factor)) {
		format_shortest(buf, len, v);
		return;
	}
	if (fabs(v / s.factor) >= 1e15) {
		format_shortest(num, sizeof(num), v / s.factor);
		snprintf(buf, len, "%s%s", num, s.prefix);
		return;
	}
	snprintf(buf, len, "%.*f%s", s.prec, v / s.factor, s.prefix);
}

/* benchunit.Tidy: "ns/op" reads as "sec/op", "MB/s" as "B/s". */
static const char *tidy_unit(const char *unit, double *factor)
{
	*factor = 1;
	if (!strcmp(unit, "ns/op")) {
		*factor = 1e-9;
		return "sec/op";
	}
	if (!strcmp(unit, "MB/s")) {
		*factor = 1e6;
		return "B/s";
	}
	return unit;
}

/* One cell of the table: a run's sample of one row, as benchstat sees it. */
struct bs_cell {
	bool present;
	double *values;		/* ascending, in the tidied unit */
	size_t n;
	double center, lo, hi;
	const char *ci_warning;	/* "need >= 6 samples ..." or NULL */
	double p;		/* against the baseline */
	const char *cmp_error;	/* moremath's error, or NULL */
	bool cmp_warning;	/* "need >= N samples to detect ..." */
};

struct bs_table {
	const struct compare_row **rows;
	size_t nr_rows;
	/*
	 * benchstat's columns are the runs with samples in the table (a run
	 * without any has no column, and the first present is the base):
	 * column k is run run[k] of the comparison.
	 */
	size_t *run, nr_runs;
	struct bs_cell *cells;	/* [row * nr_runs + column] */
	const char *unit;
	double factor;
	bool binary;
	double confidence, alpha;
};

static int cmp_up(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* medianSamples: the smallest n whose interval is closed at @confidence. */
static void median_samples(double confidence, const char **op, int *n)
{
	for (*n = 2; *n <= 50; (*n)++) {
		size_t lo, hi;

		quantile_ci_orders((size_t)*n, 0.5, confidence, &lo, &hi);
		if (lo > 0 && hi <= (size_t)*n) {
			*op = ">=";
			return;
		}
	}
	*op = ">";
	*n = 50;
}

/* uTestSamples: the smallest n per side whose least p is within @alpha. */
static void utest_samples(double alpha, const char **op, int *n)
{
	static const double min_p[] = { 0, 1, 0.3333333333333333, 0.1, 0.02857142857142857,
		0.007936507936507936, 0.0021645021645021645, 0.0005827505827505828,
		0.0001554001554001554, 4.113533525298231e-05 };

	for (*n = 1; *n < 10; (*n)++)
		if (min_p[*n] <= alpha) {
			*op = ">=";
			return;
		}
	*op = ">";
	*n = 10;
}

/*
 * One cell as benchstat summarises it: the median and its interval, and
 * against @base (NULL for the base itself) the U test. The text table and
 * the markdown row both take their figures from here.
 */
static void bs_cell_summarise(struct bs_cell *c, const struct compare_cell *cell,
			      const struct bs_cell *base, double factor, double confidence,
			      double alpha)
{
	c->present = cell->nr_samples > 0;
	if (!c->present)
		return;
	c->n = cell->nr_samples;
	c->values = xmalloc(c->n * sizeof(double));
	for (size_t k = 0; k < c->n; k++)
		c->values[k] = cell->samples[k] * factor;
	qsort(c->values, c->n, sizeof(double), cmp_up);
	quantile_ci(c->values, c->n, 0.5, confidence, &c->center, &c->lo, &c->hi);
	c->ci_warning = isinf(c->lo) || isinf(c->hi) ? "ci" : NULL;
	if (!base || !base->present)
		return;
	c->p = moremath_utest(base->values, base->n, c->values, c->n, &c->cmp_error);
	if (c->cmp_error) {
		c->p = 1;
	} else if (c->p > alpha) {
		const char *op;
		int need;

		utest_samples(alpha, &op, &need);
		c->cmp_warning = (int)base->n < need && (int)c->n < need;
	}
}

static void bs_summarise(struct bs_table *t)
{
	for (size_t i = 0; i < t->nr_rows; i++) {
		struct bs_cell *base = &t->cells[i * t->nr_runs];

		for (size_t k = 0; k < t->nr_runs; k++)
			bs_cell_summarise(&t->cells[i * t->nr_runs + k],
					  &t->rows[i]->cells[t->run[k]], k ? base : NULL,
					  t->factor, t->confidence, t->alpha);
	}
}

/* Footnotes: each distinct message numbered in order of first use. */
struct notes {
	char **msgs;
	size_t nr;
};

static size_t note_index(struct notes *n, const char *msg)
{
	for (size_t i = 0; i < n->nr; i++)
		if (!strcmp(n->msgs[i], msg))
			return i + 1;
	n->msgs = xreallocarray(n->msgs, n->nr + 1, sizeof(char *));
	n->msgs[n->nr++] = xstrdup(msg);
	return n->nr;
}

static void superscript(char *buf, size_t len, size_t i)
{
	static const char *digits[] = {
		"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"
	};
	char tmp[64] = "";

	if (!i) {
		snprintf(buf, len, "%s", digits[0]);
		return;
	}
	buf[0] = '\0';
	for (; i; i /= 10) {
		snprintf(tmp, sizeof(tmp), "%s%s", digits[i % 10], buf);
		snprintf(buf, len, "%s", tmp);
	}
}

/* A warnings cell: the footnote marks of @msgs, joined by spaces. */
static void warn_cell(struct tt *tt, struct notes *notes, const char *const *msgs, size_t nr)
{
	char cell[128] = "";
	size_t used = 0;

	for (size_t i = 0; i < nr; i++) {
		char sup[32];

		if (!msgs[i])
			continue;
		superscript(sup, sizeof(sup), note_index(notes, msgs[i]));
		used += (size_t)snprintf(cell + used, sizeof(cell) - used, "%s%s", used ? " " : "", sup);
		if (used >= sizeof(cell))
			break;
	}
	tt_cell(tt, cell, TT_LEFT, NULL);
}

static int start_col(size_t exp)
{
	return exp == 0 ? 1 : 1 + 3 + (int)(exp - 1) * 6;
}

static void bs_header(struct tt *tt, const struct comparison *cmp, const struct bs_table *t)
{
	int redge = start_col(t->nr_runs + 1);

	tt_row(tt);
	for (size_t r = 0; r < t->nr_runs; r++) {
		tt_col(tt, start_col(r));
		tt_span(tt, start_col(r + 1) - start_col(r), cmp->runs[t->run[r]].name, TT_CENTER,
			" │ ");
	}
	tt_col(tt, redge);
	tt_cell(tt, "", TT_LEFT, " │");
	tt_row(tt);
	for (size_t r = 0; r < t->nr_runs; r++) {
		int l = start_col(r);

		tt_col(tt, l);
		tt_span(tt, 3, t->unit, TT_CENTER, " │ ");
		if (r > 0)
			tt_span(tt, 3, "vs base", TT_LEFT, "  ");
		for (int j = l + 1; j < tt->cur_col; j++)
			tt_set_shrink(tt, j);
	}
	tt_col(tt, redge);
	tt_cell(tt, "", TT_LEFT, " │");
}

/* "messaging/groups=4": the benchmark's name without "Benchmark" (params_label()). */
static char *bs_name(const struct compare_row *row)
{
	char *params = params_label(row->params, '/'), *name;
	size_t len = strlen(row->workload) + strlen(params) + 2;

	name = xmalloc(len);
	snprintf(name, len, "%s%s%s", row->workload, *params ? "/" : "", params);
	free(params);
	return name;
}

static int sign(double v)
{
	return v > 0 ? 1 : v < 0 ? -1 : 0;
}

static void pct_range(char *buf, size_t len, const struct bs_cell *c)
{
	if (isinf(c->lo) || isinf(c->hi))
		snprintf(buf, len, "∞");
	else if (sign(c->center) != sign(c->lo) || sign(c->center) != sign(c->hi))
		snprintf(buf, len, "?");
	else if (c->center == 0)
		snprintf(buf, len, "0%%");
	else
		snprintf(buf, len, "%.0f%%", 100 * fmax(c->hi / c->center - 1, 1 - c->lo / c->center));
}

/*
 * A percent change as benchstat's %+.2f%% prints it: +Inf% and NaN% as Go
 * spells them, and from 1e15 the shortest form that reads back exactly,
 * for %f's every digit would not fit.
 */
static void pct_format(char *buf, size_t len, double pct)
{
	char num[32];

	if (!isfinite(pct))
		snprintf(buf, len, "%s%%", isnan(pct) ? "NaN" : pct > 0 ? "+Inf" : "-Inf");
	else
		snprintf(buf, len, "%s%%", format_change(num, sizeof(num), pct, 2));
}

static void bs_comparison(char *delta, size_t dlen, char *pn, size_t plen,
			  const struct bs_cell *base, const struct bs_cell *c, double alpha)
{
	int used = 0;

	if (c->p > alpha)
		snprintf(delta, dlen, "~");
	else if (base->center == c->center)
		snprintf(delta, dlen, "0.00%%");
	else if (base->center == 0)
		snprintf(delta, dlen, "?");
	else
		pct_format(delta, dlen, (c->center / base->center - 1.0) * 100.0);
	used = snprintf(pn, plen, "(");
	if (c->p != 0)
		used += snprintf(pn + used, plen - (size_t)used, "p=%0.3f ", c->p);
	if (base->n == c->n)
		snprintf(pn + used, plen - (size_t)used, "n=%zu)", c->n);
	else
		snprintf(pn + used, plen - (size_t)used, "n=%zu+%zu)", base->n, c->n);
}

static void bs_data_rows(struct tt *tt, const struct bs_table *t, struct notes *notes)
{
	char need_ci[128], need_p[128], conf[32], alpha[32];
	double *centers;
	const char *op;
	int n;

	format_shortest(conf, sizeof(conf), t->confidence);	/* Go's %v */
	format_shortest(alpha, sizeof(alpha), t->alpha);
	median_samples(t->confidence, &op, &n);
	snprintf(need_ci, sizeof(need_ci), "need %s %d samples for confidence interval at level %s",
		 op, n, conf);
	utest_samples(t->alpha, &op, &n);
	snprintf(need_p, sizeof(need_p), "need %s %d samples to detect a difference at alpha "
		 "level %s", op, n, alpha);
	centers = xcalloc(t->nr_runs + 1, sizeof(*centers));
	for (size_t i = 0; i < t->nr_rows; i++) {
		const struct bs_cell *cells = &t->cells[i * t->nr_runs];
		size_t nr_centers = 0;
		struct scaler s;
		char *name = bs_name(t->rows[i]);

		for (size_t r = 0; r < t->nr_runs; r++)
			if (cells[r].present)
				centers[nr_centers++] = cells[r].center;
		s = common_scale(centers, nr_centers, t->binary);
		tt_row(tt);
		tt_cell(tt, name, TT_LEFT, NULL);
		free(name);
		for (size_t r = 0; r < t->nr_runs; r++) {
			const struct bs_cell *c = &cells[r];
			char buf[64], buf2[64];
			const char *msgs[1];

			if (!c->present)
				continue;
			tt_col(tt, start_col(r));
			scaler_format(buf, sizeof(buf), s, c->center);
			tt_cell(tt, buf, TT_RIGHT, NULL);
			pct_range(buf, sizeof(buf), c);
			tt_cell(tt, buf, TT_RIGHT, " ± ");
			msgs[0] = c->ci_warning ? need_ci : NULL;
			warn_cell(tt, notes, msgs, 1);
			if (r == 0 || !cells[0].present)
				continue;
			bs_comparison(buf, sizeof(buf), buf2, sizeof(buf2), &cells[0], c, t->alpha);
			tt_cell(tt, buf, TT_RIGHT, NULL);
			tt_cell(tt, buf2, TT_LEFT, NULL);
			msgs[0] = c->cmp_error ? c->cmp_error : c->cmp_warning ? need_p : NULL;
			warn_cell(tt, notes, msgs, 1);
		}
	}
	free(centers);
}

/* The geomean row: of each column's medians, and of the ratios to the baseline. */
static void bs_geomean_row(struct tt *tt, const struct bs_table *t, struct notes *notes)
{
	double *sums = xcalloc(t->nr_rows + 1, sizeof(*sums));
	double *ratios = xcalloc(t->nr_rows + 1, sizeof(*ratios));
	size_t nr_base = 0;

	for (size_t i = 0; i < t->nr_rows; i++)
		nr_base += t->cells[i * t->nr_runs].present;
	tt_row(tt);
	tt_cell(tt, "geomean", TT_LEFT, NULL);
	for (size_t r = 0; r < t->nr_runs; r++) {
		size_t nr_sums = 0, nr_ratios = 0;
		double gm;
		bool bad_ratio = false;
		const char *msgs[3] = { NULL, NULL, NULL };
		char buf[64];

		for (size_t i = 0; i < t->nr_rows; i++) {
			const struct bs_cell *c = &t->cells[i * t->nr_runs + r];
			const struct bs_cell *b = &t->cells[i * t->nr_runs];

			if (!c->present)
				continue;
			sums[nr_sums++] = c->center;
			if (r == 0 || !b->present)
				continue;
			if (c->center == b->center) {
				ratios[nr_ratios++] = 1;
			} else if (b->center == 0) {
				bad_ratio = true;
				ratios[nr_ratios++] = 0;
			} else {
				ratios[nr_ratios++] = c->center / b->center;
			}
		}
		if (r > 0 && nr_base != nr_ratios)
			msgs[0] = "benchmark set differs from baseline; geomeans may not be comparable";
		gm = moremath_geomean(sums, nr_sums);
		if (isnan(gm)) {
			msgs[1] = "summaries must be >0 to compute geomean";
		} else {
			struct scaler s = common_scale(&gm, 1, t->binary);

			tt_col(tt, start_col(r));
			scaler_format(buf, sizeof(buf), s, gm);
			tt_cell(tt, buf, TT_RIGHT, NULL);
		}
		if (r > 0) {
			double ratio = bad_ratio ? NAN : moremath_geomean(ratios, nr_ratios);

			tt_col(tt, start_col(r) + 3);
			if (!bad_ratio && isnan(ratio))
				msgs[2] = "ratios must be >0 to compute geomean";
			if (isnan(ratio)) {
				tt_cell(tt, "?", TT_LEFT, NULL);
			} else {
				pct_format(buf, sizeof(buf), (ratio - 1) * 100);
				tt_cell(tt, buf, TT_RIGHT, NULL);
			}
		}
		tt_col(tt, start_col(r + 1) - 1);
		warn_cell(tt, notes, msgs, 3);
	}
	free(sums);
	free(ratios);
}

/* schedperf's own verdicts, apart from benchstat's `~`. */
static void bs_verdicts(FILE *out, const struct comparison *cmp, const struct bs_table *t,
			const struct compare_render *how)
{
	for (size_t i = 0; i < t->nr_rows; i++) {
		char *name = bs_name(t->rows[i]);

		print_verdict_line(out, cmp, t->rows[i], name, how);
		free(name);
	}
}

static void bs_print_table(FILE *out, const struct comparison *cmp, struct bs_table *t,
			   const struct compare_render *how)
{
	struct tt tt = { 0 };
	struct notes notes = { 0 };

	/* benchstat has no table for a unit no run measured: only the verdicts say so */
	if (!t->nr_runs) {
		bs_verdicts(out, cmp, t, how);
		return;
	}
	bs_summarise(t);
	bs_header(&tt, cmp, t);
	bs_data_rows(&tt, t, &notes);
	if (t->nr_rows > 1)
		bs_geomean_row(&tt, t, &notes);
	tt_format(out, &tt);
	for (size_t i = 0; i < notes.nr; i++) {
		char sup[32];

		superscript(sup, sizeof(sup), i + 1);
		fprintf(out, "%s %s\n", sup, notes.msgs[i]);
		free(notes.msgs[i]);
	}
	free(notes.msgs);
	tt_release(&tt);
	bs_verdicts(out, cmp, t, how);
	for (size_t i = 0; i < t->nr_rows * t->nr_runs; i++)
		free(t->cells[i].values);
}

void report_compare_benchstat(FILE *out, const struct comparison *cmp,
			      const struct compare_render *how)
{
	bool *done = xcalloc(cmp->nr_rows + 1, sizeof(bool));

	/*
	 * A table per unit, benchstat's being the metric's name; a metric of
	 * that name in another unit or direction is another metric
	 * (results/metric_key.h), so another table, whose geomean never mixes
	 * the two, and its head says which.
	 */
	for (size_t i = 0; i < cmp->nr_rows; i++) {
		const struct result_metric *m = cmp->rows[i].metric;
		struct bs_table t = { .confidence = cmp->level, .alpha = cmp->opts.alpha };
		char *label = NULL;

		if (done[i])
			continue;
		t.rows = xcalloc(cmp->nr_rows, sizeof(*t.rows));
		for (size_t j = i; j < cmp->nr_rows; j++)
			if (!done[j] && result_metric_same(m, cmp->rows[j].metric)) {
				t.rows[t.nr_rows++] = &cmp->rows[j];
				done[j] = true;
			}
		t.unit = tidy_unit(m->name, &t.factor);
		t.binary = unit_is_binary(t.unit);
		if (comparison_metric_name_shared(cmp, m)) {
			label = xasprintf("%s (%s%s%s is better)", t.unit, m->unit,
					  *m->unit ? ", " : "", better_name(m->better));
			t.unit = label;
		}
		t.run = xcalloc(cmp->nr_runs, sizeof(*t.run));
		for (size_t r = 0; r < cmp->nr_runs; r++)
			for (size_t k = 0; k < t.nr_rows; k++)
				if (t.rows[k]->cells[r].nr_samples) {
					t.run[t.nr_runs++] = r;
					break;
				}
		t.cells = xcalloc(t.nr_rows * t.nr_runs, sizeof(*t.cells));
		if (i)
			fputc('\n', out);
		bs_print_table(out, cmp, &t, how);
		free(t.cells);
		free(t.run);
		free(t.rows);
		free(label);
	}
	free(done);
}

/* Markdown's value: the median and its interval, in the metric's own unit. */
void benchstat_md_value(FILE *out, const struct comparison *cmp, const struct compare_row *row,
			size_t r)
{
	struct bs_cell c = { 0 };

	bs_cell_summarise(&c, &row->cells[r], NULL, 1, cmp->level, cmp->opts.alpha);
	md_number(out, c.present ? c.center : NAN, MD_G4);
	fputs(" [", out);
	md_number(out, c.present ? c.lo : NAN, MD_G4);
	fputs(", ", out);
	md_number(out, c.present ? c.hi : NAN, MD_G4);
	fputs("]", out);
	free(c.values);
}

/* Markdown's change: the table's delta of medians, or `~`; "-" without a baseline. */
void benchstat_md_change(FILE *out, const struct comparison *cmp, const struct compare_row *row,
			 size_t r)
{
	struct bs_cell base = { 0 }, c = { 0 };
	double factor;
	char delta[64], pn[64];

	tidy_unit(row->metric->name, &factor);
	bs_cell_summarise(&base, &row->cells[0], NULL, factor, cmp->level, cmp->opts.alpha);
	bs_cell_summarise(&c, &row->cells[r], &base, factor, cmp->level, cmp->opts.alpha);
	if (base.present && c.present) {
		bs_comparison(delta, sizeof(delta), pn, sizeof(pn), &base, &c, cmp->opts.alpha);
		md_text(out, delta);
	} else {
		md_number(out, NAN, MD_CHANGE);
	}
	free(base.values);
	free(c.values);
}
