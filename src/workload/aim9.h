/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_WORKLOAD_AIM9_H
#define SCHEDPERF_WORKLOAD_AIM9_H

#include "util/error.h"

/* The AIM9 tests this workload has, in the order of its `test` choices. */
enum aim9_test {
	AIM9_PAGE,
	AIM9_BRK,
	AIM9_EXEC,
	AIM9_FORK,
};

/* Operations one call of each test performs, as AIM9 counts them. */
long aim9_ops_per_call(enum aim9_test test);

/* What aim9_measure() did. */
struct aim9_result {
	long operations;	/* a whole number of calls */
	double elapsed;		/* seconds, from the first call to the end of the last */
	double last_start;	/* seconds from the first call to the start of the last */
};

/*
 * Call @test repeatedly until a call ends @duration seconds or more after
 * the first one started. For tests and aim9.c. Returns 0; 1 with @err's
 * message the reason when a child of it ended abnormally (the iteration
 * fails); -1 with @err filled when it cannot go on.
 */
int aim9_measure(enum aim9_test test, double duration, struct aim9_result *result,
		 struct error *err);

#endif
