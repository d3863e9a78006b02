// SPDX-License-Identifier: GPL-2.0
/* schedperf help: the list of commands, or one command's --help. */
#include <getopt.h>
#include <stdio.h>

#include "cmd/cmd.h"

static const char main_usage[] =
"usage: schedperf [--db FILE] [--quiet] [--version] [--help] COMMAND [ARGS]\n"
"\n"
"Run scheduler-sensitive workloads, store every sample with the machine's\n"
"state, and compare runs with sound statistics.\n"
"\n"
"Global options:\n";

static const struct cmd_usage help_usage = {
	"usage: schedperf help [COMMAND]\n"
	"\n"
	"Without COMMAND, list the commands; with it, show that command's options\n"
	"(the same as 'schedperf COMMAND --help').\n",
	NULL,
};

void print_main_usage(FILE *out)
{
	fputs(main_usage, out);
	print_options(out, global_only_options);
	fputs("\nCommands:\n", out);
	for (const struct command *c = commands; c->name; c++)
		fprintf(out, "  %-10s %s\n", c->name, c->summary);
	fputs("\nSee 'schedperf help COMMAND' for one command's options.\n", out);
}

int cmd_help(int argc, char **argv)
{
	const struct cmd_option options[] = { OPT_END() };
	const struct command *cmd;
	char *help_argv[] = { NULL, (char *)"--help", NULL };
	int code;

	if (parse_options(argc, argv, options, &help_usage, &code))
		return code;
	if (optind >= argc) {
		print_main_usage(stdout);
		return EXIT_OK;
	}
	if (optind + 1 < argc)
		return command_usage_error("help", "too many arguments");
	cmd = command_find(argv[optind]);
	if (!cmd)
		return die_code(EXIT_USAGE, "unknown command '%.64s': not one of schedperf's "
				"commands (see 'schedperf help')", argv[optind]);
	/* the command prints its own help, from its own option table */
	help_argv[0] = argv[optind];
	optind = 0;	/* a fresh getopt scan */
	return cmd->fn(2, help_argv);
}
