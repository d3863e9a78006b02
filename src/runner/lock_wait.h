/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_LOCK_WAIT_H
#define SCHEDPERF_LOCK_WAIT_H

#include <stdbool.h>

#include "runner/runner.h"
#include "store/store.h"

/*
 * A write of a run, from the begin of its batch to its end, waits for the
 * store's write lock past the busy timeout: another process (an import,
 * one transaction, minutes for a large one) holding it is no reason to
 * lose what the run measured, nor what it has set the machine up for.
 * Each such write is one transaction that a busy lock rolled back whole
 * (store_lock_busy()), so it is made again until it goes through:
 *
 *	struct lock_wait w = LOCK_WAIT(st, events, "the iteration just measured");
 *
 *	while (store_iteration_add(st, ...))
 *		if (!lock_wait_again(&w))
 *			return -1;
 */
struct lock_wait {
	struct store *st;
	const struct runner_events *events;	/* its note says that it waits; NULL: silent */
	const char *what;	/* what the write stores, as the note names it */
	bool said;
};

#define LOCK_WAIT(st, events, what) { (st), (events), (what), false }

/*
 * Whether the write that just failed on @w->st is to be made again: only
 * the lock was in the way, and no signal came (one that did ends the
 * wait, and the run as interrupted, with what it stored before). The
 * first time, the note says what it waits for.
 */
bool lock_wait_again(struct lock_wait *w);

#endif
