// SPDX-License-Identifier: GPL-2.0
/* The sequential procedure's options (sequential_options.h). */
#include "cli/cli.h"
#include "cli/sequential_options.h"
#include "stats/sequential.h"
#include "util/xalloc.h"

int sequential_add_param(const struct cmd_option *opt, const char *arg)
{
	struct sequential_options *so = opt->value;

	so->params = xreallocarray(so->params, so->nr_params + 1, sizeof(char *));
	so->params[so->nr_params++] = arg;
	return 0;
}

int sequential_set_metric(const struct cmd_option *opt, const char *arg)
{
	struct sequential_options *so = opt->value;

	if (!*arg)
		return command_usage_error(opt->cmd, "--metric '': give the name of one of the "
					   "workload's metrics (see 'schedperf list')");
	so->metric = arg;
	return 0;
}

int sequential_check_utf8(const char *cmd, const struct sequential_options *so)
{
	int code = 0;

	/* ab stores NAME-a and NAME-b: room for the suffix. */
	if (so->name)
		code = command_check_run_name(cmd, "run name", so->name, RUN_NAME_MAX - 2);
	for (size_t i = 0; i < so->nr_params && !code; i++)
		code = command_check_utf8(cmd, "parameter", so->params[i]);
	if (!code && so->metric)
		code = command_check_utf8(cmd, "--metric", so->metric);
	return code;
}

int sequential_check_max_samples(const char *cmd, const struct sequential_options *so,
				 bool given)
{
	int least = seqcs_min_samples(so->alpha);

	if (so->max_samples >= least)
		return 0;
	if (!given)
		return command_usage_error(cmd, "the default cap of %d samples is too few at "
					   "--alpha %g: no verdict can come in fewer than %d "
					   "(give --max-samples %d or more)",
					   so->max_samples, so->alpha, least, least);
	return command_usage_error(cmd, "--max-samples %d is too few at --alpha %g: no verdict "
				   "can come in fewer than %d (give at least that)",
				   so->max_samples, so->alpha, least);
}
