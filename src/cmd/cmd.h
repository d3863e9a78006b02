/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_CMD_H
#define SCHEDPERF_CMD_H

#include <stdbool.h>
#include <stdio.h>

#include "cmd/options.h"
#include "util/error.h"

/*
 * One file per subcommand, git style: each exports cmd_NAME(), which gets
 * argv with argv[0] the command's name and returns the process exit code.
 * A new command is that file, its declaration below and one row of
 * commands[] in commands.c (doc/design.md).
 */

struct global_options {
	const char *db;		/* --db, $SCHEDPERF_DB or ./schedperf.db */
	bool quiet;
	bool color;		/* colour is allowed (terminal, no NO_COLOR) */
};

extern struct global_options global;

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;	/* one line in 'schedperf help' */
};

/* The commands in the order 'schedperf help' lists them, ended by a NULL name. */
extern const struct command commands[];

const struct command *command_find(const char *name);

/* Print schedperf's own help (global options and the commands) on @out. */
void print_main_usage(FILE *out);

/* One-line complaint about @cmd's arguments and the hint to run --help; returns 2. */
int command_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * 0 when @s is valid UTF-8 (util/utf8.h), else the usage error, naming
 * @what ("run name") and showing @s escaped: for every name and value a
 * command takes that is stored, exported or looked up.
 */
int command_check_utf8(const char *cmd, const char *what, const char *s);
/* The longest run name a command takes, in bytes. */
#define RUN_NAME_MAX 200

/*
 * The same for a name shown on one line (a run name, a machine pattern):
 * also 1 to @max bytes and no control characters.
 */
int command_check_name(const char *cmd, const char *what, const char *s, size_t max);
/* The same as command_check_utf8() for each operand, argv[optind..argc-1]. */
int command_check_utf8_operands(const char *cmd, const char *what, int argc, char **argv);
/*
 * 0 when no operand is named twice, else the usage error: a run named
 * twice would be compared with itself, or written twice to one file.
 */
int command_check_distinct_operands(const char *cmd, const char *what, int argc, char **argv);

/*
 * 0 when @format is one of @formats (NULL-terminated), else the usage
 * error that names them: "unknown format 'x': give text or json".
 */
int command_check_format(const char *cmd, const char *format, const char *const *formats);

int cmd_ab(int argc, char **argv);
int cmd_bisect(int argc, char **argv);
int cmd_bisect_step(int argc, char **argv);
int cmd_cancel(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_db(int argc, char **argv);
int cmd_detect(int argc, char **argv);
int cmd_env(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_help(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_jobs(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_runs(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_submit(int argc, char **argv);
int cmd_worker(int argc, char **argv);

#endif
