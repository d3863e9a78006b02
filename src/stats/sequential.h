/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STATS_SEQUENTIAL_H
#define SCHEDPERF_STATS_SEQUENTIAL_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A confidence sequence for a centre of symmetry, by betting: an interval
 * that may be looked at after every observation and covers the centre at
 * all times at once with probability at least 1 - alpha (time-uniform), so
 * that sampling can stop the moment the interval is conclusive.
 *
 * For a candidate centre theta, two bettors wager on the sign of each new
 * observation: wealth M+(theta) = prod (1 + l_i psi_i(x_i - theta)) bets
 * that observations lie above theta, M-(theta) = prod (1 - l_i psi_i(...))
 * below it. psi_i is odd and bounded, psi_i(u) = clamp(u / k_i, -1, 1) with
 * a scale k_i = huber * 1.4826 * MAD of x_1 .. x_{i-1} (sign(u) while
 * k_i is 0: huber 0, or fewer than three earlier observations, where the
 * median and MAD would still follow a wild value), and the bet l_i
 * in (0, lambda_max] is the predictable plug-in of Waudby-Smith and
 * Ramdas, "Estimating means of bounded random variables by betting" (JRSS
 * B, 2024), on psi at the running median:
 *	l_i = min(lambda_max, sqrt(2 log(2/alpha) / (v_i i log(1 + i)))),
 *	v_i = (1 + sum_{j<i} (z_j - zbar_j)^2) / i, zbar_j = sum_{m<=j} z_m / (j+1),
 * z_j = psi_j(x_j - median(x_1 .. x_{j-1})) (0 for j = 1 as the median).
 * Both k_i and l_i depend only on earlier observations.
 *
 * When x_i - theta is symmetric about 0 given the past (sign-symmetric),
 * E[psi_i] = 0 and each wealth is a nonnegative martingale; by Ville's
 * inequality it ever reaches 2 / alpha with probability at most alpha / 2.
 * The interval is the set of theta that neither bettor has rejected. This
 * holds in finite samples, under any drift of scale and any tails: ab's
 * paired differences of log values in randomised AB/BA blocks are exactly
 * sign-symmetric about the shift between the sides (doc/design.md).
 * With psi = sign the symmetry is not needed: the centre is the median.
 *
 * A single wild observation moves either log-wealth by at most
 * log(1 + lambda_max), a fraction of the log(2 / alpha) a verdict needs.
 */

struct seqcs {
	double alpha;		/* miscoverage over all looks, both sides */
	double huber;		/* psi's clamp in robust scale units; 0: sign */
	size_t n, cap;
	double *x;		/* the observations, in order */
	double *scale;		/* k_i at the time x_i came (0: sign) */
	double *bet;		/* l_i */
	double *z;		/* psi_i at the median of the earlier x (for l) */
};

#define SEQCS_LAMBDA_MAX 0.75
/* The clamp ab uses: about 95 % of the mean's efficiency under normal noise. */
#define SEQCS_HUBER 1.5

void seqcs_init(struct seqcs *cs, double alpha, double huber);

/*
 * The fewest observations after which a sequence at @alpha can reject
 * anything: each bet is at most SEQCS_LAMBDA_MAX, so a bettor's wealth is
 * at most (1 + SEQCS_LAMBDA_MAX)^n, and it must reach 2 / alpha. A cap on
 * samples below it can only end undecided.
 */
int seqcs_min_samples(double alpha);
void seqcs_release(struct seqcs *cs);

/* Take one observation (finite). */
void seqcs_add(struct seqcs *cs, double x);

/* log M+(theta) for @side +1, log M-(theta) for -1. */
double seqcs_log_wealth(const struct seqcs *cs, double theta, int side);

/* Whether the bettor on @side has rejected @theta: its wealth >= 2 / alpha. */
bool seqcs_rejects(const struct seqcs *cs, double theta, int side);

struct seqcs_interval {
	double estimate;	/* where the two wealths balance */
	double low, high;	/* -INFINITY / INFINITY while unbounded */
	bool empty;		/* both bettors rejected every theta: low > high */
};

/*
 * The current interval and estimate: low is where M+ falls below 2/alpha,
 * high where M- does (each found to 1e-12 of the data's spread; exactly
 * the observation when all are equal, a constant shift), the
 * estimate the root of sum atanh(l_i psi_i(x_i - theta)), where the two
 * wealths are equal: inside the interval whenever it is not empty. With
 * no observation everything is NAN.
 */
void seqcs_interval(const struct seqcs *cs, struct seqcs_interval *out);

enum seqcs_decision {
	SEQCS_CONTINUE,
	SEQCS_ABOVE,		/* the centre lies above @zero */
	SEQCS_BELOW,		/* the centre lies below @zero */
	SEQCS_WITHIN,		/* the centre lies inside (@low, @high) */
};

/*
 * The decision after the latest observation: ABOVE or BELOW when @zero is
 * rejected (by the estimate's side if both bettors rejected it), WITHIN
 * when the whole interval lies inside (@low, @high) (pass low >= high to
 * never decide WITHIN), else CONTINUE. Each wrong decision has
 * probability at most alpha over all looks, whenever the data are
 * sign-symmetric about the centre.
 */
enum seqcs_decision seqcs_decide(const struct seqcs *cs, double zero, double low, double high);

#endif
