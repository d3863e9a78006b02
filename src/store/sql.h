/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STORE_SQL_H
#define SCHEDPERF_STORE_SQL_H

/*
 * The queries' statements, over any driver (driver.h): a statement is run
 * with its values given as one list, so that each query's text and its
 * binding stand together, once:
 *
 *	rc = sql_exec(st, "UPDATE batches SET complete = $1 WHERE id = $2",
 *		      SQL_ARGS(SQL_INT(complete), SQL_INT(id)), err, "finish the batch");
 *
 * Every call runs inside the transaction that transactions.c opened (jobs.c's,
 * one statement each, outside them); every text is a string constant,
 * known by its address to the driver's cache of prepared statements.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/driver.h"
#include "util/array.h"
#include "util/process.h"

struct sql_arg {
	enum { SQL_ARG_INT, SQL_ARG_REAL, SQL_ARG_TEXT } type;
	int64_t i;
	double r;
	const char *s;
};

#define SQL_INT(v) ((struct sql_arg){ .type = SQL_ARG_INT, .i = (int64_t)(v) })
#define SQL_REAL(v) ((struct sql_arg){ .type = SQL_ARG_REAL, .r = (v) })
#define SQL_TEXT(v) ((struct sql_arg){ .type = SQL_ARG_TEXT, .s = (v) })
#define SQL_NULL SQL_TEXT(NULL)
/* The values of $1, $2 ...: a list and its length. */
#define SQL_ARGS(...) (const struct sql_arg[]){ __VA_ARGS__ }, \
	ARRAY_SIZE(((const struct sql_arg[]){ __VA_ARGS__ }))
#define SQL_NO_ARGS NULL, 0

/* @sql with @args bound, to step with sql_step() and end with sql_done(); NULL with @err. */
struct store_stmt *sql_query(struct store *st, const char *sql, const struct sql_arg *args,
			     size_t nr, struct error *err);
/* A statement whose rows are not read (INSERT, UPDATE, DELETE): 0, or -1 with @err. */
int sql_exec(struct store *st, const char *sql, const struct sql_arg *args, size_t nr,
	     struct error *err, const char *what);
/* An INSERT ... RETURNING id: 0 with *@id, or -1 with @err. */
int sql_insert(struct store *st, const char *sql, const struct sql_arg *args, size_t nr,
	       int64_t *id, struct error *err, const char *what);
/* The first row's first column as an integer (an id): 1 with *@id, 0 when no row, -1. */
int sql_id(struct store *st, const char *sql, const struct sql_arg *args, size_t nr,
	   int64_t *id, struct error *err, const char *what);
/*
 * The shape of a row read into a struct: its fields, each from the next
 * column, so that a struct's columns are listed once, for reading a row
 * and for letting the struct go. An integer goes into a field of its size
 * (a bool, an int, 64 bits); a process identity takes three columns
 * (SQL_PROCESS()); quoted text is read back unquoted (utf8_unquoted()).
 */
struct sql_field {
	enum { SQL_F_INT, SQL_F_TEXT, SQL_F_TEXT_OR_NULL, SQL_F_QUOTED, SQL_F_PROCESS } type;
	size_t offset, size;
};

/*
 * sql_read() stores an integer as a bool, an int or 64 bits: a field of
 * another size does not compile (the array size goes negative).
 */
#define SQL_FIELD_AT(t, offset, size)						\
	{ SQL_F_##t, (offset), (size) +						\
	  0 * sizeof(char[1 - 2 * (SQL_F_##t == SQL_F_INT && (size) != sizeof(bool) &&	\
				   (size) != sizeof(int) && (size) != sizeof(int64_t))]) }
#define SQL_FIELD(t, type, field) \
	SQL_FIELD_AT(t, offsetof(type, field), sizeof(((type *)0)->field))

struct sql_shape {
	const struct sql_field *fields;
	size_t nr;
	size_t size;		/* of the struct */
};

