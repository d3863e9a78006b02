/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_EXPERIMENT_BISECTION_H
#define SCHEDPERF_EXPERIMENT_BISECTION_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "experiment/sampling.h"
#include "runner/commit_build.h"
#include "stats/level_choice.h"
#include "stats/rng.h"
#include "results/metric_key.h"
#include "store/store.h"

/*
 * The engine of `schedperf bisect` (cmd/bisect.c is the command): its
 * phases, each of which ends with the bisection's record stored, so that an interruption at
 * any point leaves a record and git's bisect state that --resume continues
 * from (doc/design.md, "Bisection"). Where the commits are built and how a
 * block of them is measured is the target's: user space here, side by side
 * (bisection_local.c), or kernels booted by the fleet's workers
 * (bisection_kernel.c).
 */

/* Each step's wrong answer at most this likely unless --alpha says otherwise. */
#define BISECT_DEFAULT_ALPHA 0.01

struct bisect_target;

struct bisection {
	/* as asked on the command line (or, resumed, as recorded) */
	struct sequential_options so;
	const char *db;			/* the store */
	const char *workload, *good_rev, *bad_rev, *build_cmd, *repo;
	const char *kernel_tree;	/* --kernel-tree: the fleet boots each commit */
	const char *machine;		/* --machine: the pattern the fleet's machine matches */
	int boot_iterations;		/* --boot-iterations: a job's iterations per boot */
	int seed;			/* -1: from the clock */
	bool resume;
	int64_t id;			/* the record's */
	const struct sampling_events *events;	/* what it shows as it goes; may be NULL */

	/* while it runs */
	const struct bisect_target *target;
	struct store *st;
	bool store_made;		/* nothing was stored at db before this bisection */
	struct monitor_set *ms;
	struct build_area area;		/* the local target's scratch builds */
	json_t *record;			/* doc/design.md, "Bisection": what is stored */
	const struct workload *w;
	/*
	 * The metric, fixed by the first measurement that found it (name,
	 * unit and direction, results/metric_key.h): metric_known once it is
	 */
	bool metric_known;
	char *metric_name, *metric_unit;
	enum better better;
	char good[41], bad[41];
	char *name;			/* NAME of NAME-good, NAME-bad, NAME-HASH12 */
	char *repo_top;			/* the repository's top level */
	char *lock_path;		/* GIT_COMMON_DIR/schedperf-bisect.lock, while held */
	int lock_fd;			/* its lock, held while this process works on it */
	bool tree_moved;		/* a kernel target checked out a commit to build */
	/* why the close could not put the tree back: the tree twice, and a reason */
	char tree_left[2 * PATH_MAX + 512];
	struct rng rng;
};

/*
 * One measurement: two commits as a pair (the second against the first,
 * the ends or the culprit and its parent) or three as levels (good, the
 * step, bad), in blocks of a random order, each side a run.
 */
struct session {
	const char *what;
	bool levels;
	size_t nr;
	char hashes[3][41];
	char *runs[3];
	void *sides;			/* the target's, while open */
	struct seqcs pair;		/* worse-up log of side 1 less side 0 */
	struct level_choice lc;
	size_t blocks;
	double start, seconds;
	const char *reason;		/* why it stopped; NULL: an error */
	char failure[300];		/* a side that kept failing, or failed its block */
	size_t failed_side;
	bool give_up;			/* the target says: no block will do better */
	int verdict;			/* enum pair_verdict or enum level_verdict */
	double error_bound;
};

struct bisect_target {
	/* Check what it needs before anything is stored (EXIT_USAGE, EXIT_ENV). */
	int (*check)(struct bisection *bi, struct error *err);
	int (*open)(struct bisection *bi, struct error *err);
	void (*close)(struct bisection *bi);
	/* Build @hash, or find it built: 0, 1 when it does not build (why in @why), -1. */
	int (*build)(struct bisection *bi, const char *hash, char *why, size_t len,
		     struct error *err);
	/* A step's build is no longer needed. */
	void (*drop)(struct bisection *bi, const char *hash);
	int (*session_open)(struct bisection *bi, struct session *s, struct error *err);
	/*
	 * One block, every side once in a random order: 1 with @values (the
	 * metric's, in the sides' order), 0 when a side failed (s->failed_side,
	 * s->failure), -1 with @err when the bisection must stop.
	 */
	int (*block)(struct bisection *bi, struct session *s, double *values, struct error *err);
	void (*session_close)(struct bisection *bi, struct session *s, bool complete);
	const char *block_word;	/* "blocks", "rounds of boots" */
};

extern const struct bisect_target bisect_local;
extern const struct bisect_target bisect_kernel;

/* Text from outside (a subject, git's or a build's words), as the record keeps it. */
json_t *bisection_text(const char *s);

/*
 * What goes on with @bi, to be run as printed from any directory,
 * malloc'd: "schedperf bisect --resume" with the --repo (or --kernel-tree)
 * and --db it was given, quoted for a shell (bisection_resume.c).
 */
char *bisection_resume_command(const struct bisection *bi);
/* The " --db STORE" other commands need to find @bi's store, or "", malloc'd. */
char *bisection_store_options(const struct bisection *bi);

/* The run a commit's measurements go to: NAME-good, NAME-bad or NAME-HASH12. */
char *bisection_run_name(const struct bisection *bi, const char *hash);
/*
 * The metric @m that a measurement stored or measures, @whose saying which
 * ("job 12 on m1 stored", "this schedperf measures"). The first fixes the
 * bisection's metric, which the record keeps (for the report, and for
 * --resume); a later one must be that same metric (results/metric_key.h):
 * one in another unit or direction is refused, EXIT_ENV with @fix, since
 * its values cannot be compared with the others. 0, or -1 with @err.
 */
int bisection_metric(struct bisection *bi, const struct metric_key *m, const char *whose,
		     const char *fix, struct error *err);

/*
 * Start a new bisection (validate, store its record, open the target), or
 * with bi->resume take up the interrupted one of the repository.
 */
/*
 * The record of stored bisection @b, or NULL with @err: one that is not a
 * JSON object means a damaged store (EXIT_ENV), said for @cmd.
 */
json_t *bisection_record_read(const struct stored_bisection *b, const char *cmd,
			      struct error *err);
int bisection_open(struct bisection *bi, struct error *err);
void bisection_close(struct bisection *bi);

/* Store the record: @running while this process goes on with it. */
int bisection_save(struct bisection *bi, bool running, struct error *err);

/* "measuring ends", "bisecting", "confirming" or "finished". */
const char *bisection_state(const struct bisection *bi);

/* The phases; each returns 0 with the next phase recorded, or -1 with @err. */
int bisection_measure_ends(struct bisection *bi, struct error *err);
int bisection_steps(struct bisection *bi, struct error *err);
int bisection_confirm(struct bisection *bi, struct error *err);

/* Record that a signal stopped it (resumable), or that @err did (not). */
void bisection_interrupted(struct bisection *bi);
void bisection_failed(struct bisection *bi, const struct error *err);

/* Whether git's bisect state in the repository is the one this bisection started. */
bool bisection_git_is_ours(const struct bisection *bi);

/* Whether it ended with a culprit confirmed against its parent. */
bool bisection_confirmed(const struct bisection *bi);

/*
 * The bisections stored at @db, newest first, each "running" one whose
 * process is gone said to be "interrupted" (one killed by SIGKILL, or
 * whose machine went down). Reads the store only. 0, or -1 with @err.
 */
int bisection_list_load(const char *db, struct stored_bisection **list, size_t *n,
			struct error *err);

#endif
