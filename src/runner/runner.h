/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_RUNNER_H
#define SCHEDPERF_RUNNER_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

#include "runner/plan.h"
#include "store/store.h"
#include "util/error.h"

/* Where the run is, for a progress line: before each iteration starts. */
struct runner_progress {
	const struct plan *plan;
	size_t item;		/* plan->items[item] is running */
	int iteration, nr_iterations;	/* this benchmark's slot, warm-ups included */
	size_t done, total;	/* iterations of the whole batch */
	double elapsed;		/* seconds since the batch started */
};

/*
 * What the runner reports as it goes. It prints nothing itself: the
 * command decides what to show, and where. Either function may be NULL.
 */
/*
 * Which attempt failed: of iteration @iteration of @iterations (warm-ups
 * first, as the progress line counts them; 0 iterations: not planned, as
 * ab's), its failed attempt @attempt of at most @attempts (1 + --retries;
 * a disturbed one run again is not counted): another follows while
 * @attempt < @attempts.
 */
struct runner_attempt {
	int iteration, iterations;
	int attempt, attempts;
};

struct runner_events {
	void (*progress)(void *ctx, const struct runner_progress *p);
	/* One attempt of @item failed (it is stored as failed), for @why. */
	void (*iteration_failed)(void *ctx, const struct plan_item *item,
				 const struct runner_attempt *at, const char *why);
	void *ctx;
	/* Something the user should know about the run: what a monitor can or cannot do. */
	void (*note)(void *ctx, const char *text);
};

struct task_knobs;

struct runner_options {
	const char *name;	/* run name: a batch is added to it */
	int iterations;		/* measured iterations per benchmark */
	int warmup;		/* warm-up iterations before them, stored and marked */
	int retries;		/* extra attempts for a failed iteration */
	double timeout;		/* seconds per iteration; 0 = none */
	const cpu_set_t *cpus;	/* affinity of the workload's tasks; NULL = inherit */
	const char *workdir;	/* the workload's working directory (a build's); NULL = ours */
	const struct task_knobs *task;	/* what its tasks take (runner/task_knobs.h); NULL: none */
	const char *knob_env;	/* "KIND=VALUE" lines: the batch's env gets knob.KIND */
	bool replace;		/* discard earlier batches of the name first */
	const struct runner_events *events;	/* NULL: report nothing */
	double max_interference;	/* disturbed above this share of the CPU time (0..1) */
	double quiet_wait;	/* seconds to wait for quiet CPUs before an iteration */
	int rerun_disturbed;	/* extra attempts for a disturbed iteration */
	int64_t resume_batch;	/* continue this batch instead of starting one */
	const char *experiment;	/* the batch's env "experiment": the run is its own */
};

struct runner_result {
	int64_t batch_id;
	size_t iterations_done;		/* attempts stored, each retry and rerun counted */
	size_t iterations_failed;	/* attempts that failed */
	size_t planned_done;		/* planned iterations run to their end */
	size_t planned_failed;		/* of those, the ones whose every attempt failed */
	size_t iterations_measured;	/* measured (not warm-ups) and succeeded */
	size_t iterations_disturbed;	/* successful but disturbed, reruns included */
	bool complete;
	int signal;		/* the signal that stopped the run, or 0 */
	char last_failure[256];	/* why the latest failed iteration failed */
};

/*
 * Whether the run ran iterations, none of them stopped by a signal, and
 * none succeeded: nothing was measured. Its batch is complete, but a job's
 * is not stored and its job fails (store_batches_finish(), not @measured),
 * and run exits 1 saying why.
 */
bool runner_measured_nothing(const struct runner_result *res);

/* Iterations and warm-ups of a plan item, its own or the run's. */
int runner_item_iterations(const struct plan_item *item, const struct runner_options *opt);
int runner_item_warmup(const struct plan_item *item, const struct runner_options *opt);

