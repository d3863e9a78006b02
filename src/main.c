// SPDX-License-Identifier: GPL-2.0
/*
 * schedperf: find Linux scheduler performance regressions and prove or
 * refute them. This file is the dispatch, git style: global options first,
 * then one command of the table in src/cmd/commands.c.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "cmd/cmd.h"
#include "util/error.h"
#include "util/signals.h"

/*
 * A command that printed its result into a full disk or a closed pipe has
 * not succeeded: check stdout once, as git does, rather than every printf.
 */
static int finish_output(int code)
{
	int e;

	if (code != EXIT_OK || (!fflush(stdout) && !ferror(stdout)))
		return code;
	e = errno ? errno : EIO;
	return die_code(EXIT_ENV, "cannot write the output: %s (%s)", strerror(e),
			e == EBADF ? "standard output is closed: give the command one" :
			"check free space on the output's file system");
}

int main(int argc, char **argv)
{
	const struct command *cmd;
	int i;

	/* a file-size limit then fails a write with EFBIG, which is reported */
	signals_ignore_file_size();
	cli_setup();

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const struct cmd_option *row;
		const char *arg;
		int found = option_match(argc, argv, &i, global_only_options, &row, &arg);

		if (!found)
			found = option_match(argc, argv, &i, common_options, &row, &arg);
		if (found < 0)
			return die_code(EXIT_USAGE, "option '--%s' needs a value (give --%s %s)",
					row->long_name, row->long_name, row->argh);
		if (!found)
			return die_code(EXIT_USAGE, "unknown option '%.64s' (see 'schedperf --help')",
					argv[i]);
		if (row->kind == CMD_OPTION_HELP) {
			print_main_usage(stdout);
			return finish_output(EXIT_OK);
		}
		/* --db's string and the flags: taken as they come, no check to fail */
		option_apply(NULL, row, arg);
		if (global.version) {
			printf("schedperf %s\n", SCHEDPERF_VERSION);
			return finish_output(EXIT_OK);
		}
	}
	if (i >= argc)
		return die_code(EXIT_USAGE, "no command given: schedperf needs one, such as "
				"run or compare (see 'schedperf help')");
	cmd = command_find(argv[i]);
	if (!cmd)
		return die_code(EXIT_USAGE, "unknown command '%.64s': not one of schedperf's "
				"commands (see 'schedperf help')", argv[i]);
	optind = 1;
	opterr = 0;
	return finish_output(cmd->fn(argc - i, argv + i));
}
