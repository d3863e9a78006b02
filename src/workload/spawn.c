// SPDX-License-Identifier: GPL-2.0
/*
 * spawn: a stream of short-lived processes, as a shell-script test suite
 * (git's, MMTests' workload-shellscripts) produces: `count` runs of a tiny
 * program, at most `parallel` alive at once, each started with
 * posix_spawn, directly (via=spawn) or through `/bin/sh -c` (via=shell,
 * one more exec per run, as a test suite's commands are).
 *
 * What it measures is the cost of process creation, exec, exit and reaping
 * including where the scheduler places each new task (fork and exec
 * placement changes have regressed exactly these workloads). The clock
 * starts before the first spawn and stops when the last child is reaped.
 * The program is schedperf's own exec helper, never user input.
 */
#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/array.h"
#include "util/timeutil.h"
#include "workload/exec_helper.h"
#include "workload/task_end.h"
#include "workload/workload.h"

extern char **environ;

enum {
	SPAWN_PARAM_COUNT,
	SPAWN_PARAM_PARALLEL,
	SPAWN_PARAM_VIA,
	NR_SPAWN_PARAMS,
};

enum spawn_via { SPAWN_VIA_SPAWN, SPAWN_VIA_SHELL };

static const char *const via_choices[] = { "spawn", "shell", NULL };

static const struct param_spec spawn_params[NR_SPAWN_PARAMS] = {
	[SPAWN_PARAM_COUNT] = { "count", PARAM_INT, "1000", 1, 10000000, NULL,
		"processes to run in all" },
	[SPAWN_PARAM_PARALLEL] = { "parallel", PARAM_INT, "1", 1, 4096, NULL,
		"at most this many alive at once (make -j of a test suite)" },
	[SPAWN_PARAM_VIA] = { "via", PARAM_CHOICE, "spawn", 0, 0, via_choices,
		"spawn: posix_spawn the program; shell: posix_spawn /bin/sh -c program" },
};

static const struct metric_spec spawn_metrics[] = {
	{ "seconds", "s", BETTER_LOWER, "time to run and reap every process" },
};

/* What one spawn executes, built once before the clock starts. */
struct spawn_command {
	const char *path;
	char *argv[4];
	char quoted[PATH_MAX + 3];	/* the helper path as one shell word */
};

static int spawn_check(const struct param_value *values,
		       struct workload_needs *needs, struct error *err)
{
	long parallel = values[SPAWN_PARAM_PARALLEL].num;

	if (parallel > values[SPAWN_PARAM_COUNT].num)
		return error_set(err, EXIT_USAGE,
			"bad value for parameter 'parallel': %ld is more than count=%ld "
			"(give parallel <= count)", parallel, values[SPAWN_PARAM_COUNT].num);
	needs->tasks = parallel + 1;
	needs->fds = 0;
	return 0;
}

static int build_command(struct spawn_command *cmd, const char *helper,
			 enum spawn_via via, struct error *err)
{
	if (via == SPAWN_VIA_SPAWN) {
		cmd->path = helper;
		cmd->argv[0] = (char *)helper;
		cmd->argv[1] = NULL;
		return 0;
	}
	/* Single quotes make the path one word; a quote inside would end it. */
	if (strchr(helper, '\''))
		return error_set(err, EXIT_ENV,
			"spawn: the exec helper path %s contains a single quote "
			"(install schedperf in a directory without one)", helper);
	snprintf(cmd->quoted, sizeof(cmd->quoted), "'%s'", helper);
	cmd->path = "/bin/sh";
	cmd->argv[0] = (char *)"sh";
	cmd->argv[1] = (char *)"-c";
	cmd->argv[2] = cmd->quoted;
	cmd->argv[3] = NULL;
	return 0;
}

/*
 * Reap one of our children; returns 0, or -1 when none was left. One that
 * ended abnormally counts in @failed; the first killed by a signal, if
 * any, has its status in @killed.
 */
static int reap_one(long *failed, int *killed)
{
	int status;
	pid_t pid;

	do
		pid = waitpid(-1, &status, 0);
	while (pid < 0 && errno == EINTR);
	if (pid < 0)
		return -1;
	if (task_end_clean(status))
		return 0;
	(*failed)++;
	if (WIFSIGNALED(status) && !*killed)
		*killed = status;
	return 0;
}

static int spawn_all(const struct spawn_command *cmd, long count, long parallel,
		     struct error *err)
{
	long started = 0, alive = 0, failed = 0;
	int ret = 0, killed = 0;
	char more[64];

	while (started < count) {
		pid_t pid;

		if (alive == parallel) {
			if (reap_one(&failed, &killed))
				break;
			alive--;
		}
		ret = posix_spawn(&pid, cmd->path, NULL, NULL, cmd->argv, environ);
		if (ret)
			break;
		started++;
		alive++;
	}
	/* Also on failure: nothing we started may outlive us. */
	while (alive > 0 && !reap_one(&failed, &killed))
		alive--;
	if (ret)
		return error_set(err, EXIT_ENV,
			"spawn: cannot start process %ld of %ld (%s): %s (raise the "
			"process limit, ulimit -u, or kernel.threads-max)",
			started + 1, count, cmd->path, strerror(ret));
	if (!failed)
		return 0;
	/* Killed from outside: this iteration fails, the run goes on. */
	snprintf(more, sizeof(more), "; %ld of %ld failed", failed, count);
	if (killed)
		return task_end_fail(err, "spawn", "spawned process", killed, more);
	/* schedperf's own helper exited with an error: its bug, not the machine's. */
	return error_set(err, EXIT_INTERNAL,
		"spawn: %ld of %ld processes failed (%s did not run or exited with an error)",
		failed, count, cmd->path);
}

static int spawn_run(const struct param_value *values, double *metrics,
		     struct error *err)
{
	struct spawn_command cmd;
	char helper[PATH_MAX];
	double start;
	int ret;

	if (exec_helper_find(helper, sizeof(helper), err) ||
	    build_command(&cmd, helper, (enum spawn_via)values[SPAWN_PARAM_VIA].num, err))
		return -1;
	start = time_now();
	ret = spawn_all(&cmd, values[SPAWN_PARAM_COUNT].num, values[SPAWN_PARAM_PARALLEL].num,
			err);
	if (ret)
		return ret;
	metrics[0] = time_now() - start;
	return 0;
}

const struct workload workload_spawn = {
	.name = "spawn",
	.summary = "a test-suite-like stream of short-lived processes (posix_spawn, or sh -c)",
	.params = spawn_params,
	.nr_params = NR_SPAWN_PARAMS,
	.metrics = spawn_metrics,
	.nr_metrics = ARRAY_SIZE(spawn_metrics),
	.check = spawn_check,
	.ready = exec_helper_ready,
	.run = spawn_run,
};
