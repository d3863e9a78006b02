// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open counters on the iteration's child, inherited by every
 * thread and process it creates. When an inherited task exits the kernel
 * folds its count into the counter we hold, so reading after the child
 * was reaped gives the whole tree.
 *
 * Whether a counter exists is decided once, at open, by trying it on
 * ourselves: the metric list then never changes during a run. A counter
 * the machine lacks (hardware counters in most VMs) stays in the list and
 * is always NAN, never 0, so that "not measured" cannot read as "none".
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "monitor/perf_counters.h"
#include "util/array.h"
#include "util/xalloc.h"

struct perf_counter_spec {
	const char *name;
	const char *unit;
	uint32_t type;
	uint64_t config;
	double scale;		/* from the kernel's unit to ours */
	const char *help;
	/*
	 * It happens only in the kernel: where only user counting is allowed
	 * it would always read 0, so it is absent there.
	 */
	bool in_kernel;
};

#define LLC_READ(result) (PERF_COUNT_HW_CACHE_LL | \
			  (PERF_COUNT_HW_CACHE_OP_READ << 8) | \
			  ((uint64_t)(result) << 16))

static const struct perf_counter_spec counters[] = {
	{ "task_clock_ms", "ms", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK,
	  1e-6, "CPU time of the workload's tasks (perf task-clock)", false },
	{ "context_switches", "count", PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_CONTEXT_SWITCHES, 1, "context switches of the workload's tasks", true },
	{ "cpu_migrations", "count", PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_CPU_MIGRATIONS, 1, "moves of the workload's tasks between CPUs", true },
	{ "page_faults", "count", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS,
	  1, "page faults of the workload's tasks", false },
	{ "cycles", "count", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES,
	  1, "CPU cycles (hardware counter)", false },
	{ "instructions", "count", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS,
	  1, "instructions retired (hardware counter)", false },
	{ "cache_references", "count", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_CACHE_REFERENCES, 1, "cache references (hardware counter)", false },
	{ "cache_misses", "count", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES,
	  1, "cache misses (hardware counter)", false },
	{ "llc_loads", "count", PERF_TYPE_HW_CACHE,
	  LLC_READ(PERF_COUNT_HW_CACHE_RESULT_ACCESS), 1,
	  "last-level cache loads (hardware counter)", false },
	{ "llc_load_misses", "count", PERF_TYPE_HW_CACHE,
	  LLC_READ(PERF_COUNT_HW_CACHE_RESULT_MISS), 1,
	  "last-level cache load misses (hardware counter)", false },
};

#define NR_COUNTERS (ARRAY_SIZE(counters))

struct perf_monitor {
	bool supported[NR_COUNTERS];
	bool user_only[NR_COUNTERS];	/* kernel counting was refused */
	int fd[NR_COUNTERS];		/* -1 outside an iteration */
	int keeper[NR_COUNTERS];	/* see counter_probe() */
};

/* What read() returns with our read_format. */
struct perf_reading {
	uint64_t value;
	uint64_t time_enabled;
	uint64_t time_running;
};

static void counter_attr(const struct perf_counter_spec *spec, bool user_only,
			 bool inherit, struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = spec->type;
	attr->config = spec->config;
	attr->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			    PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr->disabled = 1;
	attr->inherit = inherit;
	attr->exclude_kernel = user_only;
	attr->exclude_hv = user_only;
}

