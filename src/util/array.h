/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_ARRAY_H
#define SCHEDPERF_UTIL_ARRAY_H

/* The number of elements of an array (not of a pointer to one). */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
