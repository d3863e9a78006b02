/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_DB_HINT_H
#define SCHEDPERF_UTIL_DB_HINT_H

#include <stdbool.h>

/*
 * The store a command uses when given no --db: $SCHEDPERF_DB when set and
 * not empty, else ./schedperf.db.
 */
const char *db_default(void);

/*
 * What a command that a message tells the user to run ("see 'schedperf
 * show RUN'") needs to reach store @db, malloc'd: " --db LOCATION", a file
 * made absolute and quoted for a shell (words_quote()), a URL without its
 * password (url_without_password(): a message is shown and logged); "" for the
 * schedperf.db of this directory when the command is run here (not
 * @anywhere). $SCHEDPERF_DB is not taken as found: a worker sets it for its
 * job, and the shell that reads the message may not have it.
 */
char *db_hint(const char *db, bool anywhere);

/*
 * The command that finishes a batch of run @name in store @db, malloc'd:
 * "schedperf run --resume --name NAME", then the --db that reaches @db
 * (db_hint()), both quoted for a shell, so that it works as printed. A
 * message prints it last and unquoted ("finish it with: CMD"), as bisect
 * its own: quotes around it would clash with its own. @name is one run
 * takes (command_check_run_name(): plain text, which words_quote() keeps).
 */
char *run_resume_command(const char *db, const char *name);

#endif
