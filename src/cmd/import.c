// SPDX-License-Identifier: GPL-2.0
/* schedperf import: schedperf-results/1 JSON into the store, all or nothing. */
#include <getopt.h>
#include <stdio.h>

#include "cmd/cmd.h"
#include "interchange/interchange.h"
#include "store/store.h"

static const struct cmd_usage import_usage = {
	"usage: schedperf import FILE...|-\n"
	"\n"
	"Read schedperf-results/1 JSON (as 'schedperf export' writes it, or\n"
	"converted from another tool: any workload name is accepted) into the store.\n"
	"Everything is validated first (types, finite numbers, non-empty samples,\n"
	"better = higher|lower); one bad value and nothing is imported. A batch\n"
	"already in the store (same run name and start time) is refused. FILE must\n"
	"be a regular file; - reads standard input (to import from a pipe).\n",
	NULL,
};

int cmd_import(int argc, char **argv)
{
	struct result_set set = { NULL, 0 };
	struct store *st = NULL;
	struct error err = { 0 };
	const struct cmd_option options[] = { OPT_END() };
	int code = EXIT_OK;

	if (parse_options(argc, argv, options, &import_usage, &code))
		return code;
	if (optind >= argc)
		return command_usage_error("import", "give a schedperf-results/1 JSON file");
	for (int i = optind; i < argc; i++)
		if (interchange_read(argv[i], &set, &err))
			goto fail;
	if (store_open(global.db, &st, &err) || store_import(st, &set, &err))
		goto fail;
	if (!global.quiet)
		printf("imported %zu batch%s\n", set.nr_batches, set.nr_batches == 1 ? "" : "es");
	goto out;
fail:
	code = error_report(&err);
out:
	result_set_release(&set);
	store_close(st);
	return code;
}
