/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_JSON_WRITE_H
#define SCHEDPERF_UTIL_JSON_WRITE_H

#include <jansson.h>
#include <stdio.h>

/*
 * Write @json (an object or an array) to @out as json_dumpf(json, out,
 * JSON_INDENT(@indent) | JSON_REAL_PRECISION(17)) does, byte for byte,
 * several times faster: 0, or -1 when it is neither or a write failed.
 */
int json_write(FILE *out, const json_t *json, int indent);

#endif
