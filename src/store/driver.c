// SPDX-License-Identifier: GPL-2.0
/*
 * What every driver shares (driver.h): how a store's location is shown,
 * how long a writer waits, the refusals every driver words alike, and the
 * one spelling that differs inside a query, {now}.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/driver.h"
#include "util/strbuf.h"
#include "util/url_password.h"

/* A URL's password left out, a parameter's shown as password=... (util/url_password.h). */
void store_location_shown(const char *location, char *buf, size_t len)
{
	char *shown = url_without_password(location, "...");

	snprintf(buf, len, "%s", shown);
	free(shown);
}

#define BUSY_TIMEOUT_MS 10000
#define BUSY_TIMEOUT_MAX_MS (3600 * 1000)

/* $SCHEDPERF_BUSY_TIMEOUT_MS as a number of ms, or -1 when it is none of them. */
static long busy_timeout_env(const char *env)
{
	char *end;
	long ms;

	if (*env < '0' || *env > '9')
		return -1;
	errno = 0;
	ms = strtol(env, &end, 10);
	return errno || *end || ms > BUSY_TIMEOUT_MAX_MS ? -1 : ms;
}

int store_busy_timeout_check(struct error *err)
{
	const char *env = getenv("SCHEDPERF_BUSY_TIMEOUT_MS");

	if (!env || !*env || busy_timeout_env(env) >= 0)
		return 0;
	return error_set(err, EXIT_USAGE, "SCHEDPERF_BUSY_TIMEOUT_MS is '%.64s', not a whole "
			 "number of milliseconds from 0 to %d (give one, or unset it for the "
			 "default, %d)", env, BUSY_TIMEOUT_MAX_MS, BUSY_TIMEOUT_MS);
}

int store_busy_timeout_ms(void)
{
	const char *env = getenv("SCHEDPERF_BUSY_TIMEOUT_MS");
	long ms = env && *env ? busy_timeout_env(env) : -1;

	return ms < 0 ? BUSY_TIMEOUT_MS : (int)ms;
}

bool store_lock_busy(const struct store *st)
{
	return st->lock_busy;
}

int store_version_lost(const char *location, const char *where, int version,
		       struct error *err)
{
	return error_set(err, EXIT_USAGE, "cannot open store '%s': it has schedperf's tables, "
			 "but its schema version (%s) is %d, which no schedperf store has: it "
			 "was changed outside schedperf (restore the store from a backup, or "
			 "set the version its tables are of)", location, where, version);
}

int store_not_ours(const char *location, const char *why, struct error *err)
{
	return error_set(err, EXIT_USAGE, "cannot open store '%s': it is not a schedperf "
			 "store: %s (give the --db of a schedperf store, or a new file name)",
			 location, why);
}

int store_no_queue(const char *location, const struct store_driver *driver,
		   struct error *err)
{
	return error_set(err, EXIT_USAGE, "store '%s' has no job queue: the %s backend keeps "
			 "none (give --db postgresql://... for a store that workers share)",
			 location, driver->name);
}

int store_too_new(const char *location, int version, struct error *err)
{
	return error_set(err, EXIT_ENV, "cannot open store '%s': its schema version %d is "
			 "newer than this schedperf knows (%d); it is left untouched (use a "
			 "newer schedperf or another --db)", location, version,
			 STORE_SCHEMA_VERSION);
}

int store_stmt_lookup(void *first, size_t stride, int nr, int max, const char *sql,
		      struct store_stmt **found, struct error *err)
{
	for (int i = 0; i < nr; i++) {
		struct store_stmt *s = (struct store_stmt *)((char *)first + (size_t)i * stride);

		if (s->sql != sql)
			continue;
		if (s->busy)
			return error_set(err, EXIT_INTERNAL, "query '%.60s...' run again while in "
					 "use", sql);
		s->busy = true;
		*found = s;
		return 0;
	}
	*found = NULL;
	if (nr == max)
		return error_set(err, EXIT_INTERNAL, "more than %d queries: raise the driver's "
				 "number of statements", max);
	return 0;
}

char *store_sql_dialect(const char *sql, const char *now)
{
	static const char token[] = "{now}";
	const char *at = strstr(sql, token);
	struct strbuf sb = STRBUF_INIT;

	if (!at)
		return NULL;
	for (; at; sql = at + sizeof(token) - 1, at = strstr(sql, token))
		strbuf_addf(&sb, "%.*s%s", (int)(at - sql), sql, now);
	strbuf_addf(&sb, "%s", sql);
	return strbuf_detach(&sb);
}
