// SPDX-License-Identifier: GPL-2.0
/*
 * CPU profiles on PostgreSQL: the profiles and profile_symbols tables, as
 * sqlite.c writes and reads them. A batch's profiles are read in two
 * queries, their rows and all their symbols, in the order the batch holds
 * them, rather than one query per profile: a round trip to a server costs
 * more than a row.
 */
#include <stdlib.h>

#include "store/postgres_profile.h"
#include "util/xalloc.h"

static int insert_symbols(struct pg_store *ps, int64_t profile_id,
			  const struct result_profile *profile, struct error *err)
{
	for (size_t i = 0; i < profile->nr_symbols; i++) {
		const struct result_profile_symbol *sym = &profile->symbols[i];
		struct pg_params p = { .nr = 0 };

		pg_param_int(&p, profile_id);
		pg_param_int(&p, (int64_t)i);
		pg_param_text(&p, sym->name);
		pg_param_text(&p, sym->dso);
		pg_param_int(&p, (int64_t)sym->self);
		pg_param_int(&p, (int64_t)sym->children);
		if (pg_exec(ps, "INSERT INTO profile_symbols (profile_id, position, name, dso, "
			    "self, children) VALUES ($1, $2, $3, $4, $5, $6)", &p, err,
			    "add a profile's symbol"))
			return -1;
	}
	return 0;
}

int pg_profile_insert(struct store *st, int64_t bench_id, const struct result_profile *profile,
		      struct error *err)
{
	struct pg_store *ps = pg_of(st);
	struct pg_params p = { .nr = 0 };
	PGresult *res;
	int64_t id;

	pg_param_int(&p, bench_id);
	pg_param_int(&p, profile->seq);
	pg_param_bool(&p, profile->extra);
	pg_param_text(&p, profile->event);
	pg_param_text(&p, profile->scope);
	pg_param_int(&p, (int64_t)profile->frequency);
	pg_param_int(&p, (int64_t)profile->samples);
	pg_param_int(&p, (int64_t)profile->lost);
	pg_param_int(&p, (int64_t)profile->total);
	res = pg_query(ps, "INSERT INTO profiles (benchmark_id, seq, extra, event, scope, "
		       "frequency, samples, lost, total) VALUES ($1, $2, $3, $4, $5, $6, $7, "
		       "$8, $9) RETURNING id", &p, err, "add a profile");
	if (!res)
		return -1;
	id = pg_int(res, 0, 0);
	PQclear(res);
	return insert_symbols(ps, id, profile, err);
}

/* Where each profile row went: its benchmark and its place among that one's profiles. */
struct profile_slot {
	int64_t id;
	size_t bench, index;
};

static size_t load_rows(struct result_batch *batch, const int64_t *bench_ids,
			const PGresult *res, struct profile_slot *slots)
{
	size_t b = 0, nr = 0;

	for (int i = 0; i < PQntuples(res); i++) {
		struct result_benchmark *bench;
		struct result_profile *p;

		while (b < batch->nr_benchmarks && bench_ids[b] != pg_int(res, i, 0))
			b++;
		if (b == batch->nr_benchmarks)
			break;
		bench = &batch->benchmarks[b];
		p = result_benchmark_add_profile(bench);
		p->seq = (int)pg_int(res, i, 2);
		p->extra = pg_bool(res, i, 3);
		p->event = xstrdup(pg_text(res, i, 4));
		p->scope = xstrdup(pg_text(res, i, 5));
		p->frequency = (uint64_t)pg_int(res, i, 6);
		p->samples = (uint64_t)pg_int(res, i, 7);
		p->lost = (uint64_t)pg_int(res, i, 8);
		p->total = (uint64_t)pg_int(res, i, 9);
		slots[nr++] = (struct profile_slot){ pg_int(res, i, 1), b, bench->nr_profiles - 1 };
	}
	return nr;
}

static void load_symbols(struct result_batch *batch, const struct profile_slot *slots,
			 size_t nr_slots, const PGresult *res)
{
	size_t s = 0;

	for (int i = 0; i < PQntuples(res); i++) {
		const struct profile_slot *slot;

		while (s < nr_slots && slots[s].id != pg_int(res, i, 0))
			s++;
		if (s == nr_slots)
			break;
		slot = &slots[s];
		result_profile_add_symbol(&batch->benchmarks[slot->bench].profiles[slot->index],
					  pg_text(res, i, 1), pg_text(res, i, 2),
					  (uint64_t)pg_int(res, i, 3), (uint64_t)pg_int(res, i, 4));
	}
}

int pg_profiles_load(struct pg_store *ps, struct result_batch *batch, const int64_t *bench_ids,
		     struct error *err)
{
	struct pg_params p = { .nr = 0 };
	struct profile_slot *slots;
	PGresult *res;
	size_t nr;
	int rc = 0;

	pg_param_int(&p, batch->id);
	res = pg_query(ps, "SELECT p.benchmark_id, p.id, p.seq, p.extra, p.event, p.scope, "
		       "p.frequency, p.samples, p.lost, p.total FROM profiles p "
		       "JOIN benchmarks k ON k.id = p.benchmark_id WHERE k.batch_id = $1 "
		       "ORDER BY k.position, p.extra, p.seq", &p, err, "read the profiles");
	if (!res)
		return -1;
	slots = xcalloc((size_t)PQntuples(res) + 1, sizeof(*slots));
	nr = load_rows(batch, bench_ids, res, slots);
	PQclear(res);
	res = NULL;
	if (nr)
		res = pg_query(ps, "SELECT s.profile_id, s.name, s.dso, s.self, s.children "
			       "FROM profile_symbols s JOIN profiles p ON p.id = s.profile_id "
			       "JOIN benchmarks k ON k.id = p.benchmark_id WHERE k.batch_id = $1 "
			       "ORDER BY k.position, p.extra, p.seq, s.position", &p, err,
			       "read the profiles");
	if (nr && !res)
		rc = -1;
	if (res)
		load_symbols(batch, slots, nr, res);
	PQclear(res);
	free(slots);
	return rc;
}
