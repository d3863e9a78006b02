// SPDX-License-Identifier: GPL-2.0
/*
 * The MMTests comparison table, as bin/compare-mmtests.pl prints it for a
 * Multiops benchmark, in two versions:
 *
 *   mmtests          MMTests at 638401e (2026-06-25; compare code as in
 *                    v2.0-rc5): Min, Amean or Hmean, Stddev or HStddev,
 *                    CoeffVar or HCoeffVar, Max, BAmean.95 or BHmean.95; a
 *                    mean is marked *x.xx%* when it lies outside both
 *                    normal intervals, |a - b| > 1.96 (sd_a + sd_b).
 *   mmtests-classic  MMTests v0.27 (2023-08-31), the last release before
 *                    the December 2024 change, as mailing-list threads show:
 *                    Min, Amean or Hmean, sample Stddev, CoeffVar, Max,
 *                    BAmean-50/95/99; a mean is marked when a t-test of
 *                    the means gives p < 0.10.
 *
 * A table per workload and metric; its operations are the parameter sets
 * (the metric's name when there are none), its precision the decimals
 * that keep about five significant digits (a benchmark's DecimalPlaces).
 * Numbers, percent changes (MMTests' pdiff/pndiff with their edge cases)
 * and marks are MMTests' own, computed as its Perl does; schedperf's
 * verdict follows each table on lines of its own, "schedperf: ...".
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "stats/r_text.h"
#include "results/metric_key.h"
#include "util/array.h"
#include "util/numfmt.h"
#include "util/utf8.h"
#include "util/xalloc.h"

enum mm_stat { MM_MIN, MM_MEAN, MM_STDDEV, MM_COEFFVAR, MM_MAX, MM_BMEAN };

struct mm_line {
	enum mm_stat stat;
	int percent;		/* MM_BMEAN: the best P % */
};

struct mm_version {
	bool classic;
	int field;		/* the width of a value: Extract's _FieldLength */
	const struct mm_line *lines;
	size_t nr_lines;
};

static const struct mm_line current_lines[] = {
	{ MM_MIN, 0 }, { MM_MEAN, 0 }, { MM_STDDEV, 0 }, { MM_COEFFVAR, 0 },
	{ MM_MAX, 0 }, { MM_BMEAN, 95 },
};

static const struct mm_line classic_lines[] = {
	{ MM_MIN, 0 }, { MM_MEAN, 0 }, { MM_STDDEV, 0 }, { MM_COEFFVAR, 0 },
	{ MM_MAX, 0 }, { MM_BMEAN, 50 }, { MM_BMEAN, 95 }, { MM_BMEAN, 99 },
};

static const struct mm_version mm_current = {
	false, 18, current_lines, ARRAY_SIZE(current_lines),
};
static const struct mm_version mm_classic = {
	true, 12, classic_lines, ARRAY_SIZE(classic_lines),
};

#define MM_MAX_LINES	8
#define MM_COMPARE	7	/* its _CompareLength */

/* One operation of one run: the values of the lines and what the marks need. */
struct mm_cell {
	double value[MM_MAX_LINES];	/* NAN where MMTests has "NaN" */
	double mean, sd;		/* the mean and the spread its mark uses */
	size_t n;
	bool has_ci;			/* current: a finite interval */
	double ci_low, ci_high;
};

static int cmp_up(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* calc_amean */
static double mm_amean(const double *x, size_t n)
{
	double sum = 0;

	if (!n)
		return NAN;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	if (isfinite(sum))
		return sum / n;
	/* near the largest double the sum overflows where Perl's gives Inf:
	 * scaled by 2^-64 (exact) it stays finite, as schedperf's summary */
	sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += ldexp(x[i], -64);
	return ldexp(sum / n, 64);
}

/*
 * calc_hmean, @x in MMTests' order (largest first). Current MMTests stops
 * at the first value <= 0 and gives NaN (and dies dividing by a zero sum
 * when that is the first value: NAN here); v0.27 gives -1.
 */
static double mm_hmean(const double *x, size_t n, bool classic)
{
	double sum = 0;

	if (!n)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		if (x[i] <= 0)
			return classic ? -1 : NAN;
		sum += 1 / x[i];
	}
	return n / sum;
}

