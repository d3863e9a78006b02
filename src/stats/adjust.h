/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STATS_ADJUST_H
#define SCHEDPERF_STATS_ADJUST_H

#include <stddef.h>

/*
 * p-value adjustment over the rows of one comparison (--adjust), exactly as
 * R's p.adjust(p, method = "none" | "holm" | "BH").
 */
enum p_adjust_method {
	P_ADJUST_NONE,
	P_ADJUST_HOLM,		/* family-wise error rate */
	P_ADJUST_BH,		/* false discovery rate (Benjamini–Hochberg) */
};

/*
 * Adjust @n p-values into @adjusted (may be the same array as @p). NAN
 * p-values stay NAN and, as in R, do not count in the family size.
 */
void p_adjust(const double *p, double *adjusted, size_t n,
	      enum p_adjust_method method);

/* "none", "holm" or "bh" (any case); returns 0, or -1 for another name. */
int p_adjust_method_parse(const char *name, enum p_adjust_method *method);

#endif
