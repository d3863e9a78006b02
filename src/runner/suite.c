// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "runner/suite.h"

struct suite_entry {
	const char *workload;
	const char *params[8];		/* NULL-terminated */
};

struct suite {
	const char *name;
	const struct suite_entry *entries;
};

/*
 * quick: the two workloads of seed 001 at sizes that finish in about a
 * minute on 2 CPUs, default 5 iterations: pipe free and pinned to one CPU
 * (perf bench sched pipe; `taskset 1`), messaging over sockets and pipes
 * with processes and threads (perf bench sched messaging / hackbench).
 */
static const struct suite_entry quick_entries[] = {
	{ "pipe", { "loops=100000", "cpus=any,same", NULL } },
	{ "messaging", { "groups=4", "loops=200", "ipc=socket,pipe", NULL } },
	{ "messaging", { "groups=4", "loops=200", "mode=thread", NULL } },
	{ NULL, { NULL } },
};

static const struct suite suites[] = {
	{ "quick", quick_entries },
	{ NULL, NULL },
};

const char *suite_names(void)
{
	return "quick";
}

int suite_plan(const char *name, struct plan *plan, struct error *err)
{
	const struct suite *s;

	for (s = suites; s->name && strcmp(s->name, name); s++)
		;
	if (!s->name)
		return error_set(err, EXIT_USAGE, "unknown suite '%.64s': the built-in suites are "
				 "%s (give --suite quick)", name, suite_names());
	for (const struct suite_entry *e = s->entries; e->workload; e++) {
		const struct workload *w = workload_find(e->workload);
		size_t n = 0;

		if (!w)
			return error_set(err, EXIT_INTERNAL, "suite %s names unknown workload %s",
					 name, e->workload);
		while (e->params[n])
			n++;
		if (plan_add(plan, w, (char *const *)e->params, n, err))
			return -1;
	}
	return 0;
}
