// SPDX-License-Identifier: GPL-2.0
/*
 * The comparison as markdown, for mail and reviews: the environment
 * differences, then one table whose value columns the style chooses.
 * Undefined numbers are "-", never NaN.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "util/numfmt.h"

void md_number(FILE *out, double v, enum md_kind kind)
{
	char change[32];

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
		fprintf(out, "%s%%", format_change(change, sizeof(change), v, 2));
		break;
	}
}

static void md_header(FILE *out, const struct comparison *cmp,
		      const struct compare_style *style)
{
	fprintf(out, "| benchmark | metric | ");
	md_text(out, cmp->runs[0].name);
	fprintf(out, " (%s) |", style->md_heading);
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

void report_compare_markdown(FILE *out, const void *records, const void *render)
{
	const struct comparison *cmp = records;
	const struct compare_render *how = render;
	const struct compare_style *style = how->style;

	report_env_differences(out, cmp, true);
	if (!cmp->nr_rows) {
		report_no_rows(out, how);
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
		fputs(" (", out);
		md_text(out, row->metric->unit);
		fprintf(out, "%s%s is better) | ", *row->metric->unit ? ", " : "",
			better_name(row->metric->better));
		style->md_value(out, cmp, row, 0);
		fputs(" |", out);
		for (size_t r = 1; r < cmp->nr_runs; r++) {
			const struct cell_stats *st = &row->cells[r].stats;
			char verdict[96];

			fputc(' ', out);
			style->md_value(out, cmp, row, r);
			fputs(" | ", out);
			style->md_change(out, cmp, row, r);
			fputs(" | ", out);
			md_number(out, st->p_adjusted, MD_G3);
			/* its caveats name environment keys: a cell's text too */
			format_verdict(verdict, sizeof(verdict), cmp, row, r, st->verdict);
			fprintf(out, " | %s", st->verdict == VERDICT_WORSE ||
				st->verdict == VERDICT_BETTER ? "**" : "");
			md_text(out, verdict);
			fprintf(out, "%s |", st->verdict == VERDICT_WORSE ||
				st->verdict == VERDICT_BETTER ? "**" : "");
		}
		fputc('\n', out);
		free(params);
	}
	fputs("\nchange: ", out);
	md_text(out, style->md_change_note);
	fputs("; p: Welch, adjusted over every row and run\n", out);
	report_comparison_notes(out, cmp, how->db, true);
}
