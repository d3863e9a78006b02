// SPDX-License-Identifier: GPL-2.0
/*
 * schedperf db: create a store, bring its schema up to date, or say what
 * it holds, on either backend. Other commands do the first two on their
 * own when they write; this command does them on purpose (an administrator
 * preparing a PostgreSQL database for a fleet, a cron job checking it),
 * and check only reads, so that a role that may only SELECT can run it.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "store/store.h"
#include "util/array.h"
#include "util/utf8.h"

static const struct cmd_usage db_usage = {
	"usage: schedperf db init|upgrade|check\n"
	"\n"
	"init     create the store (--db): an SQLite file, or the tables of a\n"
	"         PostgreSQL database that has none; nothing to do when it is a\n"
	"         store of this schedperf's schema already\n"
	"upgrade  run the migrations an existing store lacks, in one transaction\n"
	"check    print the store's backend, schema version and state, changing\n"
	"         nothing; exit 1 when it is damaged (SQLite's integrity check,\n"
	"         references that lead nowhere, missing tables or columns, a\n"
	"         batch's start that is not an ISO 8601 time, a sample that is\n"
	"         not a finite number, an import's packed samples that do not\n"
	"         read back)\n",
	"A location that is not a store is exit status 2; a store of a newer\n"
	"schema than this schedperf knows, exit status 3.\n",
};

/* A store must be there for upgrade and check. */
static int need_store(const char *what, const struct store_status *status)
{
	if (status->version)
		return 0;
	return die_code(EXIT_USAGE, "db %s: no store at '%s': nothing was stored there yet "
			"(create one with 'schedperf db init')", what, status->location);
}

/* A store of this schedperf's schema already: nothing to do. */
static int current_already(const char *location)
{
	if (!global.quiet)
		printf("%s: a store of schema version %d already; nothing to do\n",
		       location, STORE_SCHEMA_VERSION);
	return EXIT_OK;
}

/*
 * Bring the store to this schedperf's schema by opening it to write,
 * which creates or upgrades it (store.h); nothing to do when it is there
 * already.
 */
static int open_to_write(struct store **st)
{
	struct error err = { 0 };

	if (store_open(global.db, st, &err))
		return error_report(&err);
	return EXIT_OK;
}

static int db_init(const struct store_status *status)
{
	struct store *st;
	int code;

	if (status->version == STORE_SCHEMA_VERSION)
		return current_already(status->location);
	if (status->version)
		return die_code(EXIT_USAGE, "db init: '%s' is a store of schema version %d "
				"already (bring it to version %d with 'schedperf db upgrade')",
				status->location, status->version, STORE_SCHEMA_VERSION);
	code = open_to_write(&st);
	if (code)
		return code;
	store_close(st);
	if (!global.quiet)
		printf("%s: created a store (%s, schema version %d)\n", status->location,
		       status->backend, STORE_SCHEMA_VERSION);
	return EXIT_OK;
}

/*
 * The version the upgrade found is the one it read under the write lock:
 * of processes upgrading at once, one does it, and the others find it
 * done.
 */
static int db_upgrade(const struct store_status *status)
{
	int code = need_store("upgrade", status);
	struct store *st;
	int from;

	if (code)
		return code;
	if (status->damage[0])
		/* the damage says how to fix it: one hint */
		return die_code(EXIT_ENV, "db upgrade: store '%s' is damaged, nothing was "
				"changed: %s", status->location, status->damage);
	if (status->version == STORE_SCHEMA_VERSION)
		return current_already(status->location);
	code = open_to_write(&st);
	if (code)
		return code;
	from = store_upgraded_from(st);
	store_close(st);
	if (!from)
		return current_already(status->location);
	if (!global.quiet)
		printf("%s: upgraded from schema version %d to %d\n", status->location, from,
		       STORE_SCHEMA_VERSION);
	return EXIT_OK;
}

static int db_check(const struct store_status *status)
{
	int code = need_store("check", status);

	if (code)
		return code;
	printf("store:          %s\n", status->location);
	printf("backend:        %s\n", status->backend);
	printf("schema version: %d\n", status->version);
	if (status->damage[0])
		printf("state:          damaged\n");
	else if (status->version < STORE_SCHEMA_VERSION)
		printf("state:          older than this schedperf's (%d): commands that write "
		       "upgrade it, or 'schedperf db upgrade'\n", STORE_SCHEMA_VERSION);
	else
		printf("state:          current\n");
	fflush(stdout);		/* the report, then why it failed */
	if (status->damage[0])
		return die_code(EXIT_FOUND, "db check: store '%s' is damaged: %s",
				status->location, status->damage);
	return EXIT_OK;
}

/*
 * The location is printed on stdout, not only in messages: a newline or
 * a terminal escape in a file name is shown as \xHH (utf8_escape()), as
 * messages show a bad argument, on every line that names it.
 */
static void show_location(struct store_status *status)
{
	char shown[sizeof(status->location)];

	utf8_escape(shown, sizeof(shown), status->location);
	memcpy(status->location, shown, sizeof(shown));
}

static const struct {
	const char *name;
	int (*fn)(const struct store_status *status);
} actions[] = {
	{ "init", db_init },
	{ "upgrade", db_upgrade },
	{ "check", db_check },
};

int cmd_db(int argc, char **argv)
{
	const struct cmd_option options[] = { OPT_END() };
	struct store_status status;
	struct error err = { 0 };
	int code = EXIT_OK;

	if (parse_options(argc, argv, options, &db_usage, &code))
		return code;
	if (optind >= argc)
		return command_usage_error("db", "give init, upgrade or check");
	if (optind + 1 < argc)
		return command_usage_error("db", "unexpected argument '%.64s'", argv[optind + 1]);
	for (size_t i = 0; i < ARRAY_SIZE(actions); i++) {
		if (strcmp(argv[optind], actions[i].name))
			continue;
		if (store_inspect(global.db, &status, &err))
			return error_report(&err);
		show_location(&status);
		return actions[i].fn(&status);
	}
	return command_usage_error("db", "unknown action '%.32s': give init, upgrade or check",
				   argv[optind]);
}
