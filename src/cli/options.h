/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_CMD_OPTIONS_H
#define SCHEDPERF_CMD_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * One declaration per option, as git's parse-options: a command lists its
 * options in one table, built on its stack so that each row points at the
 * variable it fills, and that table feeds both getopt_long and the option
 * lines of --help. The options every command accepts (--db, --quiet,
 * --help) are declared once, in options.c. doc/design.md shows a command.
 *
 *	bool shuffle = false;
 *	int iterations = 5;
 *	const struct cmd_option options[] = {
 *		OPT_INTEGER('i', "iterations", &iterations, "N", 1, 1000000,
 *			    "measured iterations per benchmark (default 5)"),
 *		OPT_BOOL(0, "shuffle", &shuffle, "run the benchmarks in a random order"),
 *		OPT_END(),
 *	};
 *	if (parse_options(argc, argv, options, &usage, &code))
 *		return code;
 *	... the operands are argv[optind..argc-1] ...
 */

struct cmd_option;

/*
 * Handles one occurrence of an OPT_CALLBACK option; @arg is NULL for an
 * option that takes no argument. Returns 0, or the exit code with which
 * the command stops (after printing why, e.g. with command_usage_error()).
 */
typedef int cmd_option_fn(const struct cmd_option *opt, const char *arg);

enum cmd_option_kind {
	CMD_OPTION_END,
	CMD_OPTION_BOOL,	/* no argument; sets *(bool *)value */
	CMD_OPTION_STRING,	/* sets *(const char **)value to the argument */
	CMD_OPTION_INTEGER,	/* a whole number in min..max into *(int *)value */
	CMD_OPTION_NUMBER,	/* a number above low, at most high, into *(double *)value */
	CMD_OPTION_CALLBACK,	/* calls callback(opt, arg) */
	CMD_OPTION_CHOICE,	/* a row of a registry by name, into *(struct option_choice *)value */
	CMD_OPTION_HELP,	/* prints the help and stops the command with 0 */
};

struct cmd_option {
	enum cmd_option_kind kind;
	int short_name;		/* 'p' for -p, 0 when there is no short form */
	const char *long_name;	/* "param" for --param */
	void *value;		/* what the option fills */
	const char *argh;	/* the argument's name in --help; NULL: takes none */
	const char *help;	/* one sentence, wrapped to the terminal's width */
	long min, max;		/* CMD_OPTION_INTEGER's range */
	cmd_option_fn *callback;
	double low, high;	/* CMD_OPTION_NUMBER's range: (low, high] */
	const char *cmd;	/* set by parse_options(): the command, for messages */
};

/*
 * What a choice among the rows of a registry (util/registry.h) fills: the
 * table and the row chosen, its first until the option is given. Its
 * --help line is the row's help with "{}" read as the table's names, each
 * with its words ("text (default), json (schedperf-history/1) or csv"),
 * and "{NAME}" in the usage text as its names "text|json|csv", NAME the
 * option's long name; a name that is not the table's is the usage error
 * that lists them. The table is the one list of the names.
 */
struct option_choice {
	const void *table;
	size_t row_size;
	const void *chosen;
};

#define OPTION_CHOICE(table) { (table), sizeof((table)[0]), (table) }

#define OPT_BOOL(s, l, v, h) \
	{ CMD_OPTION_BOOL, (s), (l), (v), NULL, (h), 0, 0, NULL, 0, 0, NULL }
#define OPT_STRING(s, l, v, a, h) \
	{ CMD_OPTION_STRING, (s), (l), (v), (a), (h), 0, 0, NULL, 0, 0, NULL }
#define OPT_INTEGER(s, l, v, a, lo, hi, h) \
	{ CMD_OPTION_INTEGER, (s), (l), (v), (a), (h), (lo), (hi), NULL, 0, 0, NULL }
#define OPT_NUMBER(s, l, v, a, lo, hi, h) \
	{ CMD_OPTION_NUMBER, (s), (l), (v), (a), (h), 0, 0, NULL, (lo), (hi), NULL }
/* @a NULL: the option takes no argument and @f gets NULL. */
#define OPT_CALLBACK(s, l, v, a, h, f) \
	{ CMD_OPTION_CALLBACK, (s), (l), (v), (a), (h), 0, 0, (f), 0, 0, NULL }
/* @c is a struct option_choice. */
#define OPT_CHOICE(l, c, a, h) \
	{ CMD_OPTION_CHOICE, 0, (l), (c), (a), (h), 0, 0, NULL, 0, 0, NULL }
