/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_RUNNER_TIMEOUT_H
#define SCHEDPERF_RUNNER_TIMEOUT_H

#include <stdbool.h>

/*
 * The range of an iteration's timeout, declared once: run's --timeout,
 * ab's, bisect-step's and bisect's, and a suite file's 'timeout:' take
 * the same, and their errors and help say it in these words. Seven days
 * is longer than any benchmark should run, and keeps the deadline far
 * from what a timer's seconds can hold.
 */
#define ITERATION_TIMEOUT_MAX 604800
#define ITERATION_TIMEOUT_RANGE "a number of seconds above 0 and at most 604800 (7 days)"

static inline bool iteration_timeout_valid(double seconds)
{
	return seconds > 0 && seconds <= ITERATION_TIMEOUT_MAX;
}

#endif
