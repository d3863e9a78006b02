// SPDX-License-Identifier: GPL-2.0
/*
 * schedperf compare: runs side by side, the baseline first, every batch of
 * a run pooled. The model is built and analysed once (tests, intervals,
 * verdicts, environment differences); styles and formats only render it.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/machines.h"
#include "cli/ignore_params.h"
#include "cli/name_list.h"
#include "cmd/cmd.h"
#include "report/report.h"
#include "runner/plan.h"
#include "store/store.h"
#include "util/parse.h"
#include "util/utf8.h"
#include "util/xalloc.h"

static const struct cmd_usage compare_usage = {
	"usage: schedperf compare BASE NEW...\n"
	"                         [--style {style}]\n"
	"                         [--format {format}] [options]\n"
	"\n"
	"Put runs side by side, the first run the baseline: per benchmark and metric\n"
	"the summary statistics, the change against BASE, significance and a verdict.\n"
	"Every batch of a run name is pooled, if they all ran on one machine (a run\n"
	"with batches from several is refused: choose one with --machine, or give\n"
	"--pool-machines). Environment keys that differ between the runs are\n"
	"listed above the tables; a verdict whose runs differ in a key known to\n"
	"move results (governor, boost, no_turbo, SMT, preempt mode, CPU model,\n"
	"machine) is marked, e.g. \"worse (!governor differs)\".\n"
	"\n"
	"Per run against BASE: Welch's t-test (its p-value is the one adjusted over\n"
	"every row and run, and decides significance), Mann-Whitney U, a bootstrap\n"
	"interval of mean(NEW)/mean(BASE) (its large-sample limit beyond about\n"
	"27,000 samples a side), the Hodges-Lehmann shift with its interval, and for\n"
	"rows without a change the minimum detectable effect (80 % power).\n"
	"Verdict: better/worse when significant after adjustment and the ratio\n"
	"interval excludes 1; same when that interval lies inside 1 +/- margin;\n"
	"otherwise unknown. Intervals are at 1 - alpha.\n"
	"\n"
	"Styles reproduce the tables of the tools they name, numbers and marks:\n"
	"mmtests is MMTests' compare-mmtests.pl at git 638401e (v2.0-rc5),\n"
	"mmtests-classic MMTests v0.27 (BAmean-50/95/99, t-test marks), lkp\n"
	"lkp-tests' compare at git bbbc29c, benchstat golang.org/x/perf's at\n"
	"71ba5bc with go-moremath f10218a. schedperf's verdict is shown apart,\n"
	"on lines \"schedperf: ...\", never as the tool's mark.\n"
	"\n"
	"With --profile, the runs' CPU profiles instead (run with --monitors\n"
	"profile): per benchmark the symbols whose share of the samples changed\n"
	"most against BASE, self and children, in percentage points, marked *\n"
	"where the runs' ranges over their profiles do not overlap (beyond the\n"
	"iteration-to-iteration spread).\n",
	NULL,
};

struct compare_args {
	struct option_choice format, style;
	struct compare_options opts;
	bool all_metrics, only_changed, fail_on_regression, exclude_disturbed, pool_machines;
	bool profile, verbose;
	int top;
	double margin_pct;	/* --margin; NAN: the default */
	const char *machine;	/* --machine: only batches of the machines it matches */
	struct name_list workloads, metrics;
	struct ignore_params ignored;
};

static int set_adjust(const struct cmd_option *opt, const char *arg)
{
	if (p_adjust_method_parse(arg, opt->value))
		return command_usage_error("compare", "--adjust '%.32s': give bh, "
					   "holm or none", arg);
	return 0;
}

/*
 * compare's --seed takes every seed compare prints, its default among them
 * (BOOTSTRAP_SEED, above the int seeds of ab and bisect): from 0 to the
 * largest JSON integer it prints as a number.
 */
static int set_seed(const struct cmd_option *opt, const char *arg)
{
	long v;

	if (parse_long(arg, &v) || v < 0)
		return command_usage_error("compare", "--seed '%.32s': give a whole number from "
					   "0 to %ld", arg, LONG_MAX);
	*(uint64_t *)opt->value = (uint64_t)v;
	return 0;
}

static int add_workloads(const struct cmd_option *opt, const char *arg)
{
	return name_list_add_listed(opt->value, "compare", "--workload", "workload name", arg);
}

static int add_metrics(const struct cmd_option *opt, const char *arg)
{
	return name_list_add_listed(opt->value, "compare", "--metric", "metric name", arg);
}

static int check_run_names(int argc, char **argv)
{
	if (argc - optind < 2)
		return command_usage_error("compare", "give a baseline run and at least one "
					   "run to compare with it");
	if (command_check_utf8_operands("compare", "run name", argc, argv))
		return EXIT_USAGE;
	return command_check_distinct_operands("compare", "run", argc, argv);
}

/*
 * Load every run named, each with all its batches of the machines
 * --machine chose; the exit code.
 */
