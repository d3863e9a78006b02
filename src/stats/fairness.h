/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STATS_FAIRNESS_H
#define SCHEDPERF_STATS_FAIRNESS_H

#include <stddef.h>

/*
 * What a fair scheduler owes competing entities, and how close a measured
 * split came to it.
 *
 * fair_shares(): the weighted max-min fair split ("water filling") of
 * @capacity (CPUs) among @n entities of @weights, each able to use at most
 * @caps[i] (its tasks' demand, in CPUs): everyone gets the same amount per
 * unit of weight, except that an entity never gets more than it can use,
 * and what it cannot use goes to the others, again by weight. @out[i] is
 * entity i's fraction of everything handed out (the shares sum to 1).
 * Weights must be > 0, caps >= 0, n >= 1; all caps 0 gives NAN shares.
 *
 * jain_index(): Jain's fairness index (Jain, Chiu and Hawe, DEC-TR-301,
 * 1984) of @x: (sum x)^2 / (n sum x^2), 1 when all are equal, 1/n when
 * one has everything. Applied to measured/expected shares it is 1 for a
 * split exactly as the weights say.
 */
void fair_shares(const double *weights, const double *caps, size_t n, double capacity,
		 double *out);
double jain_index(const double *x, size_t n);

#endif
