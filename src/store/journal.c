// SPDX-License-Identifier: GPL-2.0
/*
 * The knob journal of `schedperf ab` (store.h), a row a setting, its
 * writer as a batch's. Machines that share a store each journal, see and
 * restore only their own (rows from before schema version 9 have machine
 * '', any machine's).
 */
#include <stdlib.h>

#include "store/queries.h"
#include "util/machine.h"
#include "util/utf8.h"

/* A row's columns, as the insert writes them and a read takes them back. */
#define JOURNAL_COLUMNS "kind, name, original, writer_boot, writer_pid, writer_start, " \
	"started, machine"

/*
 * The copy is what `jobs` shows; the machine's journal puts back. An
 * original not UTF-8, which PostgreSQL refuses, is copied quoted, and
 * read back as its bytes: the text "\xff" is not the byte 0xff.
 */
static int journal_insert(struct store *st, const char *machine,
			  const struct knob_original *k, struct error *err)
{
	char *original = utf8_quoted(k->value);
	int64_t id;
	int rc = sql_id(st, "INSERT INTO knob_journal (" JOURNAL_COLUMNS ") VALUES ($1, $2, "
			"$3, $4, $5, $6, $7, $8) ON CONFLICT (machine, kind, name) DO NOTHING "
			"RETURNING id",
			SQL_ARGS(SQL_TEXT(k->kind), SQL_TEXT(k->name), SQL_TEXT(original),
				 SQL_PROCESS(&k->writer), SQL_TEXT(k->started), SQL_TEXT(machine)),
			&id, err, "journal a setting's original value");

	free(original);
	if (!rc)
		return error_set(err, EXIT_ENV, "%s %s is journalled already by another ab "
				 "(run 'schedperf ab --restore')", k->kind, k->name);
	return rc < 0 ? -1 : 0;
}

int store_journal_write(struct store *st, const struct knob_original *k, size_t n,
			struct error *err)
{
	char machine[256];
	int rc = 0;

	machine_identity(machine, sizeof(machine));
	if (sql_begin(st, TXN_WRITE, err))
		return -1;
	for (size_t i = 0; i < n && !rc; i++)
		rc = journal_insert(st, machine, &k[i], err);
	return sql_end_write(st, rc, err);
}

/*
 * A row of the journal; the command is not in the copy (the machine's
 * journal says it): NULL.
 */
#define ORIGINAL(t, field) SQL_FIELD(t, struct knob_original, field)
static const struct sql_field original_fields[] = {
	ORIGINAL(TEXT, kind), ORIGINAL(TEXT, name), ORIGINAL(QUOTED, value),
	ORIGINAL(PROCESS, writer), ORIGINAL(TEXT, started), ORIGINAL(TEXT, machine),
	ORIGINAL(TEXT_OR_NULL, command),
};
static const struct sql_shape original_shape =
	SQL_SHAPE(struct knob_original, original_fields);

/* This machine's journal (@every_machine: every one's), each row with its machine. */
int store_journal_read(struct store *st, bool every_machine, struct knob_original **out,
		       size_t *nr, struct error *err)
{
	char machine[256];

	*out = NULL;
	*nr = 0;
	machine_identity(machine, sizeof(machine));
	return IN_READ_TXN(st, err, sql_list(st, "SELECT " JOURNAL_COLUMNS ", NULL "
					     "FROM knob_journal WHERE CAST($1 AS text) IS NULL OR "
					     "machine IN ($1, '') ORDER BY id",
					     SQL_ARGS(SQL_TEXT(every_machine ? NULL : machine)),
					     &original_shape, out, nr, err,
					     "read the knob journal"));
}

int store_journal_remove(struct store *st, const char *kind, const char *name,
			 struct error *err)
{
	char machine[256];

	machine_identity(machine, sizeof(machine));
	return IN_WRITE_TXN(st, err, sql_exec(st, "DELETE FROM knob_journal WHERE machine IN "
					      "($1, '') AND (CAST($2 AS text) IS NULL OR "
					      "(kind = $2 AND name = $3))",
					      SQL_ARGS(SQL_TEXT(machine), SQL_TEXT(kind),
						       SQL_TEXT(name)), err,
					      kind ? "forget a restored setting" :
					      "forget the restored settings"));
}

void store_journal_release(struct knob_original *k, size_t n)
{
	sql_release_list(&original_shape, k, n);
}
