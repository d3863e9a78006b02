// SPDX-License-Identifier: GPL-2.0
/*
 * CPU topology from sysfs: online CPUs, SMT siblings, the last-level cache
 * and NUMA nodes. Only counts are kept; the sweeps need sizes, not masks.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor/topology.h"
#include "util/list.h"
#include "util/xalloc.h"
#include "workload/workload.h"

#define SYSFS_SYSTEM "/sys/devices/system"

/* Read the first line of @root/sys/devices/system/@rel into @buf; -1 if absent. */
static int read_sysfs(const char *root, const char *rel, char *buf, size_t len)
{
	char path[4096];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s" SYSFS_SYSTEM "/%s", root, rel);
	f = fopen(path, "r");
	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int count_range(long first, long last, void *arg)
{
	if (last < first)
		return -1;
	*(long *)arg += last - first + 1;
	return 0;
}

/* sysfs ends its lists with a newline. */
static char *trimmed(const char *list)
{
	size_t len = strlen(list);

	while (len && isspace((unsigned char)list[len - 1]))
		len--;
	return xstrndup(list, len);
}

int topology_cpulist_count(const char *list)
{
	char *text = trimmed(list);
	long n = 0;
	int rc = *text ? cpulist_walk(text, count_range, &n) : 0;

	free(text);
	if (rc || n > 1L << 20)
		return -1;
	return (int)n;
}

struct membership {
	long cpu;
	int found;
};

static int find_range(long first, long last, void *arg)
{
	struct membership *m = arg;

	if (last < first)
		return -1;
	if (m->cpu >= first && m->cpu <= last)
		m->found = 1;
	return 0;
}

static int cpulist_contains(const char *list, long cpu)
{
	struct membership m = { cpu, 0 };
	char *text = trimmed(list);
	int rc = *text ? cpulist_walk(text, find_range, &m) : 0;

	free(text);
	return !rc && m.found;
}

/* CPUs in the file @rel, or @fallback when it is absent or unreadable. */
static int count_file(const char *root, const char *rel, int fallback)
{
	char buf[4096];
	int n;

	if (read_sysfs(root, rel, buf, sizeof(buf)))
		return fallback;
	n = topology_cpulist_count(buf);
	return n > 0 ? n : fallback;
}

/*
 * The last-level cache is the highest-level data or unified cache of @cpu;
 * instruction caches are private and say nothing about sharing.
 */
static int llc_size(const char *root, long cpu, int fallback)
{
	int best_level = 0, size = fallback;

	for (int i = 0; i < 16; i++) {
		char rel[256], buf[64];
		int level;

		snprintf(rel, sizeof(rel), "cpu/cpu%ld/cache/index%d/level", cpu, i);
		if (read_sysfs(root, rel, buf, sizeof(buf)))
			break;
		level = atoi(buf);
		snprintf(rel, sizeof(rel), "cpu/cpu%ld/cache/index%d/type", cpu, i);
		if (!read_sysfs(root, rel, buf, sizeof(buf)) && !strcmp(buf, "Instruction"))
			continue;
		if (level <= best_level)
			continue;
		snprintf(rel, sizeof(rel), "cpu/cpu%ld/cache/index%d/shared_cpu_list", cpu, i);
		best_level = level;
		size = count_file(root, rel, fallback);
	}
	return size;
}

/* Count the nodes that hold CPUs and the size of the one holding @cpu. */
static void read_nodes(const char *root, long cpu, struct topology *topo)
{
	char path[4096];
	struct dirent *entry;
	DIR *dir;

	snprintf(path, sizeof(path), "%s" SYSFS_SYSTEM "/node", root);
	dir = opendir(path);
	if (!dir)
		return;
	while ((entry = readdir(dir))) {
		char rel[512], buf[4096];
		int n;

		if (strncmp(entry->d_name, "node", 4) || !isdigit((unsigned char)entry->d_name[4]))
			continue;
		snprintf(rel, sizeof(rel), "node/%s/cpulist", entry->d_name);
		if (read_sysfs(root, rel, buf, sizeof(buf)))
			continue;
		n = topology_cpulist_count(buf);
		if (n <= 0)
			continue;	/* memory-only node */
		topo->nr_nodes++;
		if (cpulist_contains(buf, cpu))
			topo->node = n;
	}
	closedir(dir);
}

static int div_round_up(int a, int b)
{
	return b > 0 ? (a + b - 1) / b : a;
}

int topology_read(struct topology *topo, const char *root, struct error *err)
{
	char online[4096], rel[256];
	long first;

	if (!root)
		root = "";
	if (read_sysfs(root, "cpu/online", online, sizeof(online)))
		return error_set(err, EXIT_ENV, "cannot read the CPU topology: %s" SYSFS_SYSTEM
				 "/cpu/online is missing (is sysfs mounted?)", root);
	topology_assume(topo, topology_cpulist_count(online));
	if (topo->cpus <= 0)
		return error_set(err, EXIT_ENV, "cannot read the CPU topology: bad online CPU "
				 "list '%.64s' in %s" SYSFS_SYSTEM "/cpu/online", online, root);
	first = strtol(online, NULL, 10);

	topo->nr_nodes = 0;
	read_nodes(root, first, topo);
	if (topo->nr_nodes == 0) {
		topo->nr_nodes = 1;
		topo->node = topo->cpus;
	}
	topo->llc = llc_size(root, first, topo->node);

	snprintf(rel, sizeof(rel), "cpu/cpu%ld/topology/thread_siblings_list", first);
	topo->smt = count_file(root, rel, 1);
	topo->nr_cores = div_round_up(topo->cpus, topo->smt);
	topo->nr_llcs = div_round_up(topo->cpus, topo->llc);
	return 0;
}

void topology_assume(struct topology *topo, int cpus)
{
	topo->cpus = cpus;
	topo->smt = 1;
	topo->llc = cpus;
	topo->node = cpus;
	topo->nr_cores = cpus;
	topo->nr_llcs = 1;
	topo->nr_nodes = 1;
}

/*
 * Sweeps are planned for the CPUs the workloads will see, which is what
 * their own defaults (threads = CPUs) use too: the machine's topology when
 * the run may use every online CPU, otherwise a flat machine of the allowed
 * count. That covers --assume-cpus N (workload_assume_cpus()) and runs
 * restricted by taskset or cgroups alike.
 */
int topology_for_workloads(struct topology *topo, struct error *err)
{
	int allowed = workload_cpus_allowed();

	if (topology_read(topo, NULL, err))
		return -1;
	if (allowed != topo->cpus)
		topology_assume(topo, allowed);
	return 0;
}
