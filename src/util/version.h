/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_VERSION_H
#define SCHEDPERF_UTIL_VERSION_H

/*
 * The order of kernel-like release names, for runs named after the kernel
 * they ran on (uname -r): the leading dotted numbers compare as numbers
 * (5.9 < 5.10 < 5.10.1), a release candidate comes before its release
 * (5.10-rc1 < 5.10-rc2 < 5.10), anything else after the numbers follows
 * the release (6.18.44 < 6.18.44-fc), compared piecewise with digit runs
 * as numbers. Names that do not start with a number (after an optional
 * "v") come after every version, in the same piecewise order. Returns <0,
 * 0 or >0 as strcmp(); 0 only for equal strings.
 */
int version_compare(const char *a, const char *b);

#endif
