// SPDX-License-Identifier: GPL-2.0
/* schedperf show: one run's batches, environment, benchmarks and samples. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/unfinished.h"
#include "cmd/cmd.h"
#include "report/report.h"
#include "runner/plan.h"
#include "store/store.h"
#include "util/utf8.h"

static const struct cmd_usage show_usage = {
	"usage: schedperf show RUN [--samples] [--env] [--profile [--top N]]\n"
	"\n"
	"Show every batch of RUN: when it started, whether it completed, each\n"
	"benchmark with the headline statistic of each metric and how many of its\n"
	"iterations other tasks disturbed, and by whom. With --profile, then per\n"
	"benchmark the symbols with the largest share of the samples its profiles\n"
	"took (run with --monitors profile), children and self.\n",
	NULL,
};

static void print_samples(const struct result_batch *batch)
{
	for (size_t i = 0; i < batch->nr_benchmarks; i++) {
		const struct result_benchmark *b = &batch->benchmarks[i];
		char *label = benchmark_label(batch, b);

		printf("  samples of %s\n", label);
		free(label);
		for (size_t m = 0; m < b->nr_metrics; m++) {
			const struct result_metric *metric = &b->metrics[m];

			printf("    %-20s", metric->name);
			for (size_t k = 0; k < metric->nr_warmup; k++)
				printf(" (%.9g)", metric->warmup[k]);
			for (size_t k = 0; k < metric->nr_samples; k++)
				printf(" %.9g%s", metric->samples[k],
				       metric->disturbed && metric->disturbed[k] ? "!" : "");
			if (result_metric_repetitions(metric) > 1)
				printf("  [%s, %zu per iteration]\n", metric->unit,
				       result_metric_repetitions(metric));
			else
				printf("  [%s]\n", metric->unit);
		}
	}
}

/*
 * The top symbols of every benchmark of run @name that has a profile, into
 * @d, its names escaped to show; @set's are still as stored. A run without
 * one is refused before anything is printed.
 */
static int build_profile(struct profile_diff *d, struct store *st,
			 const struct result_set *set, const char *name, int top)
{
	const struct compare_run run = { name, *set };
	struct error err = { 0 };
	bool profiled;
	char why[320];

	/* by the names as stored: a text \x1b is not an escape */
	profile_diff_build(d, &run, 1, (size_t)top, NULL);
	if (profile_diff_has_run(d, 0)) {
		/*
		 * before report_shown_names() frees the names it escapes: @d
		 * keeps its own escaped copies and borrows only plain names
		 */
		report_shown_profile(d);
		return EXIT_OK;
	}
	if (plan_batches_profile(st, set, &profiled, &err)) {
		profile_diff_release(d);
		return error_report(&err);
	}
	profile_diff_why_none(d, 0, name, profiled, why, sizeof(why));
	profile_diff_release(d);
	return die_code(EXIT_USAGE, "show --profile: run '%.64s' %s", name, why);
}

int cmd_show(int argc, char **argv)
{
	struct result_set set = { NULL, 0 };
	struct store *st = NULL;
	struct error err = { 0 };
	struct profile_diff d;
	bool samples = false, env = false, profile = false;
	int top = 0;
	const struct cmd_option options[] = {
		OPT_BOOL(0, "samples", &samples,
			 "also print every sample of every metric (warm-ups in parentheses, disturbed "
			 "ones marked !)"),
		OPT_BOOL(0, "env", &env, "also print the environment recorded with each batch"),
		OPT_BOOL(0, "profile", &profile, "also print each benchmark's top symbols in its "
			 "CPU profiles: percent of samples in the symbol (self) and with it on "
			 "the call chain (children), the mean over the profiles"),
		OPT_INTEGER(0, "top", &top, "N", 1, 1000000,
			    "with --profile: symbols per benchmark (default 10)"),
		OPT_END(),
	};
	int code = EXIT_OK;

	if (parse_options(argc, argv, options, &show_usage, &code))
		return code;
	if (command_check_top("show", &top, profile))
		return EXIT_USAGE;
	if (optind >= argc)
		return command_usage_error("show", "give the name of a run (see 'schedperf runs')");
	if (optind + 1 < argc)
		return command_usage_error("show", "one run at a time: unexpected '%.64s'",
					   argv[optind + 1]);
	if (command_check_utf8_operands("show", "run name", argc, argv))
		return EXIT_USAGE;
	if (store_open_existing(global.db, &st, &err) ||
	    store_load(st, argv[optind], STORE_EVERYTHING, &set, &err)) {
		code = error_report(&err);
		goto out;
	}
	if (profile && (code = build_profile(&d, st, &set, argv[optind], top)))
		goto out;
	report_shown_names(&set);
	for (size_t i = 0; i < set.nr_batches; i++) {
		const struct result_batch *batch = &set.batches[i];

		if (i)
			putchar('\n');
		report_batch_summary(stdout, batch);
		if (samples)
			print_samples(batch);
		if (env) {
			printf("  environment:\n");
			for (size_t k = 0; k < batch->nr_env; k++) {
				/* an imported value's return or escape never reaches the terminal */
				char *key = utf8_escaped(batch->env[k].key);
				char *value = utf8_escaped(batch->env[k].value);

				printf("    %-40s %s\n", key, value);
				free(key);
				free(value);
			}
		}
	}
	if (profile) {
		char *label = utf8_escaped(argv[optind]);

		putchar('\n');
		report_profile_text(stdout, &d, (const char *const *)&label);
		free(label);
		profile_diff_release(&d);
	}
	say_unfinished_replacements(st, global.db, argv[optind]);
out:
	result_set_release(&set);
	store_close(st);
	return code;
}
