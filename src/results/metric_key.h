/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_RESULTS_METRIC_KEY_H
#define SCHEDPERF_RESULTS_METRIC_KEY_H

#include <stdbool.h>
#include <stdint.h>

#include "results/results.h"
#include "util/better.h"

/*
 * What makes two stored metrics "the same metric", whose values may be
 * compared: the same name, unit and direction. "m" in s and "m" in ms, or
 * lower and higher is better, are different quantities, and a percent
 * change from one to the other means nothing. Every place that pairs
 * metrics across batches or runs (compare's rows, history's series,
 * sweeps, a bisect step's stored ends, ab's sides, a bisection's
 * measurements) asks this, so that they all agree.
 */
struct metric_key {
	const char *name;
	const char *unit;	/* NULL reads as "" */
	enum better better;
};

static inline struct metric_key metric_key_of(const struct result_metric *m)
{
	return (struct metric_key){ m->name, m->unit, m->better };
}

/* A total order: by name, then unit, then direction (lower first). */
int metric_key_cmp(const struct metric_key *a, const struct metric_key *b);

static inline bool metric_key_same(const struct metric_key *a, const struct metric_key *b)
{
	return !metric_key_cmp(a, b);
}

/* Whether stored metrics @a and @b are the same metric. */
static inline bool result_metric_same(const struct result_metric *a,
				      const struct result_metric *b)
{
	struct metric_key ka = metric_key_of(a), kb = metric_key_of(b);

	return metric_key_same(&ka, &kb);
}

/*
 * What tells @a from @b, for an error that names it: METRIC_KEY_NAME,
 * METRIC_KEY_UNIT and METRIC_KEY_BETTER or'd; 0 when they are the same.
 */
enum { METRIC_KEY_NAME = 1, METRIC_KEY_UNIT = 2, METRIC_KEY_BETTER = 4 };
unsigned int metric_key_differences(const struct metric_key *a, const struct metric_key *b);

/* @h (FNV-1a, util/hash.h) chained over @k: keys metric_key_same() holds equal hash equal. */
uint64_t metric_key_hash(uint64_t h, const struct metric_key *k);

#endif
