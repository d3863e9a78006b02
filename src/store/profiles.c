// SPDX-License-Identifier: GPL-2.0
/*
 * CPU profiles and their symbols (schema.c, version 8), which a load reads
 * in two queries (of the store or of each batch): the profiles, then their
 * symbols, if there is a profile (most loads have none).
 */
#include <stddef.h>
#include <stdint.h>
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

/* Where each profile went: its id, its benchmark and its place there. */
struct profile_slot {
	int64_t id;
	struct load_bench *bench;
	size_t index;
};

_Static_assert(offsetof(struct profile_slot, id) == 0, "id_index_build() reads it first");

struct profile_slots {
	struct profile_slot *slots;	/* in the order read */
	size_t nr, alloc;
	struct id_index by_id;		/* into slots, once all are read */
};

/* A profile's columns, then its benchmark's id and its own (PROFILE_COLUMNS). */
#define PROFILE(t, field) SQL_FIELD(t, struct result_profile, field)
static const struct sql_field profile_fields[] = {
	PROFILE(INT, seq), PROFILE(INT, extra), PROFILE(TEXT, event), PROFILE(TEXT, scope),
	PROFILE(INT, frequency), PROFILE(INT, samples), PROFILE(INT, lost), PROFILE(INT, total),
};
static const struct sql_shape profile_shape = SQL_SHAPE(struct result_profile, profile_fields);

static int profile_row(struct load *l, struct store_stmt *s, struct error *err)
{
	struct load_bench *b = load_bench(l, sql_int(s, 8));
	struct profile_slots *ps = l->part;
	struct result_benchmark *bench;
	struct result_profile *p;

	if (!b)
		return 0;
	bench = load_benchmark(l, b);
	p = result_benchmark_add_profile(bench);
	sql_read(s, &profile_shape, p);
	if (ps->nr == ps->alloc) {
		ps->alloc = ps->alloc ? 2 * ps->alloc : 16;
		ps->slots = xreallocarray(ps->slots, ps->alloc, sizeof(*ps->slots));
	}
	ps->slots[ps->nr++] = (struct profile_slot){ sql_int(s, 9), b, bench->nr_profiles - 1 };
	return 0;
}

/* The profile of id @id, NULL when it is not one read; a profile's symbols come together. */
static struct result_profile *profile_of(struct load *l, struct profile_slots *ps, int64_t id)
{
	size_t at = id_index_find(&ps->by_id, id);

	if (at == SIZE_MAX)
		return NULL;
	return &load_benchmark(l, ps->slots[at].bench)->profiles[ps->slots[at].index];
}

static int symbol_row(struct load *l, struct store_stmt *s, struct error *err)
{
	struct result_profile *p = profile_of(l, l->part, sql_int(s, 0));

	if (p)
		result_profile_add_symbol(p, sql_text(s, 1), sql_text(s, 2),
					  (uint64_t)sql_int(s, 3), (uint64_t)sql_int(s, 4));
	return 0;
}

#define PROFILE_COLUMNS "SELECT p.seq, p.extra, p.event, p.scope, p.frequency, p.samples, " \
	"p.lost, p.total, p.benchmark_id, p.id FROM "
#define SYMBOL_COLUMNS "SELECT s.profile_id, s.name, s.dso, s.self, s.children FROM "

int profiles_read(struct load *l, struct error *err)
{
	struct profile_slots ps = { .nr = 0 };
	int rc;

	l->part = &ps;
	rc = load_rows(l, PROFILE_COLUMNS "profiles p ORDER BY p.benchmark_id, p.extra, p.seq",
		       PROFILE_COLUMNS "benchmarks k JOIN profiles p ON p.benchmark_id = k.id "
		       "WHERE k.batch_id = $1 ORDER BY k.position, k.id, p.extra, p.seq",
		       profile_row, err);
	if (!rc && ps.nr) {
		id_index_build(&ps.by_id, ps.slots, ps.nr, sizeof(*ps.slots));
		rc = load_rows(l, SYMBOL_COLUMNS "profile_symbols s ORDER BY s.profile_id, "
			       "s.position",
			       SYMBOL_COLUMNS "benchmarks k JOIN profiles p ON "
			       "p.benchmark_id = k.id JOIN profile_symbols s ON s.profile_id = "
			       "p.id WHERE k.batch_id = $1 ORDER BY s.profile_id, s.position",
			       symbol_row, err);
	}
	free(ps.slots);
	free(ps.by_id.ids);
	l->part = NULL;
	return rc;
}
