/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_ANALYSIS_PROFILE_DIFF_H
#define SCHEDPERF_ANALYSIS_PROFILE_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/comparison.h"

/*
 * The CPU profiles of runs, benchmark by benchmark: each symbol's share of
 * the samples, self and children (as LKP's perf-profile.self and
 * perf-profile.children rows), over every profile a run took of that
 * benchmark, and how each run's shares moved from the first run's. Shares
 * are percent of a profile's samples; a symbol a profile did not see has a
 * share of 0 there. Nothing here prints (report/profile.c does).
 *
 * A change is "beyond the spread" when the two runs' ranges over their
 * profiles do not overlap, each run having at least two profiles: the
 * iteration-to-iteration spread cannot explain it. With fewer profiles
 * there is no spread to judge by, and that is said instead.
 */

/* A share over one run's profiles of one benchmark. */
struct share_stats {
	double mean, min, max;
};

enum spread_verdict {
	SPREAD_NONE,		/* the first run: nothing to compare with */
	SPREAD_UNKNOWN,		/* fewer than two profiles on a side */
	SPREAD_WITHIN,		/* the ranges overlap */
	SPREAD_BEYOND,		/* they do not */
};

const char *spread_verdict_name(enum spread_verdict v);

struct profile_symbol_row {
	const char *name, *dso;		/* borrowed from the runs' results */
	struct share_stats *self, *children;		/* per run */
	enum spread_verdict *self_spread, *children_spread;	/* per run */
	double rank;			/* what orders the rows (see profile_diff_build()) */
};

/* What one run's profiles of a benchmark were. */
struct profile_run_info {
	size_t nr_profiles;		/* 0: this run has no profile of the benchmark */
	size_t nr_extra;		/* of them, iterations run only to be profiled */
	uint64_t samples, lost;
	const char *event;		/* of the first profile; NULL when none */
};

struct profile_bench {
	const char *workload, *params;	/* canonical params JSON */
	struct profile_run_info *runs;	/* per run */
	struct profile_symbol_row *rows;
	size_t nr_rows;
};

struct profile_diff {
	size_t nr_runs;
	size_t *nr_empty;		/* per run: profiles left out, not one sample in them */
	size_t *nr_failed;		/* per run: failed iterations, which keep no profile */
	struct profile_bench *benches;	/* benchmarks with a profile in some run */
	size_t nr_benches;
	char **strings;			/* what it points to beside the runs (shown names) */
	size_t nr_strings;
};

/*
 * Pool the profiles of @runs[0..nr_runs) benchmark by benchmark (workload
 * and params, the first run's order first), only of @workloads when it is
 * not NULL (a NULL-terminated list of names, each a workload as stored or
 * as shown, utf8_names()). With one run the rows are ordered by children
 * share, then self share; with more, by the largest change of either share
 * against the first run, in percentage points. At most @top rows are kept
 * per benchmark (0: all).
 */
void profile_diff_build(struct profile_diff *d, const struct compare_run *runs,
			size_t nr_runs, size_t top, const char *const *workloads);
void profile_diff_release(struct profile_diff *d);

/* True when run @r has a profile of some benchmark of @d. */
bool profile_diff_has_run(const struct profile_diff *d, size_t r);
/*
 * Why run @r (named @name) has none, for the user: that the profiles it
 * has hold no sample (its iterations were too short for the rate); with
 * @profiled (its stored plans took profiles: runner/plan.h), that the
 * iterations profiled all failed, or that the monitor took none; else
 * "has no profile (run it with --monitors profile)".
 */
void profile_diff_why_none(const struct profile_diff *d, size_t r, const char *name,
			   bool profiled, char *buf, size_t len);

#endif
