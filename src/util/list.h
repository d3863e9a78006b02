/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_LIST_H
#define SCHEDPERF_UTIL_LIST_H

#include <sched.h>
#include <stddef.h>

/*
 * Comma-separated lists, as every option and file of schedperf writes them
 * (-p KEY=A,B, --monitors, --workload, --cpus, sysfs CPU lists): one
 * splitter, so that they all treat empty items and the end alike.
 */

/*
 * Called with one item of a list, not NUL-terminated; returns 0 to go on,
 * anything else to stop the walk with that value.
 */
typedef int list_item_fn(const char *item, size_t len, void *arg);

/*
 * Call @fn on each item of the comma-separated @list, in order. Empty items
 * are passed too ("a,,b" is three items, "" and "a," end with an empty
 * one): each caller decides what an empty item means.
 */
int comma_list_each(const char *list, list_item_fn *fn, void *arg);

/* Called for each range of a CPU list; returns 0 to go on, else stops the walk. */
typedef int cpu_range_fn(long first, long last, void *arg);

/*
 * Walk a CPU list in the kernel's form ("0-3,8,10-11"), calling @range for
 * each item (a single CPU is first == last). Returns -1 on an item that is
 * empty or not N or N-M with whole numbers N, M >= 0 (digits no long
 * holds are LONG_MAX, for @range to refuse as beyond its set), else 0 or
 * what @range stopped with. Whether a range may go downwards is @range's
 * call.
 */
int cpulist_walk(const char *list, cpu_range_fn *range, void *arg);

/*
 * @set in the kernel's form, as /proc/self/status's Cpus_allowed_list
 * spells it ("0-3,8": a range for two CPUs or more), malloc'd; "" for
 * none. One set has one spelling: what a batch's environment records.
 */
char *cpulist_format(const cpu_set_t *set);

/*
 * The CPU list @list (ranges upwards, CPUs below CPU_SETSIZE) in
 * cpulist_format()'s one spelling ("1,0" and "0,1" are "0-1"), malloc'd;
 * NULL when @list is not such a list.
 */
char *cpulist_canonical(const char *list);

#endif