/* @profiled (NULL: not asked): whether each run's stored plans took profiles. */
static int load_runs(char **names, size_t nr_runs, const struct compare_args *a,
		     struct compare_run **out, bool *profiled)
{
	struct compare_run *runs = xcalloc(nr_runs, sizeof(*runs));
	struct machine_pattern mp;
	struct store *st = NULL;
	struct error err = { 0 };

	*out = runs;
	machine_pattern_init(&mp, a->machine);
	if (store_open_existing(global.db, &st, &err))
		return error_report(&err);
	for (size_t i = 0; i < nr_runs; i++) {
		runs[i].name = names[i];
		if (store_load(st, runs[i].name,
			       STORE_SAMPLES | (a->profile ? STORE_PROFILES : 0), &runs[i].set,
			       &err))
			goto fail;
		machine_pattern_read(&mp, &runs[i].set);
	}
	/* one machine id's start over all the runs, or none of them compares two machines */
	if (machine_pattern_check(&mp, "compare", &err))
		goto fail;
	for (size_t i = 0; i < nr_runs; i++)
		if (machines_choose(&runs[i].set, names[i], &mp, a->pool_machines, "compare",
				    &err) ||
		    (profiled && plan_batches_profile(st, &runs[i].set, &profiled[i], &err)))
			goto fail;
	store_close(st);
	return EXIT_OK;
fail:
	store_close(st);
	return error_report(&err);
}

/*
 * For a format other than JSON (whose writer escapes them), the runs'
 * names and their results' names as text shows them (report_shown_names()):
 * the run names made, for release_runs() to free; NULL for JSON. Only once
 * the model is built, which pairs the names as stored (a text "\x1b" and
 * an escape are not one workload), and has shown its own (report.h).
 */
static char **shown_names(struct compare_run *runs, size_t nr_runs,
			  const struct output_format *format)
{
	char **shown;

	if (!strcmp(format->id.name, "json"))
		return NULL;
	shown = xcalloc(nr_runs + 1, sizeof(*shown));
	for (size_t i = 0; i < nr_runs; i++) {
		shown[i] = utf8_escaped(runs[i].name);
		runs[i].name = shown[i];
		report_shown_names(&runs[i].set);
	}
	return shown;
}

static void release_runs(struct compare_run *runs, size_t nr_runs, char **shown)
{
	for (size_t i = 0; shown && i < nr_runs; i++)
		free(shown[i]);
	free(shown);

	for (size_t i = 0; i < nr_runs; i++)
		result_set_release(&runs[i].set);
	free(runs);
}

static int compare_profiles(char **names, size_t nr_runs, const struct compare_args *a)
{
	const struct output_format *format = a->format.chosen;
	const struct output_format *f = REGISTRY_FIND(profile_formats, format->id.name);
	bool *profiled = xcalloc(nr_runs, sizeof(*profiled));
	struct compare_run *runs;
	struct profile_diff d;
	char formats[64], options[128], **shown = NULL;
	int code;

	if (!f) {
		free(profiled);
		return command_usage_error("compare", "--profile is shown as %s: give --format %s",
					   registry_names(formats, sizeof(formats), profile_formats,
							  sizeof(profile_formats[0]), ", ", " or ", 0),
					   registry_names(options, sizeof(options), profile_formats,
							  sizeof(profile_formats[0]), ", --format ",
							  " or --format ", 0));
	}
	if ((code = load_runs(names, nr_runs, a, &runs, profiled)))
		goto out;
	profile_diff_build(&d, runs, nr_runs, (size_t)a->top,
			   (const char *const *)a->workloads.list);
	if (strcmp(format->id.name, "json"))
		report_shown_profile(&d);
	shown = shown_names(runs, nr_runs, format);
	for (size_t r = 0; r < nr_runs && !code; r++) {
		char why[320];

		if (profile_diff_has_run(&d, r))
			continue;
		profile_diff_why_none(&d, r, names[r], profiled[r], why, sizeof(why));
		code = die_code(EXIT_USAGE, "compare --profile: run '%.64s'%s %s", names[r],
				a->workloads.nr ? ", of these workloads," : "", why);
	}
	if (!code)
		f->write(stdout, &d, shown ? shown : names);
	profile_diff_release(&d);
out:
	release_runs(runs, nr_runs, shown);
	free(profiled);
	return code;
}

