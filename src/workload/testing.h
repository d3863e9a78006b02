/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_WORKLOAD_TESTING_H
#define SCHEDPERF_WORKLOAD_TESTING_H

/*
 * What the unit tests (tests/unit/test_workloads_*.c) read of a workload's
 * last run in this process, and the helpers they check, declared once for
 * the workload that defines them and the test that calls them. Nothing
 * else calls these.
 */

#include <stdint.h>

long poundtime_test_last_calls(void);
long poundtime_share(long calls, long threads, long index);
void futex_wake_test_last_counts(long *woken, long *wake_returns);
unsigned long threads_test_last_events(void);
long mutex_test_last_locks(void);
double mutex_percentile(double *values, long n, double p);
void cyclictest_test_last(int *policy, long *wakeups);
void tcp_rr_test_last(uint64_t *transactions, uint64_t *bytes);

#endif
