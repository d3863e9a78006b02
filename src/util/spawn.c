// SPDX-License-Identifier: GPL-2.0
/* Running schedperf itself in a child process (spawn.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/spawn.h"

pid_t spawn_self(char *const argv[], int out_fd, int err_fd, bool die_with_parent,
		 char *const env[])
{
	pid_t parent = getpid(), pid = fork();

	if (pid)
		return pid;
	if (die_with_parent && (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent))
		_exit(127);	/* the parent is gone already */
	if (out_fd == -2)
		out_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if ((out_fd >= 0 && dup2(out_fd, STDOUT_FILENO) < 0) ||
	    (err_fd >= 0 && dup2(err_fd, STDERR_FILENO) < 0))
		_exit(127);
	/* ours (a worker's --db of its environment) is not the child's: @env says its own */
	spawn_hide_own_env();
	for (char *const *e = env; e && *e; e++)
		if (putenv(*e))
			_exit(127);
	execv("/proc/self/exe", argv);
	_exit(127);
}

int spawn_wait_signaled(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFSIGNALED(status))
		return SPAWN_SIGNALED(WTERMSIG(status));
	return WEXITSTATUS(status);
}

int spawn_wait(pid_t pid)
{
	int code = spawn_wait_signaled(pid);

	return code >= SPAWN_SIGNALED(0) ? code - SPAWN_SIGNALED(0) + 128 : code;
}

void spawn_hide_own_env(void)
{
	unsetenv("SCHEDPERF_DB");
}
