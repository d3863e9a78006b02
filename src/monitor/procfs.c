// SPDX-License-Identifier: GPL-2.0
/*
 * System-wide deltas of /proc files over an iteration: what the whole
 * machine did while the workload ran (reclaim, NUMA balancing, interrupts,
 * softirqs, run-queue waiting), which often explains a result that the
 * workload's own numbers cannot.
 *
 * Each file has a parser that reports (key, value) pairs; a key reported
 * twice is summed (pgalloc_* into pgalloc, a softirq over CPUs). The keys
 * seen at open are the metrics, for good: a key missing later is NAN.
 *
 * before() only copies the file into a buffer sized at open; all parsing
 * waits for after(), outside the timed section and off the critical path
 * of starting the workload.
 */
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "monitor/procfs.h"
#include "util/array.h"
#include "util/io.h"
#include "util/xalloc.h"

struct procfs_monitor;

/* What differs between the files. */
struct procfs_format {
	const char *source;		/* metric prefix and monitor name */
	const char *path;
	const char *help;
	void (*parse)(const char *text, struct procfs_monitor *pm);
	/* Unit of @key and the factor from the file's unit to it. */
	const char *(*unit)(const char *key, double *scale);
};

/* One copy of the file, and what parsing it found. */
struct procfs_snapshot {
	char *text;
	size_t len, cap;
	uint64_t *sums;		/* per key */
	bool *seen;
};

struct procfs_monitor {
	const struct procfs_format *format;
	int fd;
	char **keys;
	double *scale;
	size_t nr_keys, alloc_keys;
	struct procfs_snapshot snap[2];	/* before, after */
	struct procfs_snapshot *parsing;
	size_t cursor;			/* key matched last, to skip searching */
	bool learning;			/* at open: unknown keys are added */
	bool have_before;
};

/* ---- reading ---- */

/* Read the whole file into @snap; grows the buffer only if it outgrew it. */
static int snapshot_read(struct procfs_monitor *pm, struct procfs_snapshot *snap)
{
	return pread_text(pm->fd, &snap->text, &snap->cap, &snap->len);
}

/* ---- keys ---- */

static long key_index(struct procfs_monitor *pm, const char *key)
{
	size_t next = pm->cursor + 1;

	/* Files list their keys in the same order every time. */
	if (pm->cursor < pm->nr_keys && !strcmp(pm->keys[pm->cursor], key))
		return (long)pm->cursor;
	if (next < pm->nr_keys && !strcmp(pm->keys[next], key))
		return (long)(pm->cursor = next);
	for (size_t i = 0; i < pm->nr_keys; i++)
		if (!strcmp(pm->keys[i], key))
			return (long)(pm->cursor = i);
	return -1;
}

static void key_add(struct procfs_monitor *pm, const char *key)
{
	if (pm->nr_keys == pm->alloc_keys) {
		pm->alloc_keys = pm->alloc_keys ? 2 * pm->alloc_keys : 32;
		pm->keys = xreallocarray(pm->keys, pm->alloc_keys, sizeof(char *));
	}
	pm->keys[pm->nr_keys++] = xstrdup(key);
}

static void emit(struct procfs_monitor *pm, const char *key, uint64_t value)
{
	struct procfs_snapshot *snap = pm->parsing;
	long i = key_index(pm, key);

	if (i < 0 && pm->learning) {
		key_add(pm, key);
		return;
	}
	if (i < 0 || !snap)
		return;		/* appeared after open: not a metric */
	snap->sums[i] += value;
	snap->seen[i] = true;
}

static void snapshot_parse(struct procfs_monitor *pm, struct procfs_snapshot *snap)
{
	memset(snap->sums, 0, pm->nr_keys * sizeof(*snap->sums));
	memset(snap->seen, 0, pm->nr_keys * sizeof(*snap->seen));
	pm->parsing = snap;
	pm->cursor = 0;
	pm->format->parse(snap->text, pm);
	pm->parsing = NULL;
}

/* ---- parsing helpers ---- */

static const char *next_line(const char *p)
{
	p = strchr(p, '\n');
	return p ? p + 1 : NULL;
}

