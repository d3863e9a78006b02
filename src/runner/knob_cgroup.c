// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup:CONTROLLER.FILE=VALUE: the workload's tasks in a scratch cgroup
 * of their own with that setting (cpu.weight, cpu.max, cpuset.cpus,
 * cpu.idle on cgroup v2; cpu.shares, cpu.cfs_quota_us, cpuset.cpus on v1,
 * where only v1 has the controller, util/cgroup.h). One side's knobs share
 * a cgroup per hierarchy: one on v2, where a task is in one cgroup only,
 * one per mounted hierarchy on v1. The cgroup is machine state: it is
 * journalled as a setting of kind scratch-cgroup whose original is
 * "absent", so that putting it back is removing it, by the command, by
 * the reaper when the command is killed, by `ab --restore` after.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "runner/knob_cgroup.h"
#include "util/list.h"
#include "util/xalloc.h"

/* Its controller: what comes before the first '.', at most @len - 1 bytes. */
static void controller_of(const char *name, char *controller, size_t len)
{
	snprintf(controller, len, "%.*s", (int)strcspn(name, "."), name);
}

static int ascending(long first, long last, void *arg)
{
	return last < first;
}

/*
 * cpuset's lists of CPUs and memory nodes: their form only, here; whether
 * the machine has them is the kernel's to say when the value is written,
 * on the machine that runs the job (cpulist.h).
 */
static bool is_cpuset_list(const char *name)
{
	return !strcmp(name, "cpuset.cpus") || !strcmp(name, "cpuset.mems") ||
	       !strcmp(name, "cpuset.cpus.exclusive");
}

int knob_cgroup_check(const struct knob *k, struct error *err)
{
	const char *dot = strchr(k->name, '.');

	if (!dot || dot == k->name || !dot[1] || !knob_valid_name(k->name, ".") ||
	    (size_t)(dot - k->name) >= 32)
		return error_set(err, EXIT_USAGE, "'%.64s' is not CONTROLLER.FILE (give e.g. "
				 "cgroup:cpu.weight=100)", k->name);
	if (strlen(k->name) > NAME_MAX)
		return error_set(err, EXIT_USAGE, "'%.64s...' is longer than a file's name may be "
				 "(give a cgroup file's name, e.g. cpu.weight)", k->name);
	/* The kernel's controllers and their files are all named in lower case. */
	for (const char *c = k->name; *c; c++)
		if (*c >= 'A' && *c <= 'Z')
			return error_set(err, EXIT_USAGE, "'%.64s' is not a cgroup file: their "
					 "names are lower case (give e.g. cpu.shares or "
					 "cpu.weight)", k->name);
	if (!strncmp(k->name, "cgroup.", 7))
		return error_set(err, EXIT_USAGE, "%.64s is the cgroup's own, not a controller's "
				 "setting (give a controller's file, e.g. cpu.weight)", k->name);
	/* v1's freezer: a frozen task neither runs nor dies, and ab would wait on it forever */
	if (!strncmp(k->name, "freezer.", 8))
		return error_set(err, EXIT_USAGE, "%.64s stops the tasks, and a frozen task cannot "
				 "be killed (give a setting they run under, e.g. cpu.shares)",
				 k->name);
	if (!*k->value || strchr(k->value, '\n'))
		return error_set(err, EXIT_USAGE, "the value of %.64s is empty or has a newline "
				 "(give one value on one line, as cgroup:%.64s=VALUE)", k->name,
				 k->name);
	if (is_cpuset_list(k->name) && cpulist_walk(k->value, ascending, NULL))
		return error_set(err, EXIT_USAGE, "'%.64s' is not a list of numbers and ascending "
				 "ranges (give e.g. %s=0-3,8)", k->value, k->name);
	return 0;
}

/* The cgroup of @kc in the hierarchy of @place, added when new. */
static int cgroup_for(struct knob_cgroups *kc, const struct cgroup_place *place,
		      const char *side, struct error *err)
{
	char name[96];
	size_t i;

	/* One hierarchy, one cgroup: on v2 it has every controller its parent hands down. */
	for (i = 0; i < kc->nr; i++)
		if (!strcmp(kc->place[i].dir, place->dir))
			return (int)i;
	if (kc->nr == TASK_KNOBS_MAX_CGROUPS)
		return error_set(err, EXIT_USAGE, "cgroup: more than %d hierarchies "
				 "(give settings of fewer controllers' hierarchies)",
				 TASK_KNOBS_MAX_CGROUPS);
	kc->place[i] = *place;
	cgroup_scratch_name(name, sizeof(name), side);
	snprintf(kc->cgroup[i].dir, sizeof(kc->cgroup[i].dir), "%s/%s", place->dir, name);
	kc->cgroup[i].version = place->version;
	kc->nr++;
	return (int)i;
}

