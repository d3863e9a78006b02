// SPDX-License-Identifier: GPL-2.0
/*
 * schedperf worker: its command line. The worker itself, which takes the
 * queue's jobs, runs them and boots the kernels they need, is fleet/'s
 * (fleet/worker.h).
 */
#include <getopt.h>
#include <string.h>

#include "cmd/cmd.h"
#include "fleet/worker.h"
#include "store/store.h"

static const struct cmd_usage worker_usage = {
	"usage: schedperf worker [--once] [--idle-exit SEC] [--lease SEC]\n"
	"                        [--boot-cmd CMD [--boot-timeout SEC]\n"
	"                         [--home-kernel REL [--home-after SEC]]]\n"
	"\n"
	"Take the jobs that 'schedperf submit' queued for this machine (its host\n"
	"name), highest priority first, and run each: a run, an ab or a\n"
	"bisect-step, whose verdict the job keeps. A job is held with a lease\n"
	"that the worker renews while the run goes on; a worker that dies loses\n"
	"it, and another worker runs the job again once the lease is over. A\n"
	"worker stopped by SIGTERM, SIGINT or SIGHUP gives its job back at once\n"
	"(queued again, the attempt not counted). A store unreachable for less\n"
	"than the lease (a restart of PostgreSQL) is ridden out: said once, and\n"
	"once when it is back, the job kept; when it is longer, the job's run is\n"
	"stopped, nothing of it stored, and the job runs again on another worker.\n"
	"One worker runs on a machine: it holds /run/schedperf-worker.lock while\n"
	"it lives (a worker killed frees it), and a second one is refused at its\n"
	"start (exit 3), naming the first one's pid: two would measure at once.\n"
	"Needs a PostgreSQL store.\n",
	"A job that needs a kernel (submit --kernel, a kernel bisection's) is taken\n"
	"only by a worker that runs that kernel or has --boot-cmd: the worker marks\n"
	"the job as waiting for the boot, in the store, and runs CMD with the\n"
	"release as $1, which installs and boots it (the machine reboots). The\n"
	"worker started after the boot (contrib/schedperf-worker.service) finds the\n"
	"job and runs it if the machine runs that release; a machine that came back\n"
	"on another, or not within --boot-timeout, fails the job with the reason.\n"
	"Until the machine's boot id changes, the worker whose boot command runs\n"
	"keeps the job with its lease; a worker lost in it leaves a lost job, and\n"
	"one whose stop cuts it short gives the job back.\n"
	"--home-kernel is the machine's default: booted again after --home-after\n"
	"seconds without a job.\n",
};

/* A release as submit --kernel takes it: the worker compares it with uname -r. */
static int set_home_kernel(const struct cmd_option *opt, const char *arg)
{
	*(const char **)opt->value = arg;
	return command_check_release("worker", "--home-kernel release", arg);
}

/* An empty command would return at once, without a boot, each job failing after it. */
static int set_boot_cmd(const struct cmd_option *opt, const char *arg)
{
	*(const char **)opt->value = arg;
	if (!arg[strspn(arg, " \t\n")])
		return command_usage_error("worker", "--boot-cmd is empty: give the shell "
					   "command that installs and boots the release $1");
	return 0;
}

int cmd_worker(int argc, char **argv)
{
	/* -1: not given, for the options that need another (then their defaults) */
	struct worker_options opt = { false, 0, 300, { NULL, -1, NULL, -1 } };
	const struct cmd_option options[] = {
		OPT_BOOL(0, "once", &opt.once, "run at most one job, then exit"),
		OPT_INTEGER(0, "idle-exit", &opt.idle_exit, "SEC", 1, 100000000,
			    "exit after SEC seconds without a job (default: never)"),
		OPT_INTEGER(0, "lease", &opt.lease, "SEC", 1, 86400,
			    "hold each job this long between renewals of the lease, which "
			    "come every third of it (default 300)"),
		OPT_CALLBACK(0, "boot-cmd", &opt.boot.cmd, "CMD", "a shell command that "
			     "installs and boots the kernel release given as $1, for jobs that "
			     "need one", set_boot_cmd),
		OPT_INTEGER(0, "boot-timeout", &opt.boot.timeout, "SEC", 1, 86400, "a boot not "
			    "done within SEC, its command's time included, fails the job (default "
			    "600)"),
		OPT_CALLBACK(0, "home-kernel", &opt.boot.home_kernel, "REL", "the machine's "
			     "default kernel, booted with --boot-cmd when no job needs another",
			     set_home_kernel),
		OPT_INTEGER(0, "home-after", &opt.boot.home_after, "SEC", 0, 86400, "boot the "
			    "default kernel after SEC seconds without a job (default 60)"),
		OPT_END(),
	};
	struct store *st = NULL;
	struct error err = { 0 };
	int code = EXIT_OK;

	if (parse_options(argc, argv, options, &worker_usage, &code))
		return code;
	if (optind < argc)
		return command_usage_error("worker", "unexpected '%.64s'", argv[optind]);
	if (opt.boot.home_kernel && !opt.boot.cmd)
		return command_usage_error("worker", "--home-kernel is booted with --boot-cmd: "
					   "give both");
	if (opt.boot.timeout >= 0 && !opt.boot.cmd)
		return command_usage_error("worker", "--boot-timeout is how long a boot by "
					   "--boot-cmd may take: give both");
	if (opt.boot.home_after >= 0 && !opt.boot.home_kernel)
		return command_usage_error("worker", "--home-after is when --home-kernel is "
					   "booted: give both");
	opt.boot.timeout = opt.boot.timeout < 0 ? 600 : opt.boot.timeout;
	opt.boot.home_after = opt.boot.home_after < 0 ? 60 : opt.boot.home_after;
	if (store_open_queue(global.db, &st, &err))
		return error_report(&err);
	/* Before any job, even the one a reboot was for: one worker a machine. */
	if (worker_lock_take(&err))
		code = error_report(&err);
	else
		code = worker_work(st, &opt);
	store_close(st);
	return code;
}
