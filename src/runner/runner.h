/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_RUNNER_H
#define SCHEDPERF_RUNNER_H

#include <stdbool.h>
#include <stdint.h>

#include "runner/plan.h"
#include "store/store.h"
#include "util/error.h"

struct runner_options {
	const char *name;	/* run name: a batch is added to it */
	int iterations;		/* measured iterations per benchmark */
	int warmup;		/* warm-up iterations before them, stored and marked */
	bool replace;		/* discard earlier batches of the name first */
	bool quiet;		/* no progress line */
};

struct runner_result {
	int64_t batch_id;
	size_t iterations_done;
	size_t iterations_failed;
	bool complete;
	int signal;		/* the signal that stopped the run, or 0 */
};

/*
 * Execute @plan into @st as one batch of run opt->name: each iteration is
 * committed as soon as it ends. On an error or a signal the batch is marked
 * incomplete and everything completed stays. Returns 0 or -1 with @err.
 */
int runner_execute(struct store *st, const struct plan *plan,
		   const struct runner_options *opt, struct runner_result *result,
		   struct error *err);

#endif
