/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_BETTER_H
#define SCHEDPERF_UTIL_BETTER_H

/*
 * Which direction of a metric is an improvement. Workloads declare it, the
 * store keeps it and reports read it, so it lives in util/, the layer all
 * of them may include: the store need not include workload.h for it.
 */
enum better {
	BETTER_LOWER,
	BETTER_HIGHER,
};

const char *better_name(enum better better);	/* "lower" or "higher" */
/* 0 with *out set for "lower" or "higher"; -1 (*out untouched) otherwise. */
int better_parse(const char *s, enum better *out);

#endif