/* Copy the word at @p (up to a space, ':' or newline) into @buf. */
static const char *copy_word(const char *p, char *buf, size_t size)
{
	size_t n = 0;

	while (*p && *p != ' ' && *p != ':' && *p != '\n' && *p != '\t') {
		if (n + 1 < size)
			buf[n++] = *p;
		p++;
	}
	buf[n] = '\0';
	if (*p == ':')
		p++;
	return p;
}

/* Parse the next unsigned number on the line; false at its end. */
static bool next_number(const char **p, uint64_t *out)
{
	char *end;

	while (**p == ' ' || **p == '\t')
		(*p)++;
	if (**p < '0' || **p > '9')
		return false;
	*out = strtoull(*p, &end, 10);
	*p = end;
	return true;
}

/* ---- /proc/vmstat ---- */

/*
 * Event counters that explain scheduler and memory results; the nr_*
 * lines are gauges, whose difference means little. Per-zone counters
 * are summed: the zone rarely matters, the total does.
 */
static const char *const vmstat_kept[] = {
	"pgpgin", "pgpgout", "pswpin", "pswpout", "pgfree", "pgactivate",
	"pgdeactivate", "pgfault", "pgmajfault", "pgrefill",
	"pgsteal_kswapd", "pgsteal_direct", "pgscan_kswapd", "pgscan_direct",
	"pgscan_direct_throttle", "slabs_scanned", "oom_kill",
	"numa_hit", "numa_miss", "numa_foreign", "numa_interleave",
	"numa_local", "numa_other", "numa_pte_updates",
	"numa_huge_pte_updates", "numa_hint_faults", "numa_hint_faults_local",
	"numa_pages_migrated", "pgmigrate_success", "pgmigrate_fail",
	"pgpromote_success", "compact_stall", "compact_fail",
	"compact_success", "compact_migrate_scanned", "compact_free_scanned",
	"thp_fault_alloc", "thp_fault_fallback", "thp_collapse_alloc",
	"thp_collapse_alloc_failed", "thp_split_page", "thp_split_pmd",
	"thp_migration_success", "nr_tlb_remote_flush",
	"nr_tlb_remote_flush_received", "nr_tlb_local_flush_all",
	"nr_tlb_local_flush_one", "workingset_refault_anon",
	"workingset_refault_file", "zone_reclaim_failed", "pgrotated",
	NULL,
};

/* Counters kept as the sum of their per-zone lines: "pgalloc_normal". */
static const char *const vmstat_summed[] = { "pgalloc", "allocstall", NULL };

static bool vmstat_key(const char *name, char *key, size_t size)
{
	for (size_t i = 0; vmstat_summed[i]; i++) {
		size_t len = strlen(vmstat_summed[i]);

		if (!strncmp(name, vmstat_summed[i], len) && name[len] == '_') {
			snprintf(key, size, "%s", vmstat_summed[i]);
			return true;
		}
	}
	for (size_t i = 0; vmstat_kept[i]; i++) {
		if (!strcmp(name, vmstat_kept[i])) {
			snprintf(key, size, "%s", name);
			return true;
		}
	}
	return false;
}

static void vmstat_parse(const char *text, struct procfs_monitor *pm)
{
	for (const char *p = text; p && *p; p = next_line(p)) {
		char name[64], key[64];
		uint64_t value;

		p = copy_word(p, name, sizeof(name));
		if (vmstat_key(name, key, sizeof(key)) && next_number(&p, &value))
			emit(pm, key, value);
	}
}

static const char *count_unit(const char *key, double *scale)
{
	*scale = 1;
	return "count";
}

/* ---- /proc/stat ---- */

/* The cpuN fields we keep, by position after the name (user nice system idle ...). */
static const struct {
	int field;
	const char *name;
} stat_cpu_fields[] = {
	{ 0, "user" }, { 2, "system" }, { 3, "idle" }, { 6, "softirq" },
};

static void stat_cpu_line(const char *p, const char *cpu,
			  struct procfs_monitor *pm)
{
	size_t next = 0;
	uint64_t value;

