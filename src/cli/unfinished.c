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

void say_unfinished_replacements(struct store *st, const char *db, const char *name)
{
	struct unfinished_replacement *list;
	struct error err = { 0 };
	size_t nr;

	if (store_unfinished_replacements(st, name, &list, &nr, &err))
		return;
	fflush(stdout);
	for (size_t i = 0; i < nr; i++) {
		char *run = utf8_message(list[i].name);
		char *resume = NULL;

		/*
		 * A name run refuses (a control, a mark that reorders a line:
		 * only an edited store holds one) has no command to finish it.
		 */
		if (utf8_plain(list[i].name))
			resume = run_resume_command(db, list[i].name);
		fprintf(stderr, "schedperf: run '%s': batch %lld (started %s), a --replace, is "
			"unfinished, so the batches it would replace are shown instead (%s%s)\n",
			run, (long long)list[i].batch_id, list[i].started,
			resume ? "unless a run writes it now, finish it with: " :
			"run --resume cannot finish it: its name holds control characters or "
			"marks that reorder a line, which run refuses", resume ? resume : "");
		free(resume);
		free(run);
	}
	unfinished_replacements_release(list, nr);
}
