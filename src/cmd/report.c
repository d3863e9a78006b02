// SPDX-License-Identifier: GPL-2.0
/*
 * schedperf report: runs compared as compare does, drawn and written as
 * one self-contained HTML page (report/html.c), whole or not at all.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/machines.h"
#include "analysis/sweeps.h"
#include "cmd/cmd.h"
#include "cli/ignore_params.h"
#include "cli/series_options.h"
#include "report/html.h"
#include "store/store.h"
#include "util/output_file.h"
#include "util/xalloc.h"

static const struct cmd_usage report_usage = {
	"usage: schedperf report BASE [NEW...] -o FILE.html [--history] [options]\n"
	"\n"
	"Write one self-contained HTML page (no script, no external URL or font:\n"
	"it reads offline and in mail archives) about the runs: the environment and\n"
	"its differences with their caveats, the comparison with compare's\n"
	"statistics and verdicts (its defaults), for swept benchmarks the metric\n"
	"against the swept parameter with one line per run and interval bars, per\n"
	"benchmark the distribution of each run (points and box) and its samples in\n"
	"iteration order; with --history, every series of the store with its\n"
	"change points marked, as 'schedperf detect' finds them. Charts are SVG\n"
	"drawn by gnuplot; without gnuplot the page says so and has only text.\n",
	NULL,
};

struct report_args {
	const char *output;
	bool with_history, all_metrics;
	struct series_args series;	/* --workload, --metric, ... */
	struct ignore_params ignored;
};

/* Load the named runs, build and analyse the comparison as compare does. */
static int load_runs(char **names, size_t nr, struct compare_run *runs, struct store *st,
		     const struct series_args *series)
{
	struct machine_pattern mp;
	struct error err = { 0 };

	machine_pattern_init(&mp, series->machine);
	for (size_t i = 0; i < nr; i++) {
		runs[i].name = names[i];
		if (store_load(st, names[i], STORE_SAMPLES, &runs[i].set, &err))
			return error_report(&err);
		machine_pattern_read(&mp, &runs[i].set);
	}
	/* as compare: the id's start decided over all the runs compared */
	if (machine_pattern_check(&mp, "report", &err))
		return error_report(&err);
	for (size_t i = 0; i < nr; i++)
		if (machines_choose(&runs[i].set, names[i], &mp, series->opts.pool_machines,
				    "report", &err))
			return error_report(&err);
	return 0;
}

static int write_page(struct output_file *of, const struct html_input *in)
{
	struct error err = { 0 };

	if (report_html(of->f, in, &err)) {
		output_file_abort(of);
		return error_report(&err);
	}
	if (output_file_commit(of, &err))
		return error_report(&err);
	return 0;
}

static int make_report(char **names, size_t nr_runs, struct report_args *a,
		       struct output_file *of)
{
	struct compare_run *runs = xcalloc(nr_runs, sizeof(*runs));
	struct result_set all = { 0 };
	struct history h = { 0 };
	struct html_input in = { 0 };
	struct compare_options opts;
	struct comparison cmp;
	struct store *st = NULL;
	struct error err = { 0 };
	struct sweep *sw = NULL;
	const char *missing, *kind;
	int code;

	if (store_open_existing(global.db, &st, &err)) {
		free(runs);
		return error_report(&err);
	}
	code = load_runs(names, nr_runs, runs, st, &a->series);
	store_close(st);
	if (code)
		goto out_runs;
	comparison_build_ignoring(&cmp, runs, nr_runs, a->all_metrics,
				  (const char *const *)a->ignored.names.list);
	missing = comparison_filter(&cmp, (const char *const *)a->series.workloads.list,
				    (const char *const *)a->series.metrics.list,
				    (const char *const *)a->series.params.list, &kind);
	if (!missing && (code = ignore_params_check(&a->ignored, &cmp, names)))
		goto out;
	if (missing) {
		code = die_code(EXIT_USAGE, "report: %s '%.64s' is in none of the runs' rows "
				"(see 'schedperf show %.64s' for the workloads, their parameters "
				"and metrics)",
				kind, missing, names[0]);
		goto out;
	}
	compare_options_init(&opts);
	comparison_analyze(&cmp, &opts);
	in.cmp = &cmp;
	in.db = global.db;
	in.nr_sweeps = comparison_sweeps(&cmp, 1 - opts.alpha, &sw);
	in.sweeps = sw;
	if (a->with_history) {
		struct change_point_options cp;

		if ((code = series_args_load(&a->series, &all, &h)))
			goto out;
		change_point_options_init(&cp);
		history_detect(&h, &cp);
		in.history = &h;
	}
	code = write_page(of, &in);
out:
	sweeps_release(sw, in.nr_sweeps);
	free(sw);
	history_release(&h);
	result_set_release(&all);
	comparison_release(&cmp);
out_runs:
	for (size_t i = 0; i < nr_runs; i++)
		result_set_release(&runs[i].set);
	free(runs);
	return code;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = { .ignored.cmd = "report" };
	struct output_file of = { 0 };
	struct error err = { 0 };
	const struct cmd_option options[] = {
		OPT_STRING('o', "output", &a.output, "FILE", "the page to write (required)"),
		OPT_BOOL(0, "history", &a.with_history, "add every series of the store with "
			 "its change points (detect's defaults)"),
		SERIES_OPTIONS(&a.series),
		OPT_IGNORE_PARAM(&a.ignored),
		OPT_END(),
	};
	int code = EXIT_OK;

	series_args_init(&a.series, "report");
	if (parse_options(argc, argv, options, &report_usage, &code))
		goto out;
	a.all_metrics = a.series.opts.all_metrics;
	if (optind >= argc) {
		code = command_usage_error("report", "give at least one run");
		goto out;
	}
	if (!a.output) {
		code = command_usage_error("report", "give the page to write with -o FILE.html");
		goto out;
	}
	if ((code = command_check_utf8_operands("report", "run name", argc, argv)) ||
	    (code = command_check_distinct_operands("report", "run", argc, argv)))
		goto out;
	/* the page is written whole or not at all (util/output_file.h), checked first */
	if (output_file_open(&of, a.output, "report", &err)) {
		code = error_report(&err);
		goto out;
	}
	code = make_report(argv + optind, (size_t)(argc - optind), &a, &of);
	if (of.f)
		output_file_abort(&of);
out:
	series_args_release(&a.series);
	ignore_params_release(&a.ignored);
	return code;
}
