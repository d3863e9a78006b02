// SPDX-License-Identifier: GPL-2.0
/*
 * The MMTests compare-kernels table: per benchmark and metric, rows Min,
 * Amean or Hmean, Stddev, CoeffVar, Max and the B-means, each value with
 * its percent change against the baseline, positive = better. As there,
 * each line starts with the statistic and the metric so that `grep Amean`
 * pulls one table out of a long report.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "util/array.h"
#include "util/numfmt.h"

enum stat_kind {
	STAT_MIN,
	STAT_HEADLINE,		/* Hmean when higher is better, else Amean */
	STAT_STDDEV,
	STAT_COEFFVAR,
	STAT_MAX,
	STAT_BMEAN,		/* + index into summary.bmean */
};

struct stat_line {
	enum stat_kind kind;
	int bmean;
};

static const struct stat_line stat_lines[] = {
	{ STAT_MIN, 0 }, { STAT_HEADLINE, 0 }, { STAT_STDDEV, 0 }, { STAT_COEFFVAR, 0 },
	{ STAT_MAX, 0 }, { STAT_BMEAN, 0 }, { STAT_BMEAN, 1 }, { STAT_BMEAN, 2 },
};

static double stat_value(const struct summary *s, const struct stat_line *l, enum better better)
{
	switch (l->kind) {
	case STAT_MIN:
		return s->min;
	case STAT_HEADLINE:
		return compare_headline(s, better);
	case STAT_STDDEV:
		return s->stddev;
	case STAT_COEFFVAR:
		return s->coeffvar;
	case STAT_MAX:
		return s->max;
	case STAT_BMEAN:
		return s->bmean[l->bmean];
	}
	return NAN;
}

static void stat_label(const struct stat_line *l, enum better better, char *buf, size_t len)
{
	bool higher = better == BETTER_HIGHER;

	switch (l->kind) {
	case STAT_MIN:
		snprintf(buf, len, "Min");
		break;
	case STAT_HEADLINE:
		snprintf(buf, len, higher ? "Hmean" : "Amean");
		break;
	case STAT_STDDEV:
		snprintf(buf, len, "Stddev");
		break;
	case STAT_COEFFVAR:
		snprintf(buf, len, "CoeffVar");
		break;
	case STAT_MAX:
		snprintf(buf, len, "Max");
		break;
	case STAT_BMEAN:
		snprintf(buf, len, "%s-%d", higher ? "BHmean" : "BAmean",
			 summary_bmean_percents[l->bmean]);
		break;
	}
}

/*
 * Spread is better when smaller whatever the metric, as MMTests reports
 * it: a drop in Stddev shows as a positive change.
 */
static bool stat_higher_is_better(const struct stat_line *l, enum better better)
{
	if (l->kind == STAT_STDDEV || l->kind == STAT_COEFFVAR)
		return false;
	return better == BETTER_HIGHER;
}

/* Decimals that keep about five significant digits of the row's scale. */
static int row_decimals(const struct compare_row *row, size_t nr_runs)
{
	double scale = 0;

	for (size_t r = 0; r < nr_runs; r++) {
		double v = fabs(row->cells[r].summary.amean);

		if (isfinite(v) && v > scale)
			scale = v;
	}
	if (scale <= 0)
		return 2;
	int d = 4 - (int)floor(log10(scale));
	return d < 2 ? 2 : d > 9 ? 9 : d;
}

/* Beyond this, %f prints digits a double does not hold (309 near DBL_MAX). */
#define FIXED_MAX	1e15

static void format_value(char *buf, size_t len, double v, int decimals)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (fabs(v) >= FIXED_MAX)
		format_shortest(buf, len, v);
	else
		snprintf(buf, len, "%.*f", decimals, v);
}

/* MMTests' marks: (x.xx%) as it is, *x.xx%* where the change is significant. */
static void format_pct(char *buf, size_t len, double pct, bool significant)
{
	if (isnan(pct))
		snprintf(buf, len, "(      -)");
	else if (significant)
		snprintf(buf, len, "*%7.2f%%*", pct);
	else
		snprintf(buf, len, "(%7.2f%%)", pct);
}

static bool changed(enum verdict v)
{
	return v == VERDICT_BETTER || v == VERDICT_WORSE;
}

