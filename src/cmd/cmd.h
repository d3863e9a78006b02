/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_CMD_H
#define SCHEDPERF_CMD_H

#include <stdbool.h>
#include <stdio.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "util/error.h"

/*
 * One file per subcommand, git style: each exports cmd_NAME(), which gets
 * argv with argv[0] the command's name and returns the process exit code.
 * A new command is that file, its declaration below and one row of
 * commands[] in commands.c (doc/design.md). What they share of the
 * command line (the global options, usage errors, option tables) is
 * cli/'s.
 */

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
