// SPDX-License-Identifier: GPL-2.0
/*
 * run_command() of run_command.h: fork, below a holder (util/holder.h),
 * and in the child its process group (a guardian's, util/guardian.h,
 * unless it may outlive us), the directory, the outputs, then execvp. The
 * holder tells us how the child ended, through a pipe that is polled with
 * its outputs: the child is the holder's, not ours to wait for. Standard error goes
 * through a pipe that we read to its end (keeping its last line, and
 * copying it to the log when there is one); standard output to @out the
 * same way, or to the log, or to /dev/null.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <stdbool.h>
#include <unistd.h>

#include "util/guardian.h"
#include "util/holder.h"
#include "util/io.h"
#include "util/run_command.h"
#include "util/signals.h"
#include "util/timeutil.h"

/* The holder of the command running now, for run_command_end_running(); 0: none. */
static volatile sig_atomic_t running_holder, running_group;

static void __attribute__((noreturn))
child(const struct child_command *cmd, const struct guardian *g, int out_fd, int err_fd)
{
	int null = open("/dev/null", O_RDWR);

	if (!g->pgid)
		setpgid(0, 0);
	else if (guardian_join(g))
		_exit(127);	/* we died meanwhile: nobody waits for it */
	signals_restore_defaults();
	if (null >= 0)
		dup2(null, STDIN_FILENO);
	dup2(out_fd >= 0 ? out_fd : null, STDOUT_FILENO);
	dup2(err_fd, STDERR_FILENO);
	if (cmd->c_locale)
		setenv("LC_ALL", "C", 1);
	/* git must never wait for a password or an editor on a terminal it has not got */
	setenv("GIT_TERMINAL_PROMPT", "0", 1);
	setenv("GIT_EDITOR", "true", 1);
	/*
	 * nor take the index lock to read (git status refreshes the index when
	 * it can): only a checkout then leaves a lock when we are killed, one
	 * that --resume must refuse (experiment/bisection_tree.c)
	 */
	setenv("GIT_OPTIONAL_LOCKS", "0", 1);
	if (cmd->dir && chdir(cmd->dir)) {
		dprintf(STDERR_FILENO, "cannot enter %s: %s\n", cmd->dir, strerror(errno));
		_exit(127);
	}
	execvp(cmd->argv[0], cmd->argv);
	dprintf(STDERR_FILENO, "cannot run %s: %s\n", cmd->argv[0], strerror(errno));
	_exit(127);
}

/*
 * The line of @s ending at @end (a '\n' or the text's end) that @fits, the
 * last one: its start, or -1 when none does.
 */
static long last_line_that(const char *s, size_t end, bool (*fits)(const char *, size_t))
{
	while (end) {
		size_t start = end;

		while (start && s[start - 1] != '\n')
			start--;
		if (fits(s + start, end - start))
			return (long)start;
		end = start ? start - 1 : 0;
	}
	return -1;
}

/* A compiler's or a tool's diagnostic: "prog.c:3:1: error: ...", "ERROR: modpost: ...". */
static bool says_error(const char *line, size_t n)
{
	for (size_t i = 0; i + 6 <= n; i++)
		if (!strncasecmp(line + i, "error:", 6))
			return true;
	return false;
}

/* A line of its own, not the context a compiler quotes ("  |   ^~~~", source lines). */
static bool stands_alone(const char *line, size_t n)
{
	size_t blank = strspn(line, " \t\r");

	return blank < n && !blank && line[0] != '|';
}

static bool not_empty(const char *line, size_t n)
{
	return strspn(line, " \t\r") < n;
}

/*
 * Keep the line of standard error that says why it failed: the last
 * diagnostic (with "error:"), else the last line that stands alone, else
 * the last one. What came last is often the context of an error (gcc ends
 * with a caret line, make with "Error 1"), not the error.
 */
static void keep_last_line(struct strbuf *err_text, char *last_line, size_t len)
{
	const char *s = strbuf_str(err_text);
	size_t end = err_text->len;
	long start;

	while (end && (s[end - 1] == '\n' || s[end - 1] == '\r'))
		end--;
	start = last_line_that(s, end, says_error);
	if (start < 0)
		start = last_line_that(s, end, stands_alone);
	if (start < 0)
		start = last_line_that(s, end, not_empty);
	if (start < 0)
		start = (long)end;
	end = (size_t)start + strcspn(s + start, "\n");
	while (end > (size_t)start && s[end - 1] == '\r')
		end--;
	if (len)
		snprintf(last_line, len, "%.*s", (int)(end - (size_t)start), s + start);
}

