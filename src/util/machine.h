/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_MACHINE_H
#define SCHEDPERF_UTIL_MACHINE_H

#include <stddef.h>

/*
 * This machine as a store shared by many tells it from the others: its
 * machine id (/etc/machine-id), else its host name, else "". The same key
 * as a batch's (src/analysis/machines.h), read from this machine now.
 */
void machine_identity(char *buf, size_t len);

#endif
