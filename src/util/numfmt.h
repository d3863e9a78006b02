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

/*
 * @v as snprintf(buf, len, "%.17g", v) writes it (which reads back as
 * exactly @v), in a tenth of its time for the values of measurements
 * (1e-6 to 1e38, where 128-bit integers hold the exact product that is
 * rounded; others go to snprintf). Returns the length; @buf needs 32
 * bytes.
 */
int format_g17(char *buf, double v);

/*
 * A change (a percent, without its sign of percent) as "%+.*f" to
 * @decimals places; from 1e15 on, where %f would print every one of up to
 * 309 digits that a double does not hold, the shortest form that reads
 * back exactly with its sign (+1e+302), as compare's styles print one. For
 * a finite @change; @buf of 32 bytes suffices.
 */
const char *format_change(char *buf, size_t len, double change, int decimals);

/*
 * A percent change as people read it, format_change()'s to @decimals places, with
 * no "-0.00%" for one that rounds to none: @buf; or @none when @pct is not
 * a finite number (an end an interval does not have).
 */
const char *format_pct(char *buf, size_t len, double pct, int decimals, const char *none);

#endif
