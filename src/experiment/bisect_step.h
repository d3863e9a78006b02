/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_EXPERIMENT_BISECT_STEP_H
#define SCHEDPERF_EXPERIMENT_BISECT_STEP_H

#include <stdbool.h>
#include <stddef.h>

#include "experiment/sampling.h"
#include "runner/knob_session.h"
#include "stats/level_choice.h"
#include "stats/sequential.h"

/*
 * bisect-step's measurement (cmd/bisect_step.c is the command): the build
 * at hand sampled one iteration at a time into a run of its own until a
 * sequential rule decides whether it behaves like the stored run of the
 * good build or the bad one's (bisect_step.c), those stored ends loaded
 * and checked for whether a step can decide between them
 * (bisect_step_ends.c).
 *
 * With both ends the step chooses between the two stored levels
 * (stats/level_choice.h, psi = sign, so about medians, which needs no
 * symmetry): BAD once the build's median is shown above the good median's
 * upper bound, GOOD once it is shown below the bad median's lower bound,
 * those bounds the stored runs' order-statistic intervals at alpha/2 each
 * side (stats/median_ci.h), so that the stored runs' own uncertainty is in
 * the decision and each wrong answer has probability at most alpha. Such
 * a step always ends; at --max-samples the side with more evidence is the
 * answer, with its error bound said. With good alone the question is the
 * margin rule's (margin_decide()), which cannot always be decided: when the
 * stored run is too small or too noisy for it, the step says so before it
 * samples anything.
 */

/* One stored end: its samples (worse-is-up logs, sorted), median and its bounds. */
struct stored_end {
	const char *run;
	double *x;
	size_t n;
	size_t nonpositive;		/* samples left out: not positive, no log */
	double median, low, high;	/* low, high: at alpha/2 each side */
};

struct bisect_step {
	struct sequential_options so;
	struct stored_end good, bad;	/* bad.run NULL: the margin rule */
	struct sample_side side;
	double margin;			/* log(1 + --margin / 100) */
	const char **knob_specs;	/* --knob SPECs */
	size_t nr_knob_specs;
	struct knob_list knobs;
	struct knob_session ks;
};

void bisect_step_init(struct bisect_step *b);
void bisect_step_release(struct bisect_step *b);

/*
 * Load both ends from store @db, opened read only (a mistyped --db or run
 * creates nothing), and check that a step can decide between them (with
 * good alone: within --margin of it) in --max-samples: EXIT_USAGE, saying
 * what would do, when not.
 */
int bisect_step_load_ends(struct bisect_step *b, const char *db, struct error *err);

/* What the step's samples say, as it goes. */
struct step_outcome {
	struct seqcs cs;		/* the build's median (sign, at alpha) */
	struct level_choice lc;		/* with --bad */
	enum level_verdict verdict;
	const char *reason;		/* NULL: an error stopped the step */
	bool no_samples;		/* stopped by iterations that gave none */
	double error_bound;		/* the verdict's chance of being wrong */
};

void step_outcome_release(struct step_outcome *s);

/* The interval of the change against good, percent (+ is better), low to high. */
void step_interval(const struct bisect_step *b, const struct step_outcome *s, double *lo,
		   double *hi);

/*
 * What the step gives the command: its measurement's events, and the
 * verdict's JSON (malloc'd) its batch keeps when it ended with one.
 */
struct step_hooks {
	const struct sampling_events *events;
	char *(*result)(void *ctx, const struct step_outcome *s);
	void *ctx;
};

/*
 * Measure the build as run @name of store @db: the --knob settings
 * changed before the store is opened (a value the kernel refuses writes
 * nothing), the signals caught, samples until a verdict or a cap, the
 * batch finished (complete only with a verdict), the settings put back.
 * -1 with @err when it could not begin (the store, the settings); else 0
 * with *@s, s->reason NULL when an error stopped the step, which @err
 * says. *@s is to be released either way.
 */
int bisect_step_measure(struct bisect_step *b, const char *db, const char *name,
			const struct step_hooks *hooks, struct step_outcome *s,
			struct error *err);

#endif
