/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_MONITOR_PROFILE_H
#define SCHEDPERF_MONITOR_PROFILE_H

#include "monitor/monitor_ops.h"

/*
 * A CPU profile of the workload's tasks: perf_event_open sampling (cycles
 * where the machine counts them, else cpu-clock) with kernel and user call
 * chains, symbolised from /proc/kallsyms and the ELF files mapped. Adds no
 * metric: each iteration gives a struct result_profile.
 */
extern const struct monitor_ops profile_monitor;
/*
 * The same of every task on every CPU while an iteration runs, as LKP's
 * perf-profile (perf record -a) takes one: what runs beside the workload
 * shows too. Needs permission to sample whole CPUs.
 */
extern const struct monitor_ops profile_system_monitor;

#endif
