// SPDX-License-Identifier: GPL-2.0
/*
 * A run's writes wait for the store's write lock, held by another process
 * past the busy timeout, until it is free or a signal comes
 * (runner/lock_wait.h).
 */
#include <stdio.h>

#include "runner/iteration.h"
#include "runner/lock_wait.h"

bool lock_wait_again(struct lock_wait *w)
{
	const struct runner_events *ev = w->events;
	char text[256];

	if (!store_lock_busy(w->st) || iteration_interrupted())
		return false;
	if (!w->said && ev && ev->note) {
		snprintf(text, sizeof(text), "waiting for the store's write lock, held by another "
			 "process, to store %s (Ctrl-C stops the run without it)", w->what);
		ev->note(ev->ctx, text);
	}
	w->said = true;
	return true;
}
