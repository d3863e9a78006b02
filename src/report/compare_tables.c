// SPDX-License-Identifier: GPL-2.0
/*
 * The comparison as markdown (for mail and reviews) and CSV (one line per
 * row and run, for spreadsheets). Both show the statistics already in the
 * model; undefined numbers are "-" in markdown and empty in CSV, never NaN.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

/* ------------------------------------------------------------ markdown */

/* Markdown cells must not carry '|' or newlines. */
static void md_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', out);
		fputc(*s == '\n' ? ' ' : *s, out);
	}
}

enum md_kind { MD_G3, MD_G4, MD_G6, MD_PCT, MD_CHANGE };

static void md_number(FILE *out, double v, enum md_kind kind)
{
	if (!isfinite(v)) {
		fputs("-", out);
		return;
	}
	switch (kind) {
	case MD_G3:
		fprintf(out, "%.3g", v);
		break;
	case MD_G4:
		fprintf(out, "%.4g", v);
		break;
	case MD_G6:
		fprintf(out, "%.6g", v);
		break;
	case MD_PCT:
		fprintf(out, "%.0f%%", v);
		break;
	case MD_CHANGE:
		fprintf(out, "%+.2f%%", v);
		break;
	}
}

static double headline_change(const struct compare_row *row, size_t r)
{
	enum better better = row->metric->better;

	return summary_pct_change(compare_headline(&row->cells[0].summary, better),
				  compare_headline(&row->cells[r].summary, better),
				  better == BETTER_HIGHER);
}

/* The value column of one run in the chosen style's terms. */
static void md_value(FILE *out, const struct compare_row *row, size_t r,
		     enum compare_style style)
{
	const struct compare_cell *cell = &row->cells[r];

	switch (style) {
	case STYLE_BENCHSTAT:
		md_number(out, cell->summary.median, MD_G4);
		fputs(" [", out);
		md_number(out, cell->stats.median_low, MD_G4);
		fputs(", ", out);
		md_number(out, cell->stats.median_high, MD_G4);
		fputs("]", out);
		break;
	case STYLE_LKP:
		md_number(out, cell->summary.amean, MD_G6);
		fputs(" ± ", out);
		md_number(out, cell->summary.coeffvar, MD_PCT);
		break;
	case STYLE_MMTESTS:
		md_number(out, compare_headline(&cell->summary, row->metric->better), MD_G6);
		fputs(" ± ", out);
		md_number(out, cell->summary.stddev, MD_G4);
		break;
	}
}

static void md_header(FILE *out, const struct comparison *cmp, enum compare_style style)
{
	const char *what = style == STYLE_BENCHSTAT ? "median [CI]" :
			   style == STYLE_LKP ? "mean ± %stddev" : "Hmean/Amean ± stddev";

	fprintf(out, "| benchmark | metric | ");
	md_text(out, cmp->runs[0].name);
	fprintf(out, " (%s) |", what);
	for (size_t r = 1; r < cmp->nr_runs; r++) {
		fputc(' ', out);
		md_text(out, cmp->runs[r].name);
		fprintf(out, " | change | p (adj.) | verdict |");
	}
	fprintf(out, "\n|---|---|---:|");
	for (size_t r = 1; r < cmp->nr_runs; r++)
		fprintf(out, "---:|---:|---:|---|");
	fputc('\n', out);
}

