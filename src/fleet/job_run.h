/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_FLEET_JOB_RUN_H
#define SCHEDPERF_FLEET_JOB_RUN_H

#include "store/store.h"

/*
 * Run one claimed job, whose lease was last renewed (or begun) at
 * @renewed, to its end: 0 done, 1 failed or lost, or a store error's code.
 */
int run_job(struct store *st, const struct store_job *job, int lease, double renewed);

/*
 * The worker was stopped: job @job goes back to the queue now, not when its
 * lease is over, and this attempt is not counted. 128 + the signal when it
 * went back (@how: what comes of it); 0 when it is no longer this claim's;
 * else a store error's code, the job then run again when its lease is over.
 */
int give_back(struct store *st, const struct store_job *job, const char *how);

/* Say that job @job is no longer this worker's (cancelled, or taken): @what came of it. */
void not_ours(const struct store_job *job, const char *what);

#endif
