// SPDX-License-Identifier: GPL-2.0
/*
 * One iteration in a forked child of its own process group: start it,
 * wait for its report or its timeout, and turn how it ended (values, a
 * crash, a hang, a signal to schedperf) into an iteration_outcome. The
 * child runs below a holder (util/holder.h), outside the group, that ends
 * what the child's tasks left when the child itself is killed.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/guardian.h"
#include "util/holder.h"
#include "runner/cpulist.h"
#include "runner/iteration.h"
#include "store/store.h"
#include "util/io.h"
#include "util/orphans.h"
#include "util/scratch_dir.h"
#include "util/signals.h"
#include "util/timeutil.h"
#include "util/utf8.h"
#include "util/xalloc.h"

/* What the child sends back through its pipe, before the metric values. */
struct child_report {
	int status;		/* what w->run() returned: 0, 1 or -1 with error filled */
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
	signals_catch_terminating(on_signal);
}

int iteration_interrupted(void)
{
	return interrupted;
}

/*
 * Run on @cpus, and make sure the task does: its samples are recorded as
 * run there (knob.cpus). A set the task's cpuset leaves no CPU of, or only
 * some, fails the iteration (1) saying where it would have run; -1 when
 * the affinity cannot be set or read at all.
 */
static int pin(const cpu_set_t *cpus, struct error *err)
{
	cpu_set_t now;
	char *want, *got;

	if (sched_setaffinity(0, sizeof(*cpus), cpus) && errno != EINVAL)
		return error_set(err, EXIT_ENV, "cannot run on the CPUs given: %s (give CPUs "
				 "this process may use)", strerror(errno));
	CPU_ZERO(&now);
	if (sched_getaffinity(0, sizeof(now), &now))
		return error_set(err, EXIT_ENV, "cannot read the CPUs it runs on: %s",
				 strerror(errno));
	if (CPU_EQUAL(&now, cpus))
		return 0;
	want = cpulist_format(cpus);
	got = cpulist_format(&now);
	error_set(err, EXIT_ENV, "runs on CPUs %.128s, not on CPUs %.128s as given: a "
		  "cgroup's cpuset.cpus holds it there (give CPUs inside the cpuset)", got, want);
	free(want);
	free(got);
	return 1;
}

static void __attribute__((noreturn))
child_main(const struct workload *w, const struct param_value *values,
	   const struct iteration_config *cfg, int report_fd, int go_fd)
{
	size_t nr_values = workload_nr_values(w, values);
	double *metrics = xcalloc(nr_values, sizeof(double));
	struct child_report report;
	int status;
	char go;

	memset(&report, 0, sizeof(report));
	for (size_t i = 0; i < nr_values; i++)
		metrics[i] = NAN;
	if (cfg->workdir && chdir(cfg->workdir)) {
		report.status = error_set(&report.error, EXIT_ENV, "cannot enter the build's "
					  "directory %s: %s", cfg->workdir, strerror(errno));
		goto send;
	}
	/* Its cgroups and scheduling attributes, which every task it makes inherits. */
	if (cfg->task && task_knobs_apply(cfg->task, &report.error)) {
		report.status = -1;
		goto send;
	}
	/* After the cgroups: joining a cpuset replaces the affinity (cgroup v1). */
	if (cfg->cpus && (report.status = pin(cfg->cpus, &report.error)))
		goto send;
	/* While the runner attaches the monitors: the workload's tasks need no store. */
	store_forget_in_child();
	/*
	 * A task that leaves the group (setsid, setpgid) stays below this
	 * process, to be ended with the rest below. Linux 3.4 has had it; an
	 * older kernel leaves such a task to its group's fate.
	 */
	orphans_adopt();
	/* Wait until the monitors are attached; EOF means the runner gave up. */
	if (read(go_fd, &go, 1) != 1) {
		free(metrics);
		_exit(EXIT_INTERNAL);
	}
	close(go_fd);
	workload_set_scratch_dir(cfg->scratch);
	report.status = w->run(values, metrics, &report.error);
send:
	status = write_full(report_fd, &report, sizeof(report)) ||
		 write_full(report_fd, metrics, nr_values * sizeof(double)) ? EXIT_INTERNAL : 0;
	free(metrics);
	/*
	 * Past the workload's timing: what it left, in the group or not, ends
	 * here (the group's kill afterwards misses those that left it).
	 */
	orphans_end();
	_exit(status);
}

/*
 * Tell the child to start. It may be dead already (killed, out of memory):
 * that must fail the iteration, not kill the runner, so SIGPIPE is held
 * while writing and the one the write raised is taken back.
 */
