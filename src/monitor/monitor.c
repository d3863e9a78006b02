// SPDX-License-Identifier: GPL-2.0
/*
 * The monitor set: which monitors --monitors chose, the metrics they
 * offer on this machine (fixed once opened, so every iteration of a run
 * stores the same columns), and the calls around each iteration.
 *
 * Monitors always run in the order of all_monitors[], whatever order the
 * list gave, so that two runs with the same monitors have the same metric
 * order.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor/cpufreq.h"
#include "monitor/monitor.h"
#include "monitor/monitor_ops.h"
#include "monitor/perf_counters.h"
#include "monitor/procfs.h"
#include "monitor/profile.h"
#include "util/array.h"
#include "util/list.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const struct monitor_ops *const all_monitors[] = {
	&perf_monitor,
	&vmstat_monitor,
	&stat_monitor,
	&softirqs_monitor,
	&schedstat_monitor,
	&cpufreq_monitor,
	&profile_monitor,
	&profile_system_monitor,
};

#define NR_MONITORS (ARRAY_SIZE(all_monitors))

const char *monitor_name(size_t i)
{
	return i < NR_MONITORS ? all_monitors[i]->name : NULL;
}

/* One opened monitor and the slice of the metric table it fills. */
struct monitor_slot {
	const struct monitor_ops *ops;
	void *state;
	size_t first, nr;
};

struct monitor_set {
	struct metric_table table;
	struct monitor_slot slots[NR_MONITORS];
	size_t nr_slots;
	bool started;		/* before() succeeded, after() not yet called */
};

void metric_table_add(struct metric_table *table, const char *name,
		      const char *unit, enum better better, const char *help)
{
	struct metric_spec *spec;

	if (table->nr == table->alloc) {
		table->alloc = table->alloc ? 2 * table->alloc : 64;
		table->specs = xreallocarray(table->specs, table->alloc,
					     sizeof(*table->specs));
		table->names = xreallocarray(table->names, table->alloc,
					     sizeof(*table->names));
	}
	table->names[table->nr] = xstrdup(name);
	spec = &table->specs[table->nr++];
	spec->name = table->names[table->nr - 1];
	spec->unit = unit;
	spec->better = better;
	spec->help = help;
}

void monitor_note(struct metric_table *table, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	strbuf_addstr(&sb, line);
	table->notes = xreallocarray(table->notes, table->nr_notes + 1, sizeof(*table->notes));
	table->notes[table->nr_notes++] = strbuf_detach(&sb);
}

static bool is_profiling(const struct monitor_ops *ops)
{
	return ops->take_profile != NULL;
}

static int monitor_index(const char *name, size_t len)
{
	for (size_t i = 0; i < NR_MONITORS; i++)
		if (strlen(all_monitors[i]->name) == len &&
		    !strncmp(all_monitors[i]->name, name, len))
			return (int)i;
	return -1;
}

/* "a comma list of perf, vmstat, ..., profile-system, or all or none alone" */
static void known_names(char *buf, size_t size)
{
	size_t used = (size_t)snprintf(buf, size, "a comma list of ");

	for (size_t i = 0; i < NR_MONITORS && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s, ",
					 all_monitors[i]->name);
	if (used < size)
		snprintf(buf + used, size - used, "or all or none alone");
}

struct choosing {
	const char *list;
	bool *chosen;
	bool strict;	/* the command line's list: no empty name */
	struct error *err;
};

/*
 * One name of --monitors. "all" and "none" are the whole list or nothing;
 * an empty name ("a,,b") is refused on the command line, and skipped in a
 * stored plan's list, which an older schedperf may have let through.
 */
