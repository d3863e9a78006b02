// SPDX-License-Identifier: GPL-2.0
/*
 * A store on a server that was unreachable for a while: a restart of
 * PostgreSQL for an upgrade, a network failure (store.h). The connection
 * is lost then, and libpq never makes it again by itself.
 *
 * A transaction's start finds that out at no cost: nothing of the
 * transaction has happened yet, so sql_begin() connects again and begins
 * anew. A job's run (store_set_job()) keeps trying, with a backoff, for as
 * long as its worker lets it: the worker rides out an outage shorter than
 * the job's lease, and stops the run (a signal, which ends this wait too)
 * once the lease ran out; the run dies with its worker. Anything else tries
 * once, and fails with the first error.
 */
#include <math.h>

#include "store/sql.h"
#include "util/signals.h"
#include "util/timeutil.h"

void store_set_patience(struct store *st, int ms)
{
	st->patience_ms = ms;
}

bool store_unreachable(struct store *st, char *why, size_t len)
{
	return st->driver->unreachable && st->driver->unreachable(st, why, len);
}

int store_reconnect(struct store *st, struct error *err)
{
	if (!st->driver->reconnect)
		return error_set(err, EXIT_INTERNAL, "store '%s' cannot connect again",
				 st->location);
	return st->driver->reconnect(st, err);
}

/* Sleep @seconds, or less when a signal came (a job's run stopped by its worker). */
static void pause_for(double seconds)
{
	double until = time_now() + seconds;

	while (!signals_caught() && time_now() < until)
		time_sleep_until(fmin(until, time_now() + 0.1));
}

int sql_begin(struct store *st, enum store_txn txn, struct error *err)
{
	struct error again = { 0 };
	double backoff = STORE_BACKOFF_FIRST;
	int tries = 0;

	st->lock_busy = false;
	while (st->driver->begin(st, txn, err)) {
		if (!store_unreachable(st, NULL, 0) || signals_caught() || (tries && !st->job_id))
			return -1;
		for (;;) {
			if (tries++) {
				pause_for(backoff);
				backoff = fmin(backoff * 2, STORE_BACKOFF_MOST);
			}
			if (signals_caught())
				return -1;	/* with the first error */
			if (!store_reconnect(st, &again))
				break;
			if (!st->job_id)
				return -1;
		}
	}
	return 0;
}