static double mm_mean(const double *x, size_t n, bool higher, bool classic)
{
	return higher ? mm_hmean(x, n, classic) : mm_amean(x, n);
}

/* calc_stddev: sample (n - 1) about the arithmetic mean, or the harmonic one. */
static double mm_stddev(const double *x, size_t n, double mean, bool harmonic)
{
	double diff = 0;

	if (isnan(mean) || n <= 1)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		double d = harmonic ? 1 / x[i] - 1 / mean : x[i] - mean;

		diff += d * d;
	}
	if (!harmonic && !isfinite(diff)) {
		/* squares that overflow: in units of 2^520, exact */
		diff = 0;
		for (size_t i = 0; i < n; i++) {
			double d = ldexp(x[i] - mean, -520);

			diff += d * d;
		}
		return ldexp(sqrt(diff / (n - 1)), 520);
	}
	if (!harmonic)
		return sqrt(diff / (n - 1));
	if (!isfinite(pow(mean, 4)))
		return sqrt(diff / n) * mean * mean;
	return sqrt(diff * pow(mean, 4) / n);
}

/* calc_coeffvar: NaN counts as 0, a zero mean gives 0. */
static double mm_coeffvar(double sd, double mean)
{
	if (isnan(sd))
		sd = 0;
	if (isnan(mean))
		mean = 0;
	if (mean == 0)
		return 0;
	return isfinite(sd * 100) ? sd * 100 / mean : sd / mean * 100;
}

/* The best @percent % of @sorted (MMTests' order): at least one sample. */
static double mm_bmean(const double *sorted, size_t n, int percent, bool higher,
		       bool classic)
{
	size_t count = (size_t)(n * (double)percent / 100);

	if (count < 1)
		count = 1;
	return mm_mean(sorted, count < n ? count : n, higher, classic);
}

/*
 * The analysis sorted the cell's samples once (analysis/comparison.h):
 * the order qsort() gives here too, but where a zero or a NaN is among
 * them (-0 and 0 compare equal here, and NaN with anything).
 */
static bool sorted_as_qsort(const struct compare_cell *cell)
{
	if (!cell->sorted)
		return false;
	for (size_t i = 0; i < cell->nr_samples; i++)
		if (!(cell->sorted[i] != 0) || isnan(cell->sorted[i]))
			return false;
	return true;
}

static void mm_cell_compute(struct mm_cell *c, const struct compare_cell *cell,
			    bool higher, const struct mm_version *ver)
{
	size_t n = cell->nr_samples;
	double *x = xmalloc((n ? n : 1) * sizeof(double));
	double amean, mean, sd;

	if (n && sorted_as_qsort(cell))	/* the analysis's sorted copy */
		memcpy(x, cell->sorted, n * sizeof(double));
	else if (n)	/* a run without the row has no samples array */
		qsort(memcpy(x, cell->samples, n * sizeof(double)), n, sizeof(double), cmp_up);
	if (higher)	/* MMTests sorts into the preferred order */
		for (size_t i = 0; i < n / 2; i++) {
			double t = x[i];

			x[i] = x[n - 1 - i];
			x[n - 1 - i] = t;
		}
	amean = mm_amean(x, n);
	mean = mm_mean(x, n, higher, ver->classic);
	/* v0.27: Stddev about the arithmetic mean whatever the metric */
	sd = ver->classic ? mm_stddev(x, n, amean, false) :
	     mm_stddev(x, n, mean, higher && !isnan(mean));
	if (!ver->classic && higher && isnan(mean))
		sd = NAN;
	c->n = n;
	/* a run without the operation: v0.27's test reads its mean as 0 */
	c->mean = !n && ver->classic ? 0 : mean;
	c->sd = sd;
	for (size_t l = 0; l < ver->nr_lines; l++) {
		const struct mm_line *line = &ver->lines[l];
		double v = NAN;

		switch (line->stat) {
		case MM_MIN:
			v = n ? (higher ? x[n - 1] : x[0]) : NAN;
			break;
		case MM_MAX:
			v = n ? (higher ? x[0] : x[n - 1]) : NAN;
			break;
		case MM_MEAN:
			v = mean;
			break;
		case MM_STDDEV:
			v = sd;
			break;
		case MM_COEFFVAR:
			v = mm_coeffvar(sd, ver->classic ? amean : mean);
			break;
		case MM_BMEAN:
			v = n ? mm_bmean(x, n, line->percent, higher, ver->classic) : NAN;
			break;
		}
		c->value[l] = v;
	}
	/* current: meanci_low/high, mean -/+ qnorm(0.975, 0, sd) */
	c->ci_low = c->ci_high = NAN;
	if (!ver->classic) {
		double q = isnan(mean) ? NAN : r_text_qnorm_halfwidth(0.05, sd);

		c->ci_low = mean - q;
		c->ci_high = mean + q;
	}
	c->has_ci = !isnan(c->ci_low) && !isnan(c->ci_high);
	free(x);
}

