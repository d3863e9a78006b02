// SPDX-License-Identifier: GPL-2.0
/*
 * The 0-day LKP compare table, as the kernel test robot mails it: per metric one line
 *
 *     219967 ±  4%     -51.5%     106583 ±  1%  hackbench.throughput
 *
 * mean ± %stddev of each run and %change of the means against the
 * baseline. As in LKP, %change is the plain relative difference (its sign
 * says up or down, not better or worse: the verdict, and the colour on a
 * terminal, say that), and rows whose change is too small to matter are
 * hidden: lkp-tests' skip_small_change() drops a change of means of 1 % or
 * less for performance metrics and 5 % or less for the others; here the
 * workload's own metrics count as performance metrics, monitor metrics
 * as the others. A row with a better/worse verdict is always shown.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

#define LKP_PERF_RATIO	1.01
#define LKP_OTHER_RATIO	1.05

/* LKP's numbers: integers as such, large ones in %g, the rest two decimals. */
static void lkp_number(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (fabs(v) >= 1e8)
		snprintf(buf, len, "%.4g", v);
	else if (fabs(v) >= 1000 || v == floor(v))
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.2f", v);
}

static bool row_visible(const struct comparison *cmp, const struct compare_row *row)
{
	bool perf = !row->metric->source || !strcmp(row->metric->source, "workload");
	double limit = perf ? LKP_PERF_RATIO : LKP_OTHER_RATIO;
	double base = row->cells[0].summary.amean;

	for (size_t r = 1; r < cmp->nr_runs; r++) {
		double v = row->cells[r].summary.amean;
		enum verdict verdict = row->cells[r].stats.verdict;
		double hi = fmax(fabs(v), fabs(base)), lo = fmin(fabs(v), fabs(base));

		if (verdict == VERDICT_BETTER || verdict == VERDICT_WORSE)
			return true;
		if (isnan(v) || isnan(base) || lo == 0 ? hi > 0 : hi / lo > limit)
			return true;
	}
	return false;
}

static void print_cell(FILE *out, const struct compare_cell *cell)
{
	char value[32];
	double cv = cell->summary.coeffvar;

	lkp_number(value, sizeof(value), cell->summary.amean);
	if (isnan(cv))
		fprintf(out, "%10s        ", value);
	else
		fprintf(out, "%10s ± %3.0f%%", value, fabs(cv));
}

static void print_line(FILE *out, const struct comparison *cmp, const struct compare_row *row,
		       bool color)
{
	double base = row->cells[0].summary.amean;

	fprintf(out, "  ");
	print_cell(out, &row->cells[0]);
	for (size_t r = 1; r < cmp->nr_runs; r++) {
		const struct compare_cell *cell = &row->cells[r];
		double change = (cell->summary.amean - base) / fabs(base) * 100;
		enum verdict v = cell->stats.verdict;

		if (isfinite(change))
			fprintf(out, "  %s%+9.1f%%%s  ", verdict_color(v, color), change,
				color_reset(v, color));
		else
			fprintf(out, "  %10s  ", "");
		print_cell(out, cell);
	}
	fprintf(out, "  %s.%s\n", row->workload, row->metric->name);
}

/* Column widths: a cell is 17 wide, a change 14 (two spaces each side). */
static void print_header(FILE *out, const struct comparison *cmp)
{
	fprintf(out, "  %-17.17s", cmp->runs[0].name);
	for (size_t r = 1; r < cmp->nr_runs; r++)
		fprintf(out, " %30.30s", cmp->runs[r].name);
	fprintf(out, "\n  -----------------");
	for (size_t r = 1; r < cmp->nr_runs; r++)
		fprintf(out, " ------------------------------");
	fprintf(out, "\n  %17s", "%stddev");
	for (size_t r = 1; r < cmp->nr_runs; r++)
		fprintf(out, "%12s  %17s", "%change", "%stddev");
	fprintf(out, "\n  %13s    ", "\\");
	for (size_t r = 1; r < cmp->nr_runs; r++)
		fprintf(out, "%9s     %13s    ", "|", "\\");
	fputc('\n', out);
}

/* LKP's parameter header: the keys joined by '/', then the values. */
static void print_params(FILE *out, const struct compare_row *row)
{
	char *params = params_display(row->params);

	for (int i = 0; i < 89; i++)
		fputc('=', out);
	fputc('\n', out);
	fprintf(out, "%s: %s\n\n", row->workload, *params ? params : "(no parameters)");
	free(params);
}

void report_compare_lkp(FILE *out, const struct comparison *cmp, bool color)
{
	const struct compare_row *group = NULL;
	size_t shown = 0;

	for (size_t i = 0; i < cmp->nr_rows; i++) {
		const struct compare_row *row = &cmp->rows[i];

		if (!row_visible(cmp, row))
			continue;
		if (!group || strcmp(group->workload, row->workload) ||
		    strcmp(group->params, row->params)) {
			if (group)
				fputc('\n', out);
			print_params(out, row);
			print_header(out, cmp);
			group = row;
		}
		print_line(out, cmp, row, color);
		shown++;
	}
	if (!shown)
		fprintf(out, "no changes above LKP's thresholds (%.0f%% for workload metrics, "
			"%.0f%% for others)\n", (LKP_PERF_RATIO - 1) * 100,
			(LKP_OTHER_RATIO - 1) * 100);
	else if (shown < cmp->nr_rows)
		fprintf(out, "\n(%zu of %zu rows hidden: change of means within LKP's "
			"thresholds)\n", cmp->nr_rows - shown, cmp->nr_rows);
}

/* Markdown's value: the mean ± the coefficient of variation, as lkp shows it. */
void lkp_md_value(FILE *out, const struct compare_cell *cell, enum better better)
{
	md_number(out, cell->summary.amean, MD_G6);
	fputs(" ± ", out);
	md_number(out, cell->summary.coeffvar, MD_PCT);
}
