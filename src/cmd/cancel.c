// SPDX-License-Identifier: GPL-2.0
/* schedperf cancel: take jobs out of the queue, or stop them running. */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/cmd.h"
#include "store/store.h"
#include "util/parse.h"
#include "util/xalloc.h"

static const struct cmd_usage cancel_usage = {
	"usage: schedperf cancel JOB...\n"
	"\n"
	"Cancel each JOB (an id from 'schedperf jobs'): a queued job is never\n"
	"run; a running one is stopped by its worker at its next lease renewal,\n"
	"its batch left incomplete and unseen. All or none: when one JOB is no\n"
	"such job or has ended, none is cancelled.\n",
	NULL,
};

int cmd_cancel(int argc, char **argv)
{
	const struct cmd_option options[] = { OPT_END() };
	struct store *st = NULL;
	struct error err = { 0 };
	int code = EXIT_OK;
	int64_t *ids;
	size_t n = 0;
	long id;

	if (parse_options(argc, argv, options, &cancel_usage, &code))
		return code;
	if (optind >= argc)
		return command_usage_error("cancel", "give the id of a job (see 'schedperf jobs')");
	/* every id checked before any job is touched, and then all or none cancelled */
	ids = xcalloc((size_t)(argc - optind), sizeof(*ids));
	for (int i = optind; i < argc && !code; i++) {
		if (parse_long(argv[i], &id) || id < 1)
			code = command_usage_error("cancel", "'%.32s' is not a job id: give a "
						   "number from 'schedperf jobs'", argv[i]);
		for (size_t j = 0; j < n && !code; j++)
			if (ids[j] == id)
				code = command_usage_error("cancel", "job %ld is named twice", id);
		ids[n++] = id;
	}
	if (!code && (store_open_queue(global.db, &st, &err) || store_jobs_cancel(st, ids, n, &err)))
		code = error_report(&err);
	store_close(st);
	free(ids);
	return code;
}