/* v * 100 / base as MMTests computes it, v / base * 100 where v * 100 overflows */
static double mm_ratio_pct(double v, double base)
{
	return isfinite(v * 100) ? v * 100 / base : v / base * 100;
}

/* pdiff, for a statistic where higher is better */
static double mm_pdiff(double v, double base)
{
	if (v == base || v == 0)
		return 0;
	if (base == 0 || isnan(base))
		return 100;
	return mm_ratio_pct(v, base) - 100;
}

/* pndiff, where lower is better */
static double mm_pndiff(double v, double base)
{
	if (v == base)
		return 0;
	if (v == 0)
		return 100;
	if (base == 0)
		return -99;
	return 100 - mm_ratio_pct(v, base);
}

/* A value MMTests treats as missing: its "NaN", or -1. */
static bool mm_missing(double v)
{
	return isnan(v) || v == -1;
}

/*
 * cidiff() > 1 in magnitude: the means differ by more than the two
 * interval half-widths on the sides that face each other. MMTests passes
 * the baseline as "new"; a run without intervals reads as zeros.
 */
static bool mm_ci_mark(const struct mm_cell *base, bool base_any, const struct mm_cell *c)
{
	double bval = base_any ? base->mean : 0;
	double blo = base_any && base->has_ci ? base->ci_low : 0;
	double bhi = base_any && base->has_ci ? base->ci_high : 0;
	double diff = bval - c->mean, cisum, ratio;

	if (bval < c->mean)
		cisum = bhi - bval + c->mean - c->ci_low;
	else
		cisum = bval - blo + c->ci_high - c->mean;
	ratio = cisum == 0 ? diff : diff / cisum;
	return fabs(ratio) > 1;
}

/* v0.27's _significanceTest: a t-test of the means, p < 0.10. */
static bool mm_ttest_mark(const struct mm_cell *base, const struct mm_cell *c)
{
	double sb = isnan(base->sd) ? 0 : base->sd, sn = isnan(c->sd) ? 0 : c->sd;
	double stderror = 0, t, p;

	if (base->n && c->n)
		stderror = sqrt(sb * sb / base->n + sn * sn / c->n);
	if (stderror == 0)
		return base->mean - c->mean != 0;
	t = fabs((base->mean - c->mean) / stderror);
	p = 2 * r_text_pt_upper(t, (double)(base->n + c->n - 2));
	return p < 0.10;
}

/* Beyond this, %f prints digits a double does not hold (309 near DBL_MAX). */
#define FIXED_MAX	1e15

/*
 * Perl's %*.*f: NaN and Inf spelled as Perl spells them; from 1e15 the
 * shortest form that reads back exactly (1.547e+308), where Perl would
 * print every digit, or, where that fills the column or is wider
 * (-1.7466666666666666e+308 is 24 characters), as many significant
 * digits as leave a space before it, so that the columns stay aligned.
 */
