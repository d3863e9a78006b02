// SPDX-License-Identifier: GPL-2.0
/* schedperf export: runs as schedperf-results/1 JSON. */
#include <getopt.h>
#include <stdio.h>

#include "cmd/cmd.h"
#include "store/interchange.h"
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

/* Write FILE whole or not at all (util/output_file.h). */
static int write_file(const char *path, const struct result_set *set, struct error *err)
{
	struct output_file of;

	if (output_file_open(&of, path, "export", err))
		return -1;
	if (interchange_write(of.f, set, err)) {
		output_file_abort(&of);
		return -1;
	}
	return output_file_commit(&of, err);
}

int cmd_export(int argc, char **argv)
{
	struct result_set set = { NULL, 0 };
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
	if (output && !*output)
		return command_usage_error("export", "-o needs a file name");
	if (command_check_utf8_operands("export", "run name", argc, argv))
		return EXIT_USAGE;
	if (store_open_existing(global.db, &st, &err))
		goto fail;
	for (int i = optind; i < argc; i++)
		if (store_load(st, argv[i], true, &set, &err))
			goto fail;
	if (output ? write_file(output, &set, &err) : interchange_write(stdout, &set, &err))
		goto fail;
	goto out;
fail:
	code = error_report(&err);
out:
	result_set_release(&set);
	store_close(st);
	return code;
}
