// SPDX-License-Identifier: GPL-2.0
/*
 * What measuring interference costs between two iterations: reading
 * /proc/stat (twice per iteration, always) and scanning every task's
 * /proc/PID/stat (before an iteration only when tasks are runnable, the
 * last one was disturbed or the snapshot is a second old; after a
 * disturbed one). Prints the median and quartiles of each, in microseconds.
 * Built and run by bench/interference-cost.sh.
 */
#include <stdio.h>
#include <stdlib.h>

#include "monitor/interference.h"
#include "util/timeutil.h"

static int cmp(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return a < b ? -1 : a > b;
}

static void report(const char *what, double *t, int n)
{
	qsort(t, (size_t)n, sizeof(double), cmp);
	printf("%-28s median %8.1f us   quartiles %8.1f %8.1f us\n", what,
	       t[n / 2] * 1e6, t[n / 4] * 1e6, t[3 * n / 4] * 1e6);
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 200;
	struct interference_monitor *im = interference_open(NULL, 0.05);
	double *stat_t = calloc((size_t)reps, sizeof(double));
	double *scan_t = calloc((size_t)reps, sizeof(double));
	size_t tasks = 0;

	if (!im || !stat_t || !scan_t || reps < 4) {
		fprintf(stderr, "interference_cost: cannot read /proc/stat\n");
		return 1;
	}
	for (int i = 0; i < reps; i++) {
		double t0 = time_now(), t1, t2;

		interference_read_stat(im);
		t1 = time_now();
		tasks = interference_scan_tasks(im);
		t2 = time_now();
		stat_t[i] = t1 - t0;
		scan_t[i] = t2 - t1;
	}
	report("/proc/stat read", stat_t, reps);
	printf("%-28s %zu\n", "tasks scanned", tasks);
	report("scan of every /proc/PID/stat", scan_t, reps);
	interference_close(im);
	free(stat_t);
	free(scan_t);
	return 0;
}