static void perl_fixed(FILE *out, int width, int prec, double v)
{
	char buf[32];

	if (isnan(v))
		fprintf(out, "%*s", width, "NaN");
	else if (isinf(v))
		fprintf(out, "%*s", width, v > 0 ? "Inf" : "-Inf");
	else if (fabs(v) >= FIXED_MAX) {
		format_shortest(buf, sizeof(buf), v);
		for (int digits = 16; (int)strlen(buf) >= width && digits > 0; digits--)
			snprintf(buf, sizeof(buf), "%.*g", digits, v);
		fprintf(out, "%*s", width, buf);
	} else
		fprintf(out, "%*.*f", width, prec, v);
}

/* One table: the rows of one workload and metric. */
struct mm_table {
	const struct compare_row **rows;
	size_t nr_rows;
	char **ops;
	struct mm_cell *cells;	/* [row * nr_runs + run] */
	size_t nr_runs;
	int prec;
};

/* Decimals that keep about five significant digits of the table's scale. */
static int mm_precision(const struct mm_table *t)
{
	double scale = 0;
	int d;

	for (size_t i = 0; i < t->nr_rows; i++)
		for (size_t r = 0; r < t->nr_runs; r++) {
			double v = fabs(t->rows[i]->cells[r].summary.amean);

			if (isfinite(v) && v > scale)
				scale = v;
		}
	if (scale <= 0)
		return 2;
	d = 4 - (int)floor(log10(scale));
	return d < 2 ? 2 : d > 9 ? 9 : d;
}

/* The operation's name: the parameters "k=v,k=v" (params_label()), or the metric's name. */
static char *mm_op_name(const struct compare_row *row)
{
	char *p = params_label(row->params, ',');

	if (!*p) {
		free(p);
		return xstrdup(row->metric->name);
	}
	return p;
}

static void mm_label(char *buf, size_t len, const struct mm_line *l, bool higher, bool classic)
{
	switch (l->stat) {
	case MM_MIN:
		snprintf(buf, len, "Min");
		break;
	case MM_MAX:
		snprintf(buf, len, "Max");
		break;
	case MM_MEAN:
		snprintf(buf, len, higher ? "Hmean" : "Amean");
		break;
	case MM_STDDEV:
		snprintf(buf, len, higher && !classic ? "HStddev" : "Stddev");
		break;
	case MM_COEFFVAR:
		snprintf(buf, len, higher && !classic ? "HCoeffVar" : "CoeffVar");
		break;
	case MM_BMEAN:
		snprintf(buf, len, classic ? "%s-%d" : "%s.%d", higher ? "BHmean" : "BAmean",
			 l->percent);
		break;
	}
}

/*
 * Perl's substr(@s, @off, @len) with a negative offset or length, in
 * characters, as Perl counts a decoded string's: a cut never splits one.
 */
static void perl_substr(char *buf, size_t size, const char *s, long off, long len)
{
	long n = (long)utf8_runes(s), end;
	size_t from, to;

	if (off < 0)
		off += n;
	if (off < 0 || off > n) {
		buf[0] = '\0';
		return;
	}
	end = len < 0 ? n + len : off + len;
	if (end > n)
		end = n;
	from = utf8_rune_offset(s, (size_t)off);
	to = end > off ? from + utf8_rune_offset(s + from, (size_t)(end - off)) : from;
	snprintf(buf, size, "%.*s", (int)(to - from), s + from);
}

/* Perl's /-rc[0-9]/ */
static bool has_rc(const char *s)
{
	for (const char *p = strstr(s, "-rc"); p; p = strstr(p + 1, "-rc"))
		if (p[3] >= '0' && p[3] <= '9')
			return true;
	return false;
}

/*
 * The two header lines: each run's name split at its first '-' (past a
 * "-rcN"), as _generateHeaderTable() does with Perl's substr(): a name
 * without '-' loses its last character on the first line.
 */
