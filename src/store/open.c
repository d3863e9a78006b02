// SPDX-License-Identifier: GPL-2.0
/*
 * Opening a store (store.h): the driver is chosen by the location's scheme
 * from store_drivers[], as git chooses its ref storage backends, and
 * handed schema.c's upgrade to bring the store to the current version.
 */
#include <string.h>
#include <strings.h>

#include "store/queries.h"
#include "store/schema.h"
#include "util/array.h"

/* Chosen by the location's scheme; the row without schemes takes file paths. */
static const struct store_driver *const store_drivers[] = {
	&store_postgres,
	&store_sqlite,
};

static const struct store_driver *driver_for(const char *location)
{
	const struct store_driver *files = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(store_drivers); i++) {
		const struct store_driver *d = store_drivers[i];

		if (!d->schemes) {
			files = d;
			continue;
		}
		for (const char *const *s = d->schemes; *s; s++)
			if (!strncmp(location, *s, strlen(*s)))
				return d;
	}
	return files;
}

/*
 * A file name that reads as a driver's scheme without its "//" (postgres:,
 * postgresql:x) or as the scheme's bare word (postgres): a URL mistyped
 * more likely than a file wanted, which ./NAME still names.
 */
static int scheme_meant(const char *location, struct error *err)
{
	char shown[256];

	for (size_t i = 0; i < ARRAY_SIZE(store_drivers); i++) {
		const char *const *s = store_drivers[i]->schemes;

		for (; s && *s; s++) {
			size_t len = strcspn(*s, ":");

			if (strncasecmp(location, *s, len) ||
			    (location[len] && location[len] != ':'))
				continue;
			store_location_shown(location, shown, sizeof(shown));
			if (!location[len])
				return error_set(err, EXIT_USAGE, "--db '%s' would be a file so "
						 "named in this directory, not a %s store "
						 "(give --db %sHOST/DATABASE, or --db ./%s for "
						 "the file)", shown, store_drivers[i]->name, *s,
						 shown);
			return error_set(err, EXIT_USAGE, "--db '%s' is not a %s URL, which "
					 "begins %s (give --db %sHOST/DATABASE, or --db ./%s for "
					 "a file so named)", shown, store_drivers[i]->name, *s, *s,
					 shown);
		}
	}
	return 0;
}

/*
 * A location no scheme took is a file name, unless it cannot have been
 * meant as one: a URL of a scheme no driver has (POSTGRESQL://, mysql://)
 * or a libpq connection string ("host=... password=..."), which would
 * otherwise be an SQLite file, its name the password.
 */
static int file_name_meant(const char *location, struct error *err)
{
	size_t scheme = strspn(location, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			       "0123456789+.-");
	char shown[256];

	if (strcasestr(location, "password="))
		return error_set(err, EXIT_USAGE, "--db holds password=: a PostgreSQL store is "
				 "given as a URL, not a libpq connection string, nor a password "
				 "(give --db postgresql://HOST/DATABASE, the password in ~/.pgpass)");
	if (scheme && !strncmp(location + scheme, "://", 3)) {
		store_location_shown(location, shown, sizeof(shown));
		return error_set(err, EXIT_USAGE, "--db '%s': no store is reached by a URL of "
				 "%.*s:// (give --db FILE or --db postgresql://HOST/DATABASE)",
				 shown, (int)scheme, location);
	}
	return scheme_meant(location, err);
}

/* The driver for @location, or -1 with @err when there is none to use. */
static int usable_driver(const char *location, const struct store_driver **out,
			 struct error *err)
{
	if (!location || !*location)
		return error_set(err, EXIT_USAGE, "no store given: --db needs a file name "
				 "or a URL (give --db FILE or --db postgresql://...)");
	if (store_busy_timeout_check(err))
		return -1;
	*out = driver_for(location);
	if ((*out)->schemes)
		return 0;
	return file_name_meant(location, err);
}

