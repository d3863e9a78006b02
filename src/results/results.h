/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_RESULTS_RESULTS_H
#define SCHEDPERF_RESULTS_RESULTS_H

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
	bool *disturbed;	/* per sample: its iteration was disturbed; NULL = none */
	double *warmup;		/* warm-up iterations: stored, never summarised */
	size_t nr_warmup;
	/* the room result_metric_add_sample() made in samples (and disturbed), warmup */
	size_t alloc_samples, alloc_warmup;
};

/* A task that took CPU time from an iteration. */
struct result_culprit {
	char *name;
	int64_t pid;
	double cpu;		/* CPU seconds it used during the iteration */
};

/*
 * What other tasks took from one successful iteration (doc/design.md,
 * "Interference"). A benchmark's are in the order of its metrics' values:
 * warm-ups first, then the measured iterations.
 */
struct result_iteration {
	bool warmup;
	bool disturbed;		/* others took more than the run's --max-interference */
	bool rerun;		/* disturbed, so run again (--rerun-disturbed) */
	double cpu_taken;	/* CPU seconds others and steal took; NAN = not measured */
	double cpu_steal;	/* of which steal time; NAN = not measured */
	double cpu_available;	/* CPU seconds it could use: CPUs x wall; NAN = not measured */
	double started, ended;	/* wall clock (epoch seconds) of its go and reap; NAN = unknown */
	struct result_culprit *culprits;	/* most first */
	size_t nr_culprits;
};

/*
 * A CPU profile of one iteration, sampled with call chains: for each
 * function, the weight (CPU time or cycles) of the samples taken in it
 * (self) and of those with it anywhere on the chain (children, once a
 * sample even when it recurses), as LKP's perf-profile.self.cycles-pp.SYMBOL
 * and perf-profile.children.cycles-pp.SYMBOL count them; a share is
 * weight / total.
 */
struct result_profile_symbol {
	char *name;		/* "[unknown]" where no symbol covers the address */
	char *dso;		/* "[kernel.kallsyms]", "[module]" or a file's base name */
	uint64_t self, children;
};

struct result_profile {
	int seq;		/* the iteration it was taken in */
	bool extra;		/* an iteration run only to be profiled, not a timed one */
	char *event;		/* what was sampled: "cycles" or "cpu-clock" */
	char *scope;		/* "tasks": the workload's tasks only */
	uint64_t frequency;	/* samples a second asked for, on each CPU */
	uint64_t samples;	/* samples taken */
	uint64_t lost;		/* samples the kernel dropped (its buffer was full) */
	uint64_t total;		/* weight of every sample: ns of cpu-clock, or cycles */
	struct result_profile_symbol *symbols;
	size_t nr_symbols;
};

struct result_benchmark {
	char *workload;
	char *params;		/* canonical JSON object of strings, keys sorted */
	struct result_metric *metrics;
	size_t nr_metrics;
	size_t nr_failed;	/* iterations that failed (no samples) */
	char **failures;	/* why each failed, in iteration order: nr_failed of them */
	struct result_iteration *iterations;	/* NULL when nothing was measured */
	size_t nr_iterations, alloc_iterations;
	struct result_profile *profiles;	/* in iteration order; none unless profiled */
	size_t nr_profiles;
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
	/*
	 * Sampled until a verdict (an ab's side, a bisect step's or a
	 * bisection's batch): its plan counts no iterations, so an incomplete
	 * one has none that run --resume could finish. Set by a load.
	 */
	bool sampled;
	struct env_entry *env;	/* sorted by key */
	size_t nr_env;
	struct result_benchmark *benchmarks;
	size_t nr_benchmarks, alloc_benchmarks;
	/*
	 * Counted in the store when a load asks for STORE_COUNTS (else 0):
	 * the measured samples its metrics of source "workload" hold, and its
	 * measured iterations that other tasks disturbed.
	 */
	size_t nr_samples, nr_disturbed;
};

struct result_set {
	struct result_batch *batches;
	size_t nr_batches;
};

void result_set_release(struct result_set *set);
/* Keep only the batches that @keep says yes to, in their order; the others are released. */
void result_set_keep(struct result_set *set,
		     bool (*keep)(const struct result_batch *batch, const void *arg),
		     const void *arg);
struct result_batch *result_set_add_batch(struct result_set *set);
struct result_benchmark *result_batch_add_benchmark(struct result_batch *batch);
/* Release @batch's benchmarks, leaving none (its name, start and environment stay). */
void result_batch_drop_benchmarks(struct result_batch *batch);
struct result_metric *result_benchmark_add_metric(struct result_benchmark *bench);
/* One more failed iteration of @bench, failed for @reason (copied). */
void result_benchmark_add_failure(struct result_benchmark *bench, const char *reason);
void result_batch_add_env(struct result_batch *batch, const char *key, const char *value);
void result_metric_add_sample(struct result_metric *m, double value, bool warmup);
/* Forget @m's samples and warm-ups (and which were disturbed). */
void result_metric_drop_samples(struct result_metric *m);
/* Mark the last measured sample of @m as taken in a disturbed iteration. */
void result_metric_mark_disturbed(struct result_metric *m);
/* Append an iteration record (no culprits, nothing measured) to @bench. */
struct result_iteration *result_benchmark_add_iteration(struct result_benchmark *bench);
void result_iteration_add_culprit(struct result_iteration *it, const char *name,
				  int64_t pid, double cpu);
/* Release @bench's iteration records, leaving none. */
void result_benchmark_drop_iterations(struct result_benchmark *bench);
/* Whether any iteration of @bench has interference measured or marked. */
bool result_benchmark_has_interference(const struct result_benchmark *bench);
struct result_profile *result_benchmark_add_profile(struct result_benchmark *bench);
/* Append a symbol; @name and @dso are copied (bytes that are not UTF-8 escaped). */
void result_profile_add_symbol(struct result_profile *p, const char *name, const char *dso,
			       uint64_t self, uint64_t children);
/* Free what @p holds (not @p itself). */
void result_profile_release(struct result_profile *p);
/* @m's values per iteration, at least 1. */
size_t result_metric_repetitions(const struct result_metric *m);
/* @m's value of repetition @r of its warm-up (or measured) iteration @k; NAN: absent. */
double result_metric_value(const struct result_metric *m, bool warmup, size_t k, size_t r);
/* The iterations @m's warm-ups (or measured values) fill: ceil(values / repetitions). */
size_t result_metric_iterations(const struct result_metric *m, bool warmup);
/*
 * The warm-up and measured iterations the values of @bench's metrics fill,
 * of every metric (one whose measured iterations all failed fills warm-ups
 * too): as many records as "iterations" holds.
 */
void result_benchmark_filled(const struct result_benchmark *bench, size_t *nr_warmup,
			     size_t *nr_measured);
/* Sort the environment by key (for stable output and lookups). */
void result_batch_sort_env(struct result_batch *batch);
const char *result_batch_env(const struct result_batch *batch, const char *key);
/*
 * The CPUs @batch's workload was held to, NULL when none: run's --cpus or
 * an ab side's cpus: (knob.cpus), else its cgroup's cpuset
 * (knob.cgroup.cpuset.cpus), which pins its tasks just as well.
 */
const char *result_batch_cpus(const struct result_batch *batch);

#endif
