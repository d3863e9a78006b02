// SPDX-License-Identifier: GPL-2.0
/*
 * A new run's plan from what its command line names (plan_build.h): the
 * benchmarks of a suite, or of a workload's -p and --sweep values, then
 * settled - counts, timeouts, monitors and order fixed - as the batch
 * stores it, which --resume then reads back whole (plan.c).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "monitor/monitor.h"
#include "monitor/topology.h"
#include "runner/plan_build.h"
#include "runner/plan_given.h"
#include "runner/runner.h"
#include "runner/suite.h"
#include "runner/sweep.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/*
 * -p values may be percents of the CPUs or multiples (threads=1600%, 2x) and
 * --sweep generates lists: both become plain "KEY=V1,V2" assignments here,
 * the -p ones first and in their order, as plan_build()'s plan_given names them.
 */
static int expand_assignments(const struct plan_request *req, char **out, size_t *nr,
			      int *cpus, struct error *err)
{
	struct topology topo;

	*nr = 0;
	if (topology_for_workloads(&topo, err))
		return -1;
	*cpus = topo.cpus;
	for (size_t i = 0; i < req->nr_params; i++) {
		if (!(out[*nr] = sweep_resolve_assignment(req->params[i], topo.cpus, err)))
			return -1;
		(*nr)++;
	}
	for (size_t i = 0; i < req->nr_sweeps; i++) {
		if (!(out[*nr] = sweep_expand(req->sweeps[i], &topo, err)))
			return -1;
		(*nr)++;
	}
	return 0;
}

int plan_build(struct plan *plan, const struct plan_request *req, struct error *err)
{
	const struct workload *w;
	struct plan_given given = { req->params, req->nr_params, 0 };
	char **assignments;
	size_t nr = 0;
	int rc;

	if (req->suite)
		return suite_plan(req->suite, plan, err);
	w = workload_find(req->workload);
	if (!w)
		return error_set(err, EXIT_USAGE, "unknown workload '%.64s': not one of "
				 "schedperf's workloads (see 'schedperf list')", req->workload);
	for (size_t i = 0; i < req->nr_sweeps; i++)
		if (sweep_check_key(w, req->sweeps[i], err))
			return -1;
	assignments = xcalloc(req->nr_params + req->nr_sweeps + 1, sizeof(char *));
	rc = expand_assignments(req, assignments, &nr, &given.cpus, err);
	if (!rc)
		rc = plan_add_given(plan, w, assignments, nr, &given, err);
	for (size_t i = 0; i < nr; i++)
		free(assignments[i]);
	free(assignments);
	return rc;
}

/*
 * --profile-iterations adds the profile monitor to whatever --monitors
 * chose, unless it names one (profile or profile-system).
 */
static char *monitors_with_profile(const char *list)
{
	struct strbuf sb = STRBUF_INIT;

	if (!list) {
		strbuf_addstr(&sb, MONITORS_DEFAULT ",profile");
	} else if (!strcmp(list, "all")) {
		for (size_t i = 0; monitor_name(i); i++)
			if (strcmp(monitor_name(i), "profile-system"))
				strbuf_addf(&sb, "%s%s", sb.len ? "," : "", monitor_name(i));
	} else if (!*list || !strcmp(list, "none")) {
		strbuf_addstr(&sb, "profile");
	} else {
		strbuf_addstr(&sb, list);
		if (!monitors_list_profiles(list))
			strbuf_addstr(&sb, ",profile");
	}
	return strbuf_detach(&sb);
}

void plan_settle(struct plan *plan, struct runner_options *opt)
{
	/* -i, --warmup and --timeout where a benchmark has none of its own */
	if (plan->iterations)
		opt->iterations = plan->iterations;
	opt->warmup = plan->warmup;
	opt->timeout = plan->timeout;
	/* every benchmark's iterations and warm-ups fixed, so that the stored plan says all */
	for (size_t i = 0; i < plan->nr_items; i++) {
		struct plan_item *item = &plan->items[i];

		item->iterations = runner_item_iterations(item, opt);
		item->warmup = runner_item_warmup(item, opt);
		if (item->timeout < 0 && opt->timeout > 0)
			item->timeout = opt->timeout;
	}
	if (plan->profile_iterations) {
		char *monitors = monitors_with_profile(plan->monitors);

		free(plan->monitors);
		plan->monitors = monitors;
	}
	if (plan->shuffle)
		plan_shuffle(plan, (unsigned long)time(NULL) ^ (unsigned long)getpid());
}