static int send_go(int fd)
{
	struct timespec now = { 0, 0 };
	sigset_t pipe_only, saved;
	ssize_t n;

	sigemptyset(&pipe_only);
	sigaddset(&pipe_only, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_only, &saved);
	n = write(fd, "g", 1);
	if (n < 0 && errno == EPIPE && !sigismember(&saved, SIGPIPE))
		sigtimedwait(&pipe_only, NULL, &now);
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	return n == 1 ? 0 : -1;
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

/* How the holder died before it could say how the child ended (@status: its). */
static void describe_holder(int status, char *buf, size_t len)
{
	if (WIFSIGNALED(status))
		snprintf(buf, len, "its holder was killed by signal %d (%s); "
			 "its usage is unknown", WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "its holder ended (wait status %#x) before saying "
			 "how it ended; its usage is unknown", status);
}

/*
 * A failure while the OOM killer killed in the tasks' cgroups (@before:
 * its kills when the iteration began) says so: "killed by signal 9" alone
 * does not say that a cgroup: knob's memory limit was reached. The
 * cgroups are the iteration's own scratch ones, so the kill was its.
 */
static void say_oom_kill(const struct iteration_config *cfg, long before,
			 struct iteration_outcome *out)
{
	size_t used = strlen(out->failure);

	if (task_knobs_oom_kills(cfg->task) > before && used < sizeof(out->failure))
		snprintf(out->failure + used, sizeof(out->failure) - used, "; the kernel's "
			 "OOM killer killed a task of it, at its cgroup's memory limit");
}

/*
 * Read the child's report, giving up at @deadline (0 = never): returns the
 * bytes read, or -1 when the deadline passed.
 */
static ssize_t read_report(int fd, void *buf, size_t len, double deadline)
{
	char *p = buf;
	size_t done = 0;

	while (done < len) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int wait_ms = -1;
		ssize_t n;

		if (deadline > 0) {
			double left = deadline - time_now();

			if (left <= 0)
				return -1;
			wait_ms = (int)(left * 1000) + 1;
		}
		n = poll(&pfd, 1, wait_ms);
		if (n < 0 && errno == EINTR) {
			if (interrupted)
				break;
			continue;
		}
		if (n == 0)
			return -1;
		n = read(fd, p + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

static void fail_outcome(struct iteration_outcome *out, size_t nr_values)
{
	out->failed = true;
	for (size_t i = 0; i < nr_values; i++)
		out->metrics[i] = NAN;
}

/* The iteration in its process group: iteration_run() but for its scratch directory. */
static int run_in_group(const struct workload *w, const struct param_value *values,
			const struct iteration_config *cfg, struct iteration_outcome *out,
			struct error *err)
{
	size_t nr_values = workload_nr_values(w, values);
	size_t metrics_len = nr_values * sizeof(double);
	struct child_report report;
	struct guardian guardian;
	struct holder holder;
	struct holder_end end;
	int report_fds[2], go_fds[2], status = 0, heard;
	bool timed_out = false, holder_lost;
	double start;
	long oom_kills;
	ssize_t got;
	pid_t pid;

	out->failed = false;
	out->failure[0] = '\0';
	out->interference = (struct interference){ .taken = NAN, .steal = NAN,
						   .available = NAN };
	out->started = out->ended = NAN;
	if (interrupted)
		return error_set(err, EXIT_ENV, "interrupted by signal %d", interrupted);
	if (guardian_start_removing(&guardian, cfg->scratch, err))
		return -1;
	running_group = guardian.pgid;
	if (pipe2(report_fds, O_CLOEXEC)) {
		guardian_stop(&guardian);
		return error_set(err, EXIT_ENV, "cannot create a pipe for an iteration: %s "
				 "(raise 'ulimit -n')", strerror(errno));
	}
	if (pipe2(go_fds, O_CLOEXEC)) {
		close(report_fds[0]);
		close(report_fds[1]);
		guardian_stop(&guardian);
		return error_set(err, EXIT_ENV, "cannot create a pipe for an iteration: %s "
				 "(raise 'ulimit -n')", strerror(errno));
	}
	oom_kills = task_knobs_oom_kills(cfg->task);
	fflush(NULL);
	/* the holder puts the child in the group before this returns */
	pid = holder_fork(&holder, guardian.pgid, 0);
	if (pid < 0) {
		int fork_errno = errno;

		close(report_fds[0]);
		close(report_fds[1]);
		close(go_fds[0]);
		close(go_fds[1]);
		guardian_stop(&guardian);
		return error_set(err, EXIT_ENV, "cannot fork an iteration: %s "
				 "(raise 'ulimit -u' or free memory)", strerror(fork_errno));
	}
	if (pid == 0) {
		/* The runner's handlers must not run here; default actions apply. */
		signals_restore_defaults();
		/* no group means the runner is gone: the go below never comes */
		guardian_join(&guardian);
		close(report_fds[0]);
		close(go_fds[1]);
		child_main(w, values, cfg, report_fds[1], go_fds[0]);
	}
	close(report_fds[1]);
	close(go_fds[0]);

	if ((cfg->started && cfg->started(cfg->ctx, guardian.pgid, err)) ||
	    (cfg->monitors && monitors_before(cfg->monitors, pid, err))) {
		close(go_fds[1]);
		close(report_fds[0]);
		guardian_stop(&guardian);
		holder_wait(&holder, &end);
		running_group = 0;
		return -1;
	}
	interference_before(cfg->interference, guardian.pgid);
	start = time_now();
	out->started = time_epoch();
	/*
	 * A signal that came before running_group was set, or before the
	 * child was in it, killed nothing, and the wait below would last as
	 * long as the workload: no go then (the child's read ends). One from
	 * now on finds the child in the group.
	 */
	if (interrupted || send_go(go_fds[1]))
		kill(-guardian.pgid, SIGKILL);
	close(go_fds[1]);

	got = read_report(report_fds[0], &report, sizeof(report),
			  cfg->timeout > 0 ? start + cfg->timeout : 0);
	if (got == (ssize_t)sizeof(report))
		got = read_report(report_fds[0], out->metrics, metrics_len,
				  cfg->timeout > 0 ? start + cfg->timeout : 0);
	else if (got >= 0)
		got = -2;
	if (got == -1 && !interrupted) {
		timed_out = true;
		kill(-guardian.pgid, SIGKILL);
	}
	close(report_fds[0]);
	/*
	 * The child's end as its holder saw it: its wall time ends when it
	 * was reaped, not when the holder, past it, has ended what it left.
	 * The CPUs are read before the holder is reaped: its exit (a large
	 * address space to free, 4-14 ms under ASan) comes after the
	 * iteration, and what other tasks take of the CPUs meanwhile was
	 * not taken from it.
	 */
	heard = holder_hear(&holder, &end);
	if (!heard) {
		rusage_values(&end.ru, end.ended - start, out->rusage);
		interference_after(cfg->interference,
				   out->rusage[RUSAGE_USER] + out->rusage[RUSAGE_SYSTEM],
				   &out->interference);
	}
	holder_lost = holder_reap(&holder, &end, heard) != 0;
	status = end.status;
	out->ended = time_epoch() - (time_now() - end.ended);
	if (holder_lost) {
		/* its usage and end died with the holder: absent, never zeros */
		for (size_t i = 0; i < NR_RUSAGE_METRICS; i++)
			out->rusage[i] = NAN;
		out->interference = (struct interference){ .taken = NAN, .steal = NAN,
							   .available = NAN };
	}
	/* Whatever the workload left behind in its group goes with it. */
	guardian_stop(&guardian);
	running_group = 0;
	if (cfg->monitors)
		monitors_after(cfg->monitors, out->monitor_values);

	if (interrupted)
		return error_set(err, EXIT_ENV, "interrupted by signal %d", interrupted);
	if (holder_lost) {
		/* the child died with it (its death signal), whatever it reported */
		fail_outcome(out, nr_values);
		describe_holder(status, out->failure, sizeof(out->failure));
		return 0;
	}
	if (timed_out) {
		fail_outcome(out, nr_values);
		snprintf(out->failure, sizeof(out->failure),
			 "timed out after %g s; its process group was killed", cfg->timeout);
		return 0;
	}
	if (got != (ssize_t)metrics_len) {
		fail_outcome(out, nr_values);
		describe_status(status, out->failure, sizeof(out->failure));
		say_oom_kill(cfg, oom_kills, out);
		return 0;
	}
	report.error.msg[sizeof(report.error.msg) - 1] = '\0';
	if (report.status == 1) {
		/*
		 * The workload says this iteration failed and why; the run goes
		 * on. The reason may quote a program's output: bytes that are
		 * not UTF-8 are kept as \xHH, as text every store and export
		 * takes (PostgreSQL refuses them in text).
		 */
		fail_outcome(out, nr_values);
		if (utf8_valid(report.error.msg))
			snprintf(out->failure, sizeof(out->failure), "%s", report.error.msg);
		else
			utf8_escape(out->failure, sizeof(out->failure), report.error.msg);
		say_oom_kill(cfg, oom_kills, out);
		return 0;
	}
	if (report.status) {
		*err = report.error;
		if (!err->code)
			err->code = EXIT_INTERNAL;
		return -1;
	}
	return 0;
}

/*
 * A workload that writes files does so in a directory that outlives its
 * iteration: made here before the fork, removed here after the reap, so
 * that neither a timeout's kill of the group nor a signal to schedperf
 * leaves its files (gigabytes, with reaim's poolsize) behind; when
 * schedperf itself is killed, the guardian has it removed.
 */
int iteration_run(const struct workload *w, const struct param_value *values,
		  const struct iteration_config *cfg, struct iteration_outcome *out,
		  struct error *err)
{
	struct iteration_config own = *cfg;
	char *scratch = NULL;
	int rc;

	if (w->scratch_kb && !(scratch = scratch_dir_make(w->name, err)))
		return -1;
	own.scratch = scratch;
	rc = run_in_group(w, values, &own, out, err);
	if (scratch)
		scratch_dir_remove(scratch);
	free(scratch);
	return rc;
}
