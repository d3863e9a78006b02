/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_MONITOR_PROCFS_H
#define SCHEDPERF_MONITOR_PROCFS_H

#include "monitor/monitor_ops.h"

/* System-wide deltas of /proc/vmstat, /proc/stat, /proc/softirqs, /proc/schedstat. */
extern const struct monitor_ops vmstat_monitor;
extern const struct monitor_ops stat_monitor;
extern const struct monitor_ops softirqs_monitor;
extern const struct monitor_ops schedstat_monitor;

/*
 * For tests: open monitor @ops (one of the four above) on a file other than
 * the one in /proc, so that parsing can be checked with known contents.
 */
int procfs_open_path(const struct monitor_ops *ops, const char *path,
		     struct metric_table *table, void **state,
		     struct error *err);

#endif
