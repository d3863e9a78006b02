/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_MONITOR_ENV_CHECK_H
#define SCHEDPERF_MONITOR_ENV_CHECK_H

#include <stddef.h>

/*
 * `schedperf env --check`: setups that make numbers noisy or misleading
 * (the cpufreq governor has turned a scheduler regression's verdict around;
 * latencytop's lock once made a 51 % "regression"). Each finding says what,
 * why it matters and how to fix it.
 */

struct env_finding {
	char what[160];
	char why[256];
	char fix[256];
};

/*
 * Inspect the machine under @root ("" for the real one; tests give a fake
 * tree holding proc/... and sys/...). Returns the number of findings, at
 * most @max stored in @out.
 */
size_t env_check(const char *root, struct env_finding *out, size_t max);

#endif
