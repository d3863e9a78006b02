/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_CLI_SEQUENTIAL_OPTIONS_H
#define SCHEDPERF_CLI_SEQUENTIAL_OPTIONS_H

#include "cli/options.h"
#include "experiment/sampling.h"

/*
 * The options of the sequential procedure that ab, bisect-step and bisect
 * share (experiment/sampling.h's struct sequential_options), declared once.
 */

int sequential_add_param(const struct cmd_option *opt, const char *arg);
/* --metric NAME: an empty name is refused here, not later as a metric no workload has. */
int sequential_set_metric(const struct cmd_option *opt, const char *arg);
/* The usage error when --name, a -p or --metric is not UTF-8 (stored names and values must be). */
int sequential_check_utf8(const char *cmd, const struct sequential_options *so);

/*
 * Refuse a --max-samples below which no verdict can come at the --alpha
 * given (seqcs_min_samples(): 7 at 0.05, 10 at 0.01), as the number it
 * is, with that least; ab, bisect-step and bisect alike. The option's own
 * range starts at 1, so that this check, which knows the alpha, is the
 * one that says so. @given: whether the user gave --max-samples; a
 * default cap too few is named as the default, with the option to give.
 */
int sequential_check_max_samples(const char *cmd, const struct sequential_options *so,
				 bool given);

/* The option rows the commands share (put inside the command's table). */
#define SEQUENTIAL_OPTIONS(so) SEQUENTIAL_OPTIONS_ALPHA(so, "0.05", \
	"; at least 7, 10 at --alpha 0.01")
/*
 * The same where --alpha's default is another (@alpha_text: its text),
 * and @min_text what the help says of the fewest --max-samples.
 */
#define SEQUENTIAL_OPTIONS_ALPHA(so, alpha_text, min_text)			\
	OPT_CALLBACK('p', "param", (so), "KEY=VALUE", "set a workload parameter "\
		     "(one value each; see 'schedperf list')", sequential_add_param),	\
	OPT_ALPHA(&(so)->alpha, "the chance of a wrong verdict, over every look at "	\
		  "the data (default " alpha_text ")"),				\
	OPT_MARGIN(&(so)->margin_pct, "changes within +-PCT percent count as no "	\
		   "change (default 2)"),						\
	OPT_INTEGER(0, "max-samples", &(so)->max_samples, "N", 1, 1000000,		\
		    "stop undecided after N samples per side (default 200" min_text ")"),\
	OPT_NUMBER(0, "max-time", &(so)->max_time, "SEC", 0, 1e9, "stop "	\
		   "undecided after SEC seconds (default: no limit)"),		\
	OPT_TIMEOUT(&(so)->timeout, "kill an iteration's process group after "	\
		    "SEC seconds (at most 604800, 7 days; it fails)"),		\
	OPT_CALLBACK(0, "metric", (so), "NAME", "decide on this metric "	\
		     "(default: the benchmark's first, e.g. metric_regex's)",		\
		     sequential_set_metric)

#endif
