/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_EXPERIMENT_SAMPLING_H
#define SCHEDPERF_EXPERIMENT_SAMPLING_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

#include "runner/plan.h"
#include "runner/runner.h"
#include "stats/rng.h"
#include "stats/sequential.h"
#include "store/store.h"

/*
 * What ab, bisect-step and the bisection share: a benchmark sampled one
 * iteration at a time into a run of its own until the sequential procedure
 * (stats/sequential.h) decides, under the same options and caps; several
 * such sides sampled in blocks of a random order. The options' rows are
 * cli/sequential_options.h's.
 */

/* The options of the sequential procedure, as the commands take them. */
struct sequential_options {
	double alpha;		/* --alpha: error rate over all looks */
	double margin_pct;	/* --margin: "same" / "not worse" within this */
	int max_samples;	/* --max-samples per side */
	double max_time;	/* --max-time in seconds; 0 = none */
	double timeout;		/* --timeout per iteration; 0 = none */
	const char *metric;	/* --metric; NULL = the benchmark's first */
	const char *name;	/* --name */
	const char **params;	/* -p KEY=VALUE, in order */
	size_t nr_params;
};

#define SEQUENTIAL_DEFAULT_MAX_SAMPLES 200
#define SEQUENTIAL_DEFAULTS { 0.05, 2.0, SEQUENTIAL_DEFAULT_MAX_SAMPLES, 0, 0, NULL, NULL, NULL, 0 }

struct sampling_events;

/* One benchmark sampled into its own run. */
struct sample_side {
	char *run_name;
	struct plan plan;		/* one benchmark */
	cpu_set_t cpus;
	struct runner_options opt;
	struct runner_events events;	/* opt.events: the runner's notes, as @sampling's */
	const struct sampling_events *sampling;
	struct runner_result result;
	struct runner_bench *bench;
	size_t metric;			/* index into runner_bench_values() */
	const char *metric_name;
	const char *metric_unit;
	enum better better;
	size_t samples;			/* successful iterations */
};

/*
 * Build @side's one benchmark of @w from @assignments (no comma lists)
 * and find its metric @metric (NULL: the first). Errors are EXIT_USAGE.
 */
int side_prepare(struct sample_side *side, const struct workload *w, char *const *assignments,
		 size_t nr, const char *metric, struct error *err);
/*
 * Open its batch of run @name and its benchmark, measured with @ms; what
 * the runner says of them (that a write waits for the store's write lock)
 * goes to @events' note (NULL: nowhere).
 */
int side_open(struct sample_side *side, struct store *st, const char *name,
	      const struct sequential_options *so, const struct sampling_events *events,
	      struct monitor_set *ms, struct error *err);
/*
 * The sides of an experiment whose runs are its own (ab's): side_batch()
 * makes @side's batch of run @name into @set, its environment read under
 * the settings the machine has now; sides_open() then begins the batches
 * of @set, the i-th @sides[i]'s, all at once, refused (EXIT_USAGE,
 * nothing begun) when one of their runs holds a batch already
 * (store_batches_begin_own()), and opens their benchmarks.
 */
int side_batch(struct sample_side *side, const char *name, const struct sequential_options *so,
	       const struct sampling_events *events, struct result_set *set, struct error *err);
int sides_open(struct sample_side *const *sides, struct store *st, struct result_set *set,
	       struct monitor_set *ms, struct error *err);
/*
 * One iteration: 1 with the metric's @value (finite, > 0), 0 when it
 * failed or measured no positive value (why: side->result.last_failure),
 * -1 with @err when the run must stop (a signal, a store error).
 */
int side_sample(struct sample_side *side, double *value, struct error *err);
/*
 * Take back the sample side_sample() just gave (1): from the store and
 * the side's counts. A block a signal cut short keeps none of its samples.
 */
int side_unsample(struct sample_side *side, struct error *err);
/*
 * side_sample() gave 0 for an iteration that measured a value that is not
 * positive, which the store keeps as a success: take it back (the side
 * had measured @measured_before iterations before). 0 also when the
 * iteration failed and nothing is to go; -1 with @err.
 */
int side_unfail(struct sample_side *side, size_t measured_before, struct error *err);
/*
 * side_unfail() for a side whose side_sample() stopped the block (-1, or 0
 * under a signal): what it stored goes, whatever it measured (the runner
 * counts an iteration once it is stored, before its profile, whose error
 * stops the run). A deletion that fails is said, as block_unsample()'s,
 * and gives -1; the iteration stays.
 */
