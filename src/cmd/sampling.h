/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_CMD_SAMPLING_H
#define SCHEDPERF_CMD_SAMPLING_H

#include <sched.h>
#include <stdbool.h>

#include "cli/options.h"
#include "runner/plan.h"
#include "runner/runner.h"
#include "stats/rng.h"
#include "stats/sequential.h"
#include "store/store.h"

/*
 * What ab and bisect-step share: a benchmark sampled one iteration at a
 * time into a run of its own until the sequential procedure
 * (stats/sequential.h) decides, under the same options and caps, with the
 * same status line.
 */

/* The options of the sequential procedure, as both commands take them. */
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

int sequential_add_param(const struct cmd_option *opt, const char *arg);
/* The usage error when --name or a -p is not UTF-8 (stored names and values must be). */
int sequential_check_utf8(const char *cmd, const struct sequential_options *so);

/* The option rows the commands share (put inside the command's table). */
#define SEQUENTIAL_OPTIONS(so) SEQUENTIAL_OPTIONS_ALPHA(so, "0.05")
/* The same where --alpha's default is another (@alpha_text: its text). */
#define SEQUENTIAL_OPTIONS_ALPHA(so, alpha_text)					\
	OPT_CALLBACK('p', "param", (so), "KEY=VALUE", "set a workload parameter "\
		     "(one value each; see 'schedperf list')", sequential_add_param),	\
	OPT_NUMBER(0, "alpha", &(so)->alpha, "A", 0, 0.5, "the chance of a wrong "	\
		   "verdict, over every look at the data (default " alpha_text ")"),	\
	OPT_NUMBER(0, "margin", &(so)->margin_pct, "PCT", 0, 100, "changes within "\
		   "+-PCT percent count as no change (default 2)"),		\
	OPT_INTEGER(0, "max-samples", &(so)->max_samples, "N", 5, 1000000,	\
		    "stop undecided after N samples per side (default 200)"),	\
	OPT_NUMBER(0, "max-time", &(so)->max_time, "SEC", 0, 1e9, "stop "	\
		   "undecided after SEC seconds (default: no limit)"),		\
	OPT_NUMBER(0, "timeout", &(so)->timeout, "SEC", 0, 604800, "kill an "	\
		   "iteration's process group after SEC seconds (it fails)"),	\
	OPT_STRING(0, "metric", &(so)->metric, "NAME", "decide on this metric "	\
		   "(default: the benchmark's first, e.g. metric_regex's)")

/* One benchmark sampled into its own run. */
struct sample_side {
	char *run_name;
	struct plan plan;		/* one benchmark */
	cpu_set_t cpus;
	struct runner_options opt;
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
/* Open its batch of run @name and its benchmark, measured with @ms. */
int side_open(struct sample_side *side, struct store *st, const char *name,
	      const struct sequential_options *so, struct monitor_set *ms, struct error *err);
/*
 * One iteration: 1 with the metric's @value (finite, > 0), 0 when it
 * failed or measured no positive value (why: side->result.last_failure),
 * -1 with @err when the run must stop (a signal, a store error).
 */
int side_sample(struct sample_side *side, double *value, struct error *err);
/* Mark its batch finished (complete or not) and free it. */
int side_finish(struct sample_side *side, struct store *st, bool complete, struct error *err);
void side_release(struct sample_side *side);

/*
 * Sides sampled in blocks: each block runs every side once, in a random
 * order drawn from @rng, so that the sides of one block are exchangeable
 * and the difference of two of them is sign-symmetric about their true
 * difference, whatever the machine's drift (doc/design.md, "Sequential
 * verdicts"). A block in which a side failed is dropped whole. At most
 * BLOCK_MAX_SIDES sides.
 */
#define BLOCK_MAX_SIDES 4

struct block_sampler {
	struct sample_side **sides;
	size_t nr;
	struct rng rng;
};

/*
 * One block: 1 with every side's value in @values (in the order of
 * @bs->sides), 0 when a side's iteration failed (its index in *@failed;
 * why: its result.last_failure), -1 with @err when the run must stop.
 */
int block_sample(struct block_sampler *bs, double *values, size_t *failed, struct error *err);

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

/* The status line on a terminal: "[ab] WHAT ... s elapsed, <= ... s left". */
struct status_line {
	bool enabled;
	double start;
};

void status_init(struct status_line *sl);
void status_show(struct status_line *sl, const char *what, size_t done, size_t cap,
		 double max_time);
void status_end(struct status_line *sl);

/* Whether --max-time has passed since @start. */
bool sequential_out_of_time(const struct sequential_options *so, double start);

#endif
