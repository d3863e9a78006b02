// SPDX-License-Identifier: GPL-2.0
/*
 * The comparison as text for a terminal: the environment differences, then
 * the tables of the chosen style.
 */
#include <stdio.h>

#include "report/report.h"

void report_compare_text(FILE *out, const void *records, const void *render)
{
	const struct comparison *cmp = records;
	const struct compare_render *how = render;
	report_env_differences(out, cmp, false);
	if (!cmp->nr_rows)
		report_no_rows(out, how);
	else
		how->style->text(out, cmp, how);
	if (how->summarise)
		report_verdict_summary(out, cmp, how->color);
	report_comparison_notes(out, cmp, how->db, false);
}
