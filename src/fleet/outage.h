/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_FLEET_OUTAGE_H
#define SCHEDPERF_FLEET_OUTAGE_H

#include <stdbool.h>

#include "store/store.h"

/*
 * The store unreachable: the worker says so once, connects again with a
 * backoff (at once, then after 0.5 s, doubled up to 10 s; each attempt and
 * each call bounded by the store's patience, so that a server that stopped
 * answering holds neither the run's lease nor a boot's deadline) and says
 * once that it is back. The job at hand runs on and its lease renewals
 * resume, while the lease lasts. A lease that ran out before the store was
 * back (on this machine's clock, from the last renewal sent, which is never
 * later than the server's) makes the job a lost worker's, which a claim
 * takes again: the worker stops its run and stores nothing more of it.
 */
extern struct outage {
	bool down;		/* said to be unreachable, not yet back */
	double retry_at;	/* the next attempt to connect */
	double backoff;		/* seconds from a failed attempt to the next */
} outage;

/*
 * A call's bound on the server's answer: a third of the lease, so that a
 * renewal that found no answer leaves time for another before the lease is
 * over; at least 1 s (a lease of 1 or 2 s), which a server's answer needs.
 */
int lease_patience_ms(int lease);

/*
 * After a failed call: true when the store is unreachable (said once);
 * false when the error is the call's own.
 */
bool outage_noticed(struct store *st);

/* true when the store can be used: never lost, or connected again now that an attempt is due. */
bool outage_over(struct store *st);

/*
 * Until the store is back: 0 when it is, 1 when @until came first, 128 +
 * the signal when the worker was stopped meanwhile.
 */
int outage_wait(struct store *st, double until);

#endif
