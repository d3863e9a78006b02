// SPDX-License-Identifier: GPL-2.0
/*
 * An iteration's resource usage from wait4() as metrics: wall, user and
 * system time, context switches and page faults.
 */
#include "monitor/rusage.h"

const struct metric_spec rusage_metrics[NR_RUSAGE_METRICS] = {
	[RUSAGE_WALL] = { "wall", "s", BETTER_LOWER, "elapsed time of the iteration" },
	[RUSAGE_USER] = { "user", "s", BETTER_LOWER, "user CPU time" },
	[RUSAGE_SYSTEM] = { "system", "s", BETTER_LOWER, "system CPU time" },
	[RUSAGE_VOLUNTARY_CSW] = { "voluntary_csw", "count", BETTER_LOWER,
				   "voluntary context switches" },
	[RUSAGE_INVOLUNTARY_CSW] = { "involuntary_csw", "count", BETTER_LOWER,
				     "involuntary context switches" },
	[RUSAGE_MINOR_FAULTS] = { "minor_faults", "count", BETTER_LOWER,
				  "page faults served without I/O" },
	[RUSAGE_MAJOR_FAULTS] = { "major_faults", "count", BETTER_LOWER,
				  "page faults that needed I/O" },
};

static double timeval_seconds(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

void rusage_values(const struct rusage *ru, double wall, double *values)
{
	values[RUSAGE_WALL] = wall;
	values[RUSAGE_USER] = timeval_seconds(&ru->ru_utime);
	values[RUSAGE_SYSTEM] = timeval_seconds(&ru->ru_stime);
	values[RUSAGE_VOLUNTARY_CSW] = (double)ru->ru_nvcsw;
	values[RUSAGE_INVOLUNTARY_CSW] = (double)ru->ru_nivcsw;
	values[RUSAGE_MINOR_FAULTS] = (double)ru->ru_minflt;
	values[RUSAGE_MAJOR_FAULTS] = (double)ru->ru_majflt;
}
