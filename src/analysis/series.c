// SPDX-License-Identifier: GPL-2.0
/* The store's series under a command's filters (series.h). */
#include <string.h>

#include "analysis/machines.h"
#include "analysis/series.h"
#include "store/store.h"
#include "util/utf8.h"

static bool listed(const char *const *list)
{
	return list && *list;
}

/*
 * The first of @names no series has (@metric: a metric's name, else a
 * workload's): one misspelt name of a list must not pass for "no change".
 */
static const char *unmatched(const struct history *h, const char *const *names, bool metric)
{
	for (; names && *names; names++) {
		size_t i = 0;

		while (i < h->nr_series &&
		       !utf8_names(*names, metric ? h->series[i].metric->name :
				   h->series[i].workload))
			i++;
		if (i == h->nr_series)
			return *names;
	}
	return NULL;
}

/* What series_load() hands store_load_each(). */
struct series_read {
	const char *machine, *who;
	const struct history_options *opts;
	struct history_builder *builder;
};

static int series_chosen(struct result_set *set, void *arg, struct error *err)
{
	struct series_read *r = arg;

	if (machines_select(set, r->machine, r->who, err))
		return -1;
	r->builder = history_begin(set, r->opts);
	return 0;
}

static int series_batch(struct result_set *set, size_t at, void *arg, struct error *err)
{
	struct series_read *r = arg;

	history_add_batch(r->builder, at);
	return 0;
}

/*
 * A batch at a time: the series keep a batch's samples, not its
 * benchmarks, metrics and their names, which took five times the room of
 * the samples (half a gigabyte for 1,000,000 points of 3 samples).
 */
int series_load(const char *db, const char *machine, const struct history_options *opts,
		const char *who, struct result_set *set, struct history *h, struct error *err)
{
	struct series_read r = { machine, who, opts, NULL };
	const struct store_each each = { series_chosen, series_batch, &r };
	struct store *st = NULL;
	int rc;

	memset(h, 0, sizeof(*h));
	if (store_open_existing(db, &st, err))
		return -1;
	rc = store_load_each(st, STORE_SAMPLES, set, &each, err);
	store_close(st);
	if (rc) {
		history_abort(r.builder);
		return -1;
	}
	history_end(r.builder, h);
	if (!h->nr_series && (listed(opts->workloads) || listed(opts->metrics) ||
			      listed(opts->params)))
		return error_set(err, EXIT_USAGE, "%s: no stored %s --workload, --metric or -p%s "
				 "(see 'schedperf runs' and 'schedperf show RUN')", who,
				 h->nr_unsampled ? "series matches" : "benchmark matches",
				 h->nr_unsampled ? ": no benchmark they choose has samples" : "");
	for (int metric = 0; metric < 2; metric++) {
		const char *missing = unmatched(h, metric ? opts->metrics : opts->workloads,
						metric);

		if (missing)
			return error_set(err, EXIT_USAGE, "%s: %s '%.64s' is in none of the stored "
					 "series (see 'schedperf runs' and 'schedperf show RUN')",
					 who, metric ? "--metric" : "--workload", missing);
	}
	return 0;
}
