/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_CMD_KNOB_GUARD_H
#define SCHEDPERF_CMD_KNOB_GUARD_H

#include <stdbool.h>

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
 * the exclusive lock, printing a line for each (or that there was
 * nothing), and correct @st's copy if @st is not NULL. An exit code.
 */
int knob_guard_restore(struct store *st);

#endif
