/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_PARSE_H
#define SCHEDPERF_UTIL_PARSE_H

/*
 * Strict number parsing: the whole string must be a number, no trailing
 * junk, no overflow. Return 0 on success, -1 otherwise (*out untouched).
 */
int parse_long(const char *s, long *out);
int parse_double(const char *s, double *out);

#endif
