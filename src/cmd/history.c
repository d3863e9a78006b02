// SPDX-License-Identifier: GPL-2.0
/*
 * schedperf history: each benchmark and metric as a series over the
 * stored runs, one point per run (or batch), in time, name or kernel
 * version order.
 */
#include <getopt.h>

#include "cli/series_options.h"
#include "cmd/cmd.h"
#include "report/history.h"

static const struct cmd_usage history_usage = {
	"usage: schedperf history [--workload W] [--metric M] [-p KEY=VALUE]...\n"
	"                         [--by run|batch] [--order started|name|version]\n"
	"                         [--format {format}] [options]\n"
	"\n"
	"Every benchmark and metric in the store as a series over the runs: one\n"
	"point per run name (its batches pooled) or per batch, with the number of\n"
	"samples, their mean, median and standard deviation, and the 95 % t\n"
	"interval of the mean. 'schedperf detect' finds where such a series\n"
	"changed.\n",
	NULL,
};

int cmd_history(int argc, char **argv)
{
	const struct output_format *f;
	struct option_choice format = OPTION_CHOICE(history_formats);
	struct series_args a;
	const struct cmd_option options[] = {
		SERIES_OPTIONS(&a),
		OPT_FORMAT(&format, "{}"),
		OPT_END(),
	};
	struct result_set set = { 0 };
	struct history h = { 0 };
	int code = EXIT_OK;

	series_args_init(&a, "history");
	if (parse_options(argc, argv, options, &history_usage, &code))
		goto out;
	if (optind < argc) {
		code = command_usage_error("history", "unexpected argument '%.64s'",
					   argv[optind]);
		goto out;
	}
	if ((code = series_args_load(&a, &set, &h)))
		goto out;
	f = format.chosen;
	f->write(stdout, &h, NULL);
out:
	history_release(&h);
	result_set_release(&set);
	series_args_release(&a);
	return code;
}
