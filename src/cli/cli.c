// SPDX-License-Identifier: GPL-2.0
/*
 * The command line's shared parts (cli.h): the global options and the
 * one-line complaints about a command's arguments.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "runner/iteration.h"
#include "runner/job_env.h"
#include "runner/knob_guard.h"
#include "runner/knob_journal.h"
#include "util/db_hint.h"
#include "util/kernel_release.h"
#include "util/output_file.h"
#include "util/strbuf.h"
#include "util/utf8.h"
#include "util/xalloc.h"

struct global_options global = { NULL, false, false, false };

/*
 * The knob guard's words: progress and warnings on stderr, restores on
 * stdout, each one line of text whatever a value holds (a tab spelt \t, a
 * newline \n, a byte not UTF-8 \xHH as jobs shows an original).
 */
static void say_line(FILE *out, const char *prefix, const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	char *line;

	strbuf_add_one_line(&sb, text);
	line = utf8_escaped(strbuf_str(&sb));
	fprintf(out, "%s%s\n", prefix, line);
	free(line);
	strbuf_release(&sb);
}

static void knob_said(const char *text)
{
	if (!global.quiet)
		say_line(stderr, "schedperf: ", text);
}

static void knob_warned(const char *text)
{
	say_line(stderr, "schedperf: ", text);
}

static void knob_restored(const struct knob_original *k)
{
	char *text;

	if (global.quiet || asprintf(&text, "%s %s = %s", k->kind, k->name, k->value) < 0)
		return;
	say_line(stdout, "restored ", text);
	free(text);
}

static const struct knob_events knob_voice = { knob_said, knob_warned, knob_restored };

void cli_setup(void)
{
	/* a worker's run: the store its worker gives it, which lives as global.db does */
	static char *job_db;
	struct error err = { 0 };

	/* a job's variables are the run's alone: out of what it starts inherits */
	job_env_take();
	global.db = db_default();
	if (job_env_db(&job_db, &err) < 0)
		exit(error_report(&err));
	if (job_db)
		global.db = job_db;
	global.color = isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
	knob_events_set(&knob_voice);
	job_env_check_paths();
	/* what a -o must never replace: the originals of a killed ab's settings */
	knob_files_each(output_file_protect);
}

int command_usage_error(const char *cmd, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* one (how to fix) part: the message's own when it has one, else --help */
	if (msg[0] && msg[strlen(msg) - 1] == ')')
		return die_code(EXIT_USAGE, "%s: %s", cmd, msg);
	return die_code(EXIT_USAGE, "%s: %s (see 'schedperf %s --help')", cmd, msg, cmd);
}

int command_interrupted(const char *fmt, ...)
{
	va_list ap;

	fputs("schedperf: interrupted: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 128 + iteration_interrupted();
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

int command_check_names(const char *cmd, const char *option, const char *what, const char *arg)
{
	size_t len = strlen(arg);

	if (!len || arg[0] == ',' || arg[len - 1] == ',' || strstr(arg, ",,"))
		return command_usage_error(cmd, "%s '%.64s': an empty %s chooses nothing (give "
					   "one or more, separated by single commas)", option, arg,
					   what);
	return command_check_utf8(cmd, what, arg);
}

int command_check_name(const char *cmd, const char *what, const char *s, size_t max)
{
	if (command_check_utf8(cmd, what, s))
		return EXIT_USAGE;
	if (!*s || strlen(s) > max)
		return command_usage_error(cmd, "%s must have 1 to %zu bytes, a character "
					   "beyond ASCII taking 2 to 4 in UTF-8", what, max);
	if (!utf8_plain(s))
		return command_usage_error(cmd, "%s contains control characters, or marks such as "
					   "U+202E that reorder a line", what);
	return 0;
}

int command_check_run_name(const char *cmd, const char *what, const char *s, size_t max)
{
	char *shown;
	int code;

	if (command_check_name(cmd, what, s, max))
		return EXIT_USAGE;
	if (!utf8_blank_at_ends(s))
		return 0;
	shown = utf8_blanks_escaped(s);
	if (utf8_blank(s))
		code = command_usage_error(cmd, "%s '%.128s' is blank: it would show as no name "
					   "at all (give a name with a visible character)", what,
					   shown);
	else
		code = command_usage_error(cmd, "%s '%.128s' begins or ends with a space: it "
					   "would look like a name without it (give it without "
					   "the spaces)", what, shown);
	free(shown);
	return code;
}

/* Whether @s is "PREFIX" followed by a job's id (digits), and then @end. */
static bool job_named(const char *s, const char *prefix, const char *end)
{
	size_t n = strlen(prefix), digits;

	if (strncmp(s, prefix, n))
		return false;
	digits = strspn(s + n, "0123456789");
	return digits && !strcmp(s + n + digits, end);
}

int command_check_unreserved(const char *cmd, const char *name, const char *suffix)
{
	char *full = xasprintf("%s%s", name, suffix);
	bool ab = job_named(full, "ab-job-", "-a") || job_named(full, "ab-job-", "-b");
	const char *id = full + strlen(ab ? "ab-job-" : "bisect-job-");
	int code = 0;

	if (ab || job_named(full, "bisect-job-", ""))
		code = command_usage_error(cmd, "run name '%.128s' is kept for the runs of %s "
					   "job %.*s, which has no --name: taken, that job would "
					   "fail (give another --name)", full,
					   ab ? "ab" : "bisect-step",
					   (int)strspn(id, "0123456789"), id);
	free(full);
	return code;
}

int command_check_release(const char *cmd, const char *what, const char *s)
{
	const char *problem = kernel_release_problem(s);
	char shown[128];

	if (!problem)
		return 0;
	utf8_escape(shown, sizeof(shown), s);
	return command_usage_error(cmd, "%s '%s' %s (give the release as uname -r shows it)",
				   what, shown, problem);
}

int command_check_top(const char *cmd, int *top, bool profile)
{
	if (*top && !profile)
		return command_usage_error(cmd, "--top counts the symbols of --profile, which was "
					   "not given (give --profile too, or leave --top out)");
	if (!*top)
		*top = 10;
	return 0;
}

int command_check_utf8_operands(const char *cmd, const char *what, int argc, char **argv)
{
	int code = 0;

	for (int i = optind; i < argc && !code; i++)
		code = command_check_utf8(cmd, what, argv[i]);
	return code;
}

static int operand_cmp(const void *a, const void *b, void *argv)
{
	int x = *(const int *)a, y = *(const int *)b;
	int c = strcmp(((char **)argv)[x], ((char **)argv)[y]);

	return c ? c : (x > y) - (x < y);
}

/*
 * The operands sorted (by name, then place), not each against all before
 * it: an export of a whole store names tens of thousands of runs. The one
 * named is the first operand, in command-line order, that repeats another.
 */
int command_check_distinct_operands(const char *cmd, const char *what, int argc, char **argv)
{
	int nr = argc - optind, twice = argc;
	int *order;

	if (nr < 2)
		return 0;
	order = xreallocarray(NULL, (size_t)nr, sizeof(*order));
	for (int i = 0; i < nr; i++)
		order[i] = optind + i;
	qsort_r(order, (size_t)nr, sizeof(*order), operand_cmp, argv);
	for (int k = 1; k < nr; k++)
		if (order[k] < twice && !strcmp(argv[order[k]], argv[order[k - 1]]))
			twice = order[k];
	free(order);
	if (twice < argc)
		return command_usage_error(cmd, "%s '%.64s' is named twice", what, argv[twice]);
	return 0;
}
