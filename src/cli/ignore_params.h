/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_CLI_IGNORE_PARAMS_H
#define SCHEDPERF_CLI_IGNORE_PARAMS_H

#include <stddef.h>

#include "analysis/comparison.h"
#include "cli/name_list.h"
#include "cli/options.h"

/*
 * --ignore-param NAME of compare and report: rows paired without these
 * benchmark parameters (comparison_build_ignoring()), as benchstat's
 * -ignore pairs them, so that the runs of an ab whose sides differ in a
 * parameter (param:, cmd:) share their rows.
 */
struct ignore_params {
	const char *cmd;	/* for messages: "compare" */
	struct name_list names;	/* .list NULL when none was given */
};

/* An option callback: @opt->value is a struct ignore_params. */
int ignore_params_add(const struct cmd_option *opt, const char *arg);
void ignore_params_release(struct ignore_params *ip);

/*
 * Every name must be a parameter of some benchmark of the runs (a
 * misspelling would pair nothing), and no two benchmarks of one run may
 * have become one row of @cmp (that would pool two experiments): else
 * the error is printed and EXIT_USAGE returned. @run_names: the runs'.
 */
int ignore_params_check(const struct ignore_params *ip, const struct comparison *cmp,
			char **run_names);

#define OPT_IGNORE_PARAM(ip)							\
	OPT_CALLBACK(0, "ignore-param", (ip), "NAME", "pair rows without this "	\
		     "parameter (repeat, or a comma list), e.g. mode for an ab's "	\
		     "sides param:mode=...; listed as param.NAME with the "		\
		     "environment", ignore_params_add)

#endif
