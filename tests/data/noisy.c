/*
 * A program for tests/cli/bisect.bats and bench/bisect-power.sh whose
 * printed value the test sets: LEVEL (per commit) times noise of its own,
 * lognormal with a SIGMA of its log and, one run in fifty, a wild run half
 * as slow again. The noise comes from a generator seeded by SEED and a
 * count kept in the file $NOISY_STATE, so that successive runs differ and
 * a test's sequence of values is the same on any machine, however fast.
 * Without NOISY_STATE the noise comes from the clock instead. NOISY_LEVEL
 * in the environment, when set, is the level instead of LEVEL: for a
 * simulated kernel's effect (tests/cli/kernel_bisect.bats).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef LEVEL
#define LEVEL 100.0
#endif
#ifndef SIGMA
#define SIGMA 0.05
#endif
#ifndef SEED
#define SEED 1
#endif

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double uniform(uint64_t *x)
{
	return ((double)(splitmix64(x) >> 11) + 0.5) / 9007199254740992.0;
}

/* The count of earlier runs, moved on by one. */
static uint64_t next_count(void)
{
	const char *state = getenv("NOISY_STATE");
	unsigned long long n = 0;
	struct timespec t;
	FILE *f;

	if (!state) {
		clock_gettime(CLOCK_REALTIME, &t);
		return (uint64_t)t.tv_nsec ^ ((uint64_t)t.tv_sec << 32);
	}
	f = fopen(state, "r");
	if (f) {
		if (fscanf(f, "%llu", &n) != 1)
			n = 0;
		fclose(f);
	}
	f = fopen(state, "w");
	if (!f)
		return n;
	fprintf(f, "%llu\n", n + 1);
	fclose(f);
	return n;
}

int main(void)
{
	uint64_t x = SEED * 0x2545f4914f6cdd1dULL + next_count();
	double g = sqrt(-2 * log(uniform(&x))) * cos(2 * M_PI * uniform(&x));
	const char *level = getenv("NOISY_LEVEL");
	double value = (level ? atof(level) : LEVEL) * exp(SIGMA * g);

	if (uniform(&x) < 0.02)
		value *= 1.5;
	printf("value %.6f\n", value);
	return 0;
}
