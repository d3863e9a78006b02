// SPDX-License-Identifier: GPL-2.0
/*
 * The command table: every subcommand's name, function and one-line
 * summary, and what all of them share (the global options, the usage
 * error).
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "util/utf8.h"

struct global_options global = { NULL, false, false };

const struct command commands[] = {
	{ "run", cmd_run, "run workloads and store every sample" },
	{ "compare", cmd_compare, "put runs side by side with percent changes" },
	{ "history", cmd_history, "show each benchmark's series over the stored runs" },
	{ "detect", cmd_detect, "find where a series of runs changed (change points)" },
	{ "report", cmd_report, "write runs, their charts and history as one HTML page" },
	{ "ab", cmd_ab, "is B faster than A? sample both until a verdict" },
	{ "bisect", cmd_bisect, "find the commit that made a workload worse, git bisect run by it" },
	{ "bisect-step", cmd_bisect_step, "decide one git bisect step: good, bad or skip" },
	{ "list", cmd_list, "list workloads, their parameters and metrics" },
	{ "runs", cmd_runs, "list the runs in the store and their batches" },
	{ "show", cmd_show, "show one run's benchmarks, samples and environment" },
	{ "env", cmd_env, "print the environment a run would record" },
	{ "export", cmd_export, "write runs as schedperf-results/1 JSON" },
	{ "import", cmd_import, "read schedperf-results/1 JSON into the store" },
	{ "submit", cmd_submit, "queue a run for the workers of the machines it names" },
	{ "jobs", cmd_jobs, "list the job queue: queued, running, done, failed" },
	{ "worker", cmd_worker, "take queued jobs for this machine and run them" },
	{ "cancel", cmd_cancel, "cancel queued or running jobs" },
	{ "db", cmd_db, "create a store, upgrade its schema, or check it" },
	{ "help", cmd_help, "show help for schedperf or one command" },
	{ NULL, NULL, NULL },
};

const struct command *command_find(const char *name)
{
	for (const struct command *c = commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
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

int command_check_utf8(const char *cmd, const char *what, const char *s)
{
	char shown[128];

	if (utf8_valid(s))
		return 0;
	utf8_escape(shown, sizeof(shown), s);
	return command_usage_error(cmd, "%s '%s' is not valid UTF-8: names and values are "
				   "stored and exported as UTF-8 text", what, shown);
}

int command_check_name(const char *cmd, const char *what, const char *s, size_t max)
{
	if (command_check_utf8(cmd, what, s))
		return EXIT_USAGE;
	if (!*s || strlen(s) > max)
		return command_usage_error(cmd, "%s must have 1 to %zu characters", what, max);
	for (const char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return command_usage_error(cmd, "%s contains control characters", what);
	return 0;
}

int command_check_utf8_operands(const char *cmd, const char *what, int argc, char **argv)
{
	int code = 0;

	for (int i = optind; i < argc && !code; i++)
		code = command_check_utf8(cmd, what, argv[i]);
	return code;
}

int command_check_distinct_operands(const char *cmd, const char *what, int argc, char **argv)
{
	for (int i = optind; i < argc; i++)
		for (int j = optind; j < i; j++)
			if (!strcmp(argv[i], argv[j]))
				return command_usage_error(cmd, "%s '%.64s' is named twice", what,
							   argv[i]);
	return 0;
}

int command_check_format(const char *cmd, const char *format, const char *const *formats)
{
	char names[128];
	size_t n = 0, used = 0;

	for (n = 0; formats[n]; n++)
		if (!strcmp(format, formats[n]))
			return 0;
	names[0] = '\0';
	for (size_t i = 0; i < n && used < sizeof(names); i++)
		used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s",
					 !i ? "" : i + 1 < n ? ", " : " or ", formats[i]);
	return command_usage_error(cmd, "unknown format '%.32s': give %s", format, names);
}