int side_unstop(struct sample_side *side, size_t measured_before, const char *who);
/*
 * Mark its batch finished (complete or not), waiting for a write lock held
 * past the busy timeout as the runner's writes do (runner/lock_wait.h),
 * and free it.
 */
int side_finish(struct sample_side *side, struct store *st, bool complete, struct error *err);
void side_release(struct sample_side *side);

/*
 * Sides sampled in blocks: each block runs every side once, in a random
 * order drawn from @rng, so that the sides of one block are exchangeable
 * and the difference of two of them is sign-symmetric about their true
 * difference, whatever the machine's drift (doc/design.md, "Sequential
 * verdicts"). A block that did not measure every side (one failed, or
 * the measurement stopped in it) is dropped whole, from the store too:
 * the runs, which compare pools, hold whole blocks only. At most
 * BLOCK_MAX_SIDES sides.
 */
#define BLOCK_MAX_SIDES 4

struct block_sampler {
	struct sample_side **sides;
	size_t nr;
	struct rng rng;
	const char *who;	/* the command, for its warnings: "bisect" */
};

/*
 * One block: 1 with every side's value in @values (in the order of
 * @bs->sides), 0 when a side's iteration failed (its index in *@failed;
 * why: its result.last_failure; the block is dropped and said to be,
 * block_say_failed()), -1 with @err when the run must stop (the block
 * under way is dropped too).
 */
int block_sample(struct block_sampler *bs, double *values, size_t *failed, struct error *err);

/*
 * Drop the samples @sampled[0..@n) took in a block that is not whole (ab's
 * and block_sample()'s), so that the runs keep whole blocks: compare pools
 * a run's samples, it does not pair blocks. A drop can fail (after a
 * signal the store's lock is waited for only briefly): then that sample
 * stays, which is said (@who: the command), the first such side is left
 * in *@unpaired (may be NULL) and its error in @err, and the others are
 * dropped all the same. 0, or -1.
 */
int block_unsample(struct sample_side *const *sampled, size_t n, const char *who,
		   struct sample_side **unpaired, struct error *err);

/*
 * A failed block's line on @ev: side @label's iteration failed (@why), and
 * its block is dropped, the samples of @sampled (the sides that ran before
 * it) deleted and @unrun not run: "schedperf: warning: side b: iteration
 * failed: WHY; its block is dropped, side a's sample of it deleted".
 */
void block_say_failed(const struct sampling_events *ev, const char *label, const char *why,
		      const char *const *sampled, size_t nr_sampled, const char *const *unrun,
		      size_t nr_unrun);
/*
 * The same line for a block whose @failure is the caller's own words (a
 * kernel bisection's round, a job of which failed): "schedperf: warning:
 * FAILURE; its block is dropped, ...".
 */
void block_say_dropped(const struct sampling_events *ev, const char *failure,
		       const char *const *sampled, size_t nr_sampled, const char *const *unrun,
		       size_t nr_unrun);

/*
 * The change of a log ratio @theta (new over base) as a percent, positive
 * when better by the metric's direction, as compare prints changes.
 */
double change_pct(double theta, enum better better);

/*
 * A bisection's values are logs with worse upwards, whichever direction
 * the metric has, so that "bad" is always above "good": @value's, and a
 * shift of them (new less base) as change_pct() prints it.
 */
double worse_up(enum better better, double value);
double worse_up_change_pct(double shift, enum better better);

/*
 * What a measurement shows while it goes on, for the command to draw (a
 * status line on a terminal, cli/status.h): begin() when a measurement
 * starts, progress() after each block (@what its words, "[bisect] step 3
 * 0123abcd: 12 blocks", @done of at most @cap), end() when it stopped, and
 * note() a line to say ("bisect: building 0123abcd"). NULL members, or
 * NULL events, say nothing.
 */
struct sampling_events {
	void (*begin)(void *ctx);
	void (*progress)(void *ctx, const char *what, size_t done, size_t cap);
	void (*end)(void *ctx);
	void (*note)(void *ctx, const char *text);
	void *ctx;
};

void sampling_begin(const struct sampling_events *ev);
void sampling_progress(const struct sampling_events *ev, const char *what, size_t done,
		       size_t cap);
void sampling_end(const struct sampling_events *ev);
void sampling_note(const struct sampling_events *ev, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Whether --max-time has passed since @start. */
bool sequential_out_of_time(const struct sequential_options *so, double start);

#endif
