// SPDX-License-Identifier: GPL-2.0
/*
 * The --db of a command a message suggests (db_hint.h): a hint that leaves
 * it out sends the user to another store, where the run is not.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/db_hint.h"

const char *db_default(void)
{
	const char *env_db = getenv("SCHEDPERF_DB");

	return env_db && *env_db ? env_db : "schedperf.db";
}

/* Whether a POSIX shell takes @s as one word as it is. */
static bool shell_plain(const char *s)
{
	return *s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			    "0123456789_./:@%+=,-") == strlen(s);
}

const char *db_hint(char *buf, size_t len, const char *db)
{
	size_t at;

	if (!len)
		return buf;
	buf[0] = '\0';
	if (!strcmp(db, db_default()))
		return buf;
	if (shell_plain(db)) {
		snprintf(buf, len, " --db %s", db);
		return buf;
	}
	at = (size_t)snprintf(buf, len, " --db \"");
	for (const char *p = db; *p && at + 3 < len; p++) {
		if (strchr("\"\\$`", *p))
			buf[at++] = '\\';
		buf[at++] = *p;
	}
	if (at + 1 < len)
		buf[at++] = '"';
	buf[at < len ? at : len - 1] = '\0';
	return buf;
}