static int choose_monitor(const char *name, size_t len, void *arg)
{
	struct choosing *c = arg;
	int i = monitor_index(name, len);
	char known[256];

	if (i >= 0) {
		c->chosen[i] = true;
		return 0;
	}
	if (!len && !c->strict)
		return 0;
	known_names(known, sizeof(known));
	if (!len)
		return error_set(c->err, EXIT_USAGE, "--monitors '%.64s': an empty name in "
				 "the list (give %s)", c->list, known);
	if ((len == 3 && !strncmp(name, "all", 3)) || (len == 4 && !strncmp(name, "none", 4)))
		return error_set(c->err, EXIT_USAGE, "--monitors '%.64s': %.*s stands alone, "
				 "never in a list with other names (give %s)", c->list,
				 (int)len, name, known);
	return error_set(c->err, EXIT_USAGE, "--monitors: unknown monitor '%.*s' (give %s)",
			 (int)len, name, known);
}

/*
 * Mark in @chosen[] the monitors @list names; NULL or "all" means all.
 * @strict: the command line's list, where an empty list or name is refused.
 */
static int parse_list(const char *list, bool *chosen, bool strict, struct error *err)
{
	struct choosing c = { list, chosen, strict, err };
	int profiling = 0;

	/* "all" measures; a profile samples inside the timed section, so only when named. */
	if (!list || !strcmp(list, "all")) {
		for (size_t i = 0; i < NR_MONITORS; i++)
			chosen[i] = !is_profiling(all_monitors[i]);
		return 0;
	}
	if (!strcmp(list, "none"))
		return 0;
	if (strict && !*list) {
		char known[256];

		known_names(known, sizeof(known));
		return error_set(err, EXIT_USAGE, "--monitors '': an empty list "
				 "(give %s; none measures rusage alone)", known);
	}
	if (comma_list_each(list, choose_monitor, &c))
		return -1;
	for (size_t i = 0; i < NR_MONITORS; i++)
		profiling += chosen[i] && is_profiling(all_monitors[i]);
	if (profiling > 1)
		return error_set(err, EXIT_USAGE, "--monitors: profile and profile-system would "
				 "sample the same CPUs twice (name one: profile-system's profile "
				 "holds the workload's tasks too)");
	return 0;
}

int monitors_check_list(const char *list, struct error *err)
{
	bool chosen[NR_MONITORS] = { false };

	return parse_list(list, chosen, true, err);
}

bool monitors_list_profiles(const char *list)
{
	bool chosen[NR_MONITORS] = { false };
	struct error err = { 0 };

	if (!list || parse_list(list, chosen, false, &err))
		return false;
	for (size_t i = 0; i < NR_MONITORS; i++)
		if (chosen[i] && is_profiling(all_monitors[i]))
			return true;
	return false;
}

static int open_slot(struct monitor_set *ms, const struct monitor_ops *ops,
		     const struct monitor_options *options, struct error *err)
{
	struct monitor_slot *slot = &ms->slots[ms->nr_slots];
	size_t first = ms->table.nr;

	slot->ops = ops;
	slot->state = NULL;
	if (ops->open(&ms->table, options, &slot->state, err) < 0)
		return -1;
	if (!slot->state)
		return 0;	/* nothing to measure here: no slot, no metric */
	slot->first = first;
	slot->nr = ms->table.nr - first;
	ms->nr_slots++;
	return 0;
}

int monitors_open(const char *list, const struct monitor_options *options,
		  struct monitor_set **out, struct error *err)
{
	static const struct monitor_options defaults;
	bool chosen[NR_MONITORS] = { false };
	struct monitor_set *ms;

	*out = NULL;
	if (parse_list(list, chosen, false, err) < 0)
		return -1;
	ms = xcalloc(1, sizeof(*ms));
	for (size_t i = 0; i < NR_MONITORS; i++) {
		if (chosen[i] && open_slot(ms, all_monitors[i], options ? options : &defaults,
					 err) < 0) {
			monitors_close(ms);
			return -1;
		}
	}
	*out = ms;
	return 0;
}

void monitors_close(struct monitor_set *ms)
{
	if (!ms)
		return;
	for (size_t i = 0; i < ms->nr_slots; i++)
		ms->slots[i].ops->close(ms->slots[i].state);
	for (size_t i = 0; i < ms->table.nr; i++)
		free(ms->table.names[i]);
	for (size_t i = 0; i < ms->table.nr_notes; i++)
		free(ms->table.notes[i]);
	free(ms->table.notes);
	free(ms->table.names);
	free(ms->table.specs);
	free(ms);
}

