/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_RUNNER_KNOB_GUARD_H
#define SCHEDPERF_RUNNER_KNOB_GUARD_H

#include <stdbool.h>
#include <stddef.h>

#include "store/store.h"
#include "util/error.h"

/*
 * What every command that measures does before it measures (run, ab,
 * bisect-step, bisect, and so every worker's job): hold the machine's
 * knob lock (runner/knob_journal.h) until it exits, shared, or exclusive
 * for an ab that changes settings; and deal with what an ab that was
 * killed left changed. For a job it is put back: a worker's machine has
 * nobody to ask, and one lost job must not fail every job after it.
 * Otherwise it is refused (EXIT_ENV): the person learns what was left
 * changed and runs `ab --restore`. Each message says which, and why.
 */

/*
 * Take the lock and deal with the leftovers, before anything is read or
 * changed. A signal while it waits: -1 with err->code 128 + N.
 */
int knob_guard_take(bool exclusive, struct error *err);

/*
 * Make @st's copy of this machine's journal (for `schedperf jobs`) hold
 * what the machine's holds: the copies of settings that were put back
 * (by a process that could not reach @st, or a restore through another
 * store) are removed. Under the lock.
 */
int knob_guard_copy(struct store *st, struct error *err);

/* Both, shared: the one call of a command that measures and changes nothing. */
int knob_guard_measure(struct store *st, struct error *err);

/*
 * A worker, before it claims a job: put back what a killed ab left (its
 * own job's, when the worker was killed), saying so on stderr, unless
 * another process holds the lock now (it deals with them, or the job's
 * command will). The lock is not kept: the job's command takes its own.
 */
int knob_guard_put_back(struct error *err);

/*
 * `ab --restore`: put back everything the machine's journal holds, under
 * the exclusive lock, each told to the events' restored(); *@dealt counts
 * the entries dealt with (0: there was nothing to restore). Correcting a
 * store's copy is knob_guard_copy()'s.
 */
int knob_guard_restore(size_t *dealt, struct error *err);

/*
 * `ab --restore` whole: knob_guard_restore(), then the copy in the store
 * at @db corrected when that store exists (a mistyped path is never made
 * a new store for it; one that cannot be opened is a warning, and left).
 * 0; -1 with @err when the machine's journal could not be put back; 1
 * with @err when only the store's copy could not be corrected.
 */
int knob_guard_restore_store(const char *db, size_t *dealt, struct error *err);

/*
 * What the guard and the knob sessions (knob_session.h) say while they
 * work, for the command to show: note() what it waits for (progress,
 * which --quiet hides), warning() what it put back or left journalled,
 * each a line of text; restored() each setting `ab --restore` put back.
 * The command line installs them once (cli/cli.h); without them, or
 * with a member NULL, nothing is said.
 */
struct knob_events {
	void (*note)(const char *text);
	void (*warning)(const char *text);
	void (*restored)(const struct knob_original *k);
};

void knob_events_set(const struct knob_events *events);

/* Say @fmt through the installed events' note() or warning(). */
void knob_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void knob_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
