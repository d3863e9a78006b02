/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_FLEET_WORKER_H
#define SCHEDPERF_FLEET_WORKER_H

#include <stdbool.h>

#include "fleet/boot.h"
#include "store/store.h"
#include "util/error.h"

struct worker_options {
	bool once;
	int idle_exit;		/* 0: wait for jobs for ever */
	int lease;
	struct boot_options boot;
};

/*
 * Make this process the machine's one worker until it exits: the worker
 * lock (runner/knob_journal.h) taken exclusive and never let go (the
 * kernel frees it when the process ends, killed or not) and its pid
 * written in it, so that two workers never measure at once, each
 * skewing the other's jobs. 0 when this process holds it; -1 with @err:
 * EXIT_ENV when another worker does (its pid named when the file gives a
 * live one), or why the lock could not be taken.
 */
int worker_lock_take(struct error *err);

/*
 * Take this machine's jobs from @st's queue and run them, as `schedperf
 * worker` does (doc/schedperf.1), from the job a reboot was for, if any;
 * SIGTERM, SIGINT and SIGHUP stop it after the job at hand. Its exit code:
 * 0 when --once or --idle-exit ended it, 128 + the signal when one did, or
 * a failure's.
 */
int worker_work(struct store *st, const struct worker_options *opt);

#endif
