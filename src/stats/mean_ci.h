/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STATS_MEAN_CI_H
#define SCHEDPERF_STATS_MEAN_CI_H

#include <stddef.h>

/*
 * Student's t interval of the mean at @level, as R's t.test(x,
 * conf.level = level)$conf.int: mean +- qt((1 + level)/2, n - 1) * sd /
 * sqrt(n), sd with divisor n - 1. Both bounds NAN for fewer than two
 * samples or a level outside (0, 1); the mean itself for constant samples.
 */
void mean_ci(const double *x, size_t n, double level, double *low, double *high);

#endif
