/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_REPORT_GNUPLOT_H
#define SCHEDPERF_REPORT_GNUPLOT_H

#include <stdbool.h>
#include <stdio.h>

#include "util/error.h"

/*
 * Charts drawn by gnuplot as SVG: one gnuplot process per report, which
 * runs (never through a shell, and with a deadline) the script written to
 * a private temporary directory, each chart written to a file there and
 * read back to be inlined in the page.
 * User text reaches gnuplot only as single-quoted strings, its quotes as
 * double-quoted strings of quotes alone (gnuplot_string()), with the
 * terminal's enhanced text off, so no name is ever a command or
 * markup; a tic's label, which gnuplot reads as a format, has its '%'
 * doubled (gnuplot_tic_label()). gnuplot's SVG terminal escapes <, > and &
 * in what it writes.
 */
struct gnuplot {
	char *dir;		/* the temporary directory */
	FILE *script;		/* the script gnuplot will run, in dir */
	size_t nr_charts;
};

/* Whether a gnuplot program is on PATH. */
bool gnuplot_available(void);

/* Begin the script; -1 with @err (EXIT_ENV) when it cannot be written. */
int gnuplot_start(struct gnuplot *gp, struct error *err);
/*
 * Begin chart number gp->nr_charts (returned) of @width x @height pixels:
 * its output file, title and axis labels (any may be NULL); the caller
 * then writes its data blocks and plot command to gp->script.
 */
size_t gnuplot_chart(struct gnuplot *gp, int width, int height, const char *title,
		     const char *xlabel, const char *ylabel);
/* Write @s as a gnuplot string expression (line breaks become spaces). */
void gnuplot_string(FILE *out, const char *s);
/* Write @s as the label of a tic: gnuplot_string() with each '%' doubled. */
void gnuplot_tic_label(FILE *out, const char *s);
/*
 * Close the script and run gnuplot on it, for at most 60 s; -1 with @err
 * when it failed (EXIT_INTERNAL), could not run or did not finish in time
 * (EXIT_ENV, killed with its process group). What it left in its group
 * when it ended is killed too.
 */
int gnuplot_finish(struct gnuplot *gp, struct error *err);
/*
 * The SVG of chart @n (malloc'd, its XML prolog cut and its ids made
 * unique to the chart), or NULL when gnuplot did not write it.
 */
char *gnuplot_svg(const struct gnuplot *gp, size_t n);
/* Remove the temporary directory and its files. */
void gnuplot_cleanup(struct gnuplot *gp);

#endif
