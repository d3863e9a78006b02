// SPDX-License-Identifier: GPL-2.0
/*
 * The --db of a command a message suggests (db_hint.h): a hint that leaves
 * it out sends the user to another store, where the run is not. And the
 * command that finishes a run's batch, which several messages suggest.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/db_hint.h"
#include "util/url_password.h"
#include "util/words.h"
#include "util/xalloc.h"

#define BUILT_IN_DB "schedperf.db"

const char *db_default(void)
{
	const char *env_db = getenv("SCHEDPERF_DB");

	return env_db && *env_db ? env_db : BUILT_IN_DB;
}

char *db_hint(const char *db, bool anywhere)
{
	char *cwd = NULL, *path, *quoted, *hint;

	if (!db || (!anywhere && !strcmp(db, BUILT_IN_DB)))
		return xstrdup("");
	if (*db != '/' && !strstr(db, "://"))
		cwd = getcwd(NULL, 0);
	/* a URL's password is no hint's: libpq finds it in ~/.pgpass or $PGPASSWORD */
	path = cwd ? xasprintf("%s/%s", cwd, db) : url_without_password(db, NULL);
	quoted = words_quote(path);
	hint = xasprintf(" --db %s", quoted);
	free(quoted);
	free(path);
	free(cwd);
	return hint;
}

char *run_resume_command(const char *db, const char *name)
{
	char *quoted = words_quote(name), *hint = db_hint(db, false);
	char *cmd = xasprintf("schedperf run --resume --name %s%s", quoted, hint);

	free(hint);
	free(quoted);
	return cmd;
}