/* The verdict of each run under the table: "worse (!governor differs)". */
static void print_verdicts(FILE *out, const struct comparison *cmp,
			   const struct compare_row *row, int width, bool color)
{
	fprintf(out, "%-10s %-16.16s", "Verdict", row->metric->name);
	for (size_t r = 0; r < cmp->nr_runs; r++) {
		enum verdict v = row->cells[r].stats.verdict;
		char buf[96];

		format_verdict(buf, sizeof(buf), cmp, r, v);
		fprintf(out, " %s%*s%s", verdict_color(v, color), width + 10, buf,
			color_reset(v, color));
	}
	fputc('\n', out);
}

static void print_row(FILE *out, const struct comparison *cmp, const struct compare_row *row,
		      int width, bool color)
{
	enum better better = row->metric->better;
	int decimals = row_decimals(row, cmp->nr_runs);
	char *params = params_display(row->params);
	char label[32];

	fprintf(out, "%s %s: %s (%s, %s is better)\n", row->workload, params,
		row->metric->name, row->metric->unit, better_name(better));
	free(params);
	fprintf(out, "%-10s %-16s", "", "");
	for (size_t r = 0; r < cmp->nr_runs; r++)
		fprintf(out, " %*.*s", width + 11, width + 11, cmp->runs[r].name);
	fputc('\n', out);

	for (size_t l = 0; l < ARRAY_SIZE(stat_lines); l++) {
		const struct stat_line *line = &stat_lines[l];
		bool higher = stat_higher_is_better(line, better);
		double base = stat_value(&row->cells[0].summary, line, better);

		stat_label(line, better, label, sizeof(label));
		fprintf(out, "%-10s %-16.16s", label, row->metric->name);
		for (size_t r = 0; r < cmp->nr_runs; r++) {
			double v = stat_value(&row->cells[r].summary, line, better);
			enum verdict verdict = row->cells[r].stats.verdict;
			bool mark = line->kind == STAT_HEADLINE && changed(verdict);
			char value[64], pct[32];

			format_value(value, sizeof(value), v, decimals);
			format_pct(pct, sizeof(pct), r == 0 ? (isnan(v) ? NAN : 0.0) :
				   summary_pct_change(base, v, higher), mark);
			fprintf(out, " %*s %s%s%s", width, value,
				verdict_color(verdict, mark && color), pct,
				color_reset(verdict, mark && color));
		}
		fputc('\n', out);
	}
	if (cmp->nr_runs > 1 && row->cells[1].stats.verdict != VERDICT_NONE)
		print_verdicts(out, cmp, row, width, color);
}

/* The widest value in the table, so that every column lines up. */
static int value_width(const struct comparison *cmp)
{
	int width = 8;

	for (size_t i = 0; i < cmp->nr_rows; i++) {
		const struct compare_row *row = &cmp->rows[i];
		int decimals = row_decimals(row, cmp->nr_runs);

		for (size_t r = 0; r < cmp->nr_runs; r++) {
			const struct summary *s = &row->cells[r].summary;
			double vals[] = { s->min, s->max, s->amean, s->hmean, s->stddev };

			for (size_t k = 0; k < ARRAY_SIZE(vals); k++) {
				char buf[64];
				int n;

				if (isnan(vals[k]))
					continue;
				n = snprintf(buf, sizeof(buf), "%.*f", decimals, vals[k]);
				if (n > width)
					width = n;
			}
		}
	}
	return width > 24 ? 24 : width;
}

void report_compare_mmtests(FILE *out, const struct comparison *cmp, bool color)
{
	int width = value_width(cmp);

	if (!cmp->nr_rows) {
		fprintf(out, "no metrics to compare\n");
		return;
	}
	for (size_t i = 0; i < cmp->nr_rows; i++) {
		if (i)
			fputc('\n', out);
		print_row(out, cmp, &cmp->rows[i], width, color);
	}
}

/* Markdown's value: the headline ± the standard deviation. */
void mmtests_md_value(FILE *out, const struct compare_cell *cell, enum better better)
{
	md_number(out, compare_headline(&cell->summary, better), MD_G6);
	fputs(" ± ", out);
	md_number(out, cell->summary.stddev, MD_G4);
}
