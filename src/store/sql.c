// SPDX-License-Identifier: GPL-2.0
/* Statements run with their values as one list (sql.h), over any driver. */
#include <stdio.h>
#include <string.h>

#include "store/sql.h"
#include "util/xalloc.h"

static void bind(struct store_stmt *s, int i, const struct sql_arg *a)
{
	const struct store_driver *d = s->driver;

	switch (a->type) {
	case SQL_ARG_INT:
		d->bind_int(s, i, a->i);
		break;
	case SQL_ARG_REAL:
		d->bind_real(s, i, a->r);
		break;
	case SQL_ARG_TEXT:
		d->bind_text(s, i, a->s);
		break;
	}
}

struct store_stmt *sql_query(struct store *st, const char *sql, const struct sql_arg *args,
			     size_t nr, struct error *err)
{
	struct store_stmt *s = st->driver->prepare(st, sql, err);

	for (size_t i = 0; s && i < nr; i++)
		bind(s, (int)i + 1, &args[i]);
	return s;
}

int sql_exec(struct store *st, const char *sql, const struct sql_arg *args, size_t nr,
	     struct error *err, const char *what)
{
	struct store_stmt *s = sql_query(st, sql, args, nr, err);
	int rc;

	if (!s)
		return -1;
	while ((rc = sql_step(s, err, what)) > 0)
		;
	sql_done(s);
	return rc;
}

int sql_row(struct store *st, const char *sql, const struct sql_arg *args, size_t nr,
	    struct store_stmt **row, struct error *err, const char *what)
{
	struct store_stmt *s = sql_query(st, sql, args, nr, err);
	int rc;

	*row = NULL;
	if (!s)
		return -1;
	rc = sql_step(s, err, what);
	if (rc > 0)
		*row = s;
	else
		sql_done(s);
	return rc;
}

int sql_id(struct store *st, const char *sql, const struct sql_arg *args, size_t nr,
	   int64_t *id, struct error *err, const char *what)
{
	struct store_stmt *s;
	int rc = sql_row(st, sql, args, nr, &s, err, what);

	if (rc > 0) {
		*id = sql_int(s, 0);
		sql_done(s);
	}
	return rc;
}

int sql_insert(struct store *st, const char *sql, const struct sql_arg *args, size_t nr,
	       int64_t *id, struct error *err, const char *what)
{
	int rc = sql_id(st, sql, args, nr, id, err, what);

	if (!rc)
		return error_set(err, EXIT_INTERNAL, "cannot %s in store '%s': the insert "
				 "returned no id", what, st->location);
	return rc < 0 ? -1 : 0;
}

int sql_end_write(struct store *st, int rc, struct error *err)
{
	if (rc) {
		st->driver->rollback(st);
		return -1;
	}
	return st->driver->commit(st, err);
}

char *sql_strdup(struct store_stmt *s, int col)
{
	return xstrdup(sql_text(s, col));
}

char *sql_strdup_or_null(struct store_stmt *s, int col)
{
	return sql_null(s, col) ? NULL : sql_strdup(s, col);
}

void sql_process(struct store_stmt *s, int boot, int pid, struct process_id *p)
{
	memset(p, 0, sizeof(*p));
	if (sql_null(s, pid))
		return;
	snprintf(p->boot, sizeof(p->boot), "%s", sql_text(s, boot));
	p->pid = sql_int(s, pid);
	p->start = (uint64_t)sql_int(s, pid + 1);
}
