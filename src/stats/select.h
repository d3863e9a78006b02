/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STATS_SELECT_H
#define SCHEDPERF_STATS_SELECT_H

#include <stddef.h>

/*
 * The @k-th smallest (0-based) of @n values, reordering @x: expected O(n),
 * where sorting the bootstrap's ratios or the pairwise differences only to
 * read two or three order statistics would cost O(n log n). Values must
 * not be NAN; k < n.
 */
double select_kth(double *x, size_t n, size_t k);

#endif
