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
 * says it may outlive us. It runs below a holder (util/holder.h), as an
 * iteration does, so that what left the group (setsid, a daemonising
 * helper) is killed with it whenever it is killed (interrupted, timed
 * out, ended by a signal, or by our death unless @log_only); what it left
 * behind when it exited by itself lives on unless @end_group.
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
	/*
	 * Polled while waiting: when it returns non-zero the group is killed,
	 * and what left it.
	 */
	int (*interrupted)(void);
	/*
	 * Seconds it may take; 0: as long as it likes. Past them the group is
	 * killed: for a program that must end by itself (gnuplot), whose hang
	 * must not be ours.
	 */
	unsigned int timeout;
	/*
	 * When it exits, what it left is killed too, in its group or out of
	 * it: for a program that starts nothing meant to outlive it (gnuplot).
	 * Without it, what a finished command leaves in the background lives
	 * on (git's auto gc, a build server): the group is only ours while it
	 * runs. Needs the guardian (not with @log_only), whose group it is.
	 */
	bool end_group;
};

/* What run_command() returns for a command killed by signal SIG. */
#define RUN_COMMAND_SIGNALED(sig) (256 + (sig))

/*
 * Run @cmd to its end. Returns its exit status (0..255) or
 * RUN_COMMAND_SIGNALED() of the signal that ended it (not 128 + it, which
 * a shell's exit status 139 would be too), with the line of its standard error that says
 * why it failed in @last_line (@len bytes, "" when none): its last diagnostic (a line with
 * "error:"), else its last line that does not start with a blank or '|' (a compiler's
 * quoted context), else its last line; -1 with @err when it could not be
 * started (EXIT_ENV: no such program), was interrupted (the group killed;
 * @err says so) or did not end within @cmd->timeout (the group killed;
 * EXIT_ENV, "ARGV0 did not finish within N s: it was killed, with its
 * process group"). A command killed so takes with it what left its group
 * (setsid say): its holder kills and reaps every descendant it has left.
 */
int run_command(const struct child_command *cmd, char *last_line, size_t len,
		struct error *err);

/*
 * For a cleanup at a terminating signal (util/signals.h) that must not race
 * the command running now (gnuplot writing in a directory the cleanup
 * removes): kill its group, and what left it, and wait for them to end.
 * Async-signal-safe; nothing when no command runs.
 */
void run_command_end_running(void);

/*
 * What ended a command of run_command()'s @status (> 0), for its callers'
 * messages: "exit status N", or "killed by SIGSEGV" (the signal's name).
 * Returns @buf.
 */
const char *run_command_status(int status, char *buf, size_t len);

#endif
