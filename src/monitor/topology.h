/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_MONITOR_TOPOLOGY_H
#define SCHEDPERF_MONITOR_TOPOLOGY_H

#include "util/error.h"

/*
 * The shape of the machine as the scheduler sees it: how many CPUs share a
 * core (SMT siblings), a last-level cache and a NUMA node. Sweeps walk these
 * levels (MMTests' topology walk) because that is where scheduler behaviour
 * changes: a task more than a level holds must spill to the next one.
 *
 * The sizes are those of the first online CPU's groups; machines whose
 * groups differ in size (hybrid cores, offlined siblings) are described by
 * their first group, which is what the walk needs.
 */
struct topology {
	int cpus;		/* online CPUs */
	int smt;		/* CPUs per core: 1 without SMT */
	int llc;		/* CPUs sharing the first CPU's last-level cache */
	int node;		/* CPUs in the first CPU's NUMA node */
	int nr_cores;		/* cpus / smt, rounded up */
	int nr_llcs;
	int nr_nodes;
};

/*
 * Fill @topo from sysfs under @root ("" or NULL for the real /sys; tests
 * give a directory holding a fake sys/devices/system tree). Missing cache
 * or node information falls back to the next level up (no cache directory:
 * the LLC is the node; no node directory: the node is the machine), since
 * VMs and some architectures do not export them. Fails with EXIT_ENV only
 * when the online CPU list itself cannot be read.
 */
int topology_read(struct topology *topo, const char *root, struct error *err);

/* A flat machine of @cpus CPUs, for --assume-cpus: no SMT, one LLC, one node. */
void topology_assume(struct topology *topo, int cpus);

/* Count the CPUs in a cpulist such as "0-3,8,10-11"; -1 when malformed. */
int topology_cpulist_count(const char *list);

/*
 * The topology the run's workloads will see: this machine's, or a flat one
 * of workload_cpus_allowed() CPUs when that differs (--assume-cpus, taskset).
 */
int topology_for_workloads(struct topology *topo, struct error *err);

#endif
