// SPDX-License-Identifier: GPL-2.0
/*
 * xoshiro256** and splitmix64, transcribed from the authors' reference
 * code at https://prng.di.unimi.it/ (public domain).
 */
#include "stats/rng.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void rng_seed(struct rng *rng, uint64_t seed)
{
	/* splitmix64 never yields an all-zero state, xoshiro's one bad state */
	for (int i = 0; i < 4; i++)
		rng->state[i] = splitmix64(&seed);
}

uint64_t rng_next(struct rng *rng)
{
	uint64_t *s = rng->state;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t rng_below(struct rng *rng, uint64_t bound)
{
	/*
	 * Lemire's multiply-and-shift (ACM TOMS 2019): the high half of
	 * x * bound is uniform in [0, bound) once the low half is not in the
	 * 2^64 % bound values that would make some results more likely. No
	 * division in the common case, which matters: the bootstrap draws
	 * millions of indices per row.
	 */
	__extension__ unsigned __int128 product =
		(unsigned __int128)rng_next(rng) * bound;
	uint64_t low = (uint64_t)product;

	if (low < bound) {
		uint64_t threshold = -bound % bound;

		while (low < threshold) {
			product = (unsigned __int128)rng_next(rng) * bound;
			low = (uint64_t)product;
		}
	}
	return (uint64_t)(product >> 64);
}
