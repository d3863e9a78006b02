/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_TIMEUTIL_H
#define SCHEDPERF_UTIL_TIMEUTIL_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* CLOCK_MONOTONIC now, in seconds. */
double time_now(void);
/* CLOCK_MONOTONIC now, in nanoseconds: for workloads that keep integer times. */
uint64_t time_now_ns(void);
/* CLOCK_REALTIME now: seconds since the epoch, to tie events to other logs. */
double time_epoch(void);
/* CPU time this process has used (all its threads), in seconds. */
double time_process_cpu(void);
/* Sleep until CLOCK_MONOTONIC reaches @deadline seconds, whatever signals come. */
void time_sleep_until(double deadline);
/* Wall-clock time now as ISO 8601 UTC with microseconds: 2026-11-30T04:41:40.123456Z */
void time_iso8601(char *buf, size_t len);

#endif
