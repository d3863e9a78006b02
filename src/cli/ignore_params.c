// SPDX-License-Identifier: GPL-2.0
/*
 * --ignore-param: which parameters rows are paired without, and the two
 * mistakes that must not pass for a comparison, a name no benchmark has
 * and two benchmarks of one run pooled into one row.
 */
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/ignore_params.h"
#include "report/report.h"
#include "util/utf8.h"

int ignore_params_add(const struct cmd_option *opt, const char *arg)
{
	struct ignore_params *ip = opt->value;

	return name_list_add_listed(&ip->names, ip->cmd, "--ignore-param", "parameter name",
				    arg);
}

void ignore_params_release(struct ignore_params *ip)
{
	name_list_release(&ip->names);
}

int ignore_params_check(const struct ignore_params *ip, const struct comparison *cmp,
			char **run_names)
{
	const char *unknown = comparison_ignored_unknown(cmp);
	const struct compare_row *row = comparison_clash(cmp);
	char *one, *two, *workload;
	int code;

	if (unknown)
		return die_code(EXIT_USAGE, "%s: --ignore-param '%.64s' is a parameter of none "
				"of the runs' benchmarks (see 'schedperf show %.64s' for their "
				"parameters)", ip->cmd, unknown, run_names[0]);
	if (!row)
		return EXIT_OK;
	one = params_display(row->cells[row->clash_run].params);
	two = params_display(row->clash);
	/* the rows hold it as stored: shown as every table shows it, not as '?' */
	workload = utf8_escaped(row->workload);
	code = die_code(EXIT_USAGE, "%s: --ignore-param would pool two benchmarks of run "
			"'%.64s' in one row, %s %s and %s %s (it pairs runs of one benchmark "
			"each, as ab's sides are: compare these without it)", ip->cmd,
			run_names[row->clash_run], workload, one, workload, two);
	free(workload);
	free(one);
	free(two);
	return code;
}
