/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STATS_RNG_H
#define SCHEDPERF_STATS_RNG_H

#include <stdint.h>

/*
 * A small seeded generator for resampling: xoshiro256** (Blackman and
 * Vigna, 2018) with its state filled from a 64-bit seed by splitmix64, as
 * its authors recommend. Our own, so that a seed gives the same bootstrap
 * interval on every libc and machine, which rand() and random() do not.
 * Not for cryptography.
 */
struct rng {
	uint64_t state[4];
};

void rng_seed(struct rng *rng, uint64_t seed);
uint64_t rng_next(struct rng *rng);
/* Uniform in [0, @bound), without modulo bias; @bound must be at least 1. */
uint64_t rng_below(struct rng *rng, uint64_t bound);

#endif
