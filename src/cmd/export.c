// SPDX-License-Identifier: GPL-2.0
/* schedperf export: runs as schedperf-results/1 JSON. */
#include <getopt.h>
#include <stdio.h>

#include "cmd/cmd.h"
#include "interchange/interchange.h"
#include "store/store.h"
#include "util/output_file.h"

static const struct cmd_usage export_usage = {
	"usage: schedperf export RUN... [-o FILE]\n"
	"\n"
	"Write every batch of each RUN as schedperf-results/1 JSON, to standard\n"
	"output or to FILE (written whole or not at all). 'schedperf import' reads\n"
	"it back; export -> import -> export is byte-identical.\n",
	NULL,
};

int cmd_export(int argc, char **argv)
{
	struct result_set set = { NULL, 0 };
	struct output_file of = { 0 };
	struct store *st = NULL;
	struct error err = { 0 };
	const char *output = NULL;
	const struct cmd_option options[] = {
		OPT_STRING('o', "output", &output, "FILE",
			   "write to FILE instead of standard output"),
		OPT_END(),
	};
	int code = EXIT_OK;

	if (parse_options(argc, argv, options, &export_usage, &code))
		return code;
	if (optind >= argc)
		return command_usage_error("export", "give the name of at least one run "
					   "(see 'schedperf runs')");
	if (command_check_utf8_operands("export", "run name", argc, argv) ||
	    command_check_distinct_operands("export", "run", argc, argv))
		return EXIT_USAGE;
	/* FILE is written whole or not at all (util/output_file.h), checked first */
	if (output && output_file_open(&of, output, "export", &err))
		goto fail;
	if (store_open_existing(global.db, &st, &err))
		goto fail;
	for (int i = optind; i < argc; i++)
		if (store_load(st, argv[i], STORE_EVERYTHING, &set, &err))
			goto fail;
	if (interchange_write(output ? of.f : stdout, &set, &err) ||
	    (output && output_file_commit(&of, &err)))
		goto fail;
	goto out;
fail:
	code = error_report(&err);
	if (of.f)
		output_file_abort(&of);
out:
	result_set_release(&set);
	store_close(st);
	return code;
}
