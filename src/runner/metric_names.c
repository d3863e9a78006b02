// SPDX-License-Identifier: GPL-2.0
/*
 * A benchmark stores the workload's metrics, then rusage's, then the
 * monitors', under one name each. A workload metric the user names
 * (command's metric_name) could take one of the others' names; the store
 * would then refuse the benchmark after its batch had begun, leaving an
 * empty batch behind. So the names are checked here, against the tables
 * that declare the others (rusage_metrics[], the monitors' registry and
 * the metrics an opened set has), before anything is stored.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor/rusage.h"
#include "runner/metric_names.h"
#include "util/xalloc.h"

/* "metric_name 'x'", or "metric 'x' of workload W" when no parameter names it. */
static void whose(const struct workload *w, const char *name, char *buf, size_t len)
{
	if (w->metric_name_param)
		snprintf(buf, len, "%s '%.64s'", w->metric_name_param, name);
	else
		snprintf(buf, len, "metric '%.64s' of workload %s", name, w->name);
}

static int taken(const struct workload *w, const char *name, const char *by,
		 const char *what, struct error *err)
{
	char which[160];

	whose(w, name, which, sizeof(which));
	return error_set(err, EXIT_USAGE, "%s is already a metric of every benchmark%s (%s); "
			 "give another name", which, by, what);
}

/* The monitor of the registry whose metrics are named "MONITOR.KEY" as @name is. */
static const char *monitor_prefix(const char *name)
{
	const char *m;

	for (size_t i = 0; (m = monitor_name(i)); i++)
		if (!strncmp(name, m, strlen(m)) && name[strlen(m)] == '.')
			return m;
	return NULL;
}

static int check_one(const struct workload *w, const char *name,
		     const struct monitor_set *ms, struct error *err)
{
	const char *m;
	char by[160];

	if (ms) {
		for (size_t i = 0; i < monitors_nr_metrics(ms); i++)
			if (!strcmp(name, monitors_metric(ms, i)->name)) {
				snprintf(by, sizeof(by), " with --monitors %s",
					 monitors_metric_source(ms, i));
				return taken(w, name, by, monitors_metric(ms, i)->help, err);
			}
		return 0;
	}
	for (size_t i = 0; i < NR_RUSAGE_METRICS; i++)
		if (!strcmp(name, rusage_metrics[i].name))
			return taken(w, name, "", rusage_metrics[i].help, err);
	if ((m = monitor_prefix(name))) {
		whose(w, name, by, sizeof(by));
		return error_set(err, EXIT_USAGE, "%s is a name of the %s monitor's metrics "
				 "(%s.*), which a benchmark stores beside its own; give another "
				 "name", by, m, m);
	}
	return 0;
}

int metric_names_check(const struct plan_item *item, const struct monitor_set *ms,
		       struct error *err)
{
	const struct workload *w = item->workload;
	struct metric_spec *own = xcalloc(w->nr_metrics ? w->nr_metrics : 1, sizeof(*own));
	size_t nr = workload_metrics(w, item->values, own);
	int rc = 0;

	for (size_t i = 0; i < nr && !rc; i++)
		rc = check_one(w, own[i].name, ms, err);
	free(own);
	return rc;
}
