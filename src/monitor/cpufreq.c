// SPDX-License-Identifier: GPL-2.0
/*
 * Average frequency of each CPU over the iteration, in MHz: a governor
 * that ramps slowly or a turbo that fades can change a conclusion (seed
 * 004), and this shows it beside the result.
 *
 * Best source: cpufreq/stats/time_in_state, the time spent at each
 * frequency, whose deltas give a time-weighted average. Otherwise
 * scaling_cur_freq before and after, averaged: coarse, but better than
 * nothing. A CPU with neither (most VMs) has no metric at all.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "monitor/cpufreq.h"
#include "util/xalloc.h"

/* time_in_state lists a handful of frequencies; more are ignored. */
#define MAX_STATES 64
#define STATE_TEXT 4096

struct freq_states {
	uint64_t khz[MAX_STATES];
	uint64_t time[MAX_STATES];	/* in 10 ms units */
	size_t nr;
};

/*
 * Files are opened at each reading rather than held: a large machine has
 * hundreds of CPUs, and held fds would be inherited by the workload's
 * process and eat into its open-file limit.
 */
struct cpufreq_cpu {
	int cpu;
	char *states_path;		/* time_in_state, or NULL */
	char *cur_path;			/* scaling_cur_freq, or NULL */
	char states_before[STATE_TEXT];
	bool have_states;
	double cur_before;		/* kHz, NAN when unread */
};

struct cpufreq_monitor {
	struct cpufreq_cpu *cpus;
	size_t nr;
};

