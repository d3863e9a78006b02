// SPDX-License-Identifier: GPL-2.0
/*
 * The holder of holder.h. It blocks every signal and waits for two with
 * sigwaitinfo(): SIGCHLD, its child's end or an orphan's, and SIGTERM, its
 * death signal, the starter's end, on which it kills the child and its
 * group. An iteration's child is a subreaper itself, and while it lives
 * it is the holder's only child; another program's command is not, and
 * what its tasks leave is adopted here while it runs: those that exit are
 * reaped at once, or their zombies would pile up under a long build to
 * the pid limit. It says how the child ended
 * through a pipe, not through its own exit status: a wait status (a core
 * dump's flag too) and the usage of the child's subtree do not fit in one.
 * A holder of HOLDER_OUTLIVE_STARTER has no death signal: only
 * holder_stop()'s SIGTERM stops it.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/holder.h"
#include "util/spawn.h"
#include "util/io.h"
#include "util/orphans.h"
#include "util/timeutil.h"

/*
 * The seconds the holder may take to end what is left: SIGKILLed tasks
 * die at once unless stuck in the kernel (D state), and one stuck must
 * not hang its starter, which waits for the holder. Past them it dies;
 * what is still stuck then goes to init, killed already.
 */
#define HOLDER_END_SECONDS 10

/* What the holder says first: the child's pid, or -errno when no child. */
struct holder_hello {
	pid_t pid;
};

/*
 * Wait for the child's end, killing it (and its group) once told to stop,
 * and reap every orphan that exits meanwhile; whether it was told. Only
 * the child's status and usage are kept, its subtree's as wait4() counts
 * it: an orphan adopted here was never the child's to reap, and is in no
 * usage of its (an iteration's child, a subreaper, reaps its own, which
 * its usage then holds).
 */
static bool wait_child(pid_t child, pid_t pgid, bool stop, struct holder_end *end)
{
	sigset_t wake;

	sigemptyset(&wake);
	sigaddset(&wake, SIGCHLD);
	sigaddset(&wake, SIGTERM);
	for (;;) {
		struct rusage ru;
		int status;
		pid_t got = wait4(-1, &status, WNOHANG, &ru);

		if (got == child) {
			end->status = status;
			end->ru = ru;
			break;
		}
		if (got > 0 || (got < 0 && errno == EINTR))
			continue;	/* an orphan reaped: more may have exited */
		if (got < 0)
			break;
		if (stop) {
			/* @pgid is still held: the child is not reaped yet */
			if (pgid)
				kill(-pgid, SIGKILL);
			kill(child, SIGKILL);
		}
		/* SIGCHLDs coalesce: each exit before wait4()'s 0 is reaped, one after it pending */
		if (sigwaitinfo(&wake, NULL) == SIGTERM)
			stop = true;
	}
	end->ended = time_now();
	return stop;
}

/*
 * Whether what is left below the child is to be ended: always, but for a
 * HOLDER_KEEP_EXITED child that exited by itself. One killed by a signal
 * is ended with what it left, whoever killed it: the starter's timeout,
 * or the guardian of its group at the starter's death, which may come
 * before the holder's own death signal.
 */
static bool end_left(unsigned int flags, bool stopped, int status)
{
	return !(flags & HOLDER_KEEP_EXITED) || stopped || WIFSIGNALED(status);
}

