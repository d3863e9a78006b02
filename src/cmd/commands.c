// SPDX-License-Identifier: GPL-2.0
/*
 * The command table: every subcommand's name, function and one-line
 * summary. What the commands share of the command line is cli/'s.
 */
#include <string.h>

#include "cmd/cmd.h"

const struct command commands[] = {
	{ "run", cmd_run, "run workloads and store every sample" },
	{ "compare", cmd_compare, "put runs side by side with percent changes" },
	{ "history", cmd_history, "show each benchmark's series over the stored runs" },
	{ "detect", cmd_detect, "find where a series of runs changed (change points)" },
	{ "report", cmd_report, "write runs, their charts and history as one HTML page" },
	{ "ab", cmd_ab, "is B faster than A? sample both until a verdict" },
	{ "bisect", cmd_bisect, "find the commit that made a workload worse, git bisect run by it" },
	{ "bisect-step", cmd_bisect_step, "decide one git bisect step: good, bad or skip" },
	{ "list", cmd_list, "list workloads, their parameters and metrics" },
	{ "runs", cmd_runs, "list the runs in the store and their batches" },
	{ "show", cmd_show, "show one run's benchmarks, samples and environment" },
	{ "env", cmd_env, "print the environment a run would record" },
	{ "export", cmd_export, "write runs as schedperf-results/1 JSON" },
	{ "import", cmd_import, "read schedperf-results/1 JSON into the store" },
	{ "submit", cmd_submit, "queue a run for the workers of the machines it names" },
	{ "jobs", cmd_jobs, "list the job queue: queued, running, done, failed" },
	{ "worker", cmd_worker, "take queued jobs for this machine and run them" },
	{ "cancel", cmd_cancel, "cancel queued or running jobs" },
	{ "db", cmd_db, "create a store, upgrade its schema, or check it" },
	{ "help", cmd_help, "show help for schedperf or one command" },
	{ NULL, NULL, NULL },
};

const struct command *command_find(const char *name)
{
	for (const struct command *c = commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}
