/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_EXPERIMENT_AB_H
#define SCHEDPERF_EXPERIMENT_AB_H

#include <stdbool.h>
#include <stddef.h>

#include "experiment/sampling.h"
#include "runner/knob_session.h"
#include "stats/sequential.h"

/*
 * ab's measurement (cmd/ab.c is the command): its two sides, each a run
 * under its knobs, sampled in blocks of a random order (AB or BA, from
 * the seed), the paired difference log b - log a of each block into a
 * confidence sequence (stats/sequential.h, Huber's psi), until the
 * sequence decides (doc/design.md, "Sequential verdicts") or a cap
 * stops it. A block in which a side failed is dropped; a side that fails
 * its first iteration, or three blocks in a row that fail, stop it.
 */

/* What the measurement works on. */
struct ab_measurement {
	struct sample_side *sides[2];	/* a, then b, open */
	struct knob_session *ks;	/* each side's settings, set before its samples */
	const struct sequential_options *so;
	int seed;			/* of the blocks' orders */
	const char *cap_reason;		/* why it stopped at --max-samples */
	const struct sampling_events *events;
};

/* What it found. */
struct ab_outcome {
	enum seqcs_decision decision;	/* SEQCS_CONTINUE: undecided */
	struct seqcs_interval ci;	/* of log b - log a */
	size_t blocks;
	double seconds;
	const char *reason;		/* why it stopped */
};

/* Measure until a verdict or a cap: 0, or -1 with @err when ab must stop. */
int ab_measure(const struct ab_measurement *m, struct ab_outcome *out, struct error *err);

/*
 * The verdict in words: "same", "unknown" or "different", and then
 * *@direction "better" or "worse" (b against a, by the metric's
 * direction @better), else NULL.
 */
const char *ab_verdict_word(const struct ab_outcome *out, enum better better,
			    const char **direction);

/* The outcome's interval as compare's percent change of b against a (+ better), low to high. */
void ab_interval_pct(const struct ab_outcome *out, enum better better, double *lo, double *hi);

#endif
