// SPDX-License-Identifier: GPL-2.0
/*
 * schedperf run: execute a workload (or a suite) for N iterations on the
 * running kernel and store every sample under a run name.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "cmd/cmd.h"
#include "report/report.h"
#include "runner/plan.h"
#include "runner/runner.h"
#include "runner/suite.h"
#include "store/store.h"
#include "util/parse.h"
#include "util/xalloc.h"

const char run_usage[] =
"usage: schedperf run WORKLOAD [-p KEY=VALUE]... [options]\n"
"   or: schedperf run --suite NAME [options]\n"
"\n"
"Run WORKLOAD for N iterations on the running kernel and store each sample,\n"
"with the iteration's resource usage and the machine's environment, under a\n"
"run name. Running again under the same name adds a batch (after a reboot,\n"
"say); compare pools all batches of a name.\n"
"\n"
"  -p, --param KEY=VALUE  set a workload parameter; a comma list (KEY=A,B)\n"
"                         runs one benchmark per value (see 'schedperf list')\n"
"  -i, --iterations N     measured iterations per benchmark (default 5)\n"
"      --warmup N         warm-up iterations first: stored, marked, never\n"
"                         summarised (default 0)\n"
"      --name NAME        run name (default: the kernel release, uname -r)\n"
"      --replace          discard the earlier batches of NAME first\n"
"      --suite NAME       run a built-in suite instead of one workload: quick\n"
"      --db FILE          results store (default $SCHEDPERF_DB or ./schedperf.db)\n"
"  -q, --quiet            no progress line and no summary\n"
"\n"
"Each iteration runs in its own process group and is committed as soon as it\n"
"ends; Ctrl-C keeps every completed iteration and marks the batch incomplete\n"
"(exit 130). A crashed iteration is recorded as failed and the run goes on.\n";

enum {
	OPT_WARMUP = OPT_COMMAND_BASE,
	OPT_NAME,
	OPT_REPLACE,
	OPT_SUITE,
};

static const struct option run_options[] = {
	{ "param", required_argument, NULL, 'p' },
	{ "iterations", required_argument, NULL, 'i' },
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ "name", required_argument, NULL, OPT_NAME },
	{ "replace", no_argument, NULL, OPT_REPLACE },
	{ "suite", required_argument, NULL, OPT_SUITE },
	COMMON_LONG_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

static int parse_count(const char *opt, const char *arg, long min, long max, int *out)
{
	long v;

	if (parse_long(arg, &v) || v < min || v > max)
		return command_usage_error("run", "%s '%.32s' is not a whole number in %ld..%ld",
					   opt, arg, min, max);
	*out = (int)v;
	return 0;
}

static const char *default_run_name(void)
{
	static struct utsname uts;

	if (uname(&uts))
		return "unknown-kernel";
	return uts.release;
}

static int check_run_name(const char *name)
{
	if (!*name || strlen(name) > 200)
		return command_usage_error("run", "run name must have 1 to 200 characters");
	for (const char *p = name; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return command_usage_error("run", "run name contains control characters");
	return 0;
}

static void print_outcome(const struct runner_result *res, const struct runner_options *opt)
{
	if (res->iterations_failed)
		fprintf(stderr, "schedperf: warning: %zu of %zu iterations failed (they are "
			"stored as failures; see 'schedperf show %s')\n",
			res->iterations_failed, res->iterations_done, opt->name);
}

static int show_batch(struct store *st, const char *name, int64_t batch_id)
{
	struct result_set set = { NULL, 0 };
	struct error err = { 0 };

	if (store_load(st, name, true, &set, &err))
		return error_report(&err);
	for (size_t i = 0; i < set.nr_batches; i++)
		if (set.batches[i].id == batch_id)
			report_batch_summary(stdout, &set.batches[i]);
	result_set_release(&set);
	return 0;
}

int cmd_run(int argc, char **argv)
{
	const struct command *cmd = command_find("run");
	struct runner_options opt = { NULL, 5, 0, false, false };
	struct runner_result res;
	struct plan plan = { NULL, 0 };
	struct store *st = NULL;
	struct error err = { 0 };
	const char *suite = NULL;
	char **params = xcalloc((size_t)argc, sizeof(char *));
	size_t nr_params = 0;
	int opt_code, code = EXIT_OK;

	while ((opt_code = command_getopt(cmd, argc, argv, "p:i:qh", run_options, &code)) != -1) {
		switch (opt_code) {
		case CMD_OPT_EXIT:
			goto out;
		case 'p':
			params[nr_params++] = optarg;
			break;
		case 'i':
			if ((code = parse_count("--iterations", optarg, 1, 1000000, &opt.iterations)))
				goto out;
			break;
		case OPT_WARMUP:
			if ((code = parse_count("--warmup", optarg, 0, 1000000, &opt.warmup)))
				goto out;
			break;
		case OPT_NAME:
			opt.name = optarg;
			break;
		case OPT_REPLACE:
			opt.replace = true;
			break;
		case OPT_SUITE:
			suite = optarg;
			break;
		}
	}
	opt.quiet = global.quiet;
	if (!opt.name)
		opt.name = default_run_name();
	if ((code = check_run_name(opt.name)))
		goto out;

	if (suite) {
		if (optind < argc || nr_params) {
			code = command_usage_error("run", "--suite runs its own workloads and "
						   "parameters; give no WORKLOAD or -p with it");
			goto out;
		}
		if (suite_plan(suite, &plan, &err))
			goto fail;
	} else {
		const struct workload *w;

		if (optind >= argc) {
			code = command_usage_error("run", "no workload given: name one "
						   "(see 'schedperf list') or give --suite quick");
			goto out;
		}
		if (optind + 1 < argc) {
			code = command_usage_error("run", "one workload at a time: unexpected "
						   "'%.64s'", argv[optind + 1]);
			goto out;
		}
		w = workload_find(argv[optind]);
		if (!w) {
			code = die_code(EXIT_USAGE, "unknown workload '%.64s': not one of schedperf's "
					"workloads (see 'schedperf list')", argv[optind]);
			goto out;
		}
		if (plan_add(&plan, w, params, nr_params, &err))
			goto fail;
	}

	if (store_open(global.db, &st, &err))
		goto fail;
	if (runner_execute(st, &plan, &opt, &res, &err)) {
		print_outcome(&res, &opt);
		if (res.signal) {
			fprintf(stderr, "schedperf: interrupted: %zu completed iterations are kept; "
				"batch %lld of run '%s' is marked incomplete\n", res.iterations_done,
				(long long)res.batch_id, opt.name);
			code = 128 + res.signal;
			goto out;
		}
		goto fail;
	}
	print_outcome(&res, &opt);
	if (!opt.quiet)
		code = show_batch(st, opt.name, res.batch_id);
	goto out;
fail:
	code = error_report(&err);
out:
	store_close(st);
	plan_release(&plan);
	free(params);
	return code;
}
