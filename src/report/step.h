/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_REPORT_STEP_H
#define SCHEDPERF_REPORT_STEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/better.h"

/*
 * A bisect-step's verdict as it prints it (one line) and as its job keeps
 * it (step_verdict_json()), built in one place; `jobs` reads it back.
 */
struct step_verdict {
	const char *run;		/* the step's run */
	const char *verdict;		/* good, bad or skip */
	const char *reason;		/* why it stopped */
	bool decided;			/* good or bad: error_bound holds */
	double error_bound;		/* the chance the verdict is wrong */
	double alpha;			/* --alpha: a larger bound is said */
	double ci_low_pct, ci_high_pct;	/* against good, + better */
	size_t samples;
	const char *metric;
	enum better better;
	const char *good, *bad;		/* the stored runs; bad NULL: the margin rule */
	size_t failed;			/* iterations that failed */
	const char *last_failure;
};

/* "bisect-step RUN: bad (decided): seconds against good -25.1% .. -18.0% (...), 12 samples" */
void report_step(FILE *out, const struct step_verdict *v);

/* The verdict as compact JSON, to be freed. */
char *step_verdict_json(const struct step_verdict *v);

#endif
