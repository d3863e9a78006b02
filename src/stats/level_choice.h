/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STATS_LEVEL_CHOICE_H
#define SCHEDPERF_STATS_LEVEL_CHOICE_H

#include <stdbool.h>
#include <stddef.h>

#include "stats/sequential.h"

/*
 * A bisection step's question: does the build at hand behave like the good
 * build or like the bad one? Both ends are known, so the step decides
 * between two hypotheses instead of placing the build against a margin:
 *
 *	H_good: the build's centre is the good level,
 *	H_bad:  the build's centre is the bad level (worse: higher, in
 *		worse-is-up units).
 *
 * Each observation comes as two differences: the build's value less the
 * good level's, and less the bad level's. Two bettors of stats/sequential.h
 * play, each against one hypothesis: one bets that the first difference
 * lies above 0 (its wealth grows when the build is worse than good), the
 * other that the second lies below 0 (when it is better than bad). The
 * first to reach 1/alpha rejects its hypothesis and decides the step for
 * the other: BAD when H_good falls, GOOD when H_bad falls. By Ville's
 * inequality each bettor ever reaches 1/alpha under its own hypothesis with
 * probability at most alpha, so each wrong answer (bad for a good build,
 * good for a bad one) has probability at most alpha, however long the step
 * runs. The caller makes the differences sign-symmetric under each
 * hypothesis: either the ends are measured in the same blocks as the build,
 * in a random order (paired: drift of the machine cancels), or each
 * difference is taken against a fixed bound of a stored end at level
 * alpha/2 with psi = sign (stored: the median, which needs no symmetry).
 *
 * The step always ends: unless the build sits exactly half-way, one
 * difference has a non-zero centre of the sign its bettor wagers on, and
 * that bettor's wealth grows without bound; half-way, both do. A build
 * between the levels is therefore decided for the level it is nearer,
 * whose hypothesis is rejected later (when both bettors reach 1/alpha on
 * the same observation the richer one decides; with equal wealths, the
 * level whose difference has the smaller estimated centre). Where a cap
 * stops the step first,
 * level_choice_nearer() gives the side with more evidence and the bound
 * 1/W on that answer's chance of being wrong, W the winning bettor's
 * wealth (Ville's inequality again, at level 1/W).
 */

enum level_verdict {
	LEVEL_UNDECIDED,
	LEVEL_GOOD,
	LEVEL_BAD,
};

struct level_choice {
	double alpha;		/* each wrong verdict's chance, over all looks */
	struct seqcs from_good;	/* build less good: M+ at 0 bets on BAD */
	struct seqcs from_bad;	/* build less bad: M- at 0 bets on GOOD */
};

/* @huber as in seqcs_init(): SEQCS_HUBER for paired blocks, 0 (sign) for stored ends. */
void level_choice_init(struct level_choice *lc, double alpha, double huber);
void level_choice_release(struct level_choice *lc);

/* One observation: the build's value less the good level's and less the bad level's. */
void level_choice_add(struct level_choice *lc, double from_good, double from_bad);

/* GOOD or BAD once a bettor has reached 1/alpha (both: as above), else UNDECIDED. */
enum level_verdict level_choice_decide(const struct level_choice *lc);

/*
 * The verdict with more evidence now, the richer bettor's, and in
 * *@error_bound the chance bound of that verdict being wrong: min(1, 1/W).
 * While neither has won anything, the level whose difference has the
 * nearer estimated centre, with a bound of 1 (UNDECIDED only with no
 * observation). After a decision this is the decision, with a bound of at
 * most alpha.
 */
enum level_verdict level_choice_nearer(const struct level_choice *lc, double *error_bound);

/*
 * With the good end alone there is no second hypothesis, and the question
 * stays whether the build is worse than good by more than a margin: GOOD
 * when the sequence @cs (psi = sign, at alpha: each side's bettor at
 * alpha/2) rejects that the build's median lies at or above @good_low +
 * @margin, BAD when it rejects that it lies at or below @good_high +
 * @margin, where [good_low, good_high] bounds the good median at level
 * 1 - alpha (alpha/2 each side). Each wrong verdict has probability at most
 * alpha. Unlike level_choice, this may never end: a build within
 * good_high - good_low of the threshold is never decided.
 */
enum level_verdict margin_decide(const struct seqcs *cs, double good_low, double good_high,
				 double margin);

/*
 * The samples a sign bettor needs, on average, to reach 1/@alpha when a
 * fraction @p > 1/2 of the observations falls on its side: its wealth
 * grows by about m^2 / 2 in log per observation, m = 2p - 1, at the best
 * fixed bet, and the predictable plug-in bet of stats/sequential.h reaches
 * about two thirds of that rate over the first hundred. INFINITY for
 * p <= 1/2. For telling a user at once that a step cannot be decided
 * within a cap.
 */
double sign_bettor_samples(double p, double alpha);

#endif
