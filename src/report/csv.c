// SPDX-License-Identifier: GPL-2.0
/*
 * The comparison as CSV, for spreadsheets: one line per row and run with
 * every statistic of the model. Undefined numbers are empty, never NaN;
 * text that a spreadsheet would take for a formula starts with a quote.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "util/array.h"
#include "util/strbuf.h"
#include "util/utf8.h"

/*
 * Excel and LibreOffice run a cell that starts with one of these as a
 * formula when they open the file (OWASP, "CSV Injection"), even text
 * that whoever ran a job chose: a run named =HYPERLINK(...), a parameter,
 * an imported workload or metric. A single quote before it, the common
 * guard, makes the cell text. Only text cells come here: numbers go
 * through csv_number and keep their sign (-1.5 stays -1.5).
 */
static bool starts_formula(const char *s)
{
	return *s && strchr("=+-@", *s);
}

/*
 * The one writer of a CSV text cell, of every CSV schedperf writes: a
 * name from a store another program wrote may hold a newline or an escape
 * sequence, which `cat` or a spreadsheet would show as it is, so each cell
 * is escaped as text shows it first: a line break, tab or CR is \x0a, \x09
 * or \x0d, and never starts a cell or needs the quotes.
 */
void csv_text(FILE *out, const char *text)
{
	char *shown = utf8_escaped(text ? text : "");
	const char *guard = starts_formula(shown) ? "'" : "", *s = shown;

	if (!strpbrk(s, ",\"")) {
		fputs(guard, out);
		fputs(s, out);
		free(shown);
		return;
	}
	fputc('"', out);
	fputs(guard, out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
	free(shown);
}

void csv_number(FILE *out, double v)
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

/* A space-separated list, one field: quoted as any, since a key may hold a comma. */
static void csv_caveats(FILE *out, const struct comparison *cmp, size_t r)
{
	const char *keys[COMPARE_MAX_CAVEATS];
	size_t n = comparison_caveats(cmp, r, keys, ARRAY_SIZE(keys));
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < n && i < ARRAY_SIZE(keys); i++)
		strbuf_addf(&sb, "%s%s", i ? " " : "", keys[i]);
	csv_text(out, strbuf_str(&sb));
	strbuf_release(&sb);
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
	for (size_t k = 0; k < ARRAY_SIZE(stats); k++)
		csv_number(out, stats[k]);
	fprintf(out, ",%s,", r ? verdict_name(st->verdict) : "");
	if (r)
		csv_caveats(out, cmp, r);
	fputc('\n', out);
}

void report_compare_csv(FILE *out, const void *records, const void *render)
{
	const struct comparison *cmp = records;
	fputs(csv_header, out);
	for (size_t i = 0; i < cmp->nr_rows; i++) {
		char *params = params_display(cmp->rows[i].params);

		for (size_t r = 0; r < cmp->nr_runs; r++)
			csv_line(out, cmp, &cmp->rows[i], r, params);
		free(params);
	}
}
