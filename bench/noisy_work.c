/*
 * bench/bisect-power.sh's program under bisection: WORK thousand steps of a
 * loop, times a noise of its own (lognormal, SIGMA of its log, from
 * /dev/urandom), so that its run time is set by the commit (WORK) and
 * varies from run to run as a noisy benchmark's does, on top of whatever
 * the machine adds. Prints nothing: the command workload times it.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#ifndef WORK
#define WORK 1000
#endif
#ifndef SIGMA
#define SIGMA 0.05
#endif

int main(void)
{
	volatile unsigned long x = 0;
	uint64_t r[2] = { 1, 2 };
	FILE *f = fopen("/dev/urandom", "r");
	double u1, u2, steps;

	if (f) {
		if (fread(r, sizeof(r), 1, f) != 1)
			r[0] = r[1] = 3;
		fclose(f);
	}
	u1 = ((double)(r[0] >> 11) + 0.5) / 9007199254740992.0;
	u2 = ((double)(r[1] >> 11) + 0.5) / 9007199254740992.0;
	steps = WORK * 1000.0 * exp(SIGMA * sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2));
	for (unsigned long i = 0; i < (unsigned long)steps; i++)
		x += i ^ (x >> 3);
	return 0;
}
