/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_REGISTRY_H
#define SCHEDPERF_UTIL_REGISTRY_H

#include <stddef.h>

/*
 * A registry is a table of named rows ended by a row whose name is NULL,
 * each row a struct whose first member is its struct registry_name: the
 * formats of a kind of record (report/output.h), compare's styles. What
 * lists the names (a --help line, an error that names them, a test) reads
 * them from the table, never from a copy.
 */
struct registry_name {
	const char *name;
	const char *help;	/* a few words for --help, or NULL */
};

/* The row of @table (rows of @row_size bytes) named @name, or NULL. */
const void *registry_find(const void *table, size_t row_size, const char *name);
#define REGISTRY_FIND(table, name) registry_find((table), sizeof((table)[0]), (name))

/*
 * The names of @table into @buf, cut at @len: "a, b or c" (@sep ", ",
 * @last " or "), or "a|b|c" (both "|"). With @helps, each name followed by
 * its help in parentheses, the first row's after "default" ("text
 * (default), json (schedperf-history/1) or csv"). Returns @buf.
 */
char *registry_names(char *buf, size_t len, const void *table, size_t row_size,
		     const char *sep, const char *last, int helps);

#endif
