/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_RUNNER_SWEEP_H
#define SCHEDPERF_RUNNER_SWEEP_H

#include <stddef.h>

#include "monitor/topology.h"
#include "util/error.h"

struct workload;

/*
 * Sweep generators: the thread and group counts that MMTests and LKP run a
 * scheduler benchmark at, computed for a given machine.
 *
 *   pow2[:MIN..MAX]      MIN, 2 MIN, 4 MIN, ... up to MAX; MAX included
 *   stride[:MIN..MAX]    MMTests' large stride (2 5 8 12 21 30 48 79 ...)
 *   topology[:MIN..MAX]  CPUs per SMT core, LLC, node, machine, 2x, 4x
 *   P%[,Q%...]           LKP's percent of CPUs: trunc(P x CPUs / 100)
 *
 * MIN and MAX are whole numbers, "Nx" (N times the CPUs) or "P%"; the range
 * defaults to 1..4x. Points are sorted and without duplicates, except for
 * percent lists which keep the order given.
 */

#define SWEEP_MAX_POINTS 256

struct sweep_points {
	long value[SWEEP_MAX_POINTS];
	size_t nr;
};

/* The points of @gen ("stride:2..4x", without "KEY=") on @topo. */
int sweep_points(const char *gen, const struct topology *topo,
		 struct sweep_points *out, struct error *err);

/*
 * Expand "KEY=GEN[:MIN..MAX]" (the --sweep argument) into the assignment
 * "KEY=v1,v2,..." that plan_add() understands; the caller frees it.
 * Returns NULL with @err (EXIT_USAGE) filled on a bad generator or range.
 */
char *sweep_expand(const char *spec, const struct topology *topo, struct error *err);

/*
 * 0 when the parameter of @w that sweep @spec ("KEY=GEN...") sets takes a
 * count (or is none of @w's: validation names it later), else the usage
 * error: a sweep makes counts, and a choice or text is given as a list.
 */
int sweep_check_key(const struct workload *w, const char *spec, struct error *err);

/*
 * One value that may be relative to the machine: "N", "Nx" (N times @cpus)
 * or "P%" (LKP's nr_threads: trunc(P x @cpus / 100), P may be a decimal).
 * A relative value that comes out below 1 is an error, as no count of tasks
 * can be 0 of a machine; its message names where the value was given,
 * @where ("parameter 'threads'", "sweep 'threads=pow2:1..4x'").
 */
int sweep_resolve_value(const char *text, int cpus, const char *where, long *out,
			struct error *err);

/*
 * Copy "KEY=V1,V2,..." resolving each value written as "P%" or "Nx" (as in
 * `-p threads=200%`); other values are kept as written, so that words such
 * as "socket" pass through. NULL with @err filled on a bad percent.
 */
char *sweep_resolve_assignment(const char *assignment, int cpus, struct error *err);

#endif
