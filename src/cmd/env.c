// SPDX-License-Identifier: GPL-2.0
/* schedperf env: the environment a run would record now. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/cmd.h"
#include "monitor/env_check.h"
#include "monitor/environment.h"

const char env_usage[] =
"usage: schedperf env [--check]\n"
"\n"
"Print the environment that 'schedperf run' records with each batch: kernel\n"
"release and command line, preempt mode, CPU model and count, SMT, cpufreq\n"
"driver and governor, boost, cpuidle driver, THP, ASLR, scheduler sysctls,\n"
"mitigations, memory and load. Keys this machine does not have are absent.\n"
"\n"
"      --check   instead, warn about setups that make numbers noisy or\n"
"                misleading, each with the reason and the fix: a governor\n"
"                other than performance, boost or turbo on, a busy machine\n"
"                or busy SMT siblings, THP always, latencytop, schedstats,\n"
"                lockdep or KASAN, a virtual machine, fewer than 2 CPUs.\n"
"                Exit 1 when there is any warning, 0 when there is none.\n";

enum { OPT_CHECK = OPT_COMMAND_BASE };

static const struct option env_options[] = {
	{ "check", no_argument, NULL, OPT_CHECK },
	COMMON_LONG_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

static int print_check(void)
{
	struct env_finding findings[32];
	/* Tests point this at a fake /proc and /sys; people never need it. */
	const char *root = getenv("SCHEDPERF_SYSROOT");
	size_t n = env_check(root, findings, 32);

	for (size_t i = 0; i < n && i < 32; i++)
		printf("warning: %s: %s (%s)\n", findings[i].what, findings[i].why,
		       findings[i].fix);
	if (!n)
		printf("no setup problems found\n");
	return n ? EXIT_FOUND : EXIT_OK;
}

int cmd_env(int argc, char **argv)
{
	const struct command *cmd = command_find("env");
	struct result_set set = { NULL, 0 };
	struct result_batch *batch;
	bool check = false;
	int opt, code = EXIT_OK;

	while ((opt = command_getopt(cmd, argc, argv, "qh", env_options, &code)) != -1) {
		if (opt == CMD_OPT_EXIT)
			return code;
		if (opt == OPT_CHECK)
			check = true;
	}
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
