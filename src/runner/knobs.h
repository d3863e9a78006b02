/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_RUNNER_KNOBS_H
#define SCHEDPERF_RUNNER_KNOBS_H

#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"

/*
 * What one side of `schedperf ab` changes, from SPECs such as
 * "sysctl:kernel.sched_autogroup_enabled=0,cpus:0-1": machine settings
 * (sysctl:NAME=VALUE, feature:NAME or feature:NO_NAME under debugfs) and
 * settings of the benchmark itself (cpus:LIST, param:KEY=VALUE,
 * env:VAR=VALUE, cmd:PROGRAM ARGS). Reading and writing the machine's
 * settings is here too; the journal that keeps their originals is the
 * store's (store_journal_*).
 */

enum knob_kind {
	KNOB_SYSCTL,
	KNOB_FEATURE,
	KNOB_CPUS,
	KNOB_PARAM,
	KNOB_ENV,
	KNOB_CMD,
};

struct knob {
	enum knob_kind kind;
	char *name;	/* sysctl (dotted), feature (without NO_), param key, env var; NULL */
	char *value;	/* sysctl value, feature NAME or NO_NAME, cpu list, param value,
			   env value, command line */
};

struct knob_list {
	struct knob *knobs;
	size_t nr;
};

/*
 * Add the knobs of one SPEC: comma-separated items, except that cmd:
 * takes the rest of the SPEC whole. Syntax errors are EXIT_USAGE naming
 * @side ("--a" or "--b").
 */
int knobs_parse(struct knob_list *list, const char *spec, const char *side, struct error *err);
void knobs_release(struct knob_list *list);

/* "sysctl" or "feature" for a machine knob, NULL for the others. */
const char *knob_machine_kind(enum knob_kind kind);

/*
 * A machine setting's current value, in the form that writes it back
 * (a feature's is NAME or NO_NAME), malloc'd. A setting that does not
 * exist is EXIT_USAGE; one that cannot be read or written here (no
 * debugfs, not root, read-only) is EXIT_ENV. With @for_writing, it is
 * also opened for writing, which changes nothing.
 */
int knob_read(const char *kind, const char *name, bool for_writing, char **value,
	      struct error *err);

/* Set a machine setting (kind "sysctl" or "feature") to @value. */
int knob_write(const char *kind, const char *name, const char *value, struct error *err);

#endif