	for (int field = 0; next_number(&p, &value) && next < 4; field++) {
		char key[64];

		if (field != stat_cpu_fields[next].field)
			continue;
		snprintf(key, sizeof(key), "%s.%s", cpu, stat_cpu_fields[next].name);
		emit(pm, key, value);
		next++;
	}
}

static void stat_parse(const char *text, struct procfs_monitor *pm)
{
	for (const char *p = text; p && *p; p = next_line(p)) {
		char name[64];
		uint64_t value;

		p = copy_word(p, name, sizeof(name));
		if (!strncmp(name, "cpu", 3) && name[3] >= '0' && name[3] <= '9')
			stat_cpu_line(p, name, pm);
		else if ((!strcmp(name, "ctxt") || !strcmp(name, "intr") ||
			  !strcmp(name, "processes")) && next_number(&p, &value))
			emit(pm, name, value);	/* intr: the total, first */
	}
}

static const char *stat_unit(const char *key, double *scale)
{
	long hz = sysconf(_SC_CLK_TCK);

	if (strncmp(key, "cpu", 3))
		return count_unit(key, scale);
	*scale = 1000.0 / (double)(hz > 0 ? hz : 100);	/* ticks to ms */
	return "ms";
}

/* ---- /proc/softirqs ---- */

static void softirqs_parse(const char *text, struct procfs_monitor *pm)
{
	/* The first line names the CPUs. */
	for (const char *p = next_line(text); p && *p; p = next_line(p)) {
		char name[64];
		uint64_t value, sum = 0;

		while (*p == ' ')
			p++;
		p = copy_word(p, name, sizeof(name));
		while (next_number(&p, &value))
			sum += value;
		if (name[0])
			emit(pm, name, sum);
	}
}

/* ---- /proc/schedstat ---- */

/*
 * "cpuN" lines (version 15 and later): after eight scheduling counters,
 * the time tasks ran on the CPU, the time they waited on its run queue
 * (both ns) and the number of timeslices run. Summed over CPUs.
 */
static void schedstat_parse(const char *text, struct procfs_monitor *pm)
{
	static const char *const names[] = { "run_ms", "wait_ms", "timeslices" };

	for (const char *p = text; p && *p; p = next_line(p)) {
		char name[64];
		uint64_t value;

		p = copy_word(p, name, sizeof(name));
		if (strncmp(name, "cpu", 3) || name[3] < '0' || name[3] > '9')
			continue;
		for (int field = 0; field < 9 && next_number(&p, &value); field++)
			if (field >= 6)
				emit(pm, names[field - 6], value);
	}
}

static const char *schedstat_unit(const char *key, double *scale)
{
	if (!strcmp(key, "timeslices"))
		return count_unit(key, scale);
	*scale = 1e-6;
	return "ms";
}

/* ---- the monitor ---- */

static void procfs_free(struct procfs_monitor *pm)
{
	if (!pm)
		return;
	if (pm->fd >= 0)
		close(pm->fd);
	for (size_t i = 0; i < pm->nr_keys; i++)
		free(pm->keys[i]);
	free(pm->keys);
	free(pm->scale);
	for (int s = 0; s < 2; s++) {
		free(pm->snap[s].text);
		free(pm->snap[s].sums);
		free(pm->snap[s].seen);
	}
	free(pm);
}

/* Read the file once to learn its keys; they are the metrics. */
static void procfs_learn(struct procfs_monitor *pm, struct metric_table *table)
{
	const struct procfs_format *f = pm->format;

	pm->learning = true;
	f->parse(pm->snap[0].text, pm);
	pm->learning = false;
	pm->scale = xcalloc(pm->nr_keys ? pm->nr_keys : 1, sizeof(double));
	for (int s = 0; s < 2; s++) {
		pm->snap[s].sums = xcalloc(pm->nr_keys + 1, sizeof(uint64_t));
		pm->snap[s].seen = xcalloc(pm->nr_keys + 1, sizeof(bool));
	}
	for (size_t i = 0; i < pm->nr_keys; i++) {
		char name[128];
		const char *unit = f->unit(pm->keys[i], &pm->scale[i]);

		snprintf(name, sizeof(name), "%s.%s", f->source, pm->keys[i]);
		metric_table_add(table, name, unit, BETTER_LOWER, f->help);
	}
}

