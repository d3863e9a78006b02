// SPDX-License-Identifier: GPL-2.0
/*
 * schedperf compare: runs side by side, the baseline first, every batch of
 * a run pooled. The model is built and analysed once (tests, intervals,
 * verdicts, environment differences); styles and formats only render it.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "report/report.h"
#include "store/store.h"
#include "util/xalloc.h"

const char compare_usage[] =
"usage: schedperf compare BASE NEW... [--style mmtests|lkp|benchstat]\n"
"                         [--format text|markdown|csv|json] [options]\n"
"\n"
"Put runs side by side, the first run the baseline: per benchmark and metric\n"
"the summary statistics, the change against BASE, significance and a verdict.\n"
"Every batch of a run name is pooled. Environment keys that differ between\n"
"the runs are listed above the tables; a verdict whose runs differ in a key\n"
"known to move results (governor, boost, no_turbo, SMT, preempt mode, CPU\n"
"model, machine) is marked, e.g. \"worse (!governor differs)\".\n"
"\n"
"Per run against BASE: Welch's t-test (its p-value is the one adjusted over\n"
"every row and run, and decides significance), Mann-Whitney U, a bootstrap\n"
"interval of mean(NEW)/mean(BASE), the Hodges-Lehmann shift with its\n"
"interval, and for rows without a change the minimum detectable effect (80 %\n"
"power). Verdict: better/worse when significant after adjustment and the\n"
"ratio interval excludes 1; same when that interval lies inside 1 +/- margin;\n"
"otherwise unknown. Intervals are at 1 - alpha.\n"
"\n"
"      --style STYLE    mmtests (default): MMTests' table, *x.xx%* on rows with\n"
"                       a verdict of change; lkp: value +- %stddev  %change\n"
"                       lines, tiny changes hidden; benchstat: median +- CI,\n"
"                       delta or ~, (p=... n=...)\n"
"      --format FORMAT  text (default), markdown, csv or json\n"
"                       (schedperf-compare/1); styles shape text and markdown\n"
"      --alpha A        significance level (default 0.05)\n"
"      --adjust METHOD  bh (default), holm or none\n"
"      --margin PCT     \"same\" within +-PCT percent (default 1)\n"
"      --seed N         bootstrap seed (default fixed: reproducible)\n"
"      --workload NAME  only these workloads (repeat, or a comma list); the\n"
"                       rows chosen are the family adjusted together\n"
"      --metric NAME    only these metrics (repeat, or a comma list)\n"
"      --only-changed   only rows with a better or worse verdict\n"
"      --fail-on-regression\n"
"                       exit 1 when any row is worse\n"
"      --all-metrics    also compare what monitors measured (rusage: wall,\n"
"                       user, system, context switches, faults)\n"
"      --db FILE        results store\n";

enum {
	OPT_FORMAT = OPT_COMMAND_BASE,
	OPT_ALL_METRICS,
	OPT_STYLE,
	OPT_ALPHA,
	OPT_ADJUST,
	OPT_MARGIN,
	OPT_SEED,
	OPT_WORKLOAD,
	OPT_METRIC,
	OPT_ONLY_CHANGED,
	OPT_FAIL_ON_REGRESSION,
};

static const struct option compare_options[] = {
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "all-metrics", no_argument, NULL, OPT_ALL_METRICS },
	{ "style", required_argument, NULL, OPT_STYLE },
	{ "alpha", required_argument, NULL, OPT_ALPHA },
	{ "adjust", required_argument, NULL, OPT_ADJUST },
	{ "margin", required_argument, NULL, OPT_MARGIN },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "workload", required_argument, NULL, OPT_WORKLOAD },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "only-changed", no_argument, NULL, OPT_ONLY_CHANGED },
	{ "fail-on-regression", no_argument, NULL, OPT_FAIL_ON_REGRESSION },
	COMMON_LONG_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

enum compare_format { FORMAT_TEXT, FORMAT_MARKDOWN, FORMAT_CSV, FORMAT_JSON };

struct compare_args {
	enum compare_format format;
	enum compare_style style;
	struct compare_options opts;
	bool all_metrics, only_changed, fail_on_regression;
	char **workloads, **metrics;	/* NULL-terminated, or NULL */
	size_t nr_workloads, nr_metrics;
};

/* Append every name of a comma list to a NULL-terminated list. */
static void add_names(char ***list, size_t *nr, const char *arg)
{
	char *copy = xstrdup(arg), *save = NULL;

	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		*list = xreallocarray(*list, *nr + 2, sizeof(char *));
		(*list)[(*nr)++] = xstrdup(tok);
		(*list)[*nr] = NULL;
	}
	free(copy);
}

static void free_names(char **list)
{
	for (char **p = list; p && *p; p++)
		free(*p);
	free(list);
}

static int parse_number(const char *arg, double lo, double hi, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(arg, &end);
	return errno || end == arg || *end || !(*out > lo && *out < hi) ? -1 : 0;
}

static int parse_format(const char *arg, enum compare_format *format)
{
	static const char *const names[] = { "text", "markdown", "csv", "json" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(arg, names[i])) {
			*format = (enum compare_format)i;
			return 0;
		}
	return -1;
}

static int parse_style(const char *arg, enum compare_style *style)
{
	static const char *const names[] = { "mmtests", "lkp", "benchstat" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(arg, names[i])) {
			*style = (enum compare_style)i;
			return 0;
		}
	return -1;
}

