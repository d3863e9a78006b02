// SPDX-License-Identifier: GPL-2.0
/*
 * A CPU list (--cpus, a cpus: knob) into a cpu_set_t: its form always, the
 * CPUs this process may use only where it runs. submit's check of a job
 * (workload_checking_for_job()) runs on the submitter's machine, which is
 * not the worker's: a bigger worker may have the CPUs, so only the form is
 * checked there and the worker's run checks the rest, failing that job.
 */
#include <stdio.h>
#include <string.h>

#include "runner/cpulist.h"
#include "util/list.h"
#include "util/utf8.h"
#include "workload/workload.h"

/* @text escaped: a byte not UTF-8 or a control character shows as \xHH, never raw. */
static int bad_list(struct error *err, const char *text, const char *what, const char *why)
{
	char shown[72];

	utf8_escape(shown, sizeof(shown), text);
	if (!what)
		return error_set(err, EXIT_USAGE, "bad CPU list '%s': %s", shown, why);
	return error_set(err, EXIT_USAGE, "bad CPU list '%s' for %s: %s", shown, what, why);
}

enum { RANGE_DOWNWARDS = 1, RANGE_BEYOND };

/*
 * A cpu_set_t holds CPUs 0 to CPU_SETSIZE - 1 (1023): a CPU beyond is
 * well-formed, but no set here holds it. A dynamically sized set
 * (CPU_ALLOC) would lift that, but the set is passed by value or
 * fixed-size pointer through the runner, the iteration's pinning,
 * interference and the batch's record, so the limit is said instead.
 */
static int set_range(long first, long last, void *arg)
{
	cpu_set_t *set = arg;

	if (last < first)
		return RANGE_DOWNWARDS;
	if (last >= CPU_SETSIZE)
		return RANGE_BEYOND;
	for (long cpu = first; cpu <= last; cpu++)
		CPU_SET((int)cpu, set);
	return 0;
}

int cpulist_parse_form(const char *text, const char *what, cpu_set_t *set, struct error *err)
{
	int rc;

	CPU_ZERO(set);
	if (!*text)
		return bad_list(err, text, what, "it is empty (give CPUs like 0-3,8)");
	rc = cpulist_walk(text, set_range, set);
	if (rc == RANGE_DOWNWARDS)
		return bad_list(err, text, what, "a range goes downwards (give CPUs like 0-3,8)");
	if (rc == RANGE_BEYOND) {
		char why[128];

		snprintf(why, sizeof(why), "it names a CPU beyond the %d CPUs schedperf can "
			 "address (give CPUs 0 to %d)", CPU_SETSIZE, CPU_SETSIZE - 1);
		return bad_list(err, text, what, why);
	}
	if (rc)
		return bad_list(err, text, what, "not a CPU number or range (give CPUs like "
				"0-3,8)");
	return 0;
}

int cpulist_parse(const char *text, const char *what, cpu_set_t *set, struct error *err)
{
	cpu_set_t allowed, outside;

	if (cpulist_parse_form(text, what, set, err))
		return -1;
	if (workload_checking_for_job() || sched_getaffinity(0, sizeof(allowed), &allowed))
		return 0;
	CPU_AND(&outside, set, &allowed);
	if (!CPU_EQUAL(&outside, set))
		return bad_list(err, text, what, "it names CPUs this process may not run on "
				"(give CPUs of 'taskset -p $$' that are in "
				"/sys/devices/system/cpu/online)");
	return 0;
}
