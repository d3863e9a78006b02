/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_RUNNER_ITERATION_H
#define SCHEDPERF_RUNNER_ITERATION_H

#include <sched.h>
#include <stdbool.h>

#include "monitor/interference.h"
#include "monitor/monitor.h"
#include "monitor/rusage.h"
#include "runner/task_knobs.h"
#include "util/error.h"
#include "workload/workload.h"

/*
 * One iteration runs in a forked child in a process group of its own, so
 * that a crash or a hang costs one iteration, never the store, and so that
 * wait4() gives the iteration's own resource usage. A guardian leads the
 * group and kills it if the runner dies, by any signal (util/guardian.h).
 * The child waits for the runner's go, so that counters are attached
 * before the workload starts.
 */

struct iteration_config {
	double timeout;			/* seconds; 0 = none */
	const cpu_set_t *cpus;		/* affinity of the workload's tasks; NULL = inherit */
	const char *workdir;		/* the workload's working directory; NULL = ours */
	const struct task_knobs *task;	/* what the workload's tasks take; NULL = nothing */
	struct monitor_set *monitors;	/* NULL = none */
	/*
	 * Called with the iteration's process group before its workload is
	 * let go (NULL = none): the runner records it, so that a resume
	 * after the runner was killed can tell whether its tasks still run.
	 * Failing it kills the iteration and ends the run.
	 */
	int (*started)(void *ctx, pid_t group, struct error *err);
	void *ctx;
	struct interference_monitor *interference;	/* NULL = not measured */
	/*
	 * The iteration's scratch directory (workload.h, scratch_kb):
	 * iteration_run() makes it and sets it in a copy of its own; what a
	 * caller sets here is not read.
	 */
	const char *scratch;
};

struct iteration_outcome {
	double *metrics;			/* w->nr_metrics values per repetition
						   (workload_repetitions()), NAN = absent */
	double *monitor_values;			/* monitors_nr_metrics() values */
	double rusage[NR_RUSAGE_METRICS];
	struct interference interference;	/* taken NAN when not measured */
	double started, ended;			/* time_epoch() of the go and the reap */
	bool failed;				/* crashed, killed, timed out, or the
						   workload said so (run() returned 1) */
	char failure[256];			/* why, when failed */
};

/*
 * Run one iteration of @w, with a scratch directory of its own when it
 * writes files (workload.h, scratch_kb), removed when it ends, however it
 * ends. Returns 0 with @out filled (possibly failed),
 * or -1 with @err when the workload reported an error that stops the run
 * (a refused resource, say), or when a signal interrupted us.
 */
int iteration_run(const struct workload *w, const struct param_value *values,
		  const struct iteration_config *cfg, struct iteration_outcome *out,
		  struct error *err);

/*
 * Catch every terminating signal (util/signals.h): the running iteration's
 * group is killed and the run stops after it, as for Ctrl-C.
 */
void iteration_install_signal_handlers(void);
/* The signal that interrupted us, or 0. */
int iteration_interrupted(void);

#endif
