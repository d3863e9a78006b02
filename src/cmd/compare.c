// SPDX-License-Identifier: GPL-2.0
/*
 * schedperf compare: runs side by side, the baseline first, every batch of
 * a run pooled.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "report/report.h"
#include "store/store.h"
#include "util/xalloc.h"

const char compare_usage[] =
"usage: schedperf compare BASE NEW... [--format text|json] [--all-metrics]\n"
"\n"
"Put runs side by side: per benchmark and metric, the MMTests summary rows\n"
"(Min, Amean or Hmean, Stddev, CoeffVar, Max, BAmean/BHmean-50/95/99), each\n"
"with its percent change against BASE; a positive change is always better,\n"
"whichever way the metric goes. Every batch of a run name is pooled.\n"
"\n"
"      --format FORMAT  text (default) or json (schedperf-compare/1)\n"
"      --all-metrics    also compare what monitors measured (rusage: wall,\n"
"                       user, system, context switches, faults)\n"
"      --db FILE        results store\n";

enum {
	OPT_FORMAT = OPT_COMMAND_BASE,
	OPT_ALL_METRICS,
};

static const struct option compare_options[] = {
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "all-metrics", no_argument, NULL, OPT_ALL_METRICS },
	COMMON_LONG_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

int cmd_compare(int argc, char **argv)
{
	const struct command *cmd = command_find("compare");
	struct compare_run *runs = NULL;
	struct comparison cmp;
	struct store *st = NULL;
	struct error err = { 0 };
	const char *format = "text";
	bool all_metrics = false;
	size_t nr_runs;
	int opt, code = EXIT_OK;

	while ((opt = command_getopt(cmd, argc, argv, "qh", compare_options, &code)) != -1) {
		switch (opt) {
		case CMD_OPT_EXIT:
			return code;
		case OPT_FORMAT:
			format = optarg;
			break;
		case OPT_ALL_METRICS:
			all_metrics = true;
			break;
		}
	}
	if (strcmp(format, "text") && strcmp(format, "json"))
		return command_usage_error("compare", "unknown format '%.32s': give text or json",
					   format);
	if (argc - optind < 2)
		return command_usage_error("compare", "give a baseline run and at least one "
					   "run to compare with it");
	nr_runs = (size_t)(argc - optind);
	for (size_t i = 0; i < nr_runs; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(argv[optind + i], argv[optind + j]))
				return command_usage_error("compare", "run '%.64s' is named twice",
							   argv[optind + i]);

	if (store_open(global.db, &st, &err))
		return error_report(&err);
	runs = xcalloc(nr_runs, sizeof(*runs));
	for (size_t i = 0; i < nr_runs; i++) {
		runs[i].name = argv[optind + i];
		if (store_load(st, runs[i].name, true, &runs[i].set, &err)) {
			code = error_report(&err);
			goto out;
		}
	}
	comparison_build(&cmp, runs, nr_runs, all_metrics);
	if (!strcmp(format, "json"))
		report_compare_json(stdout, &cmp);
	else
		report_compare_text(stdout, &cmp);
	comparison_release(&cmp);
out:
	for (size_t i = 0; i < nr_runs; i++)
		result_set_release(&runs[i].set);
	free(runs);
	store_close(st);
	return code;
}