static void mm_header(FILE *out, const struct comparison *cmp, int first_width, int field)
{
	for (int line = 0; line < 2; line++) {
		fprintf(out, "%*s", first_width, "");
		for (size_t r = 0; r < cmp->nr_runs; r++) {
			const char *name = cmp->runs[r].name, *dash = strchr(name, '-');
			char *before = dash ? xstrndup(name, (size_t)(dash - name)) : NULL;
			long index = before ? (long)utf8_runes(before) : -1;
			char part[256];
			int pad;

			free(before);

			perl_substr(part, sizeof(part), name, index, index + 3);
			if (has_rc(part))
				index += 4;
			if (line == 0)
				perl_substr(part, sizeof(part), name, 0, index);
			else
				perl_substr(part, sizeof(part), name, index + 1, (long)strlen(name) + 1);
			pad = field + MM_COMPARE + 4 - (int)utf8_columns(part);
			/* right-aligned in a terminal's columns, as the numbers below */
			fprintf(out, "%*s%s", pad > 0 ? pad : 0, "", part);
		}
		fputc('\n', out);
	}
}

static void mm_print_line(FILE *out, const struct mm_table *t, const struct mm_version *ver,
			  size_t l, size_t i, int statw, int opw, bool higher,
			  const bool *any_ci)
{
	const struct mm_line *line = &ver->lines[l];
	const struct mm_cell *cells = &t->cells[i * t->nr_runs];
	/* Stddev and CoeffVar are better when smaller, whatever the metric */
	bool up = higher && line->stat != MM_STDDEV && line->stat != MM_COEFFVAR;
	double base = cells[0].value[l];
	char label[32];

	mm_label(label, sizeof(label), line, higher, ver->classic);
	fprintf(out, "%-*s %-*s", statw, label, opw, t->ops[i]);
	for (size_t r = 0; r < t->nr_runs; r++) {
		double v = cells[r].value[l], pct = 0;
		bool mark = false;

		if (!mm_missing(v) && base != -1)
			pct = up ? mm_pdiff(v, base) : mm_pndiff(v, base);
		else
			v = 0;
		if (line->stat == MM_MEAN && r > 0)
			mark = ver->classic ? mm_ttest_mark(&cells[0], &cells[r]) :
			       any_ci[r] && cells[r].has_ci &&
			       mm_ci_mark(&cells[0], any_ci[0], &cells[r]);
		perl_fixed(out, ver->field, t->prec, v);
		fputs(mark ? " *" : " (", out);
		/* MMTests appends its mark to the change as text: "%.15g" first */
		perl_fixed(out, MM_COMPARE, 2, r_text_perl_number(pct));
		fputs(mark ? "%*" : "%)", out);
	}
	fputc('\n', out);
}

/* schedperf's own verdicts, apart from MMTests' marks. */
static void mm_verdicts(FILE *out, const struct comparison *cmp, const struct mm_table *t,
			const struct compare_render *how)
{
	for (size_t i = 0; i < t->nr_rows; i++)
		print_verdict_line(out, cmp, t->rows[i], t->ops[i], how);
}

static void mm_print_table(FILE *out, const struct comparison *cmp, struct mm_table *t,
			   const struct mm_version *ver, const struct compare_render *how)
{
	const struct compare_row *first = t->rows[0];
	bool higher = first->metric->better == BETTER_HIGHER;
	bool *any_ci = xcalloc(t->nr_runs + 1, sizeof(*any_ci));
	int statw = 0, opw = 0;
	char label[32];

	for (size_t r = 0; r < t->nr_runs; r++) {
		for (size_t i = 0; i < t->nr_rows; i++)
			any_ci[r] |= t->cells[i * t->nr_runs + r].has_ci;
	}
	for (size_t l = 0; l < ver->nr_lines; l++) {
		mm_label(label, sizeof(label), &ver->lines[l], higher, ver->classic);
		if ((int)strlen(label) > statw)
			statw = (int)strlen(label);
	}
	for (size_t i = 0; i < t->nr_rows; i++)
		if ((int)strlen(t->ops[i]) > opw)
			opw = (int)strlen(t->ops[i]);

	fprintf(out, "%s %s (%s%s%s is better)\n", first->workload, first->metric->name,
		first->metric->unit, *first->metric->unit ? ", " : "",
		better_name(first->metric->better));
	mm_header(out, cmp, statw + 1 + opw, ver->field);
	for (size_t l = 0; l < ver->nr_lines; l++)
		for (size_t i = 0; i < t->nr_rows; i++)
			mm_print_line(out, t, ver, l, i, statw, opw, higher, any_ci);
	mm_verdicts(out, cmp, t, how);
	free(any_ci);
}

