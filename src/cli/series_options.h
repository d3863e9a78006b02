/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_CLI_SERIES_OPTIONS_H
#define SCHEDPERF_CLI_SERIES_OPTIONS_H

#include "analysis/history.h"
#include "cli/name_list.h"
#include "cli/options.h"
#include "results/results.h"

/*
 * What history, detect and report --history share: the options that
 * choose the series (--workload, --metric, -p, --by, --order,
 * --all-metrics, --machine, --pool-machines), declared once.
 */

struct series_args {
	const char *cmd;	/* for messages: "history" */
	struct name_list workloads, metrics, params;
	const char *machine;	/* --machine PATTERN, or NULL */
	struct history_options opts;
};

void series_args_init(struct series_args *a, const char *cmd);
void series_args_release(struct series_args *a);

int series_add_workloads(const struct cmd_option *opt, const char *arg);
int series_add_metrics(const struct cmd_option *opt, const char *arg);
int series_add_param(const struct cmd_option *opt, const char *arg);
int series_set_by(const struct cmd_option *opt, const char *arg);
int series_set_order(const struct cmd_option *opt, const char *arg);

/* The rows of an option table that choose series; @a is a struct series_args. */
#define SERIES_OPTIONS(a)							\
	OPT_CALLBACK(0, "workload", (a), "NAME", "only these workloads (repeat, "	\
		     "or a comma list)", series_add_workloads),			\
	OPT_CALLBACK(0, "metric", (a), "NAME", "only these metrics (repeat, or a "	\
		     "comma list)", series_add_metrics),				\
	OPT_CALLBACK('p', "param", (a), "KEY=VALUE", "only benchmarks with this "	\
		     "parameter value (repeat: every one must match)",		\
		     series_add_param),						\
	OPT_CALLBACK(0, "by", (a), "run|batch", "one point per run name, its "	\
		     "batches pooled (default), or one per batch", series_set_by),	\
	OPT_CALLBACK(0, "order", (a), "ORDER", "started (default: first start "	\
		     "time), name, or version (names in kernel release order: 5.9-rc1 < "	\
		     "5.9 < v5.10-rc1 < 5.10)", series_set_order),			\
	OPT_BOOL(0, "all-metrics", &(a)->opts.all_metrics, "also what monitors "	\
		 "measured (rusage: wall, user, system, ...)"),			\
	OPT_MACHINE(&(a)->machine, "only the batches of the machines whose host "	\
		    "name or machine id PATTERN matches (*, ? and [...]), or whose "	\
		    "machine id starts with it (8 characters or more, none of * ? [, "	\
		    "unless it is a machine's whole host name or id; as \"lab1 "	\
		    "(3f2a9c01)\" shows it)"),						\
	OPT_BOOL(0, "pool-machines", &(a)->opts.pool_machines, "one series for "	\
		 "all machines, their samples pooled (default: a series per "	\
		 "machine)")

/*
 * The series @a chooses, of the store --db names (analysis/series.h).
 * Returns 0 or the exit code, the error printed.
 */
int series_args_load(const struct series_args *a, struct result_set *set, struct history *h);

#endif
