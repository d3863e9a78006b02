/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_CMD_BISECTION_H
#define SCHEDPERF_CMD_BISECTION_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "cmd/sampling.h"
#include "runner/commit_build.h"
#include "stats/rng.h"
#include "store/store.h"

/*
 * The engine of `schedperf bisect` (cmd/bisect.c): its phases, each of
 * which ends with the bisection's record stored, so that an interruption at
 * any point leaves a record and git's bisect state that --resume continues
 * from (doc/design.md, "Bisection").
 */

/* Each step's wrong answer at most this likely unless --alpha says otherwise. */
#define BISECT_DEFAULT_ALPHA 0.01

struct bisection {
	/* as asked on the command line (or, resumed, as recorded) */
	struct sequential_options so;
	const char *workload, *good_rev, *bad_rev, *build_cmd, *repo, *format;
	int seed;			/* -1: from the clock */
	bool resume, show, list;
	int64_t id;			/* the record's; --show's */

	/* while it runs */
	struct store *st;
	struct monitor_set *ms;
	struct build_area area;
	json_t *record;			/* doc/design.md, "Bisection": what is stored */
	const struct workload *w;
	enum better better;		/* the metric's, once the first measurement found it */
	char good[41], bad[41];
	char *name;			/* NAME of NAME-good, NAME-bad, NAME-HASH12 */
	struct rng rng;
};

/*
 * Start a new bisection (validate, store its record, open the scratch
 * builds), or with bi->resume take up the interrupted one of the repository.
 */
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

/* Whether it ended with a culprit confirmed against its parent. */
bool bisection_confirmed(const struct bisection *bi);

/* The report, in @format (text, markdown, json). */
int bisection_print(const struct bisection *bi, FILE *out, const char *format);

/* --show and --list: read the store only. Return the exit code. */
int bisection_show(int64_t id, const char *format);
int bisection_list(FILE *out);

#endif