/*
 * What refuses @plan on this machine before anything is measured: its
 * --monitors and the metric names they add, the resource limits its
 * benchmarks need (raised when allowed) and each workload's ready() (a
 * privilege, a helper program). A command calls it before it opens the
 * store, so that a refused run leaves no new store and no empty batch;
 * runner_batch_open() and runner_batch_make() check the limits and
 * ready() again. Returns 0 or -1 with @err (EXIT_ENV, or EXIT_USAGE for a
 * metric name).
 */
int runner_preflight(const struct plan *plan, struct error *err);

/*
 * Execute @plan into @st as one batch of run opt->name: each iteration is
 * committed as soon as it ends. On an error or a signal the batch is marked
 * incomplete and everything completed stays. Every write from the begin of
 * the batch to its end waits for a write lock that another process holds
 * past the busy timeout (runner/lock_wait.h): a signal ends the wait, and
 * the run, with result->signal. With opt->resume_batch, the
 * plan must be the one stored with that batch: each benchmark continues
 * with exactly the iterations it is missing. The plan's retries, reruns,
 * CPUs, --max-interference (when given) and --quiet-wait (its options,
 * runner/plan.h) stand for opt's. Returns 0 or -1 with @err.
 */
int runner_execute(struct store *st, const struct plan *plan,
		   const struct runner_options *opt, struct runner_result *result,
		   struct error *err);

/*
 * The pieces of runner_execute() for a command that decides itself what
 * runs next (ab alternates two benchmarks until a verdict): open a batch
 * of run opt->name for @plan (resource limits raised for it and each
 * workload's ready() passed first), then
 * a benchmark of it, then one iteration at a time, each committed.
 */
int runner_batch_open(struct store *st, const struct plan *plan,
		      const struct runner_options *opt, struct runner_result *result,
		      struct error *err);

/*
 * runner_batch_open() for the sides of an experiment whose runs are its
 * own (ab's): make each side's batch into @set, its environment read
 * under the settings the side has then; then begin them all at once
 * (store_batches_begin_own(): refused, nothing begun, when one of their
 * runs holds a batch already), @results[i] the batch of @set's i-th.
 */
int runner_batch_make(const struct plan *plan, const struct runner_options *opt,
		      struct result_set *set, struct error *err);
int runner_batches_begin_own(struct store *st, struct result_set *set,
			     const struct plan *const *plans, struct runner_result *const *results,
			     const struct runner_events *events, struct error *err);

struct runner_bench;
struct monitor_set;

/* Register @item as benchmark @index of batch @batch_id (*@out is set even on failure). */
int runner_bench_open(struct store *st, int64_t batch_id, size_t index,
		      const struct plan_item *item, const struct runner_options *opt,
		      struct monitor_set *ms, struct runner_bench **out, struct error *err);
/*
 * Run one iteration (up to 1 + opt->retries attempts, each stored) and
 * count it in @result: 1 when it succeeded, 0 when it failed (why is in
 * result->last_failure), -1 on an error that stops the run (a signal).
 */
int runner_bench_iteration(struct runner_bench *rb, bool warmup, struct runner_result *result,
			   struct error *err);
/*
 * Delete the iteration runner_bench_iteration() just stored, a measured
 * one that succeeded in one slot (no rerun), from the store and from
 * @result: a sample that has lost its pair (ab's block cut short by a
 * signal, or whose other side failed), or one whose value decides
 * nothing. A write lock held past the busy timeout is waited for as the
 * iteration's commit waits (runner/lock_wait.h). 0 when done or none was
 * stored, -1 with @err.
 */
int runner_bench_drop_last(struct runner_bench *rb, struct runner_result *result,
			   struct error *err);
/*
 * The values of the latest successful iteration: the workload's metrics
 * first (workload_metrics() order, first repetition), then rusage's.
 */
const double *runner_bench_values(const struct runner_bench *rb);
void runner_bench_close(struct runner_bench *rb);

#endif
