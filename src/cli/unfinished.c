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
#include "util/utf8.h"

void say_unfinished_replacements(struct store *st, const char *name)
{
	struct unfinished_replacement *list;
	struct error err = { 0 };
	size_t nr;

	if (store_unfinished_replacements(st, name, &list, &nr, &err))
		return;
	fflush(stdout);
	for (size_t i = 0; i < nr; i++) {
		char *run = utf8_message(list[i].name);

		fprintf(stderr, "schedperf: run '%s': batch %lld (started %s), a --replace, is "
			"unfinished, so the batches it would replace are shown instead (finish "
			"it with 'schedperf run --resume --name %s', unless a run writes it "
			"now)\n",
			run, (long long)list[i].batch_id, list[i].started, run);
		free(run);
	}
	unfinished_replacements_release(list, nr);
}
