/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_CLI_CLI_H
#define SCHEDPERF_CLI_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"

/*
 * What the commands share of the command line, below them (cmd/ holds the
 * commands alone): the options every command takes and what they fill,
 * and the one-line complaints about arguments. Only this layer and the
 * commands print to the user (doc/design.md, "Layers").
 */

struct global_options {
	const char *db;		/* --db, $SCHEDPERF_DB or ./schedperf.db */
	bool quiet;
	bool color;		/* colour is allowed (terminal, no NO_COLOR) */
	bool version;		/* --version before the command: print it and exit */
};

extern struct global_options global;

/*
 * Before a command runs, once: the global options' defaults from the
 * environment, the voice of the libraries that speak while they work
 * (the machine's knob guard, runner/knob_guard.h), a job's check of its
 * paths (runner/job_env.h), and the machine's files an output never
 * replaces (util/output_file.h).
 */
void cli_setup(void);

/*
 * 0 when the comma list @arg of option @option ("--workload") names one
 * or more names, none empty, each valid UTF-8 (@what: "workload name"),
 * else the usage error: an empty name would choose nothing, and a filter
 * that chooses nothing must not pass for one that chooses everything.
 */
int command_check_names(const char *cmd, const char *option, const char *what, const char *arg);

/*
 * One-line complaint about @cmd's arguments; returns 2. Its one (how to
 * fix) part is the message's own when it ends with one ("... (see
 * 'schedperf runs')"), else the hint to run @cmd --help.
 */
int command_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * A command stopped by SIGINT or SIGTERM (runner/iteration.h) says so in
 * one line, "schedperf: interrupted: " and what it kept (@fmt); returns
 * its exit code, 128 + the signal.
 */
int command_interrupted(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

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
/*
 * The same for a run name (or the start of one): also nothing blank at
 * either end (utf8_blank_at_ends()), so that no run looks unnamed or like
 * another. Only where a name is given to be stored: a store that holds
 * such a name from before is read as it is.
 */
int command_check_run_name(const char *cmd, const char *what, const char *s, size_t max);
/*
 * 0 unless run name @name (followed by @suffix: ab's "-a") is one a worker
 * gives the runs of a job that has no --name, ab-job-ID-a and -b or
 * bisect-job-ID; then the usage error: taken by another run, it would
 * fail job ID, which was given no name at all.
 */
int command_check_unreserved(const char *cmd, const char *name, const char *suffix);
/*
 * 0 when @s is a kernel's release, as util/kernel_release.h checks it,
 * else the usage error naming @what ("--kernel release") and what is wrong.
 */
int command_check_release(const char *cmd, const char *what, const char *s);
/*
 * --top N of show and compare, the symbols of each benchmark's --profile:
 * 0 with *@top the default when it was not given (0), else the usage
 * error when --profile was not, since it would be ignored.
 */
int command_check_top(const char *cmd, int *top, bool profile);
/* The same as command_check_utf8() for each operand, argv[optind..argc-1]. */
int command_check_utf8_operands(const char *cmd, const char *what, int argc, char **argv);
/*
 * 0 when no operand is named twice, else the usage error: a run named
 * twice would be compared with itself, or written twice to one file.
 */
int command_check_distinct_operands(const char *cmd, const char *what, int argc, char **argv);

#endif
