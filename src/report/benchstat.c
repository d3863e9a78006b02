// SPDX-License-Identifier: GPL-2.0
/*
 * benchstat's table (golang.org/x/perf/cmd/benchstat): one table per
 * metric, one line per benchmark, each run's median ± its confidence
 * interval (order statistics, as benchstat's AssumeNothing), then against
 * the baseline the change of medians and (p=… n=…), or `~` when there is
 * no change. benchstat's p is the Mann–Whitney U test's and so is this
 * one's; what counts as a change is this tool's verdict (better or worse,
 * after adjustment over every row), so that every style agrees on which
 * rows changed. The ± is the farther interval end from the median, in
 * percent of the median; ∞ when the sample is too small for an interval
 * (fewer than 6 samples at 95 %), as benchstat shows it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "util/xalloc.h"

/* Four significant digits, trailing zeros kept (10.00, not 10), as benchstat. */
static void format_value(char *buf, size_t len, double v)
{
	if (fabs(v) >= 1e4 && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%#.4g", v);
	if (buf[0] && buf[strlen(buf) - 1] == '.')
		buf[strlen(buf) - 1] = '\0';
}

static void format_ci(char *buf, size_t len, const struct compare_cell *cell)
{
	char value[48];
	const struct cell_stats *st = &cell->stats;
	double m = cell->summary.median;
	double spread = fmax(st->median_high - m, m - st->median_low);

	format_value(value, sizeof(value), m);
	if (isnan(m))
		snprintf(buf, len, "-");
	else if (isnan(spread) || m == 0)
		snprintf(buf, len, "%s ± ∞", value);
	else
		snprintf(buf, len, "%s ± %.0f%%", value, spread / fabs(m) * 100);
}

static void format_delta(char *buf, size_t len, const struct compare_row *row, size_t r)
{
	const struct compare_cell *base = &row->cells[0], *cell = &row->cells[r];
	double delta = (cell->summary.median / base->summary.median - 1) * 100;
	enum verdict v = cell->stats.verdict;
	char n[48];

	if (base->summary.n == cell->summary.n)
		snprintf(n, sizeof(n), "n=%zu", cell->summary.n);
	else
		snprintf(n, sizeof(n), "n=%zu+%zu", base->summary.n, cell->summary.n);
	if (isnan(cell->stats.p_mwu))
		snprintf(buf, len, "~ (%s)", n);
	else if ((v == VERDICT_BETTER || v == VERDICT_WORSE) && isfinite(delta))
		snprintf(buf, len, "%+.2f%% (p=%.3f %s)", delta, cell->stats.p_mwu, n);
	else
		snprintf(buf, len, "~ (p=%.3f %s)", cell->stats.p_mwu, n);
}

/* Visible width of UTF-8 text: "±" and "∞" take one column. */
static int text_width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void pad(FILE *out, const char *s, int width, bool right)
{
	int fill = width - text_width(s);

	if (right)
		fprintf(out, "%*s%s", fill > 0 ? fill : 0, "", s);
	else
		fprintf(out, "%s%*s", s, fill > 0 ? fill : 0, "");
}

static bool same_metric(const struct compare_row *a, const struct compare_row *b)
{
	return !strcmp(a->metric->name, b->metric->name) &&
	       !strcmp(a->metric->unit, b->metric->unit);
}

#define NAME_WIDTH	32
#define CELL_WIDTH	16
#define DELTA_WIDTH	28

static void print_table_header(FILE *out, const struct comparison *cmp,
			       const struct compare_row *row)
{
	pad(out, "", NAME_WIDTH, false);
	for (size_t r = 0; r < cmp->nr_runs; r++) {
		fprintf(out, " │ ");
		pad(out, cmp->runs[r].name, CELL_WIDTH + (r ? DELTA_WIDTH + 1 : 0), false);
	}
	fprintf(out, " │\n");
	pad(out, "", NAME_WIDTH, false);
	for (size_t r = 0; r < cmp->nr_runs; r++) {
		char unit[80];

		snprintf(unit, sizeof(unit), "%s (%s)", row->metric->name, row->metric->unit);
		fprintf(out, " │ ");
		pad(out, unit, CELL_WIDTH, false);
		if (r) {
			fputc(' ', out);
			pad(out, "vs base", DELTA_WIDTH, false);
		}
	}
	fprintf(out, " │\n");
}

static void print_line(FILE *out, const struct comparison *cmp, const struct compare_row *row,
		       bool color)
{
	char *params = params_display(row->params);
	char name[256], buf[96];

	snprintf(name, sizeof(name), "%s%s%s", row->workload, *params ? " " : "", params);
	free(params);
	pad(out, name, NAME_WIDTH, false);
	for (size_t r = 0; r < cmp->nr_runs; r++) {
		enum verdict v = row->cells[r].stats.verdict;

		fprintf(out, "   ");
		format_ci(buf, sizeof(buf), &row->cells[r]);
		pad(out, buf, CELL_WIDTH, false);
		if (!r)
			continue;
		fputc(' ', out);
		format_delta(buf, sizeof(buf), row, r);
		fputs(verdict_color(v, color), out);
		/* the last column unpadded: no trailing blanks in mail */
		pad(out, buf, r + 1 < cmp->nr_runs ? DELTA_WIDTH : 0, false);
		fputs(color_reset(v, color), out);
	}
	fputc('\n', out);
}

void report_compare_benchstat(FILE *out, const struct comparison *cmp, bool color)
{
	bool *done = xcalloc(cmp->nr_rows + 1, sizeof(bool));

	if (!cmp->nr_rows)
		fprintf(out, "no metrics to compare\n");
	/* benchstat groups by unit: one table per metric, in order of appearance */
	for (size_t i = 0; i < cmp->nr_rows; i++) {
		if (done[i])
			continue;
		if (i)
			fputc('\n', out);
		print_table_header(out, cmp, &cmp->rows[i]);
		for (size_t j = i; j < cmp->nr_rows; j++) {
			if (done[j] || !same_metric(&cmp->rows[i], &cmp->rows[j]))
				continue;
			print_line(out, cmp, &cmp->rows[j], color);
			done[j] = true;
		}
	}
	free(done);
}

/* Markdown's value: the median and its confidence interval. */
void benchstat_md_value(FILE *out, const struct compare_cell *cell, enum better better)
{
	md_number(out, cell->summary.median, MD_G4);
	fputs(" [", out);
	md_number(out, cell->stats.median_low, MD_G4);
	fputs(", ", out);
	md_number(out, cell->stats.median_high, MD_G4);
	fputs("]", out);
}
