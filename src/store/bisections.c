// SPDX-License-Identifier: GPL-2.0
/* Bisections (schedperf bisect): store.h says what each row holds, schema.c its table. */
#include <stdlib.h>
#include <string.h>

#include "store/queries.h"
#include "util/machine.h"
#include "util/timeutil.h"

int store_bisection_add(struct store *st, const char *repo, const char *state,
			const char *doc, int64_t *id, struct error *err)
{
	char machine[256], started[40];

	machine_identity(machine, sizeof(machine));
	time_iso8601(started, sizeof(started));
	return IN_WRITE_TXN(st, err, sql_insert(st, "INSERT INTO bisections (repo, machine, "
						"state, started, doc) VALUES ($1, $2, $3, $4, $5) "
						"RETURNING id",
						SQL_ARGS(SQL_TEXT(repo), SQL_TEXT(machine),
							 SQL_TEXT(state), SQL_TEXT(started),
							 SQL_TEXT(doc)),
						id, err, "store a bisection"));
}

int store_bisection_save(struct store *st, int64_t id, const char *state, const char *doc,
			 struct error *err)
{
	return IN_WRITE_TXN(st, err, sql_exec(st, "UPDATE bisections SET state = $1, doc = "
					      "coalesce($2, doc) WHERE id = $3",
					      SQL_ARGS(SQL_TEXT(state), SQL_TEXT(doc), SQL_INT(id)),
					      err, "store a bisection's step"));
}

int store_bisection_delete(struct store *st, int64_t id, struct error *err)
{
	return IN_WRITE_TXN(st, err, sql_exec(st, "DELETE FROM bisections WHERE id = $1",
					      SQL_ARGS(SQL_INT(id)), err, "forget a bisection"));
}

#define BISECTION(t, field) SQL_FIELD(t, struct stored_bisection, field)
static const struct sql_field bisection_fields[] = {
	BISECTION(INT, id), BISECTION(TEXT, repo), BISECTION(TEXT, machine),
	BISECTION(TEXT, state), BISECTION(TEXT, started), BISECTION(TEXT, doc),
};
static const struct sql_shape bisection_shape =
	SQL_SHAPE(struct stored_bisection, bisection_fields);

/*
 * The bisections, newest first: @id's (0: any), of @repo on @machine
 * still running or interrupted (@repo NULL: any), at most @limit; in a
 * read transaction of their own.
 */
static int bisections_select(struct store *st, int64_t id, const char *repo,
			     const char *machine, int64_t limit, struct stored_bisection **out,
			     size_t *nr, struct error *err)
{
	*out = NULL;
	*nr = 0;
	return IN_READ_TXN(st, err, sql_list(st, "SELECT id, repo, machine, state, started, doc "
					     "FROM bisections WHERE ($1 = 0 OR id = $1) AND "
					     "(CAST($2 AS text) IS NULL OR (repo = $2 AND "
					     "machine = $3 AND state IN ('running', "
					     "'interrupted'))) ORDER BY id DESC LIMIT $4",
					     SQL_ARGS(SQL_INT(id), SQL_TEXT(repo),
						      SQL_TEXT(machine), SQL_INT(limit)),
					     &bisection_shape, out, nr, err,
					     "read the bisections"));
}

/* The first bisection selected: 0, 1 when none, -1. */
int store_bisection_get(struct store *st, int64_t id, const char *repo,
			struct stored_bisection *out, struct error *err)
{
	struct stored_bisection *list;
	char machine[256];
	size_t n;
	int rc;

	machine_identity(machine, sizeof(machine));
	rc = bisections_select(st, id, repo, machine, 1, &list, &n, err);
	memset(out, 0, sizeof(*out));
	if (n)		/* of one at most, none after a fault */
		*out = list[0];
	free(list);
	return rc ? -1 : n ? 0 : 1;
}

int store_bisection_list(struct store *st, struct stored_bisection **out, size_t *n,
			 struct error *err)
{
	return bisections_select(st, 0, NULL, NULL, INT64_MAX, out, n, err);
}

void stored_bisection_release(struct stored_bisection *b)
{
	sql_release(&bisection_shape, b);
}
