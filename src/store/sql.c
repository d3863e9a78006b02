// SPDX-License-Identifier: GPL-2.0
/* Statements run with their values as one list (sql.h), over any driver. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/sql.h"
#include "util/strbuf.h"
#include "util/utf8.h"
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

int sql_id(struct store *st, const char *sql, const struct sql_arg *args, size_t nr,
	   int64_t *id, struct error *err, const char *what)
{
	SQL_SCALAR_SHAPE(id_shape, INT, int64_t);

	return sql_one(st, sql, args, nr, &id_shape, id, err, what);
}

/* A process identity in columns @boot, @boot + 1 (the pid: NULL for none), @boot + 2. */
static void sql_process(struct store_stmt *s, int boot, struct process_id *p)
{
	memset(p, 0, sizeof(*p));
	if (sql_null(s, boot + 1))
		return;
	snprintf(p->boot, sizeof(p->boot), "%s", sql_text(s, boot));
	p->pid = sql_int(s, boot + 1);
	p->start = (uint64_t)sql_int(s, boot + 2);
}

void sql_read(struct store_stmt *s, const struct sql_shape *shape, void *item)
{
	int col = 0;

	for (const struct sql_field *f = shape->fields; f < shape->fields + shape->nr; f++) {
		char *at = (char *)item + f->offset;
		int64_t v;

		switch (f->type) {
		case SQL_F_INT:
			v = sql_int(s, col++);
			if (f->size == sizeof(bool))
				*(bool *)at = v;
			else if (f->size == sizeof(int))
				*(int *)at = (int)v;
			else
				memcpy(at, &v, sizeof(v));
			break;
		case SQL_F_TEXT:
			*(char **)at = sql_strdup(s, col++);
			break;
		case SQL_F_TEXT_OR_NULL:
			*(char **)at = sql_null(s, col) ? NULL : sql_strdup(s, col);
			col++;
			break;
		case SQL_F_QUOTED:
			*(char **)at = utf8_unquoted(sql_text(s, col++));
			break;
		case SQL_F_PROCESS:
			sql_process(s, col, (struct process_id *)at);
			col += 3;
			break;
		}
	}
}

void sql_release(const struct sql_shape *shape, void *item)
{
	for (const struct sql_field *f = shape->fields; f < shape->fields + shape->nr; f++)
		if (f->type != SQL_F_INT && f->type != SQL_F_PROCESS)
			free(*(char **)((char *)item + f->offset));
	memset(item, 0, shape->size);
}

void sql_release_list(const struct sql_shape *shape, void *list, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		sql_release(shape, (char *)list + i * shape->size);
	free(list);
}

int sql_one(struct store *st, const char *sql, const struct sql_arg *args, size_t nr,
	    const struct sql_shape *shape, void *item, struct error *err, const char *what)
{
	struct store_stmt *s = sql_query(st, sql, args, nr, err);
	int rc = s ? sql_step(s, err, what) : -1;

	if (rc > 0)
		sql_read(s, shape, item);
	sql_done(s);
	return rc;
}

