// SPDX-License-Identifier: GPL-2.0
/*
 * Connecting to a PostgreSQL store. The location is a libpq URI, given to
 * libpq as it is: credentials come through libpq's own means (a service
 * file, ~/.pgpass, PG* variables), and a password in the URI is never shown
 * (store_location_shown()). A command that writes creates or upgrades the
 * schema; one that reads changes nothing, so a role that may only SELECT
 * can run it.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/postgres/lib.h"
#include "store/postgres/postgres.h"
#include "util/strbuf.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

/* Notices (an index that exists already ...) are not schedperf's to print. */
static void ignore_notice(void *arg, const char *message)
{
}

/*
 * libpq's words @why, each quoted text of the user's that the shown URL
 * @shown does not hold ("%zzs3cret", a host "ss@server" cut from a password
 * with an '@') given up for "...": a password is quoted by none.
 */
static void hide_quoted(const char *why, const char *location, const char *shown,
			char *buf, size_t size)
{
	struct strbuf sb = STRBUF_INIT, token = STRBUF_INIT;
	const char *end;

	while (*why) {
		if (*why != '"' || !(end = strchr(why + 1, '"'))) {
			strbuf_addch(&sb, *why++);
			continue;
		}
		strbuf_release(&token);
		strbuf_add(&token, why + 1, (size_t)(end - why - 1));
		if (strstr(shown, strbuf_str(&token)) || !strstr(location, strbuf_str(&token)))
			strbuf_addf(&sb, "\"%s\"", strbuf_str(&token));
		else
			strbuf_addstr(&sb, "\"...\"");
		why = end + 1;
	}
	pg_first_line(strbuf_str(&sb), buf, size);
	strbuf_release(&token);
	strbuf_release(&sb);
}

/*
 * What libpq refuses in the URL's settings (a port out of range, an
 * sslmode it does not know) rather than a server that did not answer: the
 * user's to fix. Its words for them start so (libpq 15), after the
 * "connection to server ... failed: " of a setting read as it connects.
 */
static bool bad_setting(const char *msg)
{
	const char *failed = strstr(msg, " failed: ");

	if (!strncmp(msg, "connection to server ", 21) && failed)
		msg = failed + 9;
	return !strncmp(msg, "invalid ", 8) || !strncmp(msg, "could not match ", 16) ||
	       strstr(msg, " invalid when ");
}

static int connect_error(struct pg_store *ps, const char *location, struct error *err)
{
	char msg[256];

	hide_quoted(PQerrorMessage(ps->conn), location, ps->base.location, msg, sizeof(msg));
	if (bad_setting(msg))
		return error_set(err, EXIT_USAGE, "cannot open store '%s': %s (fix that setting "
				 "of the URL)", ps->base.location, msg);
	if (strstr(msg, "password") || strstr(msg, "authentication"))
		return error_set(err, EXIT_ENV, "cannot open store '%s': %s (give the password "
				 "through ~/.pgpass, PGPASSFILE or a service file, never on the "
				 "command line)", ps->base.location, msg);
	return error_set(err, EXIT_ENV, "cannot open store '%s': %s (check that the server "
			 "runs and that the URL names it)", ps->base.location, msg);
}

/*
 * A URL libpq cannot read is the user's to fix (exit 2), not a server to
 * look for: its words say what is wrong with it, and quote the URL, which
 * is shown as everywhere else, its password left out.
 */
static int check_url(const char *location, const char *shown, struct error *err)
{
	struct strbuf sb = STRBUF_INIT;
	PQconninfoOption *options;
	char *why = NULL, line[256];
	const char *quoted;

	options = PQconninfoParse(location, &why);
	if (options) {
		PQconninfoFree(options);
		return 0;
	}
	if (!why)
		return error_set(err, EXIT_ENV, "cannot open store '%s': out of memory (free "
				 "some memory, then try again)", shown);
	quoted = strstr(why, location);
	if (quoted)
		strbuf_addf(&sb, "%.*s%s%s", (int)(quoted - why), why, shown,
			    quoted + strlen(location));
	else
		strbuf_addstr(&sb, why);
	PQfreemem(why);
	hide_quoted(strbuf_str(&sb), location, shown, line, sizeof(line));
	strbuf_release(&sb);
	return error_set(err, EXIT_USAGE, "cannot open store '%s': %s (give a URL such as "
			 "postgresql://HOST/DATABASE)", shown, line);
}

/*
 * Our defaults, the URI's settings over them: a server that does not
 * answer, or acknowledge what is sent (tcp_user_timeout, libpq 12 and
 * later), is given up after 10 s. That is also the only bound of
 * PQcancel()'s connect() (driver.c): without it, Ctrl-C would hang for the
 * kernel's SYN retries, two minutes, on a server that cannot be reached.
 */
static PGconn *connect_to(const char *location)
{
	static const char *const keys[] = { "connect_timeout", "application_name",
					     "tcp_user_timeout", "dbname", NULL };
	const char *values[] = { "10", "schedperf", "10000", location, NULL };
	PQconninfoOption *known = PQconninfoParse("tcp_user_timeout=1", NULL);

	if (!known)
		values[2] = "";		/* as if not given: libpq's default */
	PQconninfoFree(known);
	return PQconnectdbParams(keys, values, 1);
}