int knob_cgroups_plan(struct knob_cgroups *kc, const struct knob_list *kl, const char *side,
		      struct error *err)
{
	memset(kc, 0, sizeof(*kc));
	for (size_t k = 0; k < kl->nr; k++) {
		const struct knob *kn = &kl->knobs[k];
		struct cgroup_place place;
		char controller[32];
		int i;

		if (kn->kind != KNOB_CGROUP)
			continue;
		controller_of(kn->name, controller, sizeof(controller));
		if (cgroup_place_find(controller, &place, err))
			return -1;
		for (size_t j = 0; j < kc->nr; j++)
			if (kc->place[j].version == CGROUP_V2 && place.version == CGROUP_V2 &&
			    strcmp(kc->place[j].dir, place.dir))
				return error_set(err, EXIT_ENV, "cgroup: on cgroup v2 a task is in one "
						 "cgroup, and no cgroup above this one hands down "
						 "both %s and %s (enable both in one: see "
						 "cgroup.subtree_control)", kc->place[j].controller,
						 controller);
		i = cgroup_for(kc, &place, side, err);
		if (i < 0)
			return -1;
		kc->knob[kc->nr_knobs] = kn;
		kc->of[kc->nr_knobs++] = i;
		if (kc->nr_knobs == KNOB_CGROUPS_MAX_FILES)
			return error_set(err, EXIT_USAGE, "cgroup: more than %d settings "
					 "(give fewer)", KNOB_CGROUPS_MAX_FILES - 1);
	}
	return 0;
}

int knob_cgroups_make(struct knob_cgroups *kc, struct error *err)
{
	for (size_t i = 0; i < kc->nr; i++) {
		const char *slash = strrchr(kc->cgroup[i].dir, '/');
		struct cgroup made;

		if (cgroup_create(&kc->place[i], kc->place[i].dir, slash + 1, false, &made, err))
			return -1;
		kc->made = i + 1;
	}
	for (size_t k = 0; k < kc->nr_knobs; k++) {
		const struct cgroup *cg = &kc->cgroup[kc->of[k]];
		struct error unread = { 0 };

		if (cgroup_set(cg, kc->knob[k]->name, kc->knob[k]->value, err))
			return -1;
		/* A file that cannot be read back (write-only) has the value written. */
		if (cgroup_get(cg, kc->knob[k]->name, kc->taken[k], sizeof(kc->taken[k]), &unread))
			snprintf(kc->taken[k], sizeof(kc->taken[k]), "%s", kc->knob[k]->value);
	}
	return 0;
}

void knob_cgroups_remove(struct knob_cgroups *kc)
{
	for (size_t i = kc->made; i > 0; i--)
		cgroup_remove(kc->cgroup[i - 1].dir, NULL);
	kc->made = 0;
}

static int scratch_parse(const char *text, char **name, char **value, struct error *err)
{
	return error_set(err, EXIT_USAGE, "a scratch cgroup is made by cgroup: knobs, not "
			 "given (give cgroup:CONTROLLER.FILE=VALUE)");
}

/*
 * A journalled cgroup is one util/cgroup.c made: a schedperf-* directory,
 * its path without "..", so that a journal changed by hand cannot have
 * another directory removed.
 */
static int scratch_name(const char *name, struct error *err)
{
	const char *base = strrchr(name, '/');

	if (*name != '/' || strstr(name, "/../") || strncmp(base + 1, "schedperf-", 10))
		return error_set(err, EXIT_ENV, "'%.64s' is not a name this schedperf journals "
				 "as a scratch cgroup (the journal was changed by hand: remove "
				 "its entry)", name);
	return 0;
}

static int scratch_read(const char *name, bool for_writing, char **value, struct error *err)
{
	struct stat sb;

	if (scratch_name(name, err))
		return -1;
	*value = xstrdup(stat(name, &sb) ? "absent" : "present");
	return 0;
}

static int scratch_write(const char *name, const char *value, struct error *err)
{
	if (scratch_name(name, err))
		return -1;
	if (strcmp(value, "absent"))
		return error_set(err, EXIT_INTERNAL, "a scratch cgroup is only ever removed");
	return cgroup_remove(name, err);
}

const struct knob_setting knob_scratch_cgroup = {
	.kind = "scratch-cgroup",
	.syntax = "cgroup:CONTROLLER.FILE=VALUE",
	.parse = scratch_parse,
	.read = scratch_read,
	.write = scratch_write,
};
