/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_DB_HINT_H
#define SCHEDPERF_UTIL_DB_HINT_H

#include <stddef.h>

/*
 * The store a command uses when given no --db: $SCHEDPERF_DB when set and
 * not empty, else ./schedperf.db.
 */
const char *db_default(void);

/*
 * What a command that a message tells the user to run ("see 'schedperf
 * show RUN'") needs to reach store @db: "" for db_default()'s, else
 * " --db LOCATION", LOCATION in double quotes when a shell would split or
 * expand it (the message quotes the command in single quotes). In @buf of
 * @len, which it returns; a location too long for @buf is cut, as a
 * message's text is.
 */
const char *db_hint(char *buf, size_t len, const char *db);

#endif
