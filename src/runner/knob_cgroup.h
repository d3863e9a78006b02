/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_RUNNER_KNOB_CGROUP_H
#define SCHEDPERF_RUNNER_KNOB_CGROUP_H

#include <stddef.h>

#include "runner/knobs.h"
#include "runner/task_knobs.h"
#include "util/cgroup.h"
#include "util/error.h"

/*
 * The scratch cgroups of one side's cgroup: knobs (knob_cgroup.c): planned
 * (where each controller is; named, nothing made), then made and set, then
 * removed. The knob list planned from must outlive them.
 */
#define KNOB_CGROUPS_MAX_FILES 16

struct knob_cgroups {
	size_t nr;					/* cgroups: one per hierarchy */
	struct cgroup_place place[TASK_KNOBS_MAX_CGROUPS];
	struct cgroup cgroup[TASK_KNOBS_MAX_CGROUPS];
	size_t made;					/* the first @made exist */
	size_t nr_knobs;
	const struct knob *knob[KNOB_CGROUPS_MAX_FILES];	/* each setting */
	int of[KNOB_CGROUPS_MAX_FILES];			/* and its cgroup */
	char taken[KNOB_CGROUPS_MAX_FILES][128];	/* its value read back once made */
};

/* A cgroup: knob's name and value: EXIT_USAGE saying why when not. */
int knob_cgroup_check(const struct knob *k, struct error *err);

/*
 * Plan the cgroups of @kl's cgroup: knobs, named for @side ("a"): EXIT_ENV
 * when the machine lacks a controller, saying why. Changes nothing.
 */
int knob_cgroups_plan(struct knob_cgroups *kc, const struct knob_list *kl, const char *side,
		      struct error *err);
/*
 * Make them and write their settings (a setting refused: EXIT_USAGE or
 * EXIT_ENV), and read each back: the kernel may clamp or respell it.
 */
int knob_cgroups_make(struct knob_cgroups *kc, struct error *err);
/* Remove those made, with whatever still runs in them. */
void knob_cgroups_remove(struct knob_cgroups *kc);

/* The journal's kind for a scratch cgroup: original "absent", put back by removal. */
extern const struct knob_setting knob_scratch_cgroup;

#endif
