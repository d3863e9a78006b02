// SPDX-License-Identifier: GPL-2.0
/*
 * CPU profiles (the profile monitor): a profile belongs to a benchmark and
 * the iteration it was taken in, or to an extra iteration run only to be
 * profiled; its symbols, in order, each with its self and children weight.
 * A batch's profiles are read in two queries, their rows and all their
 * symbols (most batches have none, and then that is one query that
 * returns nothing).
 */
#include <stdlib.h>

#include "store/queries.h"
#include "util/xalloc.h"

int profile_insert(struct store *st, int64_t bench_id, const struct result_profile *p,
		   struct error *err)
{
	int64_t id;
	int rc;

	rc = sql_insert(st, "INSERT INTO profiles (benchmark_id, seq, extra, event, scope, "
			"frequency, samples, lost, total) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, "
			"$9) RETURNING id",
			SQL_ARGS(SQL_INT(bench_id), SQL_INT(p->seq), SQL_INT(p->extra),
				 SQL_TEXT(p->event), SQL_TEXT(p->scope), SQL_INT(p->frequency),
				 SQL_INT(p->samples), SQL_INT(p->lost), SQL_INT(p->total)),
			&id, err, "add a profile");
	for (size_t i = 0; i < p->nr_symbols && !rc; i++) {
		const struct result_profile_symbol *sym = &p->symbols[i];

		rc = sql_exec(st, "INSERT INTO profile_symbols (profile_id, position, name, dso, "
			      "self, children) VALUES ($1, $2, $3, $4, $5, $6)",
			      SQL_ARGS(SQL_INT(id), SQL_INT(i), SQL_TEXT(sym->name),
				       SQL_TEXT(sym->dso), SQL_INT(sym->self),
				       SQL_INT(sym->children)),
			      err, "add a profile's symbol");
	}
	return rc;
}

/* Where each profile went: its id, and the profile it was read into. */
struct profile_slots {
	int64_t *ids;
	struct result_profile **profiles;
	size_t nr, alloc, at;
};

static int profile_row(struct batch_rows *r, struct store_stmt *s, struct error *err)
{
	struct result_benchmark *bench = batch_rows_benchmark(r, s, 0);
	struct profile_slots *slots = r->part;
	struct result_profile *p;

	if (!bench)
		return 0;
	p = result_benchmark_add_profile(bench);
	p->seq = (int)sql_int(s, 2);
	p->extra = sql_int(s, 3);
	p->event = sql_strdup(s, 4);
	p->scope = sql_strdup(s, 5);
	p->frequency = (uint64_t)sql_int(s, 6);
	p->samples = (uint64_t)sql_int(s, 7);
	p->lost = (uint64_t)sql_int(s, 8);
	p->total = (uint64_t)sql_int(s, 9);
	if (slots->nr == slots->alloc) {
		slots->alloc = slots->alloc ? 2 * slots->alloc : 16;
		slots->ids = xreallocarray(slots->ids, slots->alloc, sizeof(*slots->ids));
		slots->profiles = xreallocarray(slots->profiles, slots->alloc,
						sizeof(*slots->profiles));
	}
	slots->ids[slots->nr++] = sql_int(s, 1);
	return 0;
}

static int symbol_row(struct batch_rows *r, struct store_stmt *s, struct error *err)
{
	struct profile_slots *slots = r->part;
	int64_t id = sql_int(s, 0);

	while (slots->at < slots->nr && slots->ids[slots->at] != id)
		slots->at++;
	if (slots->at < slots->nr)
		result_profile_add_symbol(slots->profiles[slots->at], sql_text(s, 1),
					  sql_text(s, 2), (uint64_t)sql_int(s, 3),
					  (uint64_t)sql_int(s, 4));
	return 0;
}

int profiles_read(struct batch_rows *r, struct error *err)
{
	struct profile_slots slots = { .nr = 0 };
	size_t k = 0;
	int rc;

	r->part = &slots;
	rc = batch_rows_each(r, "SELECT p.benchmark_id, p.id, p.seq, p.extra, p.event, p.scope, "
			     "p.frequency, p.samples, p.lost, p.total FROM benchmarks k JOIN "
			     "profiles p ON p.benchmark_id = k.id WHERE k.batch_id = $1 "
			     "ORDER BY k.position, p.extra, p.seq", profile_row, err);
	/* The batch's profiles, in the order read, now that none moves any more. */
	for (size_t b = 0; b < r->batch->nr_benchmarks; b++)
		for (size_t i = 0; i < r->batch->benchmarks[b].nr_profiles && k < slots.nr; i++)
			slots.profiles[k++] = &r->batch->benchmarks[b].profiles[i];
	if (!rc && slots.nr)
		rc = batch_rows_each(r, "SELECT s.profile_id, s.name, s.dso, s.self, s.children "
				     "FROM benchmarks k JOIN profiles p ON p.benchmark_id = k.id "
				     "JOIN profile_symbols s ON s.profile_id = p.id "
				     "WHERE k.batch_id = $1 "
				     "ORDER BY k.position, p.extra, p.seq, s.position", symbol_row, err);
	free(slots.ids);
	free(slots.profiles);
	r->part = NULL;
	return rc;
}
