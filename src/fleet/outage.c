// SPDX-License-Identifier: GPL-2.0
/* The store unreachable while a worker holds a job, and ridden out (outage.h). */
#include <math.h>
#include <stdio.h>

#include "fleet/outage.h"
#include "fleet/stop.h"
#include "util/error.h"
#include "util/timeutil.h"

struct outage outage;

int lease_patience_ms(int lease)
{
	return lease > 3 ? lease * 1000 / 3 : 1000;
}

bool outage_noticed(struct store *st)
{
	char why[256];

	if (!store_unreachable(st, why, sizeof(why)))
		return false;
	if (!outage.down) {
		fprintf(stderr, "schedperf: worker: the store is unreachable: %s (connecting again "
			"until it is back; a job keeps its run and its lease meanwhile, until the "
			"lease is over)\n", why);
		outage.down = true;
		outage.backoff = STORE_BACKOFF_FIRST;
		outage.retry_at = time_now();
	}
	return true;
}

bool outage_over(struct store *st)
{
	struct error err = { 0 };

	if (!outage.down)
		return true;
	if (time_now() < outage.retry_at)
		return false;
	if (store_reconnect(st, &err)) {
		outage.retry_at = time_now() + outage.backoff;
		outage.backoff = fmin(outage.backoff * 2, STORE_BACKOFF_MOST);
		return false;
	}
	outage.down = false;
	fprintf(stderr, "schedperf: worker: the store is reachable again\n");
	return true;
}

int outage_wait(struct store *st, double until)
{
	while (!outage_over(st)) {
		if (stop_signal)
			return 128 + stop_signal;
		if (time_now() >= until)
			return 1;
		/* a second at most, so that a stop is not kept waiting */
		time_sleep_until(fmin(fmin(until, outage.retry_at), time_now() + 1));
	}
	return 0;
}
