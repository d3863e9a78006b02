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
#include <time.h>
#include <unistd.h>

#include "util/guardian.h"
#include "util/scratch_dir.h"

/*
 * Milliseconds the remover waits for the group's tasks to be gone: killed
 * ones die at once unless stuck in the kernel, and one stuck must not keep
 * the directory for ever. Past them it removes what it can.
 */
#define GROUP_END_MS 10000

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

/*
 * Have @dir removed once the starter and the whole group are gone, when
 * no task of it can write there any more. Not by the guardian, which
 * dies with its group (and the iteration's holder kills the group as the
 * guardian wakes): by a child of the starter, of a group of its own,
 * that sleeps on the same pipe. A starter that lives removes @dir itself,
 * and kills and reaps this one first (guardian_end()): else it would
 * outlive every iteration, a zombie of an init that may not reap, and
 * remove @dir at the same time as the starter does, into the next one.
 * Returns its pid, or -1.
 */
static pid_t start_remover(int fd, pid_t group, const char *dir,
			   const struct scratch_dir_id *id)
{
	const struct timespec ms = { 0, 1000000 };
	pid_t pid = fork();

	if (pid != 0) {
		/* Both sides set the group, so that it is left before a kill. */
		if (pid > 0)
			setpgid(pid, pid);
		return pid;
	}
	setpgid(0, 0);
	/* @dir is absolute: hold no directory of the starter's while waiting */
	if (chdir("/") < 0) {
		/* where it was: it only keeps a directory from being unmounted */
	}
	guardian_wait_orphaned(fd);
	for (int i = 0; i < GROUP_END_MS && !kill(-group, 0); i++)
		nanosleep(&ms, NULL);
	scratch_dir_remove_id(dir, id);
	_exit(0);
}

static void __attribute__((noreturn)) guard(int fd)
{
	guardian_wait_orphaned(fd);
	kill(0, SIGKILL);
	_exit(0);
}

int guardian_start(struct guardian *g, struct error *err)
{
	return guardian_start_removing(g, NULL, err);
}

int guardian_start_removing(struct guardian *g, const char *dir, struct error *err)
{
	struct scratch_dir_id id;
	int fds[2];
	pid_t pid;

	g->pgid = 0;
	g->fd = -1;
	g->remover = 0;
	/* what @dir is now, its starter's own: the remover removes no other */
	if (dir && scratch_dir_id(dir, &id))
		return error_set(err, EXIT_ENV, "cannot find the scratch directory %s: %s "
				 "(set TMPDIR to a writable directory)", dir, strerror(errno));
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
	if (dir) {
		g->remover = start_remover(fds[0], pid, dir, &id);
		if (g->remover < 0) {
			g->remover = 0;
			close(fds[0]);
			g->pgid = pid;
			g->fd = fds[1];
			guardian_stop(g);
			return error_set(err, EXIT_ENV, "cannot fork a scratch directory's "
					 "remover: %s (raise 'ulimit -u' or free memory)",
					 strerror(errno));
		}
	}
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
	/* the starter lives: the scratch directory is its own to remove */
	if (g->remover > 0) {
		kill(g->remover, SIGKILL);
		while (waitpid(g->remover, NULL, 0) < 0 && errno == EINTR)
			;
		g->remover = 0;
	}
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
