// SPDX-License-Identifier: GPL-2.0
/*
 * How a workload's task ended, said as a failed iteration's reason (see
 * task_end.h): shared by the workloads that fork tasks and reap them.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "workload/task_end.h"

bool task_end_clean(int status)
{
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

bool task_end_is_cause(int status)
{
	return WIFSIGNALED(status) && WTERMSIG(status) != SIGPIPE;
}

void task_end_describe(int status, char *buf, size_t len)
{
	if (WIFSIGNALED(status))
		snprintf(buf, len, "was killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else if (WIFEXITED(status))
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
	else
		snprintf(buf, len, "ended with wait status %#x", status);
}

int task_end_fail(struct error *err, const char *workload, const char *who, int status,
		  const char *more)
{
	char how[96];

	task_end_describe(status, how, sizeof(how));
	error_set(err, EXIT_ENV, "%s: a %s %s%s", workload, who, how, more ? more : "");
	return 1;
}