/* Take what one pipe has: 0 when it gave some, 1 when it had none yet, -1 at its end. */
static int take(const struct child_command *cmd, int fd, bool is_err, struct strbuf *err_text)
{
	char buf[4096];
	ssize_t got = read(fd, buf, sizeof(buf));

	if (got < 0 && (errno == EINTR || errno == EAGAIN))
		return 1;
	if (got <= 0)
		return -1;
	if (!is_err) {
		strbuf_add(cmd->out, buf, (size_t)got);
		return 0;
	}
	/* Only the tail matters: keep the last 4 KiB or so. */
	if (err_text->len > 8192) {
		memmove(err_text->buf, err_text->buf + err_text->len - 4096, 4096);
		err_text->len = 4096;
		err_text->buf[4096] = '\0';
	}
	strbuf_add(err_text, buf, (size_t)got);
	if (cmd->log_fd >= 0 && write_full(cmd->log_fd, buf, (size_t)got))
		return -1;
	return 0;
}

/* Why drain() stopped before the child ended. */
enum stop { DRAINED, INTERRUPTED, TIMED_OUT };

/*
 * Drain both pipes until the holder says the child has ended (a process
 * it left in the background may hold them open for as long as it likes:
 * a build server, say), then what is left in them. INTERRUPTED when
 * @cmd->interrupted said stop, TIMED_OUT past @cmd->timeout; *@status is
 * the child's when it ended (*@reaped).
 */
static enum stop drain(const struct child_command *cmd, struct holder *h, int out_pipe,
		       int err_pipe, struct strbuf *err_text, int *status, bool *reaped)
{
	struct pollfd fds[3] = { { out_pipe, POLLIN, 0 }, { err_pipe, POLLIN, 0 },
				 { h->fd, POLLIN, 0 } };
	double deadline = cmd->timeout ? time_now() + cmd->timeout : 0;
	struct holder_end end;

	for (;;) {
		int n = poll(fds, 3, 200);

		if (cmd->interrupted && cmd->interrupted())
			return INTERRUPTED;
		if (n < 0 && errno != EINTR)
			return DRAINED;
		for (int i = 0; i < 2 && n > 0; i++) {
			if (fds[i].fd < 0 || !fds[i].revents)
				continue;
			if (take(cmd, fds[i].fd, i == 1, err_text) < 0)
				fds[i].fd = -1;	/* its end; the caller closes it */
		}
		if (n > 0 && fds[2].revents) {
			/* the holder said how the child ended, or died: it is gone either way */
			holder_wait(h, &end);
			*status = end.status;
			*reaped = true;
			/* what it wrote before it exited is there now: take it, without waiting */
			for (int i = 0; i < 2; i++)
				if (fds[i].fd >= 0) {
					fcntl(fds[i].fd, F_SETFL, O_NONBLOCK);
					while (!take(cmd, fds[i].fd, i == 1, err_text))
						;
				}
			return DRAINED;
		}
		if (deadline && time_now() >= deadline)
			return TIMED_OUT;
	}
}

/*
 * The pipes of @cmd: standard error's, and standard output's when it is
 * kept; -1 with @err, none left open, when one cannot be made.
 */
static int open_pipes(const struct child_command *cmd, int out[2], int errs[2],
		      struct error *err)
{
	if (pipe2(errs, O_CLOEXEC))
		return error_set(err, EXIT_ENV, "cannot create a pipe for %s: %s (raise "
				 "the open-file limit, 'ulimit -n')", cmd->argv[0], strerror(errno));
	if (cmd->out && pipe2(out, O_CLOEXEC)) {
		close(errs[0]);
		close(errs[1]);
		return error_set(err, EXIT_ENV, "cannot create a pipe for %s: %s (raise "
				 "the open-file limit, 'ulimit -n')", cmd->argv[0], strerror(errno));
	}
	return 0;
}

