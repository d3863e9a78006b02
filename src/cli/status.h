/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_CLI_STATUS_H
#define SCHEDPERF_CLI_STATUS_H

#include <stdbool.h>
#include <stddef.h>

#include "experiment/sampling.h"
#include "runner/runner.h"

/*
 * The status line of a measurement on a terminal, redrawn in place on
 * stderr: "[ab] WHAT  12s elapsed, <= 30s left". Only on a terminal, and
 * never with --quiet.
 */
struct status_line {
	bool enabled;
	double start;
	double max_time;	/* the events' --max-time: 0 for none */
};

void status_init(struct status_line *sl);
void status_show(struct status_line *sl, const char *what, size_t done, size_t cap,
		 double max_time);
void status_end(struct status_line *sl);

/*
 * A measurement's events (experiment/sampling.h) drawn on @sl, under
 * --max-time @max_time (0: none): its progress as the status line, its
 * notes as lines on stderr unless --quiet.
 */
void status_events(struct sampling_events *ev, struct status_line *sl, double max_time);

/*
 * A run's reports (runner/runner.h) on stderr: its progress line, redrawn
 * in place on a terminal, and a warning for each failed iteration, both
 * never with --quiet; its notes always.
 */
struct run_display {
	bool progress;		/* draw the progress line */
	bool line_shown;	/* one is on the screen now */
	struct runner_events events;
};

/* The events of a run that reports through @d. */
const struct runner_events *run_display_init(struct run_display *d);
/* Clear the progress line, if one is drawn. */
void run_display_end(struct run_display *d);
/*
 * The warning, on stderr, that some of the run @name's iterations or
 * attempts failed; none when none did, or when none measured anything.
 */
void run_display_outcome(const struct runner_result *res, const char *name);

#endif
