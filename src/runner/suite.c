// SPDX-License-Identifier: GPL-2.0
/*
 * Suites for the run command: load a built-in suite or a suite file and
 * append every entry's benchmarks to the plan. The format and the built-in
 * texts live in suite_file.c and suites_builtin.c.
 */
#include "runner/suite.h"
#include "runner/suite_file.h"
#include "workload/workload.h"

int suite_plan_on(const char *name, const struct topology *topo, struct plan *plan,
		  struct error *err)
{
	struct suite suite = { 0 };
	int rc;

	/* A suite that fails to parse keeps its name for errors: release it too. */
	rc = suite_load(&suite, name, topo, err);
	for (size_t i = 0; i < suite.nr_entries && !rc; i++)
		rc = suite_entry_plan(&suite, &suite.entries[i], plan, err);
	suite_release(&suite);
	return rc;
}

int suite_plan(const char *name, struct plan *plan, struct error *err)
{
	struct topology topo;

	if (topology_for_workloads(&topo, err))
		return -1;
	return suite_plan_on(name, &topo, plan, err);
}
