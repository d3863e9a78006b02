/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_FLEET_WORKER_H
#define SCHEDPERF_FLEET_WORKER_H

#include <stdbool.h>

#include "fleet/boot.h"
#include "store/store.h"

struct worker_options {
	bool once;
	int idle_exit;		/* 0: wait for jobs for ever */
	int lease;
	struct boot_options boot;
};

/*
 * Take this machine's jobs from @st's queue and run them, as `schedperf
 * worker` does (doc/schedperf.1), from the job a reboot was for, if any;
 * SIGTERM, SIGINT and SIGHUP stop it after the job at hand. Its exit code:
 * 0 when --once or --idle-exit ended it, 128 + the signal when one did, or
 * a failure's.
 */
int worker_work(struct store *st, const struct worker_options *opt);

#endif
