// SPDX-License-Identifier: GPL-2.0
/* The store's series under a command's filters (series.h). */
#include <string.h>

#include "analysis/machines.h"
#include "analysis/series.h"
#include "store/store.h"

static bool listed(const char *const *list)
{
	return list && *list;
}

int series_load(const char *db, const char *machine, const struct history_options *opts,
		const char *who, struct result_set *set, struct history *h, struct error *err)
{
	struct store *st = NULL;
	int rc;

	memset(h, 0, sizeof(*h));
	if (store_open_existing(db, &st, err))
		return -1;
	rc = store_load(st, NULL, STORE_SAMPLES, set, err);
	store_close(st);
	if (rc)
		return -1;
	if (machine && !machines_keep_matching(set, machine))
		return error_set(err, EXIT_USAGE, "%s: no stored batch ran on a machine matching "
				 "'%.64s' (see 'schedperf runs' for the machines)", who, machine);
	history_build(h, set, opts);
	if (!h->nr_series && (listed(opts->workloads) || listed(opts->metrics) ||
			      listed(opts->params)))
		return error_set(err, EXIT_USAGE, "%s: no stored benchmark matches --workload, "
				 "--metric or -p (see 'schedperf runs' and 'schedperf show RUN')",
				 who);
	return 0;
}
