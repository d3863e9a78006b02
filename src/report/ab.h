/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_REPORT_AB_H
#define SCHEDPERF_REPORT_AB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report/output.h"
#include "util/better.h"

/*
 * An ab's verdict as it is printed (ab_formats[]: text for people, json)
 * and as its job keeps it (ab_verdict_json(), the same object), built in
 * one place; `jobs` reads it back.
 */
struct ab_verdict {
	const char *workload;
	const char *const *specs[2];	/* each side's SPECs, as given */
	size_t nr_specs[2];
	const char *metric, *unit;
	enum better better;
	double alpha, margin_pct;
	const char *verdict;		/* same, different or unknown */
	const char *direction;		/* b better or worse; NULL unless different */
	double estimate_pct, ci_low_pct, ci_high_pct;	/* b against a, + better */
	size_t samples[2], blocks;
	int seed;
	double seconds;
	const char *reason;		/* why it stopped */
	const char *name;		/* the runs are NAME-a and NAME-b */
	const char *db;			/* their store's location */
	const char *params_differ;	/* the parameters the sides differ in; NULL, "": none */
	bool runs_kept;			/* false when nothing was measured: they went */
};

/* records: a struct ab_verdict; how: NULL. */
extern const struct output_format ab_formats[];

/*
 * What a dry run prints: the sides as they would run and what they
 * change. @head holds the workload, the SPECs, the metric, alpha, margin
 * and the runs' name, as a verdict does.
 */
struct ab_plan_setting {
	const char *kind, *name;
	const char *value[2];		/* a's and b's; NULL: left as it is */
};

struct ab_plan {
	struct ab_verdict head;
	const char *params_json[2];	/* each side's benchmark parameters */
	const char *cpus[2];		/* a side's cpus: list; NULL: none */
	int max_samples;		/* INT_MAX: no cap */
	double max_time;		/* <= 0: none */
	bool seed_given;		/* head.seed is --seed's; else the clock's, at the run */
	double timeout;			/* an iteration's, in seconds; <= 0: none */
	const struct ab_plan_setting *settings;
	size_t nr_settings;
};

/*
 * records: a struct ab_plan; how: NULL. Row for row ab_formats[]: the
 * dry run prints in the format of the row --format chose there.
 */
extern const struct output_format ab_plan_formats[];

/*
 * Its first two lines, the sides and the metric, the second ended with
 * @end: what a dry run prints too, with the caps after.
 */
void report_ab_head(FILE *out, const struct ab_verdict *v, const char *end);

/* The verdict as JSON text, on one line (@compact: no spaces), to be freed. */
char *ab_verdict_json(const struct ab_verdict *v, int compact);

#endif