static int counter_open(const struct perf_counter_spec *spec, bool user_only,
			pid_t pid, bool inherit)
{
	struct perf_event_attr attr;

	counter_attr(spec, user_only, inherit, &attr);
	return (int)syscall(SYS_perf_event_open, &attr, pid, -1, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

/*
 * Try @spec on ourselves, with kernel counting if allowed, and keep the
 * counter, disabled, while the set is open: opening and closing the first
 * counter of a kind flips static keys in the kernel (perf_swevent_enabled,
 * perf_sched_events), which patches kernel text, and on a VM that cost
 * 0.3-10 ms per counter per iteration. With the keys held on, attaching a
 * counter to the iteration's child costs tens of microseconds. Not
 * inherited, so the runner's children do not carry it.
 */
static int counter_probe(struct perf_monitor *pm, size_t i, struct error *err)
{
	int fd = counter_open(&counters[i], false, 0, false);

	if (fd < 0 && (errno == EACCES || errno == EPERM)) {
		/* perf_event_paranoid >= 2 without privilege: user only. */
		pm->user_only[i] = true;
		fd = counter_open(&counters[i], true, 0, false);
		if (fd >= 0 && counters[i].in_kernel) {
			close(fd);
			fd = -1;
		}
	}
	if (fd < 0 && (errno == EMFILE || errno == ENFILE))
		return error_set(err, EXIT_ENV,
				 "perf counters: cannot open %s: %s (raise the open-file limit, ulimit -n)",
				 counters[i].name, strerror(errno));
	/* Anything else (ENOENT, EOPNOTSUPP, ENOSYS, ...) means absent. */
	pm->supported[i] = fd >= 0;
	pm->keeper[i] = fd;
	return 0;
}

static void perf_detach(struct perf_monitor *pm)
{
	for (size_t i = 0; i < NR_COUNTERS; i++) {
		if (pm->fd[i] >= 0)
			close(pm->fd[i]);
		pm->fd[i] = -1;
	}
}

static void perf_close(void *state)
{
	struct perf_monitor *pm = state;

	perf_detach(pm);
	for (size_t i = 0; i < NR_COUNTERS; i++)
		if (pm->keeper[i] >= 0)
			close(pm->keeper[i]);
	free(pm);
}

static int perf_open(struct metric_table *table, const struct monitor_options *options,
		     void **state, struct error *err)
{
	struct perf_monitor *pm = xcalloc(1, sizeof(*pm));

	for (size_t i = 0; i < NR_COUNTERS; i++)
		pm->fd[i] = pm->keeper[i] = -1;
	for (size_t i = 0; i < NR_COUNTERS; i++) {
		if (counter_probe(pm, i, err) < 0) {
			perf_close(pm);
			return -1;
		}
		metric_table_add(table, counters[i].name, counters[i].unit,
				 BETTER_LOWER, counters[i].help);
	}
	*state = pm;
	return 0;
}

static int perf_before(void *state, pid_t pid, struct error *err)
{
	struct perf_monitor *pm = state;

	perf_detach(pm);	/* a before() without its after() must not leak */
	for (size_t i = 0; i < NR_COUNTERS; i++) {
		if (!pm->supported[i])
			continue;
		pm->fd[i] = counter_open(&counters[i], pm->user_only[i], pid,
					 true);
		if (pm->fd[i] >= 0)
			continue;
		if (errno == EMFILE || errno == ENFILE || errno == ESRCH) {
			error_set(err, errno == ESRCH ? EXIT_INTERNAL : EXIT_ENV,
				  "perf counters: cannot attach %s to pid %d: %s%s",
				  counters[i].name, (int)pid, strerror(errno), errno == ESRCH ?
				  "" : " (raise the open-file limit, 'ulimit -n')");
			perf_detach(pm);
			return -1;
		}
		/* Refused this time only (e.g. no PMU slot): NAN for this one. */
	}
	return 0;
}

/* Last thing before the go: count as little as possible of the runner's setup. */
static void perf_start(void *state)
{
	struct perf_monitor *pm = state;

	for (size_t i = 0; i < NR_COUNTERS; i++)
		if (pm->fd[i] >= 0)
			ioctl(pm->fd[i], PERF_EVENT_IOC_ENABLE, 0);
}

/* The count, scaled up when the counter shared the PMU (multiplexed). */
static double counter_value(int fd, double scale)
{
	struct perf_reading r;

	if (fd < 0 || read(fd, &r, sizeof(r)) != (ssize_t)sizeof(r))
		return NAN;
	if (!r.time_running)
		return r.time_enabled ? NAN : 0;
	if (r.time_running < r.time_enabled)
		return (double)r.value * scale *
		       ((double)r.time_enabled / (double)r.time_running);
	return (double)r.value * scale;
}

static void perf_after(void *state, double *values)
{
	struct perf_monitor *pm = state;

	for (size_t i = 0; i < NR_COUNTERS; i++)
		values[i] = counter_value(pm->fd[i], counters[i].scale);
	perf_detach(pm);
}

const struct monitor_ops perf_monitor = {
	.name = "perf",
	.open = perf_open,
	.before = perf_before,
	.start = perf_start,
	.after = perf_after,
	.close = perf_close,
};