static void close_pipes(int out[2], int errs[2])
{
	for (int i = 0; i < 2; i++) {
		close(errs[i]);
		if (out[i] >= 0)
			close(out[i]);
	}
}

int run_command(const struct child_command *cmd, char *last_line, size_t len,
		struct error *err)
{
	int out[2] = { -1, -1 }, errs[2], status = 0;
	enum stop stopped;
	bool reaped = false;
	struct strbuf err_text = STRBUF_INIT;
	struct guardian g = { 0, -1, 0 };
	struct holder h;
	struct holder_end end;
	unsigned int how = 0;
	pid_t pid, group;

	if (len)
		last_line[0] = '\0';
	if (open_pipes(cmd, out, errs, err))
		return -1;
	/* A command that may outlive us (a boot) has no guardian to end it with us. */
	if (!cmd->log_only && guardian_start(&g, err)) {
		close_pipes(out, errs);
		return -1;
	}
	/*
	 * What a command that exits by itself leaves in the background lives
	 * on, unless @end_group; what one killed leaves, in its group or out
	 * of it, dies with it.
	 */
	if (!cmd->end_group)
		how |= HOLDER_KEEP_EXITED;
	if (cmd->log_only)
		how |= HOLDER_OUTLIVE_STARTER;
	fflush(NULL);
	pid = holder_fork(&h, g.pgid ? g.pgid : HOLDER_OWN_GROUP, how);
	if (pid < 0) {
		int fork_errno = errno;

		close_pipes(out, errs);
		guardian_stop(&g);
		return error_set(err, EXIT_ENV, "cannot start %s: %s (free some memory, or "
				 "raise the process limit, 'ulimit -u')", cmd->argv[0],
				 strerror(fork_errno));
	}
	if (pid == 0)
		child(cmd, &g, cmd->out ? out[1] : cmd->log_fd,
		      cmd->log_only && cmd->log_fd >= 0 ? cmd->log_fd : errs[1]);
	/* the holder put it in its group before holder_fork() returned */
	group = g.pgid ? g.pgid : pid;
	running_group = group;
	running_holder = h.pid;
	close(errs[1]);
	if (cmd->out)
		close(out[1]);
	stopped = drain(cmd, &h, out[0], errs[0], &err_text, &status, &reaped);
	if (stopped != DRAINED) {
		kill(-group, SIGKILL);
		/* and what left the group: the holder ends all below it */
		holder_stop(&h);
	}
	if (out[0] >= 0)
		close(out[0]);
	close(errs[0]);
	if (!reaped) {
		holder_wait(&h, &end);
		status = end.status;
	}
	running_holder = 0;
	/* reaped: what is left of its group is what it left behind */
	if (cmd->end_group)
		guardian_stop(&g);
	else
		guardian_release(&g);
	keep_last_line(&err_text, last_line, len);
	strbuf_release(&err_text);
	if (stopped == INTERRUPTED)
		return error_set(err, EXIT_USAGE, "%s was stopped: interrupted", cmd->argv[0]);
	if (stopped == TIMED_OUT)
		return error_set(err, EXIT_ENV, "%s did not finish within %u s: it was killed, "
				 "with its process group", cmd->argv[0], cmd->timeout);
	if (WIFSIGNALED(status))
		return RUN_COMMAND_SIGNALED(WTERMSIG(status));
	if (WEXITSTATUS(status) == 127 && len && !strncmp(last_line, "cannot run ", 11))
		return error_set(err, EXIT_ENV, "%s", last_line);
	return WEXITSTATUS(status);
}

void run_command_end_running(void)
{
	pid_t holder = running_holder;

	if (!holder)
		return;
	kill(-running_group, SIGKILL);
	/* the holder ends what left the group, and exits once the command has */
	kill(holder, SIGTERM);
	while (waitpid(holder, NULL, 0) < 0 && errno == EINTR)
		;
}

const char *run_command_status(int status, char *buf, size_t len)
{
	const char *name = status > 256 ? sigabbrev_np(status - 256) : NULL;

	if (status <= 255)
		snprintf(buf, len, "exit status %d", status);
	else if (name)
		snprintf(buf, len, "killed by SIG%s", name);
	else
		snprintf(buf, len, "killed by signal %d", status - 256);
	return buf;
}
