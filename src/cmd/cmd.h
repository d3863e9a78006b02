/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_CMD_H
#define SCHEDPERF_CMD_H

/*
 * One file per subcommand, git style: each exports cmd_NAME(), which gets
 * argv with argv[0] the command's name and returns the process exit code.
 */

struct global_options {
	const char *db;		/* --db, $SCHEDPERF_DB or ./schedperf.db */
	int quiet;
	int color;		/* 1 when colour is allowed (terminal, no NO_COLOR) */
};

extern struct global_options global;

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	const char *usage;	/* full help text printed by --help */
};

const struct command *command_find(const char *name);
extern const struct command commands[];

/* Print a command's usage on stdout (help) and return 0. */
int command_usage(const struct command *cmd);
/* One-line complaint about @argv's options and the hint to run --help; returns 2. */
int command_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

int cmd_compare(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_help(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_runs(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_env(int argc, char **argv);

#endif

/* Long options every command accepts, and their codes. */
enum {
	OPT_DB = 1000,
	OPT_COMMAND_BASE = 1100,	/* commands number their own options from here */
};
#define COMMON_LONG_OPTIONS \
	{ "db", required_argument, NULL, OPT_DB }, \
	{ "quiet", no_argument, NULL, 'q' }, \
	{ "help", no_argument, NULL, 'h' }

/*
 * Parse the next option of @argv with getopt_long, handling the common ones
 * (--db, --quiet, --help) itself. Returns the option for the command to
 * handle, -1 at the end, or CMD_OPT_EXIT with *@exit_code set (help was
 * printed, or an error was reported).
 */
#define CMD_OPT_EXIT (-2)
struct option;
int command_getopt(const struct command *cmd, int argc, char **argv,
		   const char *shortopts, const struct option *longopts,
		   int *exit_code);

extern const char compare_usage[], export_usage[], help_usage[], import_usage[],
	list_usage[], run_usage[], runs_usage[], show_usage[], env_usage[];