static int compare_runs(char **names, size_t nr_runs, const struct compare_args *a)
{
	const struct output_format *format = a->format.chosen;
	struct compare_options opts;
	struct compare_run *runs;
	struct comparison cmp;
	const char *missing, *kind;
	char **shown = NULL;
	int code;

	if ((code = load_runs(names, nr_runs, a, &runs, NULL)))
		goto out;
	comparison_build_ignoring(&cmp, runs, nr_runs, a->all_metrics,
				  (const char *const *)a->ignored.names.list);
	missing = comparison_filter(&cmp, (const char *const *)a->workloads.list,
				    (const char *const *)a->metrics.list, NULL, &kind);
	if (!missing && (code = ignore_params_check(&a->ignored, &cmp, names))) {
		comparison_release(&cmp);
		goto out;
	}
	if (missing) {
		code = die_code(EXIT_USAGE, "compare: %s '%.64s' is in none of the rows (see "
				"'schedperf show %.64s' for the workloads and metrics%s)", kind,
				missing, names[0], a->all_metrics ? "" : "; a monitor's metric "
				"needs --all-metrics");
		comparison_release(&cmp);
		goto out;
	}
	if (a->exclude_disturbed)
		comparison_exclude_disturbed(&cmp);
	opts = a->opts;
	opts.effects = format->for_machines;
	comparison_analyze(&cmp, &opts);
	if (a->fail_on_regression && comparison_has_regression(&cmp))
		code = EXIT_FOUND;
	if (a->only_changed)
		comparison_keep_changed(&cmp);
	if (strcmp(format->id.name, "json"))
		report_shown_comparison(&cmp);
	shown = shown_names(runs, nr_runs, format);
	format->write(stdout, &cmp, &(struct compare_render){
		a->style.chosen, global.color, a->only_changed,
		!a->verbose && (a->all_metrics || cmp.nr_rows > COMPARE_SCREEN_ROWS), global.db });
	comparison_release(&cmp);
out:
	release_runs(runs, nr_runs, shown);
	return code;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_args a = { .format = OPTION_CHOICE(compare_formats),
				  .style = OPTION_CHOICE(compare_styles),
				  .margin_pct = NAN, .ignored.cmd = "compare" };
	const struct cmd_option options[] = {
		OPT_CHOICE("style", &a.style, "STYLE", "{}"),
		OPT_FORMAT(&a.format, "{}; styles shape text and markdown"),
		OPT_ALPHA(&a.opts.alpha, "significance level (default 0.05)"),
		OPT_CALLBACK(0, "adjust", &a.opts.adjust, "METHOD", "bh (default), holm or none",
			     set_adjust),
		OPT_MARGIN(&a.margin_pct, "\"same\" within +-PCT percent (default 1)"),
		OPT_CALLBACK(0, "seed", &a.opts.seed, "N", "bootstrap seed (default fixed, "
			     "printed in the JSON: reproducible)", set_seed),
		OPT_CALLBACK(0, "workload", &a.workloads, "NAME", "only these workloads (repeat, or a "
			     "comma list); the rows chosen are the family adjusted together",
			     add_workloads),
		OPT_CALLBACK(0, "metric", &a.metrics, "NAME",
			     "only these metrics (repeat, or a comma list)", add_metrics),
		OPT_IGNORE_PARAM(&a.ignored),
		OPT_BOOL(0, "only-changed", &a.only_changed,
			 "only rows with a better or worse verdict"),
		OPT_BOOL(0, "fail-on-regression", &a.fail_on_regression,
			 "exit 1 when any row is worse"),
		OPT_BOOL(0, "exclude-disturbed", &a.exclude_disturbed, "leave out the samples "
			 "of iterations that other tasks disturbed (see run --max-interference); "
			 "the verdicts say how many"),
		OPT_BOOL(0, "all-metrics", &a.all_metrics, "also compare what monitors measured "
			 "(rusage: wall, user, system, context switches, faults)"),
		OPT_BOOL('v', "verbose", &a.verbose, "a verdict line under every table row, "
			 "however many rows (else, with --all-metrics or more than 20 rows, "
			 "the verdicts are summed up per run, with a line per row that changed)"),
		OPT_MACHINE(&a.machine, "only the batches of the machines whose host name or "
			    "machine id PATTERN matches (*, ? and [...]), or whose machine id starts "
			    "with it (8 characters or more, none of * ? [, unless it is a "
			    "machine's whole host name or id; as \"lab1 (3f2a9c01)\" shows it)"),
		OPT_BOOL(0, "pool-machines", &a.pool_machines, "pool the samples of a run's "
			 "batches from several machines (refused otherwise)"),
		OPT_BOOL(0, "profile", &a.profile, "compare the runs' CPU profiles instead: per "
			 "benchmark the symbols whose share of samples moved most, in "
			 "percentage points, * where beyond the iteration-to-iteration spread"),
		OPT_INTEGER(0, "top", &a.top, "N", 1, 1000000,
			    "with --profile: symbols per benchmark (default 10)"),
		OPT_END(),
	};
	int code = EXIT_OK;

	compare_options_init(&a.opts);
	if (parse_options(argc, argv, options, &compare_usage, &code))
		goto out;
	if (command_check_top("compare", &a.top, a.profile)) {
		code = EXIT_USAGE;
		goto out;
	}
	if (!isnan(a.margin_pct))
		a.opts.margin = a.margin_pct / 100;
	if ((code = check_run_names(argc, argv)))
		goto out;
	if (a.profile && a.ignored.names.nr) {
		code = command_usage_error("compare", "--ignore-param pairs the tables' rows, not "
					   "--profile's benchmarks: give one or the other");
		goto out;
	}
	code = (a.profile ? compare_profiles : compare_runs)(argv + optind,
							    (size_t)(argc - optind), &a);
out:
	name_list_release(&a.workloads);
	name_list_release(&a.metrics);
	ignore_params_release(&a.ignored);
	return code;
}
