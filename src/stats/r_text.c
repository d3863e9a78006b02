// SPDX-License-Identifier: GPL-2.0
/*
 * R's quantiles through the text that MMTests passes to R and reads back
 * (stats/r_text.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define MATHLIB_STANDALONE	/* Rmath without R itself */
#include <Rmath.h>

#include "stats/r_text.h"

double r_text_perl_number(double v)
{
	char buf[40];

	if (!isfinite(v))
		return v;
	snprintf(buf, sizeof(buf), "%.15g", v);
	return strtod(buf, NULL);
}

/* A number as R prints it (digits = 7) and Perl reads it back. */
static double r_printed(double v)
{
	char buf[40];

	if (!isfinite(v))
		return v;
	snprintf(buf, sizeof(buf), "%.6e", v);
	return strtod(buf, NULL);
}

double r_text_qnorm_halfwidth(double alpha, double sd)
{
	if (isnan(sd))
		return NAN;
	return r_printed(qnorm(1 - alpha / 2, 0, r_text_perl_number(sd), 1, 0));
}

double r_text_pt_upper(double t, double df)
{
	if (isnan(t))
		return NAN;
	return r_printed(pt(r_text_perl_number(t), df, 0, 0));
}
