/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_MONITOR_INTERFERENCE_H
#define SCHEDPERF_MONITOR_INTERFERENCE_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Interference: how much CPU time other tasks (and the hypervisor) took on
 * the CPUs an iteration could run on, measured around the iteration and
 * never inside it. doc/design.md ("Interference") says how it is counted
 * and why short iterations need an absolute floor as well as a percent.
 */

#define INTERFERENCE_MAX_CULPRITS 3
#define INTERFERENCE_DEFAULT_MAX_PCT 5.0

struct interference_culprit {
	char name[64];		/* the task's comm, as /proc/PID/stat shows it */
	long pid;
	double cpu;		/* CPU seconds it used over the iteration */
};

struct interference {
	double taken;		/* CPU seconds others and steal took; NAN = not measured */
	double steal;		/* of which steal time */
	double available;	/* CPU seconds available: CPUs x wall */
	bool disturbed;		/* taken above the share and the floor */
	size_t nr_culprits;
	struct interference_culprit culprits[INTERFERENCE_MAX_CULPRITS];
};

/* Per-CPU times of /proc/stat in seconds, for the CPUs of one set. */
struct cpu_times {
	double idle, iowait, steal;
};

struct interference_monitor;

/*
 * Watch the CPUs in @cpus (NULL: the ones this process may run on); an
 * iteration is disturbed when others took more than @max_share (0..1) of
 * the CPU time available and more than the floor. Returns NULL when
 * /proc/stat cannot be read: interference is then not measured.
 */
struct interference_monitor *interference_open(const cpu_set_t *cpus, double max_share);
void interference_close(struct interference_monitor *im);

/*
 * Wait, up to @max_seconds, until the watched CPUs are quiet: others took
 * no more than the threshold over a short window. Returns true if they
 * were, false when the time ran out.
 */
bool interference_wait_quiet(struct interference_monitor *im, double max_seconds);

/*
 * Just before the iteration is told to start: snapshot /proc/stat (and,
 * when the machine is busy now or the last iteration was disturbed, every
 * task's CPU time, to name culprits afterwards). The tasks of process
 * group @group are the iteration's own, never culprits.
 */
void interference_before(struct interference_monitor *im, pid_t group);

/*
 * Right after the child was reaped, with its own CPU time (user + system
 * of it and its reaped descendants): fill @out.
 */
void interference_after(struct interference_monitor *im, double own_cpu,
			struct interference *out);

/*
 * The tasks (other than this process) that used the most CPU time over the
 * next @seconds (*@window: the seconds it really took), at least
 * @min_share of one CPU each, most first: for `env --check`. Returns how
 * many, at most @max and INTERFERENCE_MAX_CULPRITS.
 */
size_t interference_busy_tasks(double seconds, double min_share,
			       struct interference_culprit *out, size_t max, double *window);

/* ---- the pieces, for tests and bench/interference-cost.sh ---- */

/* Scan every task's CPU time now, as before an iteration that needs it: how many. */
size_t interference_scan_tasks(struct interference_monitor *im);
/* Read the watched CPUs' times from /proc/stat now, as before and after each iteration. */
int interference_read_stat(struct interference_monitor *im);

/*
 * Parse /proc/stat @text: the times of each CPU of @cpus into
 * @times[0 .. nr - 1] in set order. Returns how many of @cpus were found.
 */
size_t interference_parse_stat(const char *text, const cpu_set_t *cpus, double user_hz,
			       struct cpu_times *times, size_t nr);

/*
 * The CPU seconds others took over @wall seconds on @nr CPUs whose times
 * went from @before to @after, when the iteration itself used @own_cpu.
 * Fills taken, steal and available of @out and decides disturbed.
 */
void interference_compute(const struct cpu_times *before, const struct cpu_times *after,
			  size_t nr, double wall, double own_cpu, double max_share,
			  double user_hz, struct interference *out);

/* The least CPU time that counts as interference on @nr CPUs (see doc/design.md). */
double interference_floor(size_t nr, double user_hz);

#endif
