/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_FLEET_BOOT_H
#define SCHEDPERF_FLEET_BOOT_H

#include <stdbool.h>

#include "store/store.h"

/* How a worker boots a kernel (worker --boot-cmd and the options that go with it). */
struct boot_options {
	const char *cmd;	/* installs and boots the release given as $1; NULL */
	int timeout;		/* seconds a boot may take, from its command's start to the job */
	const char *home_kernel;	/* the machine's default kernel; NULL: none */
	int home_after;		/* idle seconds before it boots the default kernel */
};

/*
 * Boot the release claimed job @job needs (its kernel) on a machine that
 * runs @release, holding the job with leases of @lease seconds until the
 * machine goes down; the job runs after the boot, in the next worker. 128 +
 * the signal that came with the reboot (or stopped the worker: the job
 * given back); 1 when it could not boot (the job failed, or no longer this
 * claim's); else a store error's code.
 */
int boot_for(struct store *st, const struct store_job *job, const char *release, int lease,
	     const struct boot_options *boot);

/*
 * Back to the machine's default kernel, once (*@tried), when no job needs
 * @release, the one it runs: 128 + the signal that came with the reboot, or 0.
 */
int boot_home(const struct boot_options *boot, const char *release, bool *tried);

/*
 * After a start: the job this machine rebooted for, if any. It runs when the
 * machine came back on its kernel; otherwise the store fails it, with why.
 * Not rebooted yet (the same boot id): the worker whose boot command runs
 * keeps the job; one that was lost in it leaves a lost worker's job.
 * 0, or a store error's code or 128 + a signal, which end the worker.
 */
int after_boot(struct store *st, const char *host, int lease);

#endif
