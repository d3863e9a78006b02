/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_CLI_UNFINISHED_H
#define SCHEDPERF_CLI_UNFINISHED_H

struct store;

/*
 * Say on stderr, a line each, the batches of run @name (every run when
 * NULL) that a run --replace began and did not finish: runs and show list
 * the batches it would replace, as compare reads them, and without this
 * the batch the run said to resume would be nowhere to be seen.  The
 * command that finishes one names store @db (db_hint()).  Nothing
 * when there is none; a store that cannot say is not an error of the
 * reader, which has shown what it could.
 */
void say_unfinished_replacements(struct store *st, const char *db, const char *name);

#endif
