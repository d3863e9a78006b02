/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_RUN_COMMAND_H
#define SCHEDPERF_UTIL_RUN_COMMAND_H

#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"
#include "util/strbuf.h"

/*
 * Run another program and wait for it, as git's run-command API does: for
 * the git commands a bisection gives and the build command a user names.
 * Never through a shell: argv[0] is looked up on PATH and the arguments go
 * as they are (a user's shell command is run as "sh", "-c", CMD, because
 * the user asked for one). The child runs in a process group of its own,
 * so that a build's many processes can be stopped together when we are
 * interrupted; a guardian (util/guardian.h) leads the group, so that they
 * stop too when we are killed (SIGKILL) while it runs, unless @log_only
 * says it may outlive us.
 */
struct child_command {
	const char *dir;		/* run in this directory; NULL: ours */
	char *const *argv;		/* NULL-terminated */
	struct strbuf *out;		/* standard output kept here; NULL: see log_fd */
	int log_fd;			/* standard output and error appended here
					   (a build's log); -1: /dev/null (stderr's
					   last line is kept either way) */
	bool log_only;			/* standard error straight to log_fd too, not
					   through us: for a command that may outlive
					   us, as a boot does (no last line then) */
	bool c_locale;			/* LC_ALL=C, for output that is parsed */
	/* Polled while waiting: when it returns non-zero the group is killed. */
	int (*interrupted)(void);
	/*
	 * Seconds it may take; 0: as long as it likes. Past them the group is
	 * killed: for a program that must end by itself (gnuplot), whose hang
	 * must not be ours.
	 */
	unsigned int timeout;
};

/*
 * Run @cmd to its end. Returns its exit status (0..255) or 128 + the
 * signal that ended it, with the last line it wrote to standard error in
 * @last_line (@len bytes, "" when none); -1 with @err when it could not be
 * started (EXIT_ENV: no such program), was interrupted (the group killed;
 * @err says so) or did not end within @cmd->timeout (the group killed;
 * EXIT_ENV, "ARGV0 did not finish within N s ...").
 */
int run_command(const struct child_command *cmd, char *last_line, size_t len,
		struct error *err);

#endif
