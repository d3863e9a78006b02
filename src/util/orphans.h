/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_ORPHANS_H
#define SCHEDPERF_UTIL_ORPHANS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * The processes a process's descendants leave behind. A process group
 * (util/guardian.h) holds only the tasks that stay in it: one that calls
 * setsid() or setpgid() (setsid(1), a daemon, a double fork into a session
 * of its own) leaves it, and killing the group misses it. A process that
 * adopts its orphans is their child subreaper (prctl(2)): a descendant
 * whose parent dies is reparented to it, not to init, so that every
 * process started below it stays below it while it lives, and it can end
 * them all before it exits.
 */

/* Make this process the subreaper of its descendants; -1 (errno) when it cannot. */
int orphans_adopt(void);

/*
 * SIGKILL every descendant of this process, group or session whatever
 * they are, and reap them, until none is left (or none left can be
 * killed: one that another user's program became). Costs one waitpid()
 * when there is none.
 */
void orphans_end(void);

/*
 * A process that runs a child and must end the child's orphans even when
 * the child is killed, and so cannot end them itself (the runner, an
 * iteration's; run_command(), a build's): it holds them while the child
 * runs, adopting what the child's death leaves (PR_SET_CHILD_SUBREAPER for
 * the while), and ends them once it has reaped the child. The children it
 * had already when it began (a guardian) are not the child's, and are
 * left to their own waits.
 */
struct orphans_hold {
	pid_t *had;		/* its children when it began */
	size_t nr;
	bool was;		/* a subreaper already (as a service manager makes one) */
	bool on;		/* holding: orphans_hold() succeeded */
};

/*
 * Hold the orphans of the children forked from now on; -1 (errno) when
 * it cannot (Linux before 3.4): @h then holds nothing, and the calls
 * below do nothing.
 */
int orphans_hold(struct orphans_hold *h);

/*
 * Once the child is reaped: SIGKILL and reap every child that came since
 * orphans_hold() and all below it, until none is left (or none left can
 * be killed), but the spared, which are waited for once the rest is gone;
 * then stop holding.
 */
void orphans_end_held(struct orphans_hold *h);

/*
 * Stop holding, and leave what came to live on (what a finished command
 * left in the background): they stay this process's children.
 */
void orphans_release(struct orphans_hold *h);

/*
 * Spare this process from orphans_end_held(): it ends by itself once what
 * it waits for is gone, and must not be killed before (util/cgroup.h's
 * reaper, which removes cgroups once their tasks are gone). It is known
 * by its name, which this sets (orphans_end(), past its workload's own
 * cleanup, ends it all the same).
 */
void orphans_spare(void);
#define ORPHANS_SPARED_NAME "schedperf-reap"

#endif
