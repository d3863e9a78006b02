/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_RUNNER_CPULIST_H
#define SCHEDPERF_RUNNER_CPULIST_H

#include <sched.h>

#include "util/error.h"

/*
 * Parse a CPU list as the kernel writes them ("0-3,8,10-11") into @set and
 * check that this process may run on every CPU in it.
 */
int cpulist_parse(const char *text, cpu_set_t *set, struct error *err);

#endif