/* The store at @location opened for @access; @queue: refused unless it keeps a job queue. */
static int open_with(const char *location, enum store_access access, bool queue,
		     struct store **out, struct error *err)
{
	const struct store_driver *d;
	char shown[256];

	if (usable_driver(location, &d, err))
		return -1;
	if (queue && !d->job_claim) {
		store_location_shown(location, shown, sizeof(shown));
		return store_no_queue(shown, d, err);
	}
	return d->open(location, access, store_schema_upgrade, out, err);
}

int store_open(const char *location, struct store **out, struct error *err)
{
	return open_with(location, STORE_WRITE, false, out, err);
}

int store_upgraded_from(const struct store *st)
{
	return st->upgraded_from;
}

int store_open_existing(const char *location, struct store **out, struct error *err)
{
	return open_with(location, STORE_READ, false, out, err);
}

int store_open_queue(const char *location, struct store **out, struct error *err)
{
	return open_with(location, STORE_WRITE, true, out, err);
}

/*
 * The driver of @location, and the store there as that driver opens it as
 * it is (*@st NULL: none), with what store_peek() says of it.
 */
static int peek(const char *location, struct store_status *status,
		const struct store_driver **d, struct store **st, struct error *err)
{
	memset(status, 0, sizeof(*status));
	*st = NULL;
	if (usable_driver(location, d, err))
		return -1;
	status->backend = (*d)->name;
	store_location_shown(location, status->location, sizeof(status->location));
	if ((*d)->open(location, STORE_INSPECT, store_schema_upgrade, st, err))
		return -1;
	if (*st && (status->version = (*d)->version(*st, err)) < 0) {
		(*d)->close(*st);
		return -1;
	}
	return 0;
}

int store_peek(const char *location, struct store_status *status, struct error *err)
{
	const struct store_driver *d;
	struct store *st;

	if (peek(location, status, &d, &st, err))
		return -1;
	if (st)
		d->close(st);
	return 0;
}

/*
 * Only a driver that can remove an empty store is asked whether there is one:
 * to PostgreSQL the question is a connection more for every run.
 */
int store_open_made(const char *location, struct store **out, bool *made, struct error *err)
{
	const struct store_driver *d;
	struct store_status status;

	*made = false;
	if (usable_driver(location, &d, err))
		return -1;
	if (d->close_removing_empty) {
		if (store_peek(location, &status, err))
			return -1;
		*made = !status.version;
	}
	return store_open(location, out, err);
}

int store_open_memory(struct store **out, struct error *err)
{
	return store_memory.open("memory", STORE_WRITE, store_schema_upgrade, out, err);
}

/* What the driver's damage() leaves, in the order they are checked. */
static const struct sql_check *const damage_checks[] = {
	&batches_damage, &benchmarks_damage, &samples_damage, &packs_damage,
};

int store_inspect(const char *location, struct store_status *status, struct error *err)
{
	const struct store_driver *d;
	struct store *st, *fresh = NULL;
	int rc;

	if (peek(location, status, &d, &st, err))
		return -1;
	if (!st)
		return 0;
	rc = store_open_memory(&fresh, err) ? -1 :
	     d->damage(st, status->version, fresh, status->damage, sizeof(status->damage), err);
	for (size_t i = 0; i < ARRAY_SIZE(damage_checks) && !rc && !status->damage[0]; i++)
		if (status->version >= damage_checks[i]->since)
			rc = sql_check_pages(st, damage_checks[i], status->damage,
					     sizeof(status->damage), err);
	store_close(fresh);
	d->close(st);
	return rc;
}

void store_close(struct store *st)
{
	if (st)
		st->driver->close(st);
}

void store_close_made(struct store *st, bool made)
{
	if (st && made && st->driver->close_removing_empty)
		st->driver->close_removing_empty(st);
	else
		store_close(st);
}

void store_forget_in_child(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(store_drivers); i++)
		if (store_drivers[i]->forget_in_child)
			store_drivers[i]->forget_in_child();
}