/* A row the baseline lacks has no place in MMTests' table: say so. */
static void mm_no_baseline(FILE *out, const struct comparison *cmp,
			   const struct compare_row *row, bool *first)
{
	char *op = mm_op_name(row);
	const struct result_metric *m = row->metric;

	if (!*first)
		fputc('\n', out);
	*first = false;
	fprintf(out, "schedperf: %s %s %s", row->workload, m->name, op);
	/* another metric of its name is another table: say which this is */
	if (comparison_metric_name_shared(cmp, m))
		fprintf(out, " (%s%s%s is better)", m->unit, *m->unit ? ", " : "",
			better_name(m->better));
	fprintf(out, ": no samples in the baseline %s, so no MMTests table\n",
		cmp->runs[0].name);
	free(op);
}

/* A table per workload and metric (its name, unit and direction: results/metric_key.h). */
static bool same_table(const struct compare_row *a, const struct compare_row *b)
{
	return !strcmp(a->workload, b->workload) && result_metric_same(a->metric, b->metric);
}

static void mm_render(FILE *out, const struct comparison *cmp,
		      const struct compare_render *how,
		      const struct mm_version *ver)
{
	bool *done = xcalloc(cmp->nr_rows + 1, sizeof(bool));
	bool first = true;

	for (size_t i = 0; i < cmp->nr_rows; i++) {
		struct mm_table t = { .nr_runs = cmp->nr_runs };

		if (done[i])
			continue;
		t.rows = xcalloc(cmp->nr_rows, sizeof(*t.rows));
		for (size_t j = i; j < cmp->nr_rows; j++) {
			const struct compare_row *row = &cmp->rows[j];

			if (done[j] || !same_table(&cmp->rows[i], row))
				continue;
			done[j] = true;
			/* MMTests' operations are the baseline's */
			if (row->cells[0].nr_samples)
				t.rows[t.nr_rows++] = row;
			else
				mm_no_baseline(out, cmp, row, &first);
		}
		if (!t.nr_rows) {
			free(t.rows);
			continue;
		}
		t.ops = xcalloc(t.nr_rows, sizeof(char *));
		t.cells = xcalloc(t.nr_rows * t.nr_runs, sizeof(*t.cells));
		for (size_t k = 0; k < t.nr_rows; k++) {
			bool higher = t.rows[k]->metric->better == BETTER_HIGHER;

			t.ops[k] = mm_op_name(t.rows[k]);
			for (size_t r = 0; r < t.nr_runs; r++)
				mm_cell_compute(&t.cells[k * t.nr_runs + r],
						&t.rows[k]->cells[r], higher, ver);
		}
		t.prec = mm_precision(&t);
		if (!first)
			fputc('\n', out);
		first = false;
		mm_print_table(out, cmp, &t, ver, how);
		for (size_t k = 0; k < t.nr_rows; k++)
			free(t.ops[k]);
		free(t.ops);
		free(t.cells);
		free(t.rows);
	}
	free(done);
}

void report_compare_mmtests(FILE *out, const struct comparison *cmp,
			    const struct compare_render *how)
{
	mm_render(out, cmp, how, &mm_current);
}

void report_compare_mmtests_classic(FILE *out, const struct comparison *cmp,
				    const struct compare_render *how)
{
	mm_render(out, cmp, how, &mm_classic);
}

/* Markdown's value: the headline ± the standard deviation. */
void mmtests_md_value(FILE *out, const struct comparison *cmp, const struct compare_row *row,
		      size_t r)
{
	const struct summary *summary = &row->cells[r].summary;

	(void)cmp;
	md_number(out, compare_headline(summary, row->metric->better), MD_G6);
	fputs(" ± ", out);
	md_number(out, summary->stddev, MD_G4);
}

/* Markdown's change: the headline's, positive = better, as MMTests' percentages are. */
void mmtests_md_change(FILE *out, const struct comparison *cmp, const struct compare_row *row,
		       size_t r)
{
	(void)cmp;
	md_number(out, headline_change(row, r), MD_CHANGE);
}
