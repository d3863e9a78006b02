/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STATS_SORT_H
#define SCHEDPERF_STATS_SORT_H

#include <stddef.h>

/*
 * Sort @n doubles ascending, NAN last, in O(n) time and O(n) extra memory:
 * a comparison at every step through qsort's callback made sorting most
 * of the cost of comparing runs of a million samples.
 */
void sort_doubles(double *x, size_t n);

/* A sorted copy of @x, NAN last (free() it). */
double *sorted_doubles(const double *x, size_t n);

#endif
