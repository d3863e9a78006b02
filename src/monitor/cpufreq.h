/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_MONITOR_CPUFREQ_H
#define SCHEDPERF_MONITOR_CPUFREQ_H

#include "monitor/monitor_ops.h"

/* Average frequency per CPU over the iteration, from sysfs cpufreq. */
extern const struct monitor_ops cpufreq_monitor;

/*
 * For tests: open on a directory laid out as /sys/devices/system/cpu
 * (cpuN/cpufreq/scaling_cur_freq, cpuN/cpufreq/stats/time_in_state).
 */
int cpufreq_open_at(const char *cpu_dir, struct metric_table *table,
		    void **state, struct error *err);

#endif
