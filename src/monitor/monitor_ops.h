/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_MONITOR_OPS_H
#define SCHEDPERF_MONITOR_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "monitor/monitor.h"
#include "results/results.h"
#include "util/error.h"
#include "workload/workload.h"

/*
 * The contract between the monitor set (monitor.c) and one monitor
 * (perf_counters.c, procfs.c, cpufreq.c, profile.c). Internal to src/monitor/.
 */

/*
 * The metrics of a set, appended to by each monitor while it opens, and
 * the notes monitors leave for the user (what a profile samples, or why
 * it cannot).
 */
struct metric_table {
	struct metric_spec *specs;
	char **names;			/* owned; specs[i].name points here */
	size_t nr, alloc;
	char **notes;
	size_t nr_notes;
};

/* Append a metric; @name is copied, @unit and @help must be static. */
void metric_table_add(struct metric_table *table, const char *name,
		      const char *unit, enum better better, const char *help);
/* Leave a note, one sentence for the user. */
void monitor_note(struct metric_table *table, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

struct monitor_ops {
	const char *name;		/* as in --monitors and as metric source */

	/*
	 * Learn what this machine offers, append one metric per value to
	 * @table and set *@state (NULL when there is nothing to measure: the
	 * monitor then adds no metric and is never called again), following
	 * @options (never NULL). Returns 0, or -1 with @err filled for errors
	 * that are not "unsupported".
	 */
	int (*open)(struct metric_table *table, const struct monitor_options *options,
		    void **state, struct error *err);
	/* Snapshot what the iteration starts from; must be cheap. */
	int (*before)(void *state, pid_t pid, struct error *err);
	/* Optional: called after every monitor's before(), last thing. */
	void (*start)(void *state);
	/* Fill this monitor's values (NAN where not measured) and detach. */
	void (*after)(void *state, double *values);
	void (*close)(void *state);
	/*
	 * Only for a monitor that samples the workload while it runs (its
	 * cost falls inside the timed section) and adds no metric: the
	 * profile of the iteration after() ended, handed over, or NULL.
	 */
	struct result_profile *(*take_profile)(void *state);
};

#endif
