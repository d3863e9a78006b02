// SPDX-License-Identifier: GPL-2.0
/*
 * What every renderer of a comparison shares: the list of environment
 * differences above the tables, a verdict with its caveats ("worse
 * (!governor differs)") and its colour, and the headline's change.
 */
#include <stdio.h>

#include "report/report.h"
#include "util/array.h"

double headline_change(const struct compare_row *row, size_t r)
{
	enum better better = row->metric->better;

	return summary_pct_change(compare_headline(&row->cells[0].summary, better),
				  compare_headline(&row->cells[r].summary, better),
				  better == BETTER_HIGHER);
}

const char *verdict_color(enum verdict v, bool color)
{
	if (!color)
		return "";
	return v == VERDICT_BETTER ? "\033[32m" : v == VERDICT_WORSE ? "\033[31m" : "";
}

const char *color_reset(enum verdict v, bool color)
{
	return color && (v == VERDICT_BETTER || v == VERDICT_WORSE) ? "\033[0m" : "";
}

void format_verdict(char *buf, size_t len, const struct comparison *cmp, size_t r,
		    enum verdict v)
{
	const char *keys[COMPARE_MAX_CAVEATS];
	size_t n = comparison_caveats(cmp, r, keys, ARRAY_SIZE(keys)), used;

	used = (size_t)snprintf(buf, len, "%s", verdict_name(v));
	if (!n || v == VERDICT_NONE || used >= len)
		return;
	used += (size_t)snprintf(buf + used, len - used, " (!");
	for (size_t i = 0; i < n && i < ARRAY_SIZE(keys) && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "," : "",
					 env_key_short(keys[i]));
	if (used < len)
		snprintf(buf + used, len - used, " differ%s)", n > 1 ? "" : "s");
}

void print_verdict_line(FILE *out, const struct comparison *cmp, const struct compare_row *row,
			const char *name, bool color)
{
	if (cmp->nr_runs < 2)
		return;
	fprintf(out, "schedperf: %s:", name);
	for (size_t r = 1; r < cmp->nr_runs; r++) {
		enum verdict v = row->cells[r].stats.verdict;
		char buf[128];

		format_verdict(buf, sizeof(buf), cmp, r, v);
		fprintf(out, "%s %s %s%s%s", r > 1 ? "," : "", cmp->runs[r].name,
			verdict_color(v, color), buf, color_reset(v, color));
	}
	fputc('\n', out);
}

void report_env_differences(FILE *out, const struct comparison *cmp, bool markdown)
{
	if (!cmp->nr_env_diffs)
		return;
	fprintf(out, markdown ? "**Environment differences** (! = known to move results)\n\n"
			      : "Environment differences (! = known to move results)\n");
	for (size_t i = 0; i < cmp->nr_env_diffs; i++) {
		const struct env_difference *d = &cmp->env_diffs[i];

		fprintf(out, "%s%s%s:", markdown ? "- " : "  ", d->moves_results ? "!" : " ",
			d->key);
		for (size_t r = 0; r < cmp->nr_runs; r++)
			fprintf(out, "%s %s=%s", r ? "," : "", cmp->runs[r].name,
				d->values[r] ? d->values[r] : "(unset)");
		fputc('\n', out);
	}
	fputc('\n', out);
}
