// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner/iteration.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

/* What the child sends back through its pipe, before the metric values. */
struct child_report {
	int status;		/* 0, or -1 with error filled */
	struct error error;
};

static volatile sig_atomic_t interrupted;
static volatile pid_t running_group;

static void on_signal(int sig)
{
	interrupted = sig;
	if (running_group > 0)
		kill(-running_group, SIGKILL);
}

void iteration_install_signal_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int iteration_interrupted(void)
{
	return interrupted;
}

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static ssize_t read_all(int fd, void *buf, size_t len)
{
	char *p = buf;
	size_t done = 0;

	while (done < len) {
		ssize_t n = read(fd, p + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

static void __attribute__((noreturn))
child_main(const struct workload *w, const struct param_value *values, int fd)
{
	struct child_report report;
	double *metrics = xcalloc(w->nr_metrics, sizeof(double));

	/* The parent's handlers must not run here; default actions apply. */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	memset(&report, 0, sizeof(report));
	for (size_t i = 0; i < w->nr_metrics; i++)
		metrics[i] = NAN;
	report.status = w->run(values, metrics, &report.error);
	if (write_all(fd, &report, sizeof(report)) ||
	    write_all(fd, metrics, w->nr_metrics * sizeof(double)))
		_exit(EXIT_INTERNAL);
	_exit(0);
}

static void describe_status(int status, char *buf, size_t len)
{
	if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else if (WIFEXITED(status))
		snprintf(buf, len, "exited with status %d before reporting",
			 WEXITSTATUS(status));
	else
		snprintf(buf, len, "ended with wait status %#x", status);
}

int iteration_run(const struct workload *w, const struct param_value *values,
		  struct iteration_outcome *out, struct error *err)
{
	struct child_report report;
	struct rusage ru;
	int fds[2], status = 0;
	double start, wall;
	ssize_t got;
	pid_t pid;

	out->failed = false;
	out->failure[0] = '\0';
	if (interrupted)
		return error_set(err, EXIT_ENV, "interrupted by signal %d", interrupted);
	if (pipe2(fds, O_CLOEXEC))
		return error_set(err, EXIT_ENV, "cannot create a pipe for an iteration: %s "
				 "(raise 'ulimit -n')", strerror(errno));
	fflush(NULL);
	start = time_now();
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return error_set(err, EXIT_ENV, "cannot fork an iteration: %s "
				 "(raise 'ulimit -u' or free memory)", strerror(errno));
	}
	if (pid == 0) {
		setpgid(0, 0);
		close(fds[0]);
		child_main(w, values, fds[1]);
	}
	/* Both sides set the group, so a signal right after fork finds it. */
	setpgid(pid, pid);
	running_group = pid;
	close(fds[1]);

	got = read_all(fds[0], &report, sizeof(report));
	if (got == (ssize_t)sizeof(report))
		got = read_all(fds[0], out->metrics, w->nr_metrics * sizeof(double));
	else
		got = -1;
	close(fds[0]);
	while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
		;
	wall = time_now() - start;
	/* Whatever the workload left behind in its group goes with it. */
	kill(-pid, SIGKILL);
	running_group = 0;
	rusage_values(&ru, wall, out->rusage);

	if (interrupted)
		return error_set(err, EXIT_ENV, "interrupted by signal %d", interrupted);
	if (got != (ssize_t)(w->nr_metrics * sizeof(double))) {
		out->failed = true;
		describe_status(status, out->failure, sizeof(out->failure));
		for (size_t i = 0; i < w->nr_metrics; i++)
			out->metrics[i] = NAN;
		return 0;
	}
	if (report.status) {
		report.error.msg[sizeof(report.error.msg) - 1] = '\0';
		*err = report.error;
		if (!err->code)
			err->code = EXIT_INTERNAL;
		return -1;
	}
	return 0;
}