/* Read a small sysfs file into @buf; -1 on failure. */
static int read_text(const char *path, char *buf, size_t size)
{
	int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	ssize_t n;

	if (fd < 0)
		return -1;
	do
		n = read(fd, buf, size - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

static double read_khz(const char *path)
{
	char buf[64];
	char *end;
	double khz;

	if (read_text(path, buf, sizeof(buf)) < 0)
		return NAN;
	khz = strtod(buf, &end);
	return end == buf ? NAN : khz;
}

static void parse_states(const char *text, struct freq_states *fs)
{
	const char *p = text;

	fs->nr = 0;
	while (*p && fs->nr < MAX_STATES) {
		char *end;

		fs->khz[fs->nr] = strtoull(p, &end, 10);
		if (end == p)
			break;
		p = end;
		fs->time[fs->nr] = strtoull(p, &end, 10);
		if (end == p)
			break;
		p = end;
		fs->nr++;
		while (*p == '\n' || *p == ' ')
			p++;
	}
}

/* The time-weighted average in kHz of the time spent between two readings. */
static double weighted_khz(const struct freq_states *b, const struct freq_states *a)
{
	double weighted = 0, total = 0;

	for (size_t i = 0; i < a->nr; i++) {
		for (size_t j = 0; j < b->nr; j++) {
			double dt;

			if (b->khz[j] != a->khz[i] || a->time[i] < b->time[j])
				continue;
			dt = (double)(a->time[i] - b->time[j]);
			weighted += dt * (double)a->khz[i];
			total += dt;
			break;
		}
	}
	return total > 0 ? weighted / total : NAN;
}

/* The path of @file of CPU @name when it can be read, else NULL. */
static char *cpufreq_file(const char *cpu_dir, const char *name, const char *file)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s/cpufreq/%s", cpu_dir, name, file);
	return access(path, R_OK) ? NULL : xstrdup(path);
}

static int cpu_number(const char *name)
{
	const char *p = name + 3;

	if (strncmp(name, "cpu", 3) || !isdigit((unsigned char)*p))
		return -1;
	for (const char *q = p; *q; q++)
		if (!isdigit((unsigned char)*q))
			return -1;
	return atoi(p);
}

static int by_cpu(const void *a, const void *b)
{
	const struct cpufreq_cpu *x = a, *y = b;

	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

static void add_cpu(struct cpufreq_monitor *cm, const char *cpu_dir,
		    const char *name, int cpu)
{
	char *states_path = cpufreq_file(cpu_dir, name, "stats/time_in_state");
	char *cur_path = cpufreq_file(cpu_dir, name, "scaling_cur_freq");
	struct cpufreq_cpu *c;

	if (!states_path && !cur_path)
		return;
	cm->cpus = xreallocarray(cm->cpus, cm->nr + 1, sizeof(*cm->cpus));
	c = &cm->cpus[cm->nr++];
	memset(c, 0, sizeof(*c));
	c->cpu = cpu;
	c->states_path = states_path;
	c->cur_path = cur_path;
	c->cur_before = NAN;
}

static void cpufreq_free(struct cpufreq_monitor *cm)
{
	for (size_t i = 0; i < cm->nr; i++) {
		free(cm->cpus[i].states_path);
		free(cm->cpus[i].cur_path);
	}
	free(cm->cpus);
	free(cm);
}

int cpufreq_open_at(const char *cpu_dir, struct metric_table *table,
		    void **state, struct error *err)
{
	struct cpufreq_monitor *cm;
	struct dirent *entry;
	DIR *dir = opendir(cpu_dir);

	*state = NULL;
	if (!dir)
		return 0;
	cm = xcalloc(1, sizeof(*cm));
	while ((entry = readdir(dir))) {
		int cpu = cpu_number(entry->d_name);

		if (cpu >= 0)
			add_cpu(cm, cpu_dir, entry->d_name, cpu);
	}
	closedir(dir);
	if (!cm->nr) {
		cpufreq_free(cm);
		return 0;
	}
	qsort(cm->cpus, cm->nr, sizeof(*cm->cpus), by_cpu);
	for (size_t i = 0; i < cm->nr; i++) {
		char name[64];

		snprintf(name, sizeof(name), "cpufreq.cpu%d", cm->cpus[i].cpu);
		metric_table_add(table, name, "MHz", BETTER_HIGHER,
				 "average frequency of the CPU over the iteration");
	}
	*state = cm;
	return 0;
}

static int cpufreq_open(struct metric_table *table, const struct monitor_options *options,
			void **state, struct error *err)
{
	return cpufreq_open_at("/sys/devices/system/cpu", table, state, err);
}

static int cpufreq_before(void *state, pid_t pid, struct error *err)
{
	struct cpufreq_monitor *cm = state;

	for (size_t i = 0; i < cm->nr; i++) {
		struct cpufreq_cpu *c = &cm->cpus[i];

		c->have_states = read_text(c->states_path, c->states_before,
					   sizeof(c->states_before)) == 0;
		c->cur_before = read_khz(c->cur_path);
	}
	return 0;
}

static double cpu_average_mhz(struct cpufreq_cpu *c)
{
	struct freq_states b, a;
	char text[STATE_TEXT];
	double khz = NAN;

	if (c->have_states &&
	    read_text(c->states_path, text, sizeof(text)) == 0) {
		parse_states(c->states_before, &b);
		parse_states(text, &a);
		khz = weighted_khz(&b, &a);
	}
	/* Too short for time_in_state's 10 ms ticks: fall back. */
	if (isnan(khz))
		khz = (c->cur_before + read_khz(c->cur_path)) / 2;
	return khz / 1000;
}

static void cpufreq_after(void *state, double *values)
{
	struct cpufreq_monitor *cm = state;

	for (size_t i = 0; i < cm->nr; i++) {
		values[i] = cpu_average_mhz(&cm->cpus[i]);
		cm->cpus[i].have_states = false;
		cm->cpus[i].cur_before = NAN;
	}
}

static void cpufreq_close(void *state)
{
	cpufreq_free(state);
}

const struct monitor_ops cpufreq_monitor = {
	.name = "cpufreq",
	.open = cpufreq_open,
	.before = cpufreq_before,
	.after = cpufreq_after,
	.close = cpufreq_close,
};
