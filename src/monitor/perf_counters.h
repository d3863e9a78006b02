/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_MONITOR_PERF_COUNTERS_H
#define SCHEDPERF_MONITOR_PERF_COUNTERS_H

#include "monitor/monitor_ops.h"

/* perf_event_open counters on the iteration's tasks and their children. */
extern const struct monitor_ops perf_monitor;

#endif
