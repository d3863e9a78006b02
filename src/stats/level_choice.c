// SPDX-License-Identifier: GPL-2.0
/*
 * The two-bettor choice of level_choice.h. The bettors are the confidence
 * sequences of sequential.c looked at in one point, 0: a sequence at 2 alpha
 * rejects a point on one side when that side's wealth reaches 1 / alpha.
 */
#include <math.h>

#include "stats/level_choice.h"

void level_choice_init(struct level_choice *lc, double alpha, double huber)
{
	lc->alpha = alpha;
	seqcs_init(&lc->from_good, 2 * alpha, huber);
	seqcs_init(&lc->from_bad, 2 * alpha, huber);
}

void level_choice_release(struct level_choice *lc)
{
	seqcs_release(&lc->from_good);
	seqcs_release(&lc->from_bad);
}

void level_choice_add(struct level_choice *lc, double from_good, double from_bad)
{
	seqcs_add(&lc->from_good, from_good);
	seqcs_add(&lc->from_bad, from_bad);
}

/* log W of the bettor against H_good (on BAD) and of the one against H_bad. */
static void wealths(const struct level_choice *lc, double *on_bad, double *on_good)
{
	*on_bad = seqcs_log_wealth(&lc->from_good, 0, 1);
	*on_good = seqcs_log_wealth(&lc->from_bad, 0, -1);
}

/*
 * Equal wealths (every sign so far on both bettors' sides, as for a build
 * between the levels with little noise): the level whose difference has
 * the smaller centre, by the sequences' estimates.
 */
static enum level_verdict nearer_centre(const struct level_choice *lc)
{
	struct seqcs_interval from_good, from_bad;

	seqcs_interval(&lc->from_good, &from_good);
	seqcs_interval(&lc->from_bad, &from_bad);
	return fabs(from_good.estimate) <= fabs(from_bad.estimate) ? LEVEL_GOOD : LEVEL_BAD;
}

/* Whichever bettor is richer, or the nearer centre when neither is. */
static enum level_verdict richer(const struct level_choice *lc, double on_bad, double on_good)
{
	if (on_bad != on_good)
		return on_bad > on_good ? LEVEL_BAD : LEVEL_GOOD;
	return nearer_centre(lc);
}

enum level_verdict level_choice_decide(const struct level_choice *lc)
{
	double on_bad, on_good, level = log(1 / lc->alpha);

	wealths(lc, &on_bad, &on_good);
	/* Both can cross on one observation only when the build is in between: the richer wins. */
	if (on_bad >= level && on_good >= level)
		return richer(lc, on_bad, on_good);
	if (on_bad >= level)
		return LEVEL_BAD;
	return on_good >= level ? LEVEL_GOOD : LEVEL_UNDECIDED;
}

enum level_verdict level_choice_nearer(const struct level_choice *lc, double *error_bound)
{
	double on_bad, on_good;

	wealths(lc, &on_bad, &on_good);
	*error_bound = 1;
	if (!lc->from_good.n)
		return LEVEL_UNDECIDED;
	/* neither has won anything: the nearer centre, with no bound on being wrong */
	if (fmax(on_bad, on_good) <= 0)
		return nearer_centre(lc);
	*error_bound = exp(-fmax(on_bad, on_good));
	return richer(lc, on_bad, on_good);
}

enum level_verdict margin_decide(const struct seqcs *cs, double good_low, double good_high,
				 double margin)
{
	if (seqcs_rejects(cs, good_low + margin, -1))
		return LEVEL_GOOD;
	if (seqcs_rejects(cs, good_high + margin, 1))
		return LEVEL_BAD;
	return LEVEL_UNDECIDED;
}

double sign_bettor_samples(double p, double alpha)
{
	double m = 2 * p - 1;

	if (!(m > 0))
		return INFINITY;
	return log(1 / alpha) / (m * m / 2) * 1.5;
}
