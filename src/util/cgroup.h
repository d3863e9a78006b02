/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_CGROUP_H
#define SCHEDPERF_UTIL_CGROUP_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "util/error.h"

/*
 * Scratch cgroups: directories of a mounted cgroup hierarchy that schedperf
 * creates for the tasks it measures, sets, and removes afterwards, also
 * when schedperf is killed (the reaper below). Used by the fairness
 * workload (one cgroup per group of tasks) and by the runner's cgroup:
 * knob, so it lives here, in the layer both may include.
 *
 * A controller is found where the machine has it: in the cgroup v2
 * hierarchy when that hierarchy offers it, else in the cgroup v1 hierarchy
 * it is mounted on; absent from both, it is absent (EXIT_ENV, with why).
 * Scratch cgroups go under this process's own cgroup of that hierarchy;
 * on v2, whose rule is that a cgroup with processes cannot hand its
 * controllers to children (except the root), under the nearest cgroup
 * above ours that already hands the controller down. schedperf never
 * enables a controller anywhere it did not create: that would change the
 * machine beyond the run.
 */

enum cgroup_version {
	CGROUP_V1 = 1,
	CGROUP_V2 = 2,
};

/* Where scratch cgroups of one controller are made. */
struct cgroup_place {
	enum cgroup_version version;
	char controller[32];
	char dir[PATH_MAX];		/* the existing cgroup to create them in */
};

/* A scratch cgroup. */
struct cgroup {
	enum cgroup_version version;
	char dir[PATH_MAX];
};

/*
 * Find where scratch cgroups of @controller ("cpu", "cpuset") go on this
 * machine. EXIT_ENV when no mounted hierarchy offers it here, naming why.
 */
int cgroup_place_find(const char *controller, struct cgroup_place *place, struct error *err);

/*
 * The same from the text of a mountinfo and a /proc/PID/cgroup file, for
 * tests that lay out a hierarchy of their own.
 */
int cgroup_place_find_in(const char *mountinfo, const char *self_cgroup,
			 const char *controller, struct cgroup_place *place,
			 struct error *err);

/*
 * A name for a scratch cgroup that no other schedperf process picks:
 * "schedperf-PID-N-@what".
 */
void cgroup_scratch_name(char *buf, size_t len, const char *what);

/*
 * Create cgroup @name in @parent (a place's dir, or a scratch cgroup made
 * there) for @place's controller, ready to take tasks: on v2 the
 * controller is handed down to it from @parent when @parent is a scratch
 * cgroup (@enable_in_parent); on v1 a cpuset cgroup gets its parent's CPUs
 * and memory nodes, without which it takes none.
 */
int cgroup_create(const struct cgroup_place *place, const char *parent, const char *name,
		  bool enable_in_parent, struct cgroup *cg, struct error *err);

/* Write @value to @file of @cg ("cpu.weight"); EXIT_USAGE when refused as invalid. */
int cgroup_set(const struct cgroup *cg, const char *file, const char *value,
	       struct error *err);

/* Read @file of @cg into @buf, without its trailing newline. */
int cgroup_get(const struct cgroup *cg, const char *file, char *buf, size_t len,
	       struct error *err);

/* Move process @pid (0: the caller) and its threads into @cg. */
int cgroup_attach(const struct cgroup *cg, pid_t pid, struct error *err);

/*
 * Remove the cgroup at @dir: kill what still runs in it, then rmdir,
 * retried while its tasks are still exiting. 0 when it is gone (or was).
 */
int cgroup_remove(const char *dir, struct error *err);

/*
 * Start a reaper for the cgroups at @dirs (in the order to remove them:
 * children first): a process of its own session, so that killing the
 * caller's process group spares it, that waits until every copy of the fd
 * it returns in *@hold is closed (the caller keeps it, and so do its
 * children unless they close it) and then removes whatever of @dirs is
 * left. Normally the caller removes them itself first and the reaper finds
 * nothing; after a SIGKILL the kernel closes the fd and the reaper cleans.
 */
int cgroup_reaper_start(char *const *dirs, size_t n, int *hold, struct error *err);

#endif
