// SPDX-License-Identifier: GPL-2.0
/*
 * The commands a bisection's messages tell the user to run to go on with
 * it (bisection.h): run as printed, from any directory, they must find the
 * same repository and store, so each names the repository (its top level,
 * absolute) and the store when they were given, quoted for a shell.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "experiment/bisection.h"
#include "util/db_hint.h"
#include "util/strbuf.h"
#include "util/words.h"
#include "util/xalloc.h"

static void add_option(struct strbuf *sb, const char *option, const char *value)
{
	char *quoted = words_quote(value);

	strbuf_addf(sb, " %s %s", option, quoted);
	free(quoted);
}

/* The store, for a command run from any directory (db_hint()). */
static void add_store(struct strbuf *sb, const char *db)
{
	char *hint = db_hint(db, true);

	strbuf_addstr(sb, hint);
	free(hint);
}

char *bisection_store_options(const struct bisection *bi)
{
	struct strbuf sb = STRBUF_INIT;

	add_store(&sb, bi->db);
	return strbuf_detach(&sb);
}

char *bisection_resume_command(const struct bisection *bi)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "schedperf bisect --resume");
	if (bi->kernel_tree || bi->repo)
		add_option(&sb, bi->kernel_tree ? "--kernel-tree" : "--repo",
			   bi->repo_top ? bi->repo_top : bi->kernel_tree ? bi->kernel_tree :
			   bi->repo);
	add_store(&sb, bi->db);
	return strbuf_detach(&sb);
}
