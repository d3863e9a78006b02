/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_RUNNER_SUITE_FILE_H
#define SCHEDPERF_RUNNER_SUITE_FILE_H

#include <stddef.h>

#include "runner/plan.h"
#include "monitor/topology.h"
#include "util/error.h"
#include "util/registry.h"

/*
 * Suites in YAML (schedperf-suite(5)): a list of benchmarks, each a mapping
 *
 *   - workload: messaging          # required
 *     params: {ipc: [pipe, socket], loops: 1000}   # lists expand to a matrix
 *     sweep: {groups: "topology:1..2x"}            # sweep.h generators
 *     iterations: 10               # each optional
 *     warmup: 1
 *     timeout: 60                  # seconds per iteration
 *
 * Parsing expands sweeps and percent values for a given machine, so a
 * parsed suite is a list of plain "KEY=V1,V2" assignments. Workload names
 * are checked when the suite is planned, not when it is parsed, so that a
 * suite naming a workload this build lacks is still readable.
 */

struct suite_entry {
	char *workload;
	char **assignments;	/* "KEY=V1,V2,...", in the order written */
	int *lines;		/* each assignment's, for errors about it */
	size_t nr_assignments;
	int iterations;		/* -1 when not set: the run's default */
	int warmup;		/* -1 when not set */
	double timeout;		/* seconds per iteration; -1 when not set */
	int line;		/* of the entry, for errors */
};

struct suite {
	char *name;		/* as errors quote it: a path or "builtin/NAME.yaml" */
	struct suite_entry *entries;
	size_t nr_entries;
};

/*
 * Parse YAML @text (@len bytes) named @name in errors, expanding sweeps on
 * @topo. Errors are EXIT_USAGE and read "NAME:LINE: what (how to fix)".
 * On failure @suite is left empty; release it in either case.
 */
int suite_parse(struct suite *suite, const char *name, const char *text, size_t len,
		const struct topology *topo, struct error *err);

/*
 * A built-in suite by name, else a file: what `run --suite NAME|FILE`
 * means. A name that is neither fails with the list of built-in suites.
 */
int suite_load(struct suite *suite, const char *name_or_path, const struct topology *topo,
	       struct error *err);

void suite_release(struct suite *suite);

/*
 * Append @entry's benchmarks to @plan: plan items from the count before
 * the call to plan->nr_items after it belong to this entry (and take its
 * iterations, warmup and timeout). Fails naming the workload when this
 * build has none of that name, and with the file and the line of the
 * parameter the error names when its parameters are invalid (the entry's
 * when it names none or several).
 */
int suite_entry_plan(const struct suite *suite, const struct suite_entry *entry,
		     struct plan *plan, struct error *err);

/*
 * The built-in suites, a registry (util/registry.h) ended by a NULL name,
 * in the order help shows them: each one's name and YAML text.
 */
struct suite_builtin {
	struct registry_name id;
	const char *yaml;
};
extern const struct suite_builtin suite_builtins[];

/* The YAML text of built-in suite @name, NULL when there is none. */
const char *suite_builtin_text(const char *name);

/* Names of the built-in suites, for help and errors: "quick, standard, ...". */
const char *suite_names(void);

#endif
