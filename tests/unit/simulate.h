/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_TESTS_SIMULATE_H
#define SCHEDPERF_TESTS_SIMULATE_H

/*
 * What the simulations of the sequential procedures share (test_sequential.c,
 * test_level_choice.c): seeded uniform, normal and heavy-tailed draws, and a
 * machine whose log values drift.
 */
#include <math.h>
#include <stdbool.h>

#include "stats/rng.h"

static inline double uniform(struct rng *r)
{
	return ((double)(rng_next(r) >> 11) + 0.5) / 9007199254740992.0;
}

static inline double gauss(struct rng *r)
{
	return sqrt(-2 * log(uniform(r))) * cos(2 * M_PI * uniform(r));
}

/* Student's t with 2 degrees of freedom: infinite variance. */
static inline double student2(struct rng *r)
{
	double a = gauss(r), b = gauss(r), c = gauss(r);

	return a / sqrt((b * b + c * c) / 2);
}

/*
 * One machine's log values over time: a random walk (the machine warms up,
 * other jobs come and go), a slow wave, heavy-tailed noise and, one sample
 * in a hundred, a wild one ten times the others. Or, with @heavy false,
 * plain normal noise.
 */
struct machine {
	struct rng rng;
	bool heavy;
	double noise, level;
	long slot;
};

static inline double machine_sample(struct machine *m)
{
	double v;

	m->slot++;
	if (!m->heavy)
		return m->noise * gauss(&m->rng);
	m->level += 0.01 * gauss(&m->rng);
	v = m->level + 0.05 * sin((double)m->slot / 15) + m->noise * student2(&m->rng);
	if (uniform(&m->rng) < 0.01)
		v += log(10);
	return v;
}

#endif
