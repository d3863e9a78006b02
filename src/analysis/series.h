/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_ANALYSIS_SERIES_H
#define SCHEDPERF_ANALYSIS_SERIES_H

#include "analysis/history.h"
#include "results/results.h"
#include "util/error.h"

/*
 * The series history, detect and report --history show: every run of the
 * store at @db loaded into @set, the batches of the machines @machine
 * matches kept (all when NULL), and @h built from them under @opts. A
 * machine pattern or a filter of @opts that matches nothing is EXIT_USAGE,
 * so that a misspelt name does not read as "no change"; @who ("history")
 * starts those messages. Returns 0, or -1 with @err.
 */
int series_load(const char *db, const char *machine, const struct history_options *opts,
		const char *who, struct result_set *set, struct history *h, struct error *err);

#endif
