/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_RUNNER_METRIC_NAMES_H
#define SCHEDPERF_RUNNER_METRIC_NAMES_H

#include "monitor/monitor.h"
#include "runner/plan.h"
#include "util/error.h"

/*
 * Whether the workload metrics of @item are named apart from the metrics
 * every benchmark stores beside them: rusage's, and the monitors'. With
 * @ms NULL (when the plan is made, before any monitor is open, by a dry
 * run too): rusage's names, and any "MONITOR.KEY" of a monitor of the
 * registry (the /proc and cpufreq monitors name their metrics so, and
 * which keys a machine has is known only when they open). With @ms: the
 * names of the monitors opened, exactly (perf's counters), before the
 * batch is begun, so that the store never meets a metric twice.
 * 0, or -1 with @err (EXIT_USAGE).
 */
int metric_names_check(const struct plan_item *item, const struct monitor_set *ms,
		       struct error *err);

#endif