int sql_list(struct store *st, const char *sql, const struct sql_arg *args, size_t nr_args,
	     const struct sql_shape *shape, void *list, size_t *nr, struct error *err,
	     const char *what)
{
	struct store_stmt *s = sql_query(st, sql, args, nr_args, err);
	char *items = NULL;
	int rc = -1;

	*nr = 0;
	while (s && (rc = sql_step(s, err, what)) > 0) {
		items = xreallocarray(items, *nr + 1, shape->size);
		memset(items + *nr * shape->size, 0, shape->size);
		sql_read(s, shape, items + (*nr)++ * shape->size);
	}
	sql_done(s);
	if (rc < 0) {
		sql_release_list(shape, items, *nr);
		items = NULL;
		*nr = 0;
	}
	/*
	 * *@list is the caller's pointer to its own element type: copied in,
	 * not stored through a char ** that would alias it.
	 */
	memcpy(list, &items, sizeof(items));
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

int sql_check_pages(struct store *st, const struct sql_check *check, char *buf, size_t len,
		    struct error *err)
{
	struct sql_arg args[SQL_CHECK_KEYS + 1] = { SQL_INT(0), SQL_INT(0) };
	int rc = 0, rows = check->page;

	args[check->nr_keys] = SQL_INT(check->page);
	if (sql_begin(st, TXN_READ, err))
		return -1;
	while (!rc && !buf[0] && rows == check->page) {
		struct store_stmt *s = sql_query(st, check->sql, args, check->nr_keys + 1, err);

		if (!s)
			rc = -1;
		for (rows = 0; s && !buf[0] && (rc = sql_step(s, err, "check the store")) > 0;
		     rows++)
			check->row(s, args, buf, len);
		rc = rc < 0 ? -1 : 0;
		sql_done(s);
	}
	sql_end_read(st);
	return rc;
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

/*
 * The text of @rows rows of @insert: "INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4)
 * RETURNING ...", or with @give_ids "INSERT INTO t (id, a, b) VALUES ($1, $2, $3), ...".
 */
static char *insert_text(const struct sql_insert *insert, bool give_ids, int rows)
{
	struct strbuf sb = STRBUF_INIT;
	int n = 0, width = insert->columns + give_ids;

	strbuf_addf(&sb, "INSERT INTO %s (%s%s) VALUES ", insert->table, give_ids ? "id, " : "",
		    insert->names);
	for (int r = 0; r < rows; r++) {
		strbuf_addf(&sb, "%s(", r ? ", " : "");
		for (int c = 0; c < width; c++)
			strbuf_addf(&sb, "%s$%d", c ? ", " : "", ++n);
		strbuf_addf(&sb, ")");
	}
	if (insert->tail && !give_ids)
		strbuf_addf(&sb, " %s", insert->tail);
	return strbuf_detach(&sb);
}

void sql_rows_init(struct sql_rows *r, struct store *st, struct sql_insert *insert,
		   int (*returned)(void *ctx, size_t row, int64_t id, struct error *err),
		   void *ctx, const char *what)
{
	bool give_ids = returned && insert->every_row && st->driver->next_id_query;

	if (!insert->text[give_ids][0]) {
		insert->text[give_ids][0] = insert_text(insert, give_ids, SQL_ROWS);
		insert->text[give_ids][1] = insert_text(insert, give_ids, 1);
	}
	if (give_ids && !insert->next_id)
		insert->next_id = st->driver->next_id_query(insert->table);
	*r = (struct sql_rows){ .st = st, .insert = insert, .returned = returned, .ctx = ctx,
				.what = what, .give_ids = give_ids,
				.width = (size_t)insert->columns + give_ids };
	r->args = xcalloc(SQL_ROWS * r->width, sizeof(*r->args));
}

/* Whether the returned row on @s is row @row of the chunk: its key columns are the row's. */
static bool is_row(const struct sql_rows *r, struct store_stmt *s, size_t row)
{
	const struct sql_arg *args = r->args + row * r->width + r->give_ids;

	for (int k = 0; k < r->insert->key; k++)
		if (sql_int(s, k + 1) != args[k].i)
			return false;
	return true;
}

/* The returned row on @s, the @nth of rows [@first, @first + @rows) sent, to r->returned. */
static int returned_row(struct sql_rows *r, struct store_stmt *s, size_t first, size_t rows,
			size_t nth, struct error *err)
{
	size_t row = first + nth % rows;

	for (size_t tried = 0; !is_row(r, s, row); row = first + (row - first + 1) % rows)
		if (++tried == rows)
			return error_set(err, EXIT_INTERNAL, "cannot %s in store '%s': a row "
					 "returned matches none inserted", r->what,
					 r->st->location);
	return r->returned(r->ctx, row, sql_int(s, 0), err);
}

/* Rows [@first, @first + @rows) of the chunk in one statement of @sql. */
static int send_rows(struct sql_rows *r, const char *sql, size_t first, size_t rows,
		     struct error *err)
{
	struct store_stmt *s = sql_query(r->st, sql, r->args + first * r->width,
					 rows * r->width, err);
	size_t nth = 0;
	int rc;

	if (!s)
		return -1;
	while ((rc = sql_step(s, err, r->what)) > 0)
		if (r->returned && returned_row(r, s, first, rows, nth++, err)) {
			rc = -1;
			break;
		}
	sql_done(s);
	return rc;
}

/*
 * The ids of the chunk's rows, the table's next ones, as their first
 * values; r->returned has them once the rows are in. An id taken since
 * is refused by the table's key: never a row given another's id.
 */
static int give_ids(struct sql_rows *r, struct error *err)
{
	int64_t id;
	int rc = sql_id(r->st, r->insert->next_id, SQL_NO_ARGS, &id, err, r->what);

	if (rc == 0)
		error_set(err, EXIT_INTERNAL, "cannot %s in store '%s': no next id", r->what,
			  r->st->location);
	if (rc <= 0)
		return -1;
	for (size_t i = 0; i < r->nr; i++)
		r->args[i * r->width] = SQL_INT(id + (int64_t)i);
	return 0;
}

static int ids_given(struct sql_rows *r, struct error *err)
{
	int rc = 0;

	for (size_t i = 0; i < r->nr && !rc; i++)
		rc = r->returned(r->ctx, i, r->args[i * r->width].i, err);
	return rc;
}

static int sql_rows_flush(struct sql_rows *r, struct error *err)
{
	char *const *text = r->insert->text[r->give_ids];
	int rc = 0;

	if (r->give_ids && r->nr)
		rc = give_ids(r, err);
	if (!rc && r->nr == SQL_ROWS)
		rc = send_rows(r, text[0], 0, SQL_ROWS, err);
	else if (!rc)
		for (size_t i = 0; i < r->nr && !rc; i++)
			rc = send_rows(r, text[1], i, 1, err);
	if (!rc && r->give_ids)
		rc = ids_given(r, err);
	r->nr = 0;
	return rc;
}

int sql_rows_add(struct sql_rows *r, const struct sql_arg *row, size_t nr, struct error *err)
{
	size_t columns = (size_t)r->insert->columns;

	if (nr != columns)
		return error_set(err, EXIT_INTERNAL, "%zu values for a row of %s of %zu",
				 nr, r->insert->table, columns);
	memcpy(r->args + r->nr * r->width + r->give_ids, row, columns * sizeof(*row));
	return ++r->nr == SQL_ROWS ? sql_rows_flush(r, err) : 0;
}

int sql_rows_finish(struct sql_rows *r, int rc, struct error *err)
{
	rc = rc || sql_rows_flush(r, err) ? -1 : 0;
	free(r->args);
	r->args = NULL;
	return rc;
}
