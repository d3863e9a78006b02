// SPDX-License-Identifier: GPL-2.0
/* --cpus: a CPU list into a cpu_set_t, refused when it names CPUs we may not use. */
#include <string.h>

#include "runner/cpulist.h"
#include "util/list.h"

static int bad_list(struct error *err, const char *text, const char *why)
{
	return error_set(err, EXIT_USAGE, "bad CPU list '%.64s' for --cpus: %s "
			 "(give CPUs like 0-3,8)", text, why);
}

enum { RANGE_DOWNWARDS = 1 };

static int set_range(long first, long last, void *arg)
{
	cpu_set_t *set = arg;

	if (last >= CPU_SETSIZE)
		return -1;	/* no such CPU: as malformed */
	if (last < first)
		return RANGE_DOWNWARDS;
	for (long cpu = first; cpu <= last; cpu++)
		CPU_SET((int)cpu, set);
	return 0;
}

int cpulist_parse(const char *text, cpu_set_t *set, struct error *err)
{
	cpu_set_t allowed;
	int rc;

	CPU_ZERO(set);
	if (!*text)
		return bad_list(err, text, "empty");
	rc = cpulist_walk(text, set_range, set);
	if (rc == RANGE_DOWNWARDS)
		return bad_list(err, text, "a range goes downwards");
	if (rc)
		return bad_list(err, text, "not a CPU number or range");
	if (sched_getaffinity(0, sizeof(allowed), &allowed) == 0) {
		cpu_set_t outside;

		CPU_AND(&outside, set, &allowed);
		if (!CPU_EQUAL(&outside, set))
			return bad_list(err, text, "it names CPUs this process may not run on "
					"(see 'taskset -p $$' and /sys/devices/system/cpu/online)");
	}
	return 0;
}
