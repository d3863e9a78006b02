/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_RUNNER_KNOB_JOURNAL_H
#define SCHEDPERF_RUNNER_KNOB_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "store/store.h"
#include "util/process.h"
#include "util/error.h"

/*
 * The machine's journal of the settings that ab changes, and the lock
 * that keeps its processes from changing and measuring at once. They are
 * the machine's, not a store's, so that every schedperf process here sees
 * them whatever store it uses:
 *
 *   /run/schedperf-knobs.lock     flock(2): held shared by every command
 *                                 while it measures, exclusive by an ab that
 *                                 changes settings and while leftovers are
 *                                 put back
 *   /run/schedperf-knobs.journal  the originals, JSON, replaced whole under
 *                                 the exclusive lock (written beside it, then
 *                                 renamed over it: a SIGKILL at any point
 *                                 leaves the old journal or the new); a text
 *                                 not UTF-8 as KEY_hex, its bytes in hex
 *
 * /run is cleared at boot, as the settings an ab changed are. The
 * variable SCHEDPERF_TEST_RUNDIR, for schedperf's own tests only, names
 * another directory for both, so that tests running at once on one
 * machine each have their own. A store keeps a copy of the journal for
 * `schedperf jobs` (store_journal_*): the machine's is the one that
 * counts (doc/design.md, "Knobs").
 */

#define KNOB_TEST_RUNDIR_VARIABLE "SCHEDPERF_TEST_RUNDIR"

struct knob_lock {
	int fd;		/* -1: not open */
	int held;	/* 0, LOCK_SH or LOCK_EX */
	const char *(*path)(void);	/* the file locked */
};

#define KNOB_LOCK_INIT { -1, 0, knob_lock_path }
/*
 * The lock a worker (fleet/worker.h) holds, exclusive, for its life, so
 * that no second one measures on this machine at once: beside the knob
 * lock, under the same rules.
 */
#define WORKER_LOCK_INIT { -1, 0, worker_lock_path }

/*
 * Where the lock and the journal are ("/run/schedperf-knobs.lock"), and
 * the journal's next version while it is written (".journal.new").
 */
const char *knob_lock_path(void);
const char *knob_journal_path(void);
/* Where a worker's lock is: "/run/schedperf-worker.lock". */
const char *worker_lock_path(void);
/*
 * The pid that the worker's lock file @fd names, when it is a live
 * process's; 0 when not (the holder has not written it yet, or the file is
 * read-only to it).
 */
long worker_lock_holder(int fd);
/*
 * Whether a worker holds its lock now, looked at without waiting and
 * without making the file: 1 with its *@pid (0 when the file names no live
 * one); 0 when no file exists, it is no regular file, no one holds it, or
 * it cannot be opened.
 */
int worker_lock_held(long *pid);
/*
 * Whether the worker's lock file @fd, whose exclusive lock was not to be
 * had, is held shared only: by worker_lock_held()'s look, which lets go at
 * once, never by a worker, which holds it exclusively.
 */
bool worker_lock_looked_at(int fd);
/*
 * Calls @fn with each of the machine's journal files and locks (a worker's
 * too), and what it is: those
 * in use, and /run's too when a test's directory stands in for /run, so that
 * nothing run with it can reach the machine's own.
 */
void knob_files_each(void (*fn)(const char *path, const char *what));
const char *knob_journal_new_path(void);

/*
 * Take @l shared, or @exclusive (converting a lock held: not atomically,
 * so what was read under the old one is read again). 1 when taken, 0
 * when another process holds it and !@wait, -1 with @err. While it waits
 * a signal that iteration_install_signal_handlers() catches ends the
 * wait: -1 with err->code 128 + the signal. A shared lock that this user
 * cannot open, where none exists yet and only root may make one, is
 * taken as held (0 fd): no ab has changed a setting here since boot.
 */
int knob_lock_take(struct knob_lock *l, bool exclusive, bool wait, struct error *err);
void knob_lock_release(struct knob_lock *l);

/*
 * Every journalled original, in the order written (*@out NULL when
 * none), each text byte for byte as written. It may be read without the
 * lock: the file is replaced whole. Memory that runs out is EXIT_ENV,
 * never an entry less.
 */
int knob_journal_read(struct knob_original **out, size_t *n, struct error *err);
/* Make @k (@n of them) the journal, under the exclusive lock; none removes it. */
int knob_journal_write(const struct knob_original *k, size_t n, struct error *err);

/*
 * Add @k (@n of them) to the journal, under the exclusive lock; a setting
 * journalled already is refused (EXIT_ENV): its original is that entry's.
 */
int knob_journal_add(const struct knob_original *k, size_t n, struct error *err);
/* Forget the entry of @kind and @name that @writer journalled, under the exclusive lock. */
int knob_journal_forget(const char *kind, const char *name, const struct process_id *writer,
			struct error *err);
/* Whether two journal entries are one: a setting, journalled by one process. */
bool knob_journal_same(const struct knob_original *x, const struct knob_original *y);

/* Whether @k was journalled in an earlier boot, which reset the setting. */
bool knob_journal_of_old_boot(const struct knob_original *k);

/*
 * A batch's environment: knob.KIND.NAME = "VALUE (original ORIGINAL)" for
 * each journalled setting that is not at its original now, so that a
 * sample taken under a changed setting says so (ab's sides, by design).
 */
void knob_journal_mark(struct result_batch *batch);

#endif
