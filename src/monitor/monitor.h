/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_MONITOR_H
#define SCHEDPERF_MONITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "results/results.h"
#include "util/error.h"
#include "workload/workload.h"

/*
 * Per-iteration measurements beside the workload's own metrics, taken
 * before and after the timed section, never inside it (doc/design.md):
 *
 *   perf     perf_event_open counters on the iteration's tasks, inherited
 *            by every task they create: software (task-clock,
 *            context-switches, cpu-migrations, page-faults) and hardware
 *            (cycles, instructions, cache-references, cache-misses,
 *            LLC-loads, LLC-load-misses)
 *   vmstat   deltas of /proc/vmstat
 *   stat     deltas of /proc/stat: per-CPU user/system/idle/softirq, ctxt, intr
 *   softirqs deltas of /proc/softirqs (summed over CPUs)
 *   schedstat deltas of /proc/schedstat (only when the kernel has it)
 *   cpufreq  average frequency per CPU over the iteration
 *   profile  a CPU profile of the workload's tasks: sampled call chains,
 *            self and children weight per function (no metric; the
 *            iteration's struct result_profile instead)
 *   profile-system  the same of every task on every CPU (what runs beside
 *            the workload too); one profiler at a time
 *
 * A counter or file the machine does not support is absent (NAN, never
 * stored), never zero.
 */

struct monitor_set;

/*
 * The monitors a run uses unless told otherwise: the ones that only read
 * files before and after the iteration. perf counters count inside the timed
 * section (a little work on every context switch, as under `perf stat`), so
 * they run only when asked: --monitors perf or all.
 */
#define MONITORS_DEFAULT "vmstat,stat,softirqs,schedstat,cpufreq"

/* Descriptors a monitor set holds open (the iteration's child inherits them). */
#define MONITOR_MAX_FDS 14

/*
 * The names accepted by --monitors, comma-separated: "perf,vmstat,...":
 * the @i-th monitor's (each monitor's own, from the one table of them in
 * monitor.c), NULL past the last. Besides them, "all" (every monitor but
 * the profiles, which sample inside the timed section) and "none" (or "")
 * are accepted.
 */
const char *monitor_name(size_t i);

/*
 * The profile monitors' samples a second on each CPU unless a run asks for
 * another rate. Each sample interrupts the workload, and on a virtual
 * machine without a PMU a cpu-clock sample costs it some 40-60 us
 * (doc/design.md, "What a profile costs"): at perf record's 1000 Hz that
 * is 4-6 % of a CPU-bound workload's time, at 100 Hz a tenth of it.
 */
#define PROFILE_FREQUENCY 100

/* What a run asks of its monitors beyond naming them; zero = the default. */
struct monitor_options {
	int profile_frequency;	/* samples a second on each CPU (PROFILE_FREQUENCY) */
};

/*
 * Open the monitors named in @list (comma-separated; NULL = all, "" or
 * "none" = no metric at all), with @options (NULL = the defaults). Decides
 * which metrics exist on this machine: the metric list is fixed from here
 * on, in the order of monitor_name() whatever the order of @list. Unknown
 * names fail with EXIT_USAGE. Holds a few fds (at most 14, close-on-exec)
 * until monitors_close().
 */
int monitors_open(const char *list, const struct monitor_options *options,
		  struct monitor_set **out, struct error *err);
/*
 * Whether monitors_open() would take @list's names, checked before
 * anything is opened or stored: 0, or -1 with @err as it would fail. The
 * command line's check, stricter than monitors_open() for a stored plan:
 * an empty list or an empty name in it is refused.
 */
int monitors_check_list(const char *list, struct error *err);
/* Whether @list (as monitors_open() reads it) names a monitor that takes profiles. */
bool monitors_list_profiles(const char *list);
void monitors_close(struct monitor_set *ms);

size_t monitors_nr_metrics(const struct monitor_set *ms);
const struct metric_spec *monitors_metric(const struct monitor_set *ms, size_t i);
/* The monitor that measures metric @i: "perf", "vmstat", ... (stored as its source). */
const char *monitors_metric_source(const struct monitor_set *ms, size_t i);

/*
 * What the monitors said when they opened, for the user: what the profile
 * samples, or why it cannot (permission, hidden kernel addresses).
 */
size_t monitors_nr_notes(const struct monitor_set *ms);
const char *monitors_note(const struct monitor_set *ms, size_t i);

/* True when a monitor of @ms profiles: it samples inside the timed section. */
bool monitors_profiling(const struct monitor_set *ms);
/*
 * Move the profiling monitors of @ms into a set of their own (NULL when
 * there is none), so that extra iterations are profiled while the timed
 * ones run without them. Free it with monitors_close() before @ms.
 */
struct monitor_set *monitors_split_profiling(struct monitor_set *ms);
/* The profile of the iteration monitors_after() ended, handed over; NULL when none. */
struct result_profile *monitors_take_profile(struct monitor_set *ms);

/*
 * Just before the iteration's child @pid starts its workload (it waits for
 * the runner's go): attach counters to @pid and snapshot the /proc files.
 */
int monitors_before(struct monitor_set *ms, pid_t pid, struct error *err);

/*
 * After the child was reaped: fill @values[monitors_nr_metrics()] with
 * the deltas (NAN for anything not measured this time) and detach.
 */
void monitors_after(struct monitor_set *ms, double *values);

#endif
