/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_MACHINE_H
#define SCHEDPERF_UTIL_MACHINE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * This machine as a store shared by many tells it from the others: its
 * machine id (/etc/machine-id), else its host name, else "". The same key
 * as a batch's (src/analysis/machines.h), read from this machine now.
 */
void machine_identity(char *buf, size_t len);

/*
 * Its machine id and host name as a batch run here records them, "ID/HOST"
 * (either "" when unknown): what the store's --replace and --resume tell
 * machines apart by, so that machines cloned from one image, which share
 * their machine id, are still two (src/store/runs.c, MACHINE_OF).
 */
void machine_batch_key(char *buf, size_t len);

/*
 * The key "ID/HOST" of the machine with id @id and host name @host (either
 * NULL or "" when unknown), malloc()ed: the one spelling of a machine that
 * machine_batch_key(), a stored batch's (src/analysis/machines.h) and the
 * store's MACHINE_OF all make.
 */
char *machine_key(const char *id, const char *host);

/* Its host name, as a batch records it and a worker matches jobs by it. */
void machine_host_name(char *buf, size_t len);

/* The release of the kernel it runs (uname -r), "" when unknown. */
void machine_release(char *buf, size_t len);

/*
 * The id of the boot it runs in (/proc/sys/kernel/random/boot_id), "" when
 * unknown: a new one after each reboot, so that a worker tells a machine
 * that rebooted from one that did not (fleet/boot.c, after a boot).
 */
void machine_boot_id(char *buf, size_t len);

/*
 * A kernel bisection is tested on one machine by simulating several and
 * their reboots (tests/cli/kernel_bisect.bats): with SCHEDPERF_TEST_MACHINE
 * naming a directory, its file "name" is this machine's host name and
 * identity, its file "release" the kernel it runs and its file "boot_id",
 * when there is one, its boot's id (a simulated reboot writes a new one). Only tests set it
 * (doc/design.md, "Tests"); this says whether it is set.
 */
bool machine_simulated(void);

#endif
