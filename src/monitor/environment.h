/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_MONITOR_ENVIRONMENT_H
#define SCHEDPERF_MONITOR_ENVIRONMENT_H

#include "results/results.h"

/*
 * The machine's state that can explain a result (a debugging facility left
 * on, the cpufreq governor), recorded once per batch.
 * A key whose source does not exist on this machine is left out: absent
 * means absent.
 */
void environment_collect(struct result_batch *batch);

#endif
