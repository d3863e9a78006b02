// SPDX-License-Identifier: GPL-2.0
/* schedperf runs: the runs in the store, with their batches. */
#include <getopt.h>
#include <stdio.h>

#include "analysis/machines.h"
#include "cli/unfinished.h"
#include "cmd/cmd.h"
#include "report/report.h"
#include "store/store.h"

static const struct cmd_usage runs_usage = {
	"usage: schedperf runs [--machine PATTERN] [--format {format}]\n"
	"\n"
	"List the runs in the store: each name with its batches (start time, the\n"
	"machine it ran on and whether every planned iteration completed), its\n"
	"benchmarks (each workload with its parameters once, however many batches\n"
	"ran it) and the samples of their workloads' metrics. A machine is named by\n"
	"its host name, followed by the start of its machine id when another machine\n"
	"shown has the same host name, as compare names it: \"lab1 (3f2a9c01)\".\n"
	"A PATTERN that matches no stored batch is refused (exit status 2).\n"
	"JSON: [{\"name\", \"batches\": [{\"id\", \"started\", \"machine\" (host name),\n"
	"\"machine_id\" (null when none was recorded), \"complete\", \"disturbed\"}],\n"
	"\"benchmarks\", \"samples\", \"disturbed\"}]; disturbed counts measured\n"
	"iterations that other tasks disturbed (see 'schedperf run --max-interference').\n",
	NULL,
};

int cmd_runs(int argc, char **argv)
{
	struct option_choice format = OPTION_CHOICE(runs_formats);
	const struct output_format *f;
	struct result_set set = { NULL, 0 };
	struct store *st = NULL;
	struct error err = { 0 };
	const char *machine = NULL;
	const struct cmd_option options[] = {
		OPT_MACHINE(&machine, "only the batches of the machines whose host name or "
			    "machine id PATTERN matches (*, ? and [...]), or whose machine id starts "
			    "with it (8 characters or more, none of * ? [, unless it is a "
			    "machine's whole host name or id; as \"lab1 (3f2a9c01)\" shows it)"),
		OPT_FORMAT(&format, "{}"),
		OPT_END(),
	};
	int code = EXIT_OK;

	if (parse_options(argc, argv, options, &runs_usage, &code))
		return code;
	f = format.chosen;
	if (optind < argc)
		return command_usage_error("runs", "unexpected argument '%.64s'", argv[optind]);
	if (store_open_existing(global.db, &st, &err) ||
	    store_load(st, NULL, STORE_COUNTS, &set, &err) ||
	    machines_select(&set, machine, "runs", &err)) {
		code = error_report(&err);
		goto out;
	}
	f->write(stdout, &set, NULL);
	say_unfinished_replacements(st, global.db, NULL);
out:
	result_set_release(&set);
	store_close(st);
	return code;
}