#define SQL_SHAPE(type, fields) { fields, ARRAY_SIZE(fields), sizeof(type) }
/* @name: the shape of a row of one column read into a plain @type. */
#define SQL_SCALAR_SHAPE(name, t, type)						\
	static const struct sql_field name##_field = SQL_FIELD_AT(t, 0, sizeof(type));	\
	static const struct sql_shape name = { &name##_field, 1, sizeof(type) }

/* The row on @s into @item, as @shape says. */
void sql_read(struct store_stmt *s, const struct sql_shape *shape, void *item);
/* Free @item's texts, and zero it. */
void sql_release(const struct sql_shape *shape, void *item);
/* sql_release() each of the @nr in @list, then the list. */
void sql_release_list(const struct sql_shape *shape, void *list, size_t nr);

/* A query for one row read into @item: 1, 0 when there is none, -1 with @err. */
int sql_one(struct store *st, const char *sql, const struct sql_arg *args, size_t nr,
	    const struct sql_shape *shape, void *item, struct error *err, const char *what);
/*
 * Every row of @sql read into an element of the array at *@list (malloc'd,
 * NULL when no row), *@nr of them: 0, or -1 with @err and none.
 */
int sql_list(struct store *st, const char *sql, const struct sql_arg *args, size_t nr_args,
	     const struct sql_shape *shape, void *list, size_t *nr, struct error *err,
	     const char *what);

/*
 * A check of the rows of @sql a page of @page at a time, so that a driver
 * that takes a result whole holds one page: each page after the row the
 * page before ended on, its key the integers $1 ... $@nr_keys (0 on the
 * first page; @row sets them from each row it reads), then $N + 1 the
 * page's size. @row reads each row until it finds damage, said into @buf.
 * A store of a schema older than @since has no such rows.
 */
#define SQL_CHECK_KEYS 2
struct sql_check {
	const char *sql;
	size_t nr_keys;		/* at most SQL_CHECK_KEYS */
	int page;
	void (*row)(struct store_stmt *s, struct sql_arg *keys, char *buf, size_t len);
	int since;
};

/* Run @check in a read transaction of its own: 0, or -1 with @err. */
int sql_check_pages(struct store *st, const struct sql_check *check, char *buf, size_t len,
		    struct error *err);

/*
 * An INSERT of many rows. Where ids are wanted its tail is "RETURNING id, "
 * and the row's first @key columns, which tell it from the others of its
 * statement; an insert of every row it is given (@every_row: no ON
 * CONFLICT) gives the ids itself where the driver can say a table's next
 * (next_id_query): SQLite's RETURNING was a fifth of an import. Its texts
 * are made on first use and kept, known to the driver by their address.
 */
struct sql_insert {
	const char *table;	/* "samples" */
	const char *names;	/* of its columns: "iteration_id, metric_id, rep, value" */
	int columns;		/* values a row */
	const char *tail;	/* NULL, or "RETURNING id, benchmark_id, seq" */
	int key;		/* the columns returned after the id: the row's first ones */
	bool every_row;		/* every row is added: the writer may give the ids */
	/* made on first use: [ids given by the writer][SQL_ROWS rows, and one] */
	char *text[2][2];
	char *next_id;		/* the driver's query of the table's next id */
};

/*
 * Rows written many to a statement: a statement a row cost most of an
 * import (cursors, reference checks, PostgreSQL's round trips). A full
 * chunk goes as one statement of SQL_ROWS rows, the last one a row at a
 * time: two texts serve every count. @returned gets each row's id with its
 * index in the chunk (a RETURNING's order is the database's: the key finds
 * the row; given ids come once the chunk is in). A row's texts must stay
 * valid until its chunk is sent. Not more rows: SQLite's parse of $N grows
 * with their number squared; 64 a statement imported 4 % faster than 128,
 * 32 and 256 slower (bench/scale.sh).
 */
#define SQL_ROWS 64

struct sql_rows {
	struct store *st;
	struct sql_insert *insert;
	int (*returned)(void *ctx, size_t row, int64_t id, struct error *err);
	void *ctx;
	const char *what;
	bool give_ids;		/* each row's id is its first value, given here */
	size_t width;		/* values a row: the insert's columns, and the id given */
	struct sql_arg *args;	/* SQL_ROWS rows of values */
	size_t nr;		/* rows held */
};

void sql_rows_init(struct sql_rows *r, struct store *st, struct sql_insert *insert,
		   int (*returned)(void *ctx, size_t row, int64_t id, struct error *err),
		   void *ctx, const char *what);
/*
 * Add a row of its @nr (insert->columns) values, SQL_ARGS(...), at index
 * r->nr of its chunk; a full chunk is sent: 0, or -1 with @err.
 */
int sql_rows_add(struct sql_rows *r, const struct sql_arg *row, size_t nr, struct error *err);
/* Send the rows held unless @rc (how the adding went) is -1, and let go: 0, or -1 with @err. */
int sql_rows_finish(struct sql_rows *r, int rc, struct error *err);

/*
 * Begin a transaction; on a connection lost since the last call, connect
 * again and begin anew (reconnect.c): 0, or -1 with @err.
 */
int sql_begin(struct store *st, enum store_txn txn, struct error *err);

/* End the write transaction that @rc (0 or -1) says went well or not: 0 or -1. */
int sql_end_write(struct store *st, int rc, struct error *err);
/* End a read transaction (it changed nothing). */
static inline void sql_end_read(struct store *st)
{
	st->driver->rollback(st);
}

static inline int sql_step(struct store_stmt *s, struct error *err, const char *what)
{
	return s->driver->step(s, err, what);
}

static inline void sql_done(struct store_stmt *s)
{
	if (s)
		s->driver->reset(s);
}

static inline int64_t sql_int(struct store_stmt *s, int col)
{
	return s->driver->column_int(s, col);
}

static inline double sql_real(struct store_stmt *s, int col)
{
	return s->driver->column_real(s, col);
}

static inline bool sql_null(struct store_stmt *s, int col)
{
	return s->driver->column_null(s, col);
}

/* Column @col as text, "" for NULL. */
static inline const char *sql_text(struct store_stmt *s, int col)
{
	const char *text = s->driver->column_text(s, col);

	return text ? text : "";
}

/* Column @col copied (xstrdup). */
char *sql_strdup(struct store_stmt *s, int col);

/*
 * A process identity (util/process.h) as three values, boot, pid and
 * start, all NULL for none; read back as a shape's SQL_F_PROCESS.
 */
#define SQL_PROCESS(p) SQL_TEXT((p)->pid ? (p)->boot : NULL), SQL_PID_START(p)
/* The same without the boot (a process group of the writer's boot). */
#define SQL_PID_START(p) (p)->pid ? SQL_INT((p)->pid) : SQL_NULL, \
	(p)->pid ? SQL_INT((p)->start) : SQL_NULL

#endif
