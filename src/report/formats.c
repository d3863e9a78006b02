// SPDX-License-Identifier: GPL-2.0
/*
 * The styles and formats compare can write, by name. A new one is the file
 * that renders it and a row here (doc/design.md).
 */
#include "report/report.h"

const struct compare_style compare_styles[] = {
	{ { "mmtests", "MMTests' table, *x.xx%* where MMTests marks a change" },
	  report_compare_mmtests, "Hmean/Amean ± stddev",
	  "positive = better", mmtests_md_value, mmtests_md_change },
	{ { "mmtests-classic", "MMTests v0.27's table: BAmean-50/95/99, t-test marks" },
	  report_compare_mmtests_classic, "Hmean/Amean ± stddev",
	  "positive = better", mmtests_md_value, mmtests_md_change },
	{ { "lkp", "value +- %stddev  %change lines, tiny changes hidden" },
	  report_compare_lkp, "mean ± %stddev",
	  "of the means, up or down as lkp's %change", lkp_md_value, lkp_md_change },
	{ { "benchstat", "median +- CI, delta or ~, (p=... n=...)" },
	  report_compare_benchstat, "median [CI]",
	  "of the medians, up or down, ~ where benchstat sees none", benchstat_md_value,
	  benchstat_md_change },
	{ { NULL, NULL }, NULL, NULL, NULL, NULL, NULL },
};

const struct output_format compare_formats[] = {
	{ { "text", NULL }, report_compare_text, false },
	{ { "markdown", NULL }, report_compare_markdown, false },
	{ { "csv", NULL }, report_compare_csv, true },
	{ { "json", "schedperf-compare/1" }, report_compare_json, true },
	{ { NULL, NULL }, NULL, false },
};