static int open_format(const struct procfs_format *f, const char *path,
		       struct metric_table *table, void **state)
{
	struct procfs_monitor *pm = xcalloc(1, sizeof(*pm));

	*state = NULL;
	pm->format = f;
	pm->snap[0].cap = 4096;
	pm->snap[0].text = xmalloc(pm->snap[0].cap);
	pm->fd = open(path, O_RDONLY | O_CLOEXEC);
	/* A file this kernel lacks (schedstat) gives no metric at all. */
	if (pm->fd < 0 || snapshot_read(pm, &pm->snap[0]) < 0)
		goto absent;
	/* Room for the file to grow (more interrupts, CPUs coming online). */
	pm->snap[0].cap = pm->snap[1].cap = 2 * pm->snap[0].len + 4096;
	pm->snap[0].text = xrealloc(pm->snap[0].text, pm->snap[0].cap);
	pm->snap[1].text = xmalloc(pm->snap[1].cap);
	procfs_learn(pm, table);
	if (!pm->nr_keys)
		goto absent;
	*state = pm;
	return 0;
absent:
	procfs_free(pm);
	return 0;
}

static int procfs_before(void *state, pid_t pid, struct error *err)
{
	struct procfs_monitor *pm = state;

	pm->have_before = snapshot_read(pm, &pm->snap[0]) == 0;
	return 0;
}

static void procfs_after(void *state, double *values)
{
	struct procfs_monitor *pm = state;
	struct procfs_snapshot *b = &pm->snap[0], *a = &pm->snap[1];
	bool ok = pm->have_before && snapshot_read(pm, a) == 0;

	if (ok) {
		snapshot_parse(pm, b);
		snapshot_parse(pm, a);
	}
	for (size_t i = 0; i < pm->nr_keys; i++) {
		if (!ok || !b->seen[i] || !a->seen[i])
			values[i] = NAN;
		else	/* signed: a counter may wrap or be reset */
			values[i] = ((double)a->sums[i] - (double)b->sums[i]) *
				    pm->scale[i];
	}
	pm->have_before = false;
}

static void procfs_close(void *state)
{
	procfs_free(state);
}

static const struct procfs_format formats[] = {
	{ "vmstat", "/proc/vmstat", "system-wide change in /proc/vmstat",
	  vmstat_parse, count_unit },
	{ "stat", "/proc/stat", "system-wide change in /proc/stat",
	  stat_parse, stat_unit },
	{ "softirqs", "/proc/softirqs", "softirqs raised on all CPUs (/proc/softirqs)",
	  softirqs_parse, count_unit },
	{ "schedstat", "/proc/schedstat", "summed over CPUs from /proc/schedstat",
	  schedstat_parse, schedstat_unit },
};

#define DEFINE_PROCFS_MONITOR(var, index, label)				\
	static int var##_open(struct metric_table *table,		\
			      const struct monitor_options *options,		\
			      void **state, struct error *err)			\
	{								\
		return open_format(&formats[index], formats[index].path,	\
				   table, state);				\
	}								\
	const struct monitor_ops var = {				\
		.name = label,						\
		.open = var##_open,					\
		.before = procfs_before,				\
		.after = procfs_after,					\
		.close = procfs_close,					\
	}

DEFINE_PROCFS_MONITOR(vmstat_monitor, 0, "vmstat");
DEFINE_PROCFS_MONITOR(stat_monitor, 1, "stat");
DEFINE_PROCFS_MONITOR(softirqs_monitor, 2, "softirqs");
DEFINE_PROCFS_MONITOR(schedstat_monitor, 3, "schedstat");

int procfs_open_path(const struct monitor_ops *ops, const char *path,
		     struct metric_table *table, void **state,
		     struct error *err)
{
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++)
		if (!strcmp(formats[i].source, ops->name))
			return open_format(&formats[i], path, table, state);
	return error_set(err, EXIT_INTERNAL, "no /proc monitor named %s",
			 ops->name);
}
