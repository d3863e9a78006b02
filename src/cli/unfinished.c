// SPDX-License-Identifier: GPL-2.0
/*
 * The batches of a run --replace that did not finish, said by the
 * commands that list batches: store_load() leaves such a batch out until
 * it completes, so that readers never see it and the batches it replaces
 * at once (store/transactions.c).
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli/unfinished.h"
#include "store/store.h"
#include "util/db_hint.h"
#include "util/utf8.h"
#include "util/words.h"

/*
 * The run's name as the resume command gives it, quoted for a shell: as it
 * is, which names the run, when it is plain (a name run checks always is);
 * escaped otherwise, so that no control reaches the terminal.
 */
static char *quoted_name(const char *name)
{
	char *shown = utf8_plain(name) ? NULL : utf8_escaped(name);
	char *quoted = words_quote(shown ? shown : name);

	free(shown);
	return quoted;
}

void say_unfinished_replacements(struct store *st, const char *db, const char *name)
{
	struct unfinished_replacement *list;
	struct error err = { 0 };
	char *hint;
	size_t nr;

	if (store_unfinished_replacements(st, name, &list, &nr, &err))
		return;
	fflush(stdout);
	hint = db_hint(db, false);
	for (size_t i = 0; i < nr; i++) {
		char *run = utf8_message(list[i].name), *quoted = quoted_name(list[i].name);

		fprintf(stderr, "schedperf: run '%s': batch %lld (started %s), a --replace, is "
			"unfinished, so the batches it would replace are shown instead (finish "
			"it with 'schedperf run --resume --name %s%s', unless a run writes it "
			"now)\n",
			run, (long long)list[i].batch_id, list[i].started, quoted, hint);
		free(quoted);
		free(run);
	}
	free(hint);
	unfinished_replacements_release(list, nr);
}
