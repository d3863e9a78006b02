// SPDX-License-Identifier: GPL-2.0
/* schedperf env: the environment a run would record now. */
#include <getopt.h>
#include <stdio.h>

#include "cmd/cmd.h"
#include "monitor/environment.h"

const char env_usage[] =
"usage: schedperf env\n"
"\n"
"Print the environment that 'schedperf run' records with each batch: kernel\n"
"release and command line, preempt mode, CPU model and count, SMT, cpufreq\n"
"driver and governor, boost, cpuidle driver, THP, ASLR, scheduler sysctls,\n"
"mitigations, memory and load. Keys this machine does not have are absent.\n";

static const struct option env_options[] = {
	COMMON_LONG_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

int cmd_env(int argc, char **argv)
{
	const struct command *cmd = command_find("env");
	struct result_set set = { NULL, 0 };
	struct result_batch *batch;
	int opt, code = EXIT_OK;

	while ((opt = command_getopt(cmd, argc, argv, "qh", env_options, &code)) != -1)
		if (opt == CMD_OPT_EXIT)
			return code;
	if (optind < argc)
		return command_usage_error("env", "unexpected argument '%.64s'", argv[optind]);
	batch = result_set_add_batch(&set);
	environment_collect(batch);
	for (size_t i = 0; i < batch->nr_env; i++)
		printf("%-40s %s\n", batch->env[i].key, batch->env[i].value);
	result_set_release(&set);
	return EXIT_OK;
}
