// SPDX-License-Identifier: GPL-2.0
/*
 * schedperf: find Linux scheduler performance regressions and prove or
 * refute them. This file is the command table and the dispatch, git style:
 * global options first, then one command, each in src/cmd/NAME.c.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "util/error.h"

struct global_options global = { NULL, 0, 0 };

const struct command commands[] = {
	{ "run", cmd_run, "run workloads and store every sample", run_usage },
	{ "compare", cmd_compare, "put runs side by side with percent changes", compare_usage },
	{ "list", cmd_list, "list workloads, their parameters and metrics", list_usage },
	{ "runs", cmd_runs, "list the runs in the store and their batches", runs_usage },
	{ "show", cmd_show, "show one run's benchmarks, samples and environment", show_usage },
	{ "env", cmd_env, "print the environment a run would record", env_usage },
	{ "export", cmd_export, "write runs as schedperf-results/1 JSON", export_usage },
	{ "import", cmd_import, "read schedperf-results/1 JSON into the store", import_usage },
	{ "help", cmd_help, "show help for schedperf or one command", help_usage },
	{ NULL, NULL, NULL, NULL },
};

static const char main_usage[] =
"usage: schedperf [--db FILE] [--quiet] [--version] [--help] COMMAND [ARGS]\n"
"\n"
"Run scheduler-sensitive workloads, store every sample with the machine's\n"
"state, and compare runs with sound statistics.\n"
"\n"
"Global options:\n"
"  --db FILE     results store (default: $SCHEDPERF_DB, else ./schedperf.db)\n"
"  --quiet       no progress output\n"
"  --version     print the version and exit\n"
"\n"
"Commands:\n";

const struct command *command_find(const char *name)
{
	for (const struct command *c = commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

int command_usage(const struct command *cmd)
{
	fputs(cmd->usage, stdout);
	return EXIT_OK;
}

int command_usage_error(const char *cmd, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return die_code(EXIT_USAGE, "%s: %s (see 'schedperf %s --help')", cmd, msg, cmd);
}

int command_getopt(const struct command *cmd, int argc, char **argv,
		   const char *shortopts, const struct option *longopts,
		   int *exit_code)
{
	int opt;

	for (;;) {
		opt = getopt_long(argc, argv, shortopts, longopts, NULL);
		switch (opt) {
		case OPT_DB:
			global.db = optarg;
			continue;
		case 'q':
			global.quiet = 1;
			continue;
		case 'h':
			*exit_code = command_usage(cmd);
			return CMD_OPT_EXIT;
		case '?':
			if (optopt)
				*exit_code = command_usage_error(cmd->name,
					"option '-%c' is unknown or lacks its value", optopt);
			else
				*exit_code = command_usage_error(cmd->name,
					"option '%.64s' is unknown or lacks its value",
					argv[optind - 1]);
			return CMD_OPT_EXIT;
		case ':':
			*exit_code = command_usage_error(cmd->name,
				"option '%s' needs a value", argv[optind - 1]);
			return CMD_OPT_EXIT;
		default:
			return opt;
		}
	}
}

static void print_main_usage(FILE *out)
{
	fputs(main_usage, out);
	for (const struct command *c = commands; c->name; c++)
		fprintf(out, "  %-10s %s\n", c->name, c->summary);
	fputs("\nSee 'schedperf help COMMAND' for one command's options.\n", out);
}

int cmd_help(int argc, char **argv)
{
	const struct command *cmd;

	if (argc < 2) {
		print_main_usage(stdout);
		return EXIT_OK;
	}
	if (argc > 2)
		return command_usage_error("help", "too many arguments");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return command_usage(command_find("help"));
	cmd = command_find(argv[1]);
	if (!cmd)
		return die_code(EXIT_USAGE, "unknown command '%.64s': not one of schedperf's "
				"commands (see 'schedperf help')", argv[1]);
	return command_usage(cmd);
}

const char help_usage[] =
"usage: schedperf help [COMMAND]\n"
"\n"
"Without COMMAND, list the commands; with it, show that command's options\n"
"(the same as 'schedperf COMMAND --help').\n";

/*
 * A command that printed its result into a full disk or a closed pipe has
 * not succeeded: check stdout once, as git does, rather than every printf.
 */
static int finish_output(int code)
{
	if (code == EXIT_OK && (fflush(stdout) || ferror(stdout)))
		return die_code(EXIT_ENV, "cannot write the output: %s (check free space on "
				"the output's file system)", strerror(errno ? errno : EIO));
	return code;
}

int main(int argc, char **argv)
{
	const struct command *cmd;
	const char *env_db = getenv("SCHEDPERF_DB");
	int i;

	global.db = env_db && *env_db ? env_db : "schedperf.db";
	global.color = isatty(STDOUT_FILENO) && !getenv("NO_COLOR");

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "--version")) {
			printf("schedperf %s\n", SCHEDPERF_VERSION);
			return EXIT_OK;
		} else if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
			print_main_usage(stdout);
			return EXIT_OK;
		} else if (!strcmp(arg, "--quiet") || !strcmp(arg, "-q")) {
			global.quiet = 1;
		} else if (!strcmp(arg, "--db")) {
			if (i + 1 >= argc)
				return die_code(EXIT_USAGE, "option '--db' needs a value "
						"(give --db FILE)");
			global.db = argv[++i];
		} else if (!strncmp(arg, "--db=", 5)) {
			global.db = arg + 5;
		} else {
			return die_code(EXIT_USAGE, "unknown option '%.64s' (see 'schedperf --help')",
					arg);
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