void report_compare_markdown(FILE *out, const struct comparison *cmp, enum compare_style style)
{
	report_env_differences(out, cmp, true);
	if (!cmp->nr_rows) {
		fprintf(out, "no metrics to compare\n");
		return;
	}
	md_header(out, cmp, style);
	for (size_t i = 0; i < cmp->nr_rows; i++) {
		const struct compare_row *row = &cmp->rows[i];
		char *params = params_display(row->params);

		fputs("| ", out);
		md_text(out, row->workload);
		if (*params) {
			fputc(' ', out);
			md_text(out, params);
		}
		fputs(" | ", out);
		md_text(out, row->metric->name);
		fprintf(out, " (%s, %s is better) | ", row->metric->unit,
			better_name(row->metric->better));
		md_value(out, row, 0, style);
		fputs(" |", out);
		for (size_t r = 1; r < cmp->nr_runs; r++) {
			const struct cell_stats *st = &row->cells[r].stats;
			char verdict[96];

			fputc(' ', out);
			md_value(out, row, r, style);
			fputs(" | ", out);
			md_number(out, headline_change(row, r), MD_CHANGE);
			fputs(" | ", out);
			md_number(out, st->p_adjusted, MD_G3);
			format_verdict(verdict, sizeof(verdict), cmp, r, st->verdict);
			fprintf(out, " | %s%s%s |", st->verdict == VERDICT_WORSE ||
				st->verdict == VERDICT_BETTER ? "**" : "", verdict,
				st->verdict == VERDICT_WORSE || st->verdict == VERDICT_BETTER ?
				"**" : "");
		}
		fputc('\n', out);
		free(params);
	}
	fprintf(out, "\nchange: positive = better; p: Welch, adjusted over every row and run\n");
}

/* ------------------------------------------------------------ CSV */

static void csv_text(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void csv_number(FILE *out, double v)
{
	fputc(',', out);
	if (isfinite(v))
		fprintf(out, "%.17g", v);
}

static const char csv_header[] =
	"workload,params,metric,unit,better,run,n,min,max,amean,hmean,gmean,median,"
	"median_ci_low,median_ci_high,stddev,coeffvar,bmean_50,bmean_95,bmean_99,"
	"pct_change,p_welch,p_mwu,p_adjusted,ratio_ci_low,ratio_ci_high,hl_shift,"
	"hl_ci_low,hl_ci_high,mde_pct,verdict,env_caveats\n";

static void csv_caveats(FILE *out, const struct comparison *cmp, size_t r)
{
	const char *keys[16];
	size_t n = comparison_caveats(cmp, r, keys, 16);

	/* a space-separated list: one field, no quoting needed */
	for (size_t i = 0; i < n && i < 16; i++)
		fprintf(out, "%s%s", i ? " " : "", keys[i]);
}

static void csv_line(FILE *out, const struct comparison *cmp, const struct compare_row *row,
		     size_t r, const char *params)
{
	const struct compare_cell *cell = &row->cells[r];
	const struct summary *s = &cell->summary;
	const struct cell_stats *st = &cell->stats;
	double stats[] = {
		s->min, s->max, s->amean, s->hmean, s->gmean, s->median, st->median_low,
		st->median_high, s->stddev, s->coeffvar, s->bmean[0], s->bmean[1], s->bmean[2],
		r ? headline_change(row, r) : NAN, st->p_welch, st->p_mwu, st->p_adjusted,
		st->ratio_low, st->ratio_high, st->hl_shift, st->hl_low, st->hl_high,
		st->mde_pct,
	};

	csv_text(out, row->workload);
	fputc(',', out);
	csv_text(out, params);
	fputc(',', out);
	csv_text(out, row->metric->name);
	fputc(',', out);
	csv_text(out, row->metric->unit);
	fprintf(out, ",%s,", better_name(row->metric->better));
	csv_text(out, cmp->runs[r].name);
	fprintf(out, ",%zu", s->n);
	for (size_t k = 0; k < sizeof(stats) / sizeof(stats[0]); k++)
		csv_number(out, stats[k]);
	fprintf(out, ",%s,", r ? verdict_name(st->verdict) : "");
	if (r)
		csv_caveats(out, cmp, r);
	fputc('\n', out);
}

void report_compare_csv(FILE *out, const struct comparison *cmp)
{
	fputs(csv_header, out);
	for (size_t i = 0; i < cmp->nr_rows; i++) {
		char *params = params_display(cmp->rows[i].params);

		for (size_t r = 0; r < cmp->nr_runs; r++)
			csv_line(out, cmp, &cmp->rows[i], r, params);
		free(params);
	}
}
