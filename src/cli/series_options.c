// SPDX-License-Identifier: GPL-2.0
/*
 * The series options of history, detect and report (series_options.h),
 * declared once so that the commands choose series the same way.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/series.h"
#include "cli/cli.h"
#include "cli/series_options.h"

void series_args_init(struct series_args *a, const char *cmd)
{
	memset(a, 0, sizeof(*a));
	a->cmd = cmd;
	history_options_init(&a->opts);
}

void series_args_release(struct series_args *a)
{
	name_list_release(&a->workloads);
	name_list_release(&a->metrics);
	name_list_release(&a->params);
}

int series_add_workloads(const struct cmd_option *opt, const char *arg)
{
	struct series_args *a = opt->value;

	if (name_list_add_listed(&a->workloads, a->cmd, "--workload", "workload name", arg))
		return EXIT_USAGE;
	a->opts.workloads = (const char *const *)a->workloads.list;
	return 0;
}

int series_add_metrics(const struct cmd_option *opt, const char *arg)
{
	struct series_args *a = opt->value;

	if (name_list_add_listed(&a->metrics, a->cmd, "--metric", "metric name", arg))
		return EXIT_USAGE;
	a->opts.metrics = (const char *const *)a->metrics.list;
	return 0;
}

int series_add_param(const struct cmd_option *opt, const char *arg)
{
	struct series_args *a = opt->value;
	const char *eq = strchr(arg, '=');

	if (!eq || eq == arg)
		return command_usage_error(a->cmd, "-p '%.64s': give KEY=VALUE, e.g. "
					   "-p groups=4", arg);
	name_list_add(&a->params, arg, strlen(arg));
	a->opts.params = (const char *const *)a->params.list;
	return command_check_utf8(a->cmd, "parameter", arg);
}

int series_set_by(const struct cmd_option *opt, const char *arg)
{
	struct series_args *a = opt->value;

	if (!strcmp(arg, "run"))
		a->opts.by = HISTORY_BY_RUN;
	else if (!strcmp(arg, "batch"))
		a->opts.by = HISTORY_BY_BATCH;
	else
		return command_usage_error(a->cmd, "--by '%.32s': give run or batch", arg);
	return 0;
}

int series_set_order(const struct cmd_option *opt, const char *arg)
{
	struct series_args *a = opt->value;

	if (!strcmp(arg, "started"))
		a->opts.order = HISTORY_ORDER_STARTED;
	else if (!strcmp(arg, "name"))
		a->opts.order = HISTORY_ORDER_NAME;
	else if (!strcmp(arg, "version"))
		a->opts.order = HISTORY_ORDER_VERSION;
	else
		return command_usage_error(a->cmd, "--order '%.32s': give started, name "
					   "or version", arg);
	return 0;
}

int series_args_load(const struct series_args *a, struct result_set *set, struct history *h)
{
	struct error err = { 0 };

	if (series_load(global.db, a->machine, &a->opts, a->cmd, set, h, &err))
		return error_report(&err);
	return 0;
}
