// SPDX-License-Identifier: GPL-2.0
/*
 * The guardian of a process group (see guardian.h). A
 * process, not PR_SET_PDEATHSIG: the death signal reaches only the direct
 * children of its starter, and is cleared in every child they fork, so the
 * 40 processes of a messaging group or a spawned helper would survive.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/guardian.h"

void guardian_wait_orphaned(int fd)
{
	sigset_t all;
	char byte;

	/* Only the end of the pipe (or SIGKILL) may end the wait. */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, NULL);
	/* Hold nothing of its starter's but the pipe: no store, no terminal. */
	if (fd > 0)
		close_range(0, (unsigned int)fd - 1, 0);
	close_range((unsigned int)fd + 1, ~0U, 0);
	while (read(fd, &byte, 1) < 0 && errno == EINTR)
		;
}

static void __attribute__((noreturn)) guard(int fd)
{
	guardian_wait_orphaned(fd);
	kill(0, SIGKILL);
	_exit(0);
}

int guardian_start(struct guardian *g, struct error *err)
{
	int fds[2];
	pid_t pid;

	g->pgid = 0;
	g->fd = -1;
	if (pipe2(fds, O_CLOEXEC))
		return error_set(err, EXIT_ENV, "cannot create a pipe for a process group: %s "
				 "(raise 'ulimit -n')", strerror(errno));
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return error_set(err, EXIT_ENV, "cannot fork a process group's guardian: %s "
				 "(raise 'ulimit -u' or free memory)", strerror(errno));
	}
	if (pid == 0) {
		setpgid(0, 0);
		close(fds[1]);
		guard(fds[0]);
	}
	/* Both sides set the group, so that it exists when fork returns here. */
	setpgid(pid, pid);
	close(fds[0]);
	g->pgid = pid;
	g->fd = fds[1];
	return 0;
}

int guardian_join(const struct guardian *g)
{
	close(g->fd);
	return setpgid(0, g->pgid);
}

/* SIGKILL @target, then let the guardian go (its pid is the group's id). */
static void guardian_end(struct guardian *g, pid_t target)
{
	if (!g->pgid)
		return;
	kill(target, SIGKILL);
	close(g->fd);
	while (waitpid(g->pgid, NULL, 0) < 0 && errno == EINTR)
		;
	g->pgid = 0;
	g->fd = -1;
}

void guardian_stop(struct guardian *g)
{
	guardian_end(g, -g->pgid);
}

void guardian_release(struct guardian *g)
{
	/* killed before its pipe closes, it cannot take the group with it */
	guardian_end(g, g->pgid);
}
