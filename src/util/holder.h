/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_HOLDER_H
#define SCHEDPERF_UTIL_HOLDER_H

#include <sys/resource.h>
#include <sys/types.h>

/*
 * A holder: a process of its own between its starter and one child, whose
 * subtree is exactly the child's. It is the child subreaper of everything
 * below it (util/orphans.h), so that what leaves the child's process group
 * (setsid, a double fork) stays below it however the child ends, killed
 * included. While the child runs it reaps each orphan that exits (a
 * command's: an iteration's child adopts and reaps its own), so that no
 * zombies pile up; once the child has ended it SIGKILLs and reaps all that
 * is left below it, in a bounded time. The child is the process that does
 * the work: the holder sleeps while it runs, costs it nothing, and is not
 * in its group, so that killing the group leaves the holder to clean up.
 *
 * Nothing else is its: the starter's other children, and whatever they
 * leave, never come to it. The starter's death (SIGKILL too) ends the
 * child, and so everything below the holder (PR_SET_PDEATHSIG); the
 * holder's own death (SIGKILL too) ends the child (its PR_SET_PDEATHSIG).
 *
 * What is left below it is killed but for a cgroup reaper (util/cgroup.h),
 * which must outlive the tasks to remove their cgroups; the holder leaves
 * it to go on when it exits.
 *
 * An iteration's child is held so. Another program's command
 * (util/run_command.h) may leave work behind on purpose when it exits by
 * itself (git's auto gc, a build server, a boot's next worker), and may
 * outlive its starter (a boot): holder_fork()'s flags say so.
 */
struct holder {
	pid_t pid;		/* the holder */
	int fd;			/* the starter's end of its pipe */
};

/* How the child ended, as the holder saw it. */
struct holder_end {
	int status;		/* its wait status */
	struct rusage ru;	/* its resource usage, with its reaped children's (wait4) */
	double ended;		/* time_now() when it was reaped */
};

/* holder_fork()'s @pgid for a process group of the child's own, which it leads. */
#define HOLDER_OWN_GROUP ((pid_t)-1)

/* holder_fork()'s @flags; 0: an iteration's, everything below ended at the child's end. */
enum {
	/*
	 * What a child that exited by itself left lives on; what one killed
	 * left (by a signal, holder_stop() or its starter's death) is ended.
	 */
	HOLDER_KEEP_EXITED = 1 << 0,
	/*
	 * The starter's death ends nothing: for a child that may outlive it
	 * (a boot command, which may end the worker that started it).
	 */
	HOLDER_OUTLIVE_STARTER = 1 << 1,
};

/*
 * Fork a holder and, below it, the child, in process group @pgid (0: the
 * holder's, which is its starter's; HOLDER_OWN_GROUP), held as @flags say.
 * Returns 0 in the child, with the signal mask the starter had; in the
 * starter the child's pid, once it is in @pgid; -1 with errno when either
 * cannot be forked.
 */
pid_t holder_fork(struct holder *h, pid_t pgid, unsigned int flags);

/*
 * Have the holder kill the child and its group, and then all that is left
 * below it, as at its starter's death. Async-signal-safe.
 */
void holder_stop(const struct holder *h);

/*
 * Wait until the child has ended and the holder has ended what was left
 * below it, then reap the holder. Returns 0 with @end said by the holder;
 * -1 when the holder died before it could say (killed), with @end's status
 * the holder's, its usage zeros that are no usage and the time now: the
 * caller must not take them for the child's.
 */
int holder_wait(struct holder *h, struct holder_end *end);

/*
 * holder_wait() in two halves, for a caller that reads the state of the
 * machine at the child's end: the holder's own exit, still to come when it
 * has said, may take milliseconds (a large address space to free) and is
 * not the child's. holder_hear() waits until the holder has said, and
 * returns 0 with @end, or -1 when it died first; holder_reap() then reaps
 * it, given what holder_hear() returned, and returns what holder_wait()
 * would have.
 */
int holder_hear(struct holder *h, struct holder_end *end);
int holder_reap(struct holder *h, struct holder_end *end, int heard);

#endif
