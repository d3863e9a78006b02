/*
 * A CPU-bound program for tests/cli/ab.bats and bench/ab-power.sh: ten
 * rounds of WORK thousand loop steps; it prints the best round's CPU time,
 * which other tasks can lengthen but not shorten, so that a build doing
 * more work is slower in (nearly) every sample even on a busy machine.
 * cc -O1 -DWORK=1100 makes one doing 10 % more.
 */
#include <stdio.h>
#include <time.h>

#ifndef WORK
#define WORK 1000
#endif

static double cpu_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(void)
{
	volatile unsigned long x = 0;
	double best = 1e9;

	for (int round = 0; round < 10; round++) {
		double start = cpu_now(), took;

		for (unsigned long i = 0; i < WORK * 1000UL; i++)
			x += i ^ (x >> 3);
		took = cpu_now() - start;
		if (took < best)
			best = took;
	}
	printf("best %.9f\n", best);
	return 0;
}
