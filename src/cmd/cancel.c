// SPDX-License-Identifier: GPL-2.0
/* schedperf cancel: take jobs out of the queue, or stop them running. */
#include <getopt.h>
#include <stdio.h>

#include "cmd/cmd.h"
#include "store/store.h"
#include "util/parse.h"

static const struct cmd_usage cancel_usage = {
	"usage: schedperf cancel JOB...\n"
	"\n"
	"Cancel each JOB (an id from 'schedperf jobs'): a queued job is never\n"
	"run; a running one is stopped by its worker at its next lease renewal,\n"
	"its batch left incomplete and unseen.\n",
	NULL,
};

int cmd_cancel(int argc, char **argv)
{
	const struct cmd_option options[] = { OPT_END() };
	struct store *st = NULL;
	struct error err = { 0 };
	int code = EXIT_OK;
	long id;

	if (parse_options(argc, argv, options, &cancel_usage, &code))
		return code;
	if (optind >= argc)
		return command_usage_error("cancel", "give the id of a job (see 'schedperf jobs')");
	for (int i = optind; i < argc; i++)
		if (parse_long(argv[i], &id) || id < 1)
			return command_usage_error("cancel", "'%.32s' is not a job id: give a "
						   "number from 'schedperf jobs'", argv[i]);
	if (store_open(global.db, &st, &err))
		goto fail;
	for (int i = optind; i < argc; i++) {
		parse_long(argv[i], &id);
		if (store_job_cancel(st, id, &err))
			goto fail;
	}
	goto out;
fail:
	code = error_report(&err);
out:
	store_close(st);
	return code;
}