/* One option; returns 0, or the exit code of a usage error. */
static int compare_option(int opt, const char *arg, struct compare_args *a)
{
	double v;
	char *end;

	switch (opt) {
	case OPT_FORMAT:
		if (parse_format(arg, &a->format))
			return command_usage_error("compare", "unknown format '%.32s': give "
						   "text, markdown, csv or json", arg);
		break;
	case OPT_STYLE:
		if (parse_style(arg, &a->style))
			return command_usage_error("compare", "unknown style '%.32s': give "
						   "mmtests, lkp or benchstat", arg);
		break;
	case OPT_ALPHA:
		if (parse_number(arg, 0, 0.5, &a->opts.alpha))
			return command_usage_error("compare", "--alpha '%.32s': give a number "
						   "between 0 and 0.5, e.g. 0.05", arg);
		break;
	case OPT_ADJUST:
		if (p_adjust_method_parse(arg, &a->opts.adjust))
			return command_usage_error("compare", "--adjust '%.32s': give bh, "
						   "holm or none", arg);
		break;
	case OPT_MARGIN:
		if (parse_number(arg, 0, 100, &v))
			return command_usage_error("compare", "--margin '%.32s': give a percent "
						   "between 0 and 100, e.g. 1", arg);
		a->opts.margin = v / 100;
		break;
	case OPT_SEED:
		errno = 0;
		a->opts.seed = strtoull(arg, &end, 0);
		if (errno || end == arg || *end || *arg == '-')
			return command_usage_error("compare", "--seed '%.32s': give a "
						   "non-negative integer", arg);
		break;
	case OPT_WORKLOAD:
		add_names(&a->workloads, &a->nr_workloads, arg);
		break;
	case OPT_METRIC:
		add_names(&a->metrics, &a->nr_metrics, arg);
		break;
	case OPT_ONLY_CHANGED:
		a->only_changed = true;
		break;
	case OPT_FAIL_ON_REGRESSION:
		a->fail_on_regression = true;
		break;
	case OPT_ALL_METRICS:
		a->all_metrics = true;
		break;
	}
	return 0;
}

static void render(const struct comparison *cmp, const struct compare_args *a)
{
	switch (a->format) {
	case FORMAT_JSON:
		report_compare_json(stdout, cmp);
		return;
	case FORMAT_CSV:
		report_compare_csv(stdout, cmp);
		return;
	case FORMAT_MARKDOWN:
		report_compare_markdown(stdout, cmp, a->style);
		return;
	case FORMAT_TEXT:
		break;
	}
	report_env_differences(stdout, cmp, false);
	if (a->only_changed && !cmp->nr_rows)
		printf("no changes: no row is better or worse\n");
	else if (a->style == STYLE_LKP)
		report_compare_lkp(stdout, cmp, global.color);
	else if (a->style == STYLE_BENCHSTAT)
		report_compare_benchstat(stdout, cmp, global.color);
	else
		report_compare_mmtests(stdout, cmp, global.color);
}

static int check_run_names(int argc, char **argv)
{
	size_t nr_runs = (size_t)(argc - optind);

	if (argc - optind < 2)
		return command_usage_error("compare", "give a baseline run and at least one "
					   "run to compare with it");
	for (size_t i = 0; i < nr_runs; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(argv[optind + i], argv[optind + j]))
				return command_usage_error("compare", "run '%.64s' is named twice",
							   argv[optind + i]);
	return 0;
}

static int compare_runs(char **names, size_t nr_runs, const struct compare_args *a)
{
	struct compare_run *runs = xcalloc(nr_runs, sizeof(*runs));
	struct store *st = NULL;
	struct error err = { 0 };
	struct comparison cmp;
	int code = EXIT_OK;

	if (store_open_existing(global.db, &st, &err)) {
		free(runs);
		return error_report(&err);
	}
	for (size_t i = 0; i < nr_runs; i++) {
		runs[i].name = names[i];
		if (store_load(st, runs[i].name, true, &runs[i].set, &err)) {
			code = error_report(&err);
			goto out;
		}
	}
	comparison_build(&cmp, runs, nr_runs, a->all_metrics);
	comparison_filter(&cmp, (const char *const *)a->workloads,
			  (const char *const *)a->metrics);
	if (!cmp.nr_rows && (a->nr_workloads || a->nr_metrics)) {
		/* A misspelt name must not read as "nothing changed". */
		code = die_code(EXIT_USAGE, "compare: no row matches --workload or --metric "
				"(see 'schedperf show %.64s' for the workloads and metrics)",
				names[0]);
		comparison_release(&cmp);
		goto out;
	}
	comparison_analyze(&cmp, &a->opts);
	if (a->fail_on_regression && comparison_has_regression(&cmp))
		code = EXIT_FOUND;
	if (a->only_changed)
		comparison_keep_changed(&cmp);
	render(&cmp, a);
	comparison_release(&cmp);
out:
	for (size_t i = 0; i < nr_runs; i++)
		result_set_release(&runs[i].set);
	free(runs);
	store_close(st);
	return code;
}

int cmd_compare(int argc, char **argv)
{
	const struct command *cmd = command_find("compare");
	struct compare_args a = { .format = FORMAT_TEXT, .style = STYLE_MMTESTS };
	int opt, code = EXIT_OK;

	compare_options_init(&a.opts);
	while ((opt = command_getopt(cmd, argc, argv, "qh", compare_options, &code)) != -1) {
		if (opt == CMD_OPT_EXIT)
			goto out;
		if ((code = compare_option(opt, optarg, &a)))
			goto out;
	}
	if ((code = check_run_names(argc, argv)))
		goto out;
	code = compare_runs(argv + optind, (size_t)(argc - optind), &a);
out:
	free_names(a.workloads);
	free_names(a.metrics);
	return code;
}
