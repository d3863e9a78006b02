/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_GIT_H
#define SCHEDPERF_UTIL_GIT_H

#include <stdbool.h>

#include "util/error.h"
#include "util/strbuf.h"

/*
 * git, run in a repository for what a bisection needs to know and do
 * (util/run_command.h: no shell, LC_ALL=C so that its words can be read).
 * The arguments end with NULL.
 */

/*
 * Run `git -C @repo ARGS...`; its standard output into @out (may be NULL:
 * discarded). Returns git's exit status, or -1 with @err when git could
 * not be run.
 */
int git_status(const char *repo, struct strbuf *out, struct error *err, ...)
	__attribute__((sentinel));

/*
 * The same, but any exit status other than 0 is an error too: EXIT_USAGE,
 * "git ARG1 ARG2: <git's last line on standard error>". Returns 0 or -1.
 */
int git_run(const char *repo, struct strbuf *out, struct error *err, ...)
	__attribute__((sentinel));

/*
 * Forget the repository the environment names (GIT_DIR, GIT_WORK_TREE and
 * their kin, which a git hook exports), for this process and what it runs:
 * the directory each git command or build runs in then says which
 * repository it works on.
 */
void git_env_forget_repository(void);

/* @text without its trailing newlines, in place; returns it. */
const char *git_chomp(struct strbuf *text);

/*
 * The full hash of @rev (a commit), in @hash (41 bytes): 0; 1 when @rev
 * names no commit of @repo (the caller says which of its inputs it was);
 * -1 with @err when git could not be run.
 */
int git_commit_hash(const char *repo, const char *rev, char hash[41], struct error *err);

/* Whether the work tree of @repo has changes to tracked files (untracked ones do not count). */
int git_is_dirty(const char *repo, bool *dirty, struct error *err);

/*
 * What the changes to tracked files of @repo's work tree are, as 8 hex
 * digits in @id (a hash of `git diff HEAD`): the same changes, the same
 * digits; "" when there are none.
 */
int git_changes_id(const char *repo, char id[9], struct error *err);

#endif
