/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STATS_R_TEXT_H
#define SCHEDPERF_STATS_R_TEXT_H

/*
 * R's quantiles as a Perl program gets them by piping an expression to
 * `R --slave` and reading the printed answer, as MMTests does: the number
 * goes in as Perl prints it (15 significant digits) and comes back as R
 * prints it (7 significant digits). The styles that reproduce MMTests use
 * these, so that a mark sits where MMTests puts it even at the boundary.
 */

/* A number after Perl turned it into text ("%.15g") and back. */
double r_text_perl_number(double v);

/* qnorm(1 - alpha/2, mean=0, sd=SD) as MMTests reads it: the half-width of
 * its normal interval. NAN when @sd is NAN. */
double r_text_qnorm_halfwidth(double alpha, double sd);

/* pt(T, DF, lower.tail = FALSE) as MMTests reads it. */
double r_text_pt_upper(double t, double df);

#endif
