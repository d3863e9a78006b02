// SPDX-License-Identifier: GPL-2.0
/*
 * The styles and formats compare can write, by name. A new one is the file
 * that renders it and a row here (doc/design.md).
 */
#include <string.h>

#include "report/report.h"

const struct compare_style compare_styles[] = {
	{ "mmtests", report_compare_mmtests, "Hmean/Amean ± stddev", mmtests_md_value },
	{ "mmtests-classic", report_compare_mmtests_classic, "Hmean/Amean ± stddev",
	  mmtests_md_value },
	{ "lkp", report_compare_lkp, "mean ± %stddev", lkp_md_value },
	{ "benchstat", report_compare_benchstat, "median [CI]", benchstat_md_value },
	{ NULL, NULL, NULL, NULL },
};

const struct compare_format compare_formats[] = {
	{ "text", report_compare_text, false },
	{ "markdown", report_compare_markdown, false },
	{ "csv", report_compare_csv, true },
	{ "json", report_compare_json, true },
	{ NULL, NULL, false },
};

const struct compare_style *compare_style_find(const char *name)
{
	for (const struct compare_style *s = compare_styles; s->name; s++)
		if (!strcmp(s->name, name))
			return s;
	return NULL;
}

const struct compare_format *compare_format_find(const char *name)
{
	for (const struct compare_format *f = compare_formats; f->name; f++)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}
