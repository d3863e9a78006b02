/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STORE_RESULTS_H
#define SCHEDPERF_STORE_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/better.h"

/*
 * Results in memory, as the store returns them and as schedperf-results/1
 * JSON carries them: batch -> benchmarks -> metrics -> samples. A run is
 * every batch that shares a name (one per `schedperf run`, say after each
 * reboot); compare pools the batches of a name, as LKP does.
 */

struct result_metric {
	char *name;
	char *unit;
	enum better better;
	char *source;		/* "workload", or the monitor that measured it ("rusage") */
	/*
	 * Values per iteration: 1, or a workload's repetitions inside one
	 * iteration (futex-wake's `repeat`), each its own sample. 0 reads as 1.
	 */
	size_t repetitions;
	double *samples;	/* measured iterations (and repetitions), in order */
	size_t nr_samples;
	double *warmup;		/* warm-up iterations: stored, never summarised */
	size_t nr_warmup;
};

struct result_benchmark {
	char *workload;
	char *params;		/* canonical JSON object of strings, keys sorted */
	struct result_metric *metrics;
	size_t nr_metrics;
	size_t nr_failed;	/* iterations that failed (no samples) */
};

struct env_entry {
	char *key;
	char *value;
};

struct result_batch {
	int64_t id;		/* store id; 0 when not stored yet */
	char *name;
	char *started;		/* ISO 8601 UTC */
	bool complete;
	struct env_entry *env;	/* sorted by key */
	size_t nr_env;
	struct result_benchmark *benchmarks;
	size_t nr_benchmarks;
};

struct result_set {
	struct result_batch *batches;
	size_t nr_batches;
};

void result_set_release(struct result_set *set);
struct result_batch *result_set_add_batch(struct result_set *set);
struct result_benchmark *result_batch_add_benchmark(struct result_batch *batch);
struct result_metric *result_benchmark_add_metric(struct result_benchmark *bench);
void result_batch_add_env(struct result_batch *batch, const char *key, const char *value);
void result_metric_add_sample(struct result_metric *m, double value, bool warmup);
/* @m's values per iteration, at least 1. */
size_t result_metric_repetitions(const struct result_metric *m);
/* Sort the environment by key (for stable output and lookups). */
void result_batch_sort_env(struct result_batch *batch);
const char *result_batch_env(const struct result_batch *batch, const char *key);

#endif
