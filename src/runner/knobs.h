/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_RUNNER_KNOBS_H
#define SCHEDPERF_RUNNER_KNOBS_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "util/error.h"

/*
 * What one side of `schedperf ab` changes (or a run's, a bisect step's
 * --knob), from SPECs such as "sysctl:kernel.sched_autogroup_enabled=0,
 * cpus:0-1": machine settings (sysctl:NAME=VALUE or procfs:PATH=VALUE under
 * /proc/sys, sysfs:PATH=VALUE under /sys, governor:NAME for every CPU's
 * cpufreq governor, feature:NAME or feature:NO_NAME under debugfs) and
 * settings of the benchmark itself (cpus:LIST, param:KEY=VALUE,
 * env:VAR=VALUE, cmd:PROGRAM ARGS; and its tasks' policy:NAME[:PRIO],
 * nice:N, slice:USEC, uclamp:MIN-MAX, runner/task_knobs.h, and
 * cgroup:CONTROLLER.FILE=VALUE, runner/knob_cgroup.h). The machine keeps
 * the originals of the settings a command changes in its journal
 * (runner/knob_journal.h).
 */

/*
 * A kind of machine setting: one file (knob_sysctl.c, knob_feature.c)
 * defining one of these, and its row in knob_settings[] of knobs.c. ab,
 * the journal, `ab --restore`, the restore before every measurement and
 * the mark in a batch's environment handle every kind through these
 * operations alone (doc/design.md, "Knobs").
 */
struct knob_setting {
	const char *kind;	/* "sysctl": the SPEC's prefix and the journal's name */
	const char *syntax;	/* "sysctl:NAME=VALUE", for messages */
	/*
	 * The setting and its value from the SPEC's text after "KIND:", in
	 * the one spelling every other place compares: two spellings of one
	 * setting must give one name. Malloc'd; EXIT_USAGE saying why.
	 */
	int (*parse)(const char *text, char **name, char **value, struct error *err);
	/*
	 * Its current value, in the form that writes it back, malloc'd. A
	 * name that is no setting of its kind (a directory) is EXIT_USAGE;
	 * one this machine lacks (parse took its form, the kernel has no
	 * such file or feature) or that cannot be read or written here (no
	 * debugfs, not root, read-only) is EXIT_ENV. With @for_writing it is
	 * also opened for writing, which changes nothing.
	 */
	int (*read)(const char *name, bool for_writing, char **value, struct error *err);
	/* Set it; a value the kernel refuses (EINVAL) is EXIT_USAGE. */
	int (*write)(const char *name, const char *value, struct error *err);
	/*
	 * The file that holds it, into @path: one that can vanish with its
	 * setting (a module unloaded, a cgroup removed). NULL for a kind
	 * whose file stays when the setting is gone, or whose original is
	 * absence.
	 */
	void (*path)(const char *name, char *path, size_t len);
};

extern const struct knob_setting knob_sysctl, knob_feature, knob_sysfs;

/* The kind named @kind, or NULL. */
const struct knob_setting *knob_setting_find(const char *kind);

enum knob_kind {
	KNOB_MACHINE,		/* a machine setting: struct knob's setting says which kind */
	KNOB_CPUS,
	KNOB_PARAM,
	KNOB_ENV,
	KNOB_CMD,
	KNOB_POLICY,		/* the workload's tasks' own (runner/task_knobs.h) */
	KNOB_NICE,
	KNOB_SLICE,
	KNOB_UCLAMP,
	KNOB_CGROUP,		/* name CONTROLLER.FILE (runner/knob_cgroup.h) */
};

struct knob {
	enum knob_kind kind;
	const struct knob_setting *setting;	/* KNOB_MACHINE's kind; else NULL */
	char *name;	/* the setting (its one spelling), param key, env var; NULL */
	char *value;	/* the setting's value, cpu list, param value, env value,
			   command line */
};

struct knob_list {
	struct knob *knobs;
	size_t nr;
};

/*
 * Add the knobs of one SPEC: comma-separated items, except that cmd:
 * takes the rest of the SPEC whole and cpus: the items after it that are
 * CPU numbers or ranges (cpus:0-1,4); governor:NAME adds a sysfs: knob
 * per cpufreq policy (EXIT_ENV when the machine has none). Syntax errors
 * are EXIT_USAGE, their message starting with @side ("ab: --a").
 */
int knobs_parse(struct knob_list *list, const char *spec, const char *side, struct error *err);
void knobs_release(struct knob_list *list);

/*
 * The value @list gives environment variable @var (env:VAR=VALUE), which
 * the workload runs with, or NULL: it keeps this process's. A session
 * refuses a variable given twice (knob_session.h), so there is one.
 */
const char *knobs_env(const struct knob_list *list, const char *var);

/*
 * A hash of @list's knobs, whatever their order, to tell two lists apart,
 * chained from @h (FNV1A_INIT, util/hash.h). The tasks' knobs count by
 * their value as recorded (nice:+0 is nice:0); any other setting in two
 * spellings of its value is two lists: told apart, never pooled.
 */
uint64_t knobs_hash(const struct knob_list *list, uint64_t h);

/* knob_setting_find(@kind)'s read and write, for a kind named in a journal. */
int knob_read(const char *kind, const char *name, bool for_writing, char **value,
	      struct error *err);
int knob_write(const char *kind, const char *name, const char *value, struct error *err);
/*
 * Whether the file of a journalled setting is gone (no such file, or a
 * directory above it gone): then there is nothing to put back, and the
 * entry goes. @path gets the file's path for the message saying so.
 */
bool knob_gone(const char *kind, const char *name, char *path, size_t len);

/*
 * For the kinds' files: a kernel's small file read whole (util/sysfile.h)
 * and trimmed of trailing white space, malloc'd; -1 with errno. A value is
 * written with sysfile_write().
 */
int knob_file_read(const char *path, char **value);
/* Whether @name is letters, digits, '_' and the characters of @extra. */
bool knob_valid_name(const char *name, const char *extra);

#endif