/* --format: the formats of a kind of record (report/output.h). */
#define OPT_FORMAT(c, h) OPT_CHOICE("format", (c), "FORMAT", (h))
#define OPT_END() \
	{ CMD_OPTION_END, 0, NULL, NULL, NULL, NULL, 0, 0, NULL, 0, 0, NULL }

/*
 * The options several commands take, each declared and checked here once;
 * @h is the command's own sentence (what the option means there, its
 * default). --alpha A: a chance of a wrong verdict, above 0 and below
 * 0.5, into a double; --margin PCT: a change within +-PCT percent counts
 * as none, above 0 and below 100, into a double in percent; --seed N: a
 * whole number from 0 to OPTION_SEED_MAX, into an int; --machine
 * PATTERN: host names or machine ids (analysis/machines.h), 1 to 255 bytes of UTF-8
 * without control characters (an empty one would choose nothing), into a
 * const char *; --timeout SEC: an iteration's timeout, in the range of
 * runner/timeout.h, into a double. --format is OPT_FORMAT() above; --db, --quiet and --help
 * are every command's.
 */
#define OPTION_SEED_MAX 2147483647
int option_alpha(const struct cmd_option *opt, const char *arg);
int option_margin(const struct cmd_option *opt, const char *arg);
int option_seed(const struct cmd_option *opt, const char *arg);
int option_machine(const struct cmd_option *opt, const char *arg);
/*
 * The --machine of a job (submit, bisect --kernel-tree): the queue matches
 * it against a worker's host name with * and ? alone (store/jobs.c), so
 * '[', a set to runs and compare, is refused rather than taken literally.
 */
int option_job_machine(const struct cmd_option *opt, const char *arg);
int option_timeout(const struct cmd_option *opt, const char *arg);
#define OPT_ALPHA(v, h) OPT_CALLBACK(0, "alpha", (v), "A", (h), option_alpha)
#define OPT_MARGIN(v, h) OPT_CALLBACK(0, "margin", (v), "PCT", (h), option_margin)
#define OPT_SEED(v, h) OPT_CALLBACK(0, "seed", (v), "N", (h), option_seed)
#define OPT_MACHINE(v, h) OPT_CALLBACK(0, "machine", (v), "PATTERN", (h), option_machine)
#define OPT_JOB_MACHINE(v, h) \
	OPT_CALLBACK(0, "machine", (v), "PATTERN", (h), option_job_machine)
#define OPT_TIMEOUT(v, h) OPT_CALLBACK(0, "timeout", (v), "SEC", (h), option_timeout)

/*
 * The common options (--db, -q/--quiet, -h/--help: every command takes
 * them, and schedperf before the command), and what only schedperf takes
 * there (--version). Each is declared here once.
 */
extern const struct cmd_option common_options[];
extern const struct cmd_option global_only_options[];

/*
 * Whether argv[*i] is an option of @options as typed in full: --NAME,
 * --NAME=VALUE, --NAME VALUE, -X or -X VALUE. 1 with *@row its row and
 * *@arg its value (NULL for one that takes none), *@i past it; -1 when
 * its value is missing (*@row its row); 0 when it is not one of them.
 * For the arguments parse_options() does not scan: schedperf's before the
 * command, submit's among the job's.
 */
int option_match(int argc, char **argv, int *i, const struct cmd_option *options,
		 const struct cmd_option **row, const char **arg);
/*
 * Apply a row option_match() found, as parse_options() would, naming @cmd
 * in its errors: 0 or the exit code.
 */
int option_apply(const char *cmd, const struct cmd_option *opt, const char *arg);

/* The option lines of @options and the common ones, as --help prints them. */
void print_options(FILE *out, const struct cmd_option *options);

/*
 * What --help prints around the option lines: @synopsis ("usage: ..." and
 * the description, ending in a newline) before them, @epilogue (or NULL)
 * after them, each as written.
 */
struct cmd_usage {
	const char *synopsis;
	const char *epilogue;
};

/*
 * Parse argv's options (argv[0] is the command's name) with @options and
 * the common ones, in order, leaving optind at the first operand. Returns
 * false to go on, or true when the command must return *@exit_code now:
 * 0 after --help, 2 after a usage error (already printed), or what a
 * callback returned.
 */
bool parse_options(int argc, char **argv, const struct cmd_option *options,
		   const struct cmd_usage *usage, int *exit_code);

/* Print the command's help on @out, as --help does on stdout. */
void print_options_usage(FILE *out, const struct cmd_option *options,
			 const struct cmd_usage *usage);

#endif
