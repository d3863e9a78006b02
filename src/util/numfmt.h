/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_NUMFMT_H
#define SCHEDPERF_UTIL_NUMFMT_H

#include <stddef.h>

/*
 * The shortest %g form of @v that reads back as exactly @v (at most 17
 * significant digits): 1.547e+308, not the 309 digits %f gives or the
 * 1.5469999999999999e+308 of %.17g. At least 32 bytes of @buf suffice.
 */
void format_shortest(char *buf, size_t len, double v);

#endif