size_t monitors_nr_metrics(const struct monitor_set *ms)
{
	return ms ? ms->table.nr : 0;
}

const struct metric_spec *monitors_metric(const struct monitor_set *ms, size_t i)
{
	return i < monitors_nr_metrics(ms) ? &ms->table.specs[i] : NULL;
}

const char *monitors_metric_source(const struct monitor_set *ms, size_t i)
{
	for (size_t s = 0; ms && s < ms->nr_slots; s++)
		if (i >= ms->slots[s].first &&
		    i < ms->slots[s].first + ms->slots[s].nr)
			return ms->slots[s].ops->name;
	return NULL;
}

size_t monitors_nr_notes(const struct monitor_set *ms)
{
	return ms ? ms->table.nr_notes : 0;
}

const char *monitors_note(const struct monitor_set *ms, size_t i)
{
	return i < monitors_nr_notes(ms) ? ms->table.notes[i] : NULL;
}

bool monitors_profiling(const struct monitor_set *ms)
{
	for (size_t i = 0; ms && i < ms->nr_slots; i++)
		if (is_profiling(ms->slots[i].ops))
			return true;
	return false;
}

struct monitor_set *monitors_split_profiling(struct monitor_set *ms)
{
	struct monitor_set *profiling;
	size_t kept = 0;

	if (!monitors_profiling(ms))
		return NULL;
	profiling = xcalloc(1, sizeof(*profiling));
	for (size_t i = 0; i < ms->nr_slots; i++) {
		/* A profiling monitor has no metric: moving it leaves the others' slices. */
		if (is_profiling(ms->slots[i].ops))
			profiling->slots[profiling->nr_slots++] = ms->slots[i];
		else
			ms->slots[kept++] = ms->slots[i];
	}
	ms->nr_slots = kept;
	return profiling;
}

struct result_profile *monitors_take_profile(struct monitor_set *ms)
{
	for (size_t i = 0; ms && i < ms->nr_slots; i++) {
		struct monitor_slot *slot = &ms->slots[i];

		if (is_profiling(slot->ops))
			return slot->ops->take_profile(slot->state);
	}
	return NULL;
}

static void discard_profiles(struct monitor_set *ms)
{
	struct result_profile *p;

	while ((p = monitors_take_profile(ms))) {
		result_profile_release(p);
		free(p);
	}
}

int monitors_before(struct monitor_set *ms, pid_t pid, struct error *err)
{
	size_t i;

	if (!ms)
		return 0;
	for (i = 0; i < ms->nr_slots; i++) {
		struct monitor_slot *slot = &ms->slots[i];

		if (slot->ops->before(slot->state, pid, err) < 0)
			goto undo;
	}
	/* Counters start last so that reading /proc above is not counted. */
	for (i = 0; i < ms->nr_slots; i++)
		if (ms->slots[i].ops->start)
			ms->slots[i].ops->start(ms->slots[i].state);
	ms->started = true;
	return 0;
undo:
	/* Detach what was attached; the values are thrown away. */
	for (size_t j = 0; j < i; j++) {
		struct monitor_slot *slot = &ms->slots[j];
		double *scratch = xcalloc(slot->nr ? slot->nr : 1, sizeof(double));

		slot->ops->after(slot->state, scratch);
		free(scratch);
	}
	discard_profiles(ms);
	return -1;
}

void monitors_after(struct monitor_set *ms, double *values)
{
	size_t n = monitors_nr_metrics(ms);

	if (!ms)
		return;
	if (!ms->started) {
		for (size_t i = 0; i < n; i++)
			values[i] = NAN;
		return;
	}
	for (size_t i = 0; i < ms->nr_slots; i++) {
		struct monitor_slot *slot = &ms->slots[i];

		slot->ops->after(slot->state, values + slot->first);
	}
	ms->started = false;
}
