/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_RUNNER_KNOB_SESSION_H
#define SCHEDPERF_RUNNER_KNOB_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "runner/knob_cgroup.h"
#include "runner/knobs.h"
#include "runner/task_knobs.h"
#include "store/store.h"
#include "util/error.h"

/*
 * What the knobs of a command's sides change, from their check to their
 * restore: ab's two sides, a run's or a bisect step's one (--knob). The
 * machine settings (runner/knobs.h's kinds) and the environment variables
 * each side sets, the scratch cgroups of its cgroup: knobs and its tasks'
 * knobs. Every refusal comes before the first change (knob_session_check);
 * the originals and the cgroups to be are journalled on the machine before
 * anything changes (knob_session_begin), and put back, the cgroups
 * removed, at the end (knob_session_end), which the command reaches on
 * SIGINT, SIGTERM and SIGHUP too; after a SIGKILL a reaper removes the
 * cgroups at once and the journal has the rest (runner/knob_guard.h).
 */

#define KNOB_SESSION_MAX_SIDES 2

/* A machine setting a side changes: its original and each side's value. */
struct knob_machine {
	const struct knob_setting *setting;	/* its kind */
	char *name;
	char *original;
	const char *value[KNOB_SESSION_MAX_SIDES];	/* a knob's value, or original */
	char *taken[KNOB_SESSION_MAX_SIDES];	/* read back once written (begin) */
};

/* An environment variable a side sets. */
struct knob_env {
	char *name;
	char *original;				/* NULL: unset */
	const char *value[KNOB_SESSION_MAX_SIDES];	/* NULL: unset */
};

struct knob_session {
	size_t nr_sides;
	const struct knob_list *knobs[KNOB_SESSION_MAX_SIDES];
	char label[KNOB_SESSION_MAX_SIDES][8];	/* "a", "b": in cgroups' names */
	struct knob_machine *machine;
	size_t nr_machine;
	struct knob_env *env;
	size_t nr_env;
	struct task_knobs task[KNOB_SESSION_MAX_SIDES];
	struct knob_cgroups cgroups[KNOB_SESSION_MAX_SIDES];
	struct knob_original *journal;	/* the originals, as journalled */
	size_t nr_journal;
	bool journalled;		/* in the machine's journal */
	bool copied;			/* and in the store's copy */
	int reaper;			/* the cgroup reaper's fd, or -1 */
	const char *command;		/* ab, run, bisect-step: journalled, for messages */
	char described[KNOB_SESSION_MAX_SIDES][2048];	/* knob_session_describe()'s */
};

/* @command ("ab", "run", "bisect-step") is journalled with each original. */
void knob_session_init(struct knob_session *ks, size_t nr_sides, const char *command);

/*
 * Side @which's knobs (@kl must outlive the session), named @label ("a")
 * and @flag in messages ("ab: --a"): its value of every machine setting
 * and variable, its tasks' knobs. A setting given two values is EXIT_USAGE.
 * The benchmark's own (cpus:, param:, cmd:) are the command's.
 */
int knob_session_side(struct knob_session *ks, size_t which, const struct knob_list *kl,
		      const char *label, const char *flag, struct error *err);

/*
 * That side @which's CPU list @cpus (a cpus: knob, run's --cpus), named
 * @what in the message ("run: --cpus "), is inside the side's
 * cgroup:cpuset.cpus, when it has one: the cpuset would move its tasks
 * onto its own CPUs. EXIT_USAGE when not; called for a side's cpus: knob
 * by knob_session_side().
 */
int knob_session_cpus(const struct knob_session *ks, size_t which, const char *cpus,
		      const char *what, struct error *err);

/* Whether sides @a and @b change the same (machine, variables, tasks, cgroups). */
bool knob_session_same(const struct knob_session *ks, size_t a, size_t b);

/* Whether the session changes the machine (a setting or a cgroup): the lock is then exclusive. */
bool knob_session_changes_machine(const struct knob_session *ks);

/*
 * Under the machine's lock (runner/knob_guard.h): every original read and
 * opened for writing, every cgroup's place found, the tasks' knobs tried
 * in a child; a side that leaves a setting alone then has its original.
 * Changes nothing; every refusal of the machine is EXIT_ENV.
 */
int knob_session_check(struct knob_session *ks, struct error *err);

/*
 * Journal the originals and the cgroups to be on this machine, changing
 * nothing: what begin does first, for a command that writes the store's
 * copy (knob_session_copy) before the first change, as ab does. Once.
 */
int knob_session_journal(struct knob_session *ks, struct error *err);

/*
 * Journal the originals and the cgroups to be (unless done), start the cgroups' reaper,
 * make the cgroups, and try every side's values once (a value the kernel
 * refuses is EXIT_USAGE), reading back what the kernel took: two sides it
 * took alike (sysctl 07 and 7, a cgroup value clamped) are EXIT_USAGE.
 * Then each side's description is what was taken. On failure,
 * knob_session_end() puts back what changed.
 */
int knob_session_begin(struct knob_session *ks, struct error *err);

/* The store's copy of the journal (for `schedperf jobs`), corrected, then ours added. */
int knob_session_copy(struct knob_session *ks, struct store *st, struct error *err);

/* Set side @which's machine settings and variables, before each of its samples. */
int knob_session_apply(struct knob_session *ks, size_t which, struct error *err);

/* Side @which's tasks' knobs, its cgroups among them (after begin). */
const struct task_knobs *knob_session_task(const struct knob_session *ks, size_t which);

/*
 * Lines "KIND=VALUE" describing side @which's knobs of the benchmark
 * (env.VAR, the tasks', cgroup.FILE as the kernel took it), for its
 * batch's environment (machine settings are marked from the journal, the
 * CPUs by the runner that pins them).
 * The session's, filled in by knob_session_begin(): "" until then; lines
 * beyond its size are left out whole.
 */
const char *knob_session_describe(const struct knob_session *ks, size_t which);

/*
 * Put every original and variable back, remove the cgroups, and have both
 * journals forget what is back (@st may be NULL). What cannot be put back
 * stays journalled: -1 with @err saying so.
 */
int knob_session_end(struct knob_session *ks, struct store *st, struct error *err);

void knob_session_release(struct knob_session *ks);

/*
 * A command's own --knob SPECs (run, bisect-step), one side: parsed into
 * @kl, naming @who in messages ("run: --knob"); cpus:, param: and cmd: are
 * refused, the command having options of its own for them.
 */
int knob_session_parse(struct knob_session *ks, struct knob_list *kl, char *const *specs,
		       size_t n, const char *who, struct error *err);

/*
 * For such a command, before it opens its store: the signals caught (a
 * signal must find the originals put back), the machine's lock taken
 * (exclusive when the session changes the machine) and what a killed ab
 * left dealt with, then check and begin. The store's copy follows
 * (knob_session_copy); the command's end is knob_session_end.
 */
int knob_session_start(struct knob_session *ks, struct error *err);

#endif
