/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_ISO8601_H
#define SCHEDPERF_UTIL_ISO8601_H

#include <stddef.h>

/*
 * A time as ISO 8601 writes it: YYYY-MM-DDTHH:MM:SS, fraction and zone
 * optional (none: UTC), a date that exists, a leap second only at 23:59:60
 * UTC of a month's last day; into @out the store's spelling of it, in UTC
 * (2026-01-01T10:00:00Z, or .ffffffZ when there are microseconds), a year
 * from 0000 to 9999. Returns NULL, or why @s is refused.
 */
const char *iso8601(const char *s, char *out, size_t len);

#endif
