// SPDX-License-Identifier: GPL-2.0
/* Comma-separated lists and the kernel's CPU lists built on them. */
#include <limits.h>
#include <string.h>

#include "util/list.h"
#include "util/parse.h"
#include "util/strbuf.h"

int comma_list_each(const char *list, list_item_fn *fn, void *arg)
{
	for (const char *p = list;; p++) {
		size_t len = strcspn(p, ",");
		int rc = fn(p, len, arg);

		if (rc)
			return rc;
		p += len;
		if (!*p)
			return 0;
	}
}

/*
 * A whole number >= 0 of @len characters at @s. Digits beyond what a long
 * holds are LONG_MAX: a CPU number all the same, which a range callback
 * refuses as beyond its set, not as malformed.
 */
static int parse_cpu(const char *s, size_t len, long *cpu)
{
	char buf[24];

	if (len && strspn(s, "0123456789") >= len) {
		*cpu = 0;
		for (size_t i = 0; i < len && *cpu < LONG_MAX; i++)
			*cpu = *cpu > (LONG_MAX - (s[i] - '0')) / 10 ? LONG_MAX :
			       *cpu * 10 + (s[i] - '0');
		return 0;
	}
	if (!len || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return parse_long(buf, cpu) || *cpu < 0 ? -1 : 0;
}

struct cpulist_walk {
	cpu_range_fn *range;
	void *arg;
};

static int cpulist_item(const char *item, size_t len, void *arg)
{
	const struct cpulist_walk *walk = arg;
	const char *dash = memchr(item, '-', len);
	long first, last;

	if (dash ? parse_cpu(item, (size_t)(dash - item), &first) ||
		   parse_cpu(dash + 1, len - (size_t)(dash - item) - 1, &last)
		 : parse_cpu(item, len, &first))
		return -1;
	return walk->range(first, dash ? last : first, walk->arg);
}

int cpulist_walk(const char *list, cpu_range_fn *range, void *arg)
{
	struct cpulist_walk walk = { range, arg };

	return comma_list_each(list, cpulist_item, &walk);
}

char *cpulist_format(const cpu_set_t *set)
{
	struct strbuf sb = STRBUF_INIT;

	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		int last = cpu;

		if (!CPU_ISSET(cpu, set))
			continue;
		while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, set))
			last++;
		strbuf_addf(&sb, sb.len ? ",%d" : "%d", cpu);
		if (last > cpu)
			strbuf_addf(&sb, "-%d", last);
		cpu = last;
	}
	return strbuf_detach(&sb);
}

static int canonical_range(long first, long last, void *arg)
{
	cpu_set_t *set = arg;

	if (last < first || last >= CPU_SETSIZE)
		return -1;
	for (long cpu = first; cpu <= last; cpu++)
		CPU_SET((int)cpu, set);
	return 0;
}

char *cpulist_canonical(const char *list)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	if (!*list || cpulist_walk(list, canonical_range, &set))
		return NULL;
	return cpulist_format(&set);
}
