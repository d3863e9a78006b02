/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_REPORT_HTML_H
#define SCHEDPERF_REPORT_HTML_H

#include <stdio.h>

#include "analysis/comparison.h"
#include "analysis/history.h"
#include "analysis/sweeps.h"
#include "util/error.h"

/* What the HTML report shows; every part built and analysed by the caller. */
struct html_input {
	const struct comparison *cmp;	/* analysed (comparison_analyze()) */
	const struct sweep *sweeps;
	size_t nr_sweeps;
	const struct history *history;	/* with change points; NULL: none */
	const char *db;			/* the store, for the commands it suggests */
};

/*
 * Write the self-contained page on @out: runs, environment differences,
 * the comparison with compare's verdicts, per benchmark a distribution
 * and an iteration-order chart, the sweeps, the history. Without gnuplot
 * on PATH the page says so and has no charts (still 0). -1 with @err when
 * gnuplot fails.
 */
int report_html(FILE *out, const struct html_input *in, struct error *err);

#endif
