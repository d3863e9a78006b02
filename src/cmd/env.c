// SPDX-License-Identifier: GPL-2.0
/* schedperf env: the environment a run would record now. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/cmd.h"
#include "util/error.h"
#include "monitor/env_check.h"
#include "monitor/environment.h"
#include "util/array.h"

static const struct cmd_usage env_usage = {
	"usage: schedperf env [--check]\n"
	"\n"
	"Print the environment that 'schedperf run' records with each batch: kernel\n"
	"release and command line, preempt mode, CPU model and count, SMT, cpufreq\n"
	"driver and governor, boost, cpuidle driver, THP, ASLR, scheduler sysctls,\n"
	"mitigations, memory and load. Keys this machine does not have are absent.\n",
	NULL,
};

static int print_check(void)
{
	struct env_finding findings[32];
	/* Tests point this at a fake /proc and /sys; people never need it. */
	const char *root = getenv("SCHEDPERF_SYSROOT");
	size_t n = env_check(root, findings, ARRAY_SIZE(findings));

	for (size_t i = 0; i < n && i < ARRAY_SIZE(findings); i++)
		printf("warning: %s: %s (%s)\n", findings[i].what, findings[i].why,
		       findings[i].fix);
	if (!n)
		printf("no setup problems found\n");
	return n ? EXIT_FOUND : EXIT_OK;
}

int cmd_env(int argc, char **argv)
{
	struct result_set set = { NULL, 0 };
	struct result_batch *batch;
	bool check = false;
	const struct cmd_option options[] = {
		OPT_BOOL(0, "check", &check, "instead, warn about setups that make numbers "
			 "noisy or misleading, each with the reason and the fix: a governor "
			 "other than performance, boost or turbo on, a busy machine or busy "
			 "SMT siblings, THP always, latencytop, schedstats, lockdep or KASAN, "
			 "a virtual machine, fewer than 2 CPUs. Exit 1 when there is any "
			 "warning, 0 when there is none."),
		OPT_END(),
	};
	int code;

	if (parse_options(argc, argv, options, &env_usage, &code))
		return code;
	if (optind < argc)
		return command_usage_error("env", "unexpected argument '%.64s'", argv[optind]);
	if (check)
		return print_check();
	batch = result_set_add_batch(&set);
	environment_collect(batch);
	for (size_t i = 0; i < batch->nr_env; i++)
		printf("%-40s %s\n", batch->env[i].key, batch->env[i].value);
	result_set_release(&set);
	return EXIT_OK;
}
