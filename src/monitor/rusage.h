/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_MONITOR_RUSAGE_H
#define SCHEDPERF_MONITOR_RUSAGE_H

#include <sys/resource.h>

#include "workload/workload.h"

/*
 * What `/usr/bin/time -v` shows for one iteration: the iteration's child
 * process and every descendant it reaped, from wait4(). Stored beside the
 * workload's own metrics with source "rusage".
 */
enum {
	RUSAGE_WALL,
	RUSAGE_USER,
	RUSAGE_SYSTEM,
	RUSAGE_VOLUNTARY_CSW,
	RUSAGE_INVOLUNTARY_CSW,
	RUSAGE_MINOR_FAULTS,
	RUSAGE_MAJOR_FAULTS,
	NR_RUSAGE_METRICS
};

extern const struct metric_spec rusage_metrics[NR_RUSAGE_METRICS];

/* Fill @values[NR_RUSAGE_METRICS] from @ru and the wall time in seconds. */
void rusage_values(const struct rusage *ru, double wall, double *values);

#endif
