/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_INTERCHANGE_H
#define SCHEDPERF_INTERCHANGE_H

#include <stdio.h>

#include "results/results.h"
#include "util/error.h"

/*
 * schedperf-results/1: the JSON that `export` writes and `import` reads.
 *
 *   {"schema": "schedperf-results/1", "runs": [{"name", "started",
 *    "complete", "environment": {KEY: "value"}, "benchmarks": [{"workload",
 *    "params": {KEY: "value"}, "failed_iterations"?, "metrics": [{"name",
 *    "unit", "better", "source", "repetitions"?, "samples": [...],
 *    "warmup"?: [...]}], "profiles"?: [{"seq", "extra", "event", "scope",
 *    "frequency", "samples", "lost", "total", "symbols": [{"name", "dso",
 *    "self", "children"}]}]}]}]}
 *
 * "samples" may be empty: a metric never measured (every measured
 * iteration failed), carried so that an import defines it as the store
 * did; its "warmup" then holds the warm-ups that succeeded, if any.
 *
 * "repetitions" (default 1) is the number of values each iteration holds
 * of a metric that a workload measures several times per iteration; the
 * samples then come R per iteration, in order.
 *
 * "profiles" (omitted when there are none) are the CPU profiles of the
 * profile monitor as the store keeps them (results/results.h): "seq" is the
 * iteration's number in the store they were exported from.
 *
 * One element of "runs" per batch. Output is deterministic, so export ->
 * import -> export is byte-identical.
 *
 * A room of its own above the store: it reads and writes the store's
 * results in memory (results/results.h) and never opens a store; the
 * commands export and import do that.
 */

#define RESULTS_SCHEMA "schedperf-results/1"

int interchange_write(FILE *out, const struct result_set *set, struct error *err);

/*
 * Parse and validate a whole document; on any problem nothing is returned
 * and @err (EXIT_USAGE) says where, e.g. "runs[0].benchmarks[2].metrics[1]".
 */
int interchange_read(const char *path, struct result_set *set, struct error *err);

/* The same for a document in memory (@len bytes, no NUL needed); @name is for errors. */
int interchange_read_buffer(const char *name, const char *buf, size_t len,
			    struct result_set *set, struct error *err);

#endif