/*
 * A write waits for another writer's lock as long as on SQLite, then
 * fails (lock_timeout 0 would wait for ever).
 */
static int set_lock_timeout(struct pg_store *ps, struct error *err)
{
	int ms = store_busy_timeout_ms();
	char text[32];

	snprintf(text, sizeof(text), "%dms", ms > 0 ? ms : 1);
	return pg_run(ps, "SELECT set_config('lock_timeout', $1, false)", text, NULL, err,
		      "set the lock timeout");
}

void pg_close(struct store *st)
{
	struct pg_store *ps = pg_of(st);

	for (int i = 0; i < ps->nr_stmts; i++) {
		PQclear(ps->stmts[i].res);
		free(ps->stmts[i].values);
		free(ps->stmts[i].buf);
	}
	PQfinish(ps->conn);
	free(ps->base.location);
	free(ps);
}

/*
 * The connection again, to the same server with the same settings
 * (PQreset), waiting for it no longer than a call may (store.h,
 * store_set_patience(); connect_timeout's 10 s without one); then what the
 * session lost with it: the lock timeout and the prepared statements.
 */
int pg_reconnect(struct store *st, struct error *err)
{
	struct pg_store *ps = pg_of(st);
	double until = time_now() + pg_patience_ms(ps) / 1e3;
	PostgresPollingStatusType state = PGRES_POLLING_FAILED;
	char msg[256];

	ps->unanswered = false;
	if (PQresetStart(ps->conn))
		state = PGRES_POLLING_WRITING;	/* first: the socket writable, connected */
	while (state == PGRES_POLLING_READING || state == PGRES_POLLING_WRITING) {
		struct pollfd p = { PQsocket(ps->conn),
				    state == PGRES_POLLING_READING ? POLLIN : POLLOUT, 0 };
		double left = until - time_now();
		int rc;

		if (left <= 0) {
			ps->unanswered = true;
			break;
		}
		rc = poll(&p, 1, (int)(left * 1000) + 1);
		if (rc < 0 && errno != EINTR)
			break;
		if (rc > 0)
			state = PQresetPoll(ps->conn);
	}
	if (state != PGRES_POLLING_OK) {
		if (ps->unanswered)
			pg_why_lost(ps, msg, sizeof(msg));
		else
			pg_first_line(PQerrorMessage(ps->conn), msg, sizeof(msg));
		ps->unanswered = false;
		return error_set(err, EXIT_ENV, "cannot connect to store '%s' again: %s (check "
				 "that the server runs)", ps->base.location, msg);
	}
	return set_lock_timeout(ps, err) || pg_prepare_again(ps, err) ? -1 : 0;
}

/* A connection to the store at @location, before any look at its schema. */
static struct pg_store *pg_connect(const char *location, enum store_access access,
				   struct error *err)
{
	struct pg_store *ps;
	char shown[512];

	store_location_shown(location, shown, sizeof(shown));
	if (pg_library_load(shown, err) || check_url(location, shown, err))
		return NULL;
	ps = xcalloc(1, sizeof(*ps));
	ps->base.driver = &store_postgres;
	ps->base.location = xstrdup(shown);
	ps->read_only = access != STORE_WRITE;
	ps->conn = connect_to(location);
	if (!ps->conn) {
		error_set(err, EXIT_ENV, "cannot open store '%s': out of memory (free "
				 "some memory, then try again)", shown);
		goto fail;
	}
	if (PQstatus(ps->conn) != CONNECTION_OK) {
		connect_error(ps, location, err);
		goto fail;
	}
	PQsetNoticeProcessor(ps->conn, ignore_notice, NULL);
	if (set_lock_timeout(ps, err))
		goto fail;
	return ps;
fail:
	pg_close(&ps->base);
	return NULL;
}

int pg_open(const char *location, enum store_access access, store_upgrade_fn *upgrade,
	    struct store **out, struct error *err)
{
	struct pg_store *ps = pg_connect(location, access, err);
	int rc;

	*out = NULL;
	if (!ps)
		return -1;
	rc = access == STORE_WRITE ? (upgrade(&ps->base, err) ? -1 : 1) : pg_version(&ps->base, err);
	if (!rc && access == STORE_READ)
		rc = error_set(err, EXIT_USAGE, "no store at '%s': the database has no schedperf "
			       "tables yet (run 'schedperf db init' or 'schedperf run' first)",
			       ps->base.location);
	else if (rc > 0 && rc < STORE_SCHEMA_VERSION && access == STORE_READ)
		rc = error_set(err, EXIT_ENV, "cannot read store '%s': its schema version %d is "
			       "older than this schedperf's, %d (upgrade it with 'schedperf db "
			       "upgrade' as a role that may)", ps->base.location, rc,
			       STORE_SCHEMA_VERSION);
	if (rc <= 0) {
		pg_close(&ps->base);
		return rc;
	}
	*out = &ps->base;
	return 0;
}
