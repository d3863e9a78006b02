/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_EXPERIMENT_AB_H
#define SCHEDPERF_EXPERIMENT_AB_H

#include <stdbool.h>
#include <stddef.h>

#include "experiment/sampling.h"
#include "runner/knob_session.h"
#include "stats/sequential.h"

/*
 * ab's measurement (cmd/ab.c is the command): its two sides, each a run
 * under its knobs, sampled in blocks of a random order (AB or BA, from
 * the seed), the paired difference log b - log a of each block into a
 * confidence sequence (stats/sequential.h, Huber's psi), until the
 * sequence decides (doc/design.md, "Sequential verdicts") or a cap
 * stops it. A block in which a side failed, or that a signal or an error
 * cut short, is dropped from the sequence and the store alike: its first
 * side's sample goes, so that the runs hold whole blocks; a side that fails
 * its first iteration, or three blocks in a row that fail, stop it.
 */

/* What the measurement works on. */
struct ab_measurement {
	struct sample_side *sides[2];	/* a, then b, open */
	struct knob_session *ks;	/* each side's settings, set before its samples */
	const struct sequential_options *so;
	int seed;			/* of the blocks' orders */
	const char *cap_reason;		/* why it stopped at --max-samples */
	const struct sampling_events *events;
	const char *db;			/* the store's location, for the hints */
};

/* What it found. */
struct ab_outcome {
	enum seqcs_decision decision;	/* SEQCS_CONTINUE: undecided */
	struct seqcs_interval ci;	/* of log b - log a */
	size_t blocks;
	double seconds;
	const char *reason;		/* why it stopped */
	const char *unpaired;		/* the side ("a", "b") whose lone sample of a block
					 * cut short by a signal could not be dropped */
};

/* Measure until a verdict or a cap: 0, or -1 with @err when ab must stop. */
int ab_measure(const struct ab_measurement *m, struct ab_outcome *out, struct error *err);

/*
 * The verdict in words: "same", "unknown" or "different", and then
 * *@direction "better" or "worse" (b against a, by the metric's
 * direction @better), else NULL.
 */
const char *ab_verdict_word(const struct ab_outcome *out, enum better better,
			    const char **direction);

/*
 * The outcome's interval as compare's percent change of b against a (+
 * better), low to high; NAN for an end not bounded yet.
 */
void ab_interval_pct(const struct ab_outcome *out, enum better better, double *lo, double *hi);

/*
 * ab's sides from their SPECs to their runs (ab_sides.c): each side's
 * knobs, its benchmark, the settings the session changes and puts back.
 */
extern const char *const ab_side_names[2];	/* "a", "b" */

struct ab_side {
	const char **specs;		/* its --a or --b SPECs */
	size_t nr_specs;
	struct knob_list knobs;
	struct sample_side sample;
	bool has_cpus;
	const char *cpus;		/* the cpus: knob's list, when has_cpus */
};

/* What the command asked, and what the sides change. */
struct ab_experiment {
	struct sequential_options so;
	struct ab_side side[2];
	const char *workload;
	int seed;			/* of the blocks' orders */
	struct knob_session ks;		/* what the sides' knobs change */
	char cap_reason[160];		/* the verdict's reason at --max-samples */
};

void ab_experiment_init(struct ab_experiment *x);
void ab_experiment_release(struct ab_experiment *x);

/* Append @spec to side @which's SPECs. */
void ab_add_spec(struct ab_experiment *x, int which, const char *spec);

/*
 * Parse both sides' SPECs and build their benchmarks of the workload, the
 * knob session's sides given: EXIT_USAGE when the workload is unknown, the
 * sides measure different metrics first or are the same configuration.
 * Reads and changes nothing on the machine (what a dry run shows).
 */
int ab_prepare(struct ab_experiment *x, struct error *err);

/*
 * The benchmark parameters the prepared sides differ in (param: and cmd:
 * SPECs), comma-separated in @buf, empty when none: what compare is told
 * to ignore (--ignore-param) to pair the sides' runs row by row.
 */
void ab_params_differ(const struct ab_experiment *x, char *buf, size_t len);

/*
 * What the run gives the command: its measurement's events, and the
 * verdict's JSON (malloc'd) the sides' batches keep when the verdict was
 * reached, of @out and runs @name.
 */
struct ab_run_hooks {
	const struct sampling_events *events;
	char *(*result)(void *ctx, const struct ab_outcome *out, const char *name);
	void *ctx;
};

/*
 * Before anything changes: the signals caught (from here a signal must
 * not kill ab before the originals are back), the machine's lock taken
 * and what a killed ab left dealt with, before any original is read, so
 * that no other process's change is taken for one; every setting
 * checked, and the sides, now with the originals of what one leaves
 * alone, still two configurations. -1 with @err: nothing changed.
 */
int ab_check_machine(struct ab_experiment *x, struct error *err);

/*
 * Then run ab in store @db as runs NAME-a and NAME-b: the originals
 * journalled and the values tried before the store is opened, so that one
 * the kernel refuses writes nothing; both sides' batches begun at once,
 * sampled until the verdict, finished; the settings put back, also after
 * a signal (iteration_interrupted() says which). 0 with *@out, or -1 with
 * @err (the first error).
 */
int ab_run(struct ab_experiment *x, const char *db, const char *name,
	   const struct ab_run_hooks *hooks, struct ab_outcome *out, struct error *err);

#endif
