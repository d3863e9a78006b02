// SPDX-License-Identifier: GPL-2.0
/* schedperf import: schedperf-results/1 JSON into the store, all or nothing. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "interchange/interchange.h"
#include "runner/iteration.h"
#include "store/store.h"
#include "util/strbuf.h"
#include "util/utf8.h"
#include "util/xalloc.h"

static const struct cmd_usage import_usage = {
	"usage: schedperf import FILE...|-\n"
	"\n"
	"Read schedperf-results/1 JSON (as 'schedperf export' writes it, or\n"
	"converted from another tool: any workload name is accepted) into the store.\n"
	"Everything is validated first (types, finite numbers, none too small for\n"
	"a double, a list of samples, better = higher|lower); one bad value and\n"
	"nothing is imported. A batch already in the store (same run name and\n"
	"start time, the same instant however written), or twice in the input,\n"
	"is refused; a refused import creates no store. Interrupted, it imports\n"
	"nothing and removes a store it made. FILE must be a regular file; - reads\n"
	"standard input (to import from a pipe). An input larger than 4 GiB, or\n"
	"with more than 1 MiB of blanks first, or a UTF-8 byte-order mark (which\n"
	"JSON does not allow), is refused.\n",
	NULL,
};

static int compare_batches(const void *pa, const void *pb)
{
	const struct result_batch *a = *(const struct result_batch *const *)pa;
	const struct result_batch *b = *(const struct result_batch *const *)pb;
	int c = strcmp(a->name, b->name);

	return c ? c : strcmp(a->started, b->started);
}

/*
 * A batch twice in the input (one run name and start time, in one file or
 * two) is refused here, before the store is opened: the store would refuse
 * it too, but only once it had made a new store for it.
 */
static int check_distinct_batches(const struct result_set *set, struct error *err)
{
	const struct result_batch **sorted = xcalloc(set->nr_batches + 1, sizeof(*sorted));
	int rc = 0;

	for (size_t i = 0; i < set->nr_batches; i++)
		sorted[i] = &set->batches[i];
	qsort(sorted, set->nr_batches, sizeof(*sorted), compare_batches);
	for (size_t i = 1; i < set->nr_batches && !rc; i++)
		if (!compare_batches(&sorted[i - 1], &sorted[i]))
			rc = error_set(err, EXIT_USAGE, "cannot import: run '%.64s' has two batches "
				       "started at %s in the input (give each file once, and fix "
				       "the file; nothing was imported)", sorted[i]->name,
				       sorted[i]->started);
	free(sorted);
	return rc;
}

/* Whether "-" is among the files twice: the second would read an empty input. */
static bool stdin_twice(int argc, char **argv)
{
	int n = 0;

	for (int i = optind; i < argc; i++)
		n += !strcmp(argv[i], "-");
	return n > 1;
}

static bool import_stopped(void)
{
	return iteration_interrupted() != 0;
}

/*
 * A signal (Ctrl-C, SIGTERM, SIGHUP) stops the import before its next
 * iteration: the one transaction rolls back, and a store the import made
 * goes with it. Caught only after the import had committed, it says so.
 */
static int say_interrupted(int rc, const struct result_set *set)
{
	if (!rc)
		return command_interrupted("the import had ended: its %zu batch%s are kept",
					   set->nr_batches, set->nr_batches == 1 ? "" : "es");
	return command_interrupted("nothing was imported (an import is one transaction)");
}

int cmd_import(int argc, char **argv)
{
	struct result_set set = { NULL, 0 };
	struct store *st = NULL;
	struct error err = { 0 };
	const struct cmd_option options[] = { OPT_END() };
	int code = EXIT_OK, rc = 0;
	bool made = false;

	if (parse_options(argc, argv, options, &import_usage, &code))
		return code;
	if (optind >= argc)
		return command_usage_error("import", "give a schedperf-results/1 JSON file");
	if (stdin_twice(argc, argv))
		return command_usage_error("import", "standard input (-) is given twice: it "
					   "can be read once (give - once)");
	iteration_install_signal_handlers();
	for (int i = optind; i < argc && !rc && !import_stopped(); i++)
		rc = interchange_read(argv[i], &set, &err);
	rc = rc || import_stopped() || check_distinct_batches(&set, &err) ||
	     store_open_made(global.db, &st, &made, &err) ||
	     store_import(st, &set, import_stopped, &err);
	if (import_stopped()) {
		code = say_interrupted(rc, &set);
		goto out;
	}
	if (rc)
		goto fail;
	if (!global.quiet)
		printf("imported %zu batch%s\n", set.nr_batches, set.nr_batches == 1 ? "" : "es");
	goto out;
fail:
	code = error_report(&err);
out:
	result_set_release(&set);
	store_close_made(st, made);
	return code;
}