static void __attribute__((noreturn))
hold(int fd, pid_t child, pid_t pgid, unsigned int flags, pid_t starter)
{
	struct holder_hello hello = { child > 0 ? child : -errno };
	struct holder_end end;
	sigset_t alarm_only;
	bool stop;

	if (pgid == HOLDER_OWN_GROUP)
		pgid = child > 0 ? child : 0;
	/* Both sides set the group, so that the starter finds the child in it. */
	if (child > 0 && pgid)
		setpgid(child, pgid);
	/* Hold nothing of the starter's: its pipes' ends would not close with the child. */
	if (fd > 0)
		close_range(0, (unsigned int)fd - 1, 0);
	close_range((unsigned int)fd + 1, ~0U, 0);
	if (child < 0) {
		write_full(fd, &hello, sizeof(hello));
		_exit(1);
	}
	/* a starter gone already will not start the child: it ends now, unless it may outlive it */
	stop = (write_full(fd, &hello, sizeof(hello)) || getppid() != starter) &&
	       !(flags & HOLDER_OUTLIVE_STARTER);

	memset(&end, 0, sizeof(end));
	stop = wait_child(child, pgid, stop, &end);
	/* SIGPIPE is blocked: a starter gone meanwhile is an EPIPE here, nothing more */
	write_full(fd, &end, sizeof(end));
	close(fd);
	if (!end_left(flags, stop, end.status))
		_exit(0);	/* what is left goes on, to init once we are gone */

	signal(SIGALRM, SIG_DFL);
	sigemptyset(&alarm_only);
	sigaddset(&alarm_only, SIGALRM);
	sigprocmask(SIG_UNBLOCK, &alarm_only, NULL);
	alarm(HOLDER_END_SECONDS);
	orphans_end_sparing();
	_exit(0);
}

pid_t holder_fork(struct holder *h, pid_t pgid, unsigned int flags)
{
	struct holder_hello hello;
	pid_t starter = getpid(), holder, child;
	sigset_t all, saved;
	int fds[2], saved_errno;
	bool said;

	if (pipe2(fds, O_CLOEXEC))
		return -1;
	/*
	 * Blocked across the fork: a signal (Ctrl-C) between it and the
	 * holder's own mask would run the starter's handlers in the holder
	 * (its cleanups: the starter's files unlinked), and kill it unsaid.
	 * The starter takes what came meanwhile once it restores its mask.
	 */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &saved);
	h->pid = fork();
	if (h->pid < 0) {
		saved_errno = errno;
		sigprocmask(SIG_SETMASK, &saved, NULL);
		close(fds[0]);
		close(fds[1]);
		errno = saved_errno;
		return -1;
	}
	if (h->pid == 0) {
		/* Kept blocked: pending until sigwaitinfo(), the child's end or the starter's. */
		close(fds[0]);
		orphans_adopt();
		/* its children reaped by itself, not by an inherited SIG_IGN */
		signal(SIGCHLD, SIG_DFL);
		if (!(flags & HOLDER_OUTLIVE_STARTER))
			prctl(PR_SET_PDEATHSIG, SIGTERM, 0UL, 0UL, 0UL);
		holder = getpid();
		child = fork();
		if (child == 0) {
			close(fds[1]);
			/*
			 * A holder killed (SIGKILL: no cleanup of its own) takes the
			 * child with it, and so the group, which the runner kills:
			 * a child left under init could say nothing of how it ended.
			 */
			if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0UL, 0UL, 0UL) || getppid() != holder)
				_exit(1);
			if (pgid == HOLDER_OWN_GROUP)
				setpgid(0, 0);
			/* what runs here is the user's (a workload, a build, a boot) */
			spawn_hide_own_env();
			sigprocmask(SIG_SETMASK, &saved, NULL);
			return 0;
		}
		hold(fds[1], child, pgid, flags, starter);
	}
	sigprocmask(SIG_SETMASK, &saved, NULL);
	close(fds[1]);
	h->fd = fds[0];
	said = !read_full(h->fd, &hello, sizeof(hello));
	if (said && hello.pid > 0)
		return hello.pid;
	close(h->fd);
	while (waitpid(h->pid, NULL, 0) < 0 && errno == EINTR)
		;
	/* a holder that died before it said is one the kernel could not give memory to */
	errno = said ? -hello.pid : ENOMEM;
	return -1;
}

void holder_stop(const struct holder *h)
{
	kill(h->pid, SIGTERM);
}

int holder_hear(struct holder *h, struct holder_end *end)
{
	int said = read_full(h->fd, end, sizeof(*end)) ? -1 : 0;

	close(h->fd);
	return said;
}

int holder_reap(struct holder *h, struct holder_end *end, int heard)
{
	int status;

	while (waitpid(h->pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!heard)
		return 0;
	end->status = status;
	memset(&end->ru, 0, sizeof(end->ru));
	end->ended = time_now();
	return -1;
}

int holder_wait(struct holder *h, struct holder_end *end)
{
	return holder_reap(h, end, holder_hear(h, end));
}
