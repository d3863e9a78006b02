/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_ORPHANS_H
#define SCHEDPERF_UTIL_ORPHANS_H

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
 * A process that must outlive the others of a killed subtree to finish
 * their work (util/cgroup.h's reaper, which removes their cgroups once
 * they are gone) calls this: its name, and that of what it forks, becomes
 * ORPHANS_SPARED_NAME, which orphans_end_sparing() leaves alive when it
 * also runs this program's own file (a copy of another so named does not).
 */
#define ORPHANS_SPARED_NAME "schedperf-reap"
void orphans_spare(void);

/*
 * orphans_end(), but for the spared processes (and what is below them),
 * which are left to go on; none is waited for.
 */
void orphans_end_sparing(void);

#endif
