// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "runner/cpulist.h"
#include "util/parse.h"

static int bad_list(struct error *err, const char *text, const char *why)
{
	return error_set(err, EXIT_USAGE, "bad CPU list '%.64s' for --cpus: %s "
			 "(give CPUs like 0-3,8)", text, why);
}

static int parse_cpu(const char *s, size_t len, long *cpu)
{
	char buf[16];

	if (!len || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return parse_long(buf, cpu) || *cpu < 0 || *cpu >= CPU_SETSIZE ? -1 : 0;
}

int cpulist_parse(const char *text, cpu_set_t *set, struct error *err)
{
	cpu_set_t allowed;
	const char *p = text;

	CPU_ZERO(set);
	if (!*text)
		return bad_list(err, text, "empty");
	for (;;) {
		size_t len = strcspn(p, ",");
		const char *dash = memchr(p, '-', len);
		long first, last;

		if (dash ? parse_cpu(p, (size_t)(dash - p), &first) ||
			   parse_cpu(dash + 1, len - (size_t)(dash - p) - 1, &last)
			 : parse_cpu(p, len, &first))
			return bad_list(err, text, "not a CPU number or range");
		if (!dash)
			last = first;
		if (last < first)
			return bad_list(err, text, "a range goes downwards");
		for (long cpu = first; cpu <= last; cpu++)
			CPU_SET((int)cpu, set);
		if (!p[len])
			break;
		p += len + 1;
	}
	if (sched_getaffinity(0, sizeof(allowed), &allowed) == 0) {
		cpu_set_t outside;

		CPU_AND(&outside, set, &allowed);
		if (!CPU_EQUAL(&outside, set))
			return bad_list(err, text, "it names CPUs this process may not run on "
					"(see 'taskset -p $$' and /sys/devices/system/cpu/online)");
	}
	return 0;
}
