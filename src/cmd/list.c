// SPDX-License-Identifier: GPL-2.0
/* schedperf list: every workload, its parameters and its metrics. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "workload/workload.h"

static const struct cmd_usage list_usage = {
	"usage: schedperf list [WORKLOAD...]\n"
	"\n"
	"List the workloads with their summary, parameters (type, default, range)\n"
	"and metrics (unit, and whether higher or lower is better).\n",
	NULL,
};

static void print_workload(const struct workload *w)
{
	printf("%s\n    %s\n", w->name, w->summary);
	if (w->nr_params)
		printf("  parameters:\n");
	for (size_t i = 0; i < w->nr_params; i++) {
		const struct param_spec *p = &w->params[i];
		char range[256];

		param_describe_range(p, range, sizeof(range));
		printf("    %-12s %-6s default %-10s %-24s %s\n", p->name,
		       p->type == PARAM_INT ? "int" : p->type == PARAM_CHOICE ? "choice" : "text",
		       *p->def ? p->def : "''", range, p->help);
	}
	printf("  metrics:\n");
	for (size_t i = 0; i < w->nr_metrics; i++) {
		const struct metric_spec *m = &w->metrics[i];

		printf("    %-12s %-8s better=%-6s %s\n", m->name, m->unit,
		       better_name(m->better), m->help);
	}
}

int cmd_list(int argc, char **argv)
{
	const struct cmd_option options[] = { OPT_END() };
	int code;

	if (parse_options(argc, argv, options, &list_usage, &code))
		return code;

	if (command_check_utf8_operands("list", "workload name", argc, argv))
		return EXIT_USAGE;
	for (int i = optind; i < argc; i++)
		if (!workload_find(argv[i]))
			return die_code(EXIT_USAGE, "unknown workload '%.64s': not one of "
					"schedperf's workloads (see 'schedperf list')", argv[i]);
	for (const struct workload *const *w = workloads; *w; w++) {
		bool wanted = optind >= argc;

		for (int i = optind; i < argc && !wanted; i++)
			wanted = !strcmp(argv[i], (*w)->name);
		if (!wanted)
			continue;
		if (w != workloads && optind >= argc)
			putchar('\n');
		print_workload(*w);
	}
	return EXIT_OK;
}
