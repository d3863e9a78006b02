// SPDX-License-Identifier: GPL-2.0
/*
 * schedperf worker: take jobs from the store's queue that this machine
 * matches and run each as `schedperf run` (or ab, or bisect-step) in a
 * child process, holding the job's lease by renewing it while the child
 * runs.
 *
 * The child writes the results itself, one transaction per iteration as
 * any run; the store makes its batches the job's and completes the job in
 * the transaction that completes them, with ab's or bisect-step's verdict
 * (store.h, "Jobs"). An exit status other than 0 is then the verdict's
 * (ab --fail-on-regression, bisect-step's bad and skip), not a failure. The child
 * dies with the worker (however the worker dies), so a job is never run
 * by a worker's orphan while another worker runs it again.
 *
 * The store may be unreachable for a while (PostgreSQL restarted for an
 * upgrade, a network failure): the worker rides that out (below, "The
 * store unreachable") rather than lose the job it holds.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "runner/job_env.h"
#include "runner/knob_guard.h"
#include "store/store.h"
#include "util/machine.h"
#include "util/run_command.h"
#include "util/signals.h"
#include "util/spawn.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

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

/*
 * SIGTERM, SIGINT or SIGHUP: stop after the job at hand, whose command it
 * is passed to, and give the job back (not once its boot command is done:
 * that stop is the reboot's, and the job waits for the boot).
 */
static volatile sig_atomic_t stop_signal;

/*
 * The store unreachable: the worker says so once, connects again with a
 * backoff (at once, then after 0.5 s, doubled up to 10 s; each attempt and
 * each call bounded by the store's patience, so that a server that stopped
 * answering holds neither the run's lease nor a boot's deadline) and says
 * once that it is back. The job at hand runs on and its lease renewals
 * resume, while the lease lasts. A lease that ran out before the store was
 * back (on this machine's clock, from the last renewal sent, which is never
 * later than the server's) makes the job a lost worker's, which a claim
 * takes again: the worker stops its run and stores nothing more of it.
 */
static struct {
	bool down;		/* said to be unreachable, not yet back */
	double retry_at;	/* the next attempt to connect */
	double backoff;		/* seconds from a failed attempt to the next */
} outage;

/*
 * A call's bound on the server's answer: a third of the lease, so that a
 * renewal that found no answer leaves time for another before the lease is
 * over; at least 1 s (a lease of 1 or 2 s), which a server's answer needs.
 */
static int patience_ms(int lease)
{
	return lease > 3 ? lease * 1000 / 3 : 1000;
}

/*
 * After a failed call: true when the store is unreachable (said once);
 * false when the error is the call's own.
 */
static bool store_lost(struct store *st)
{
	char why[256];

	if (!store_unreachable(st, why, sizeof(why)))
		return false;
	if (!outage.down) {
		fprintf(stderr, "schedperf: worker: the store is unreachable: %s (connecting again "
			"until it is back; a job keeps its run and its lease meanwhile, until the "
			"lease is over)\n", why);
		outage.down = true;
		outage.backoff = STORE_BACKOFF_FIRST;
		outage.retry_at = time_now();
	}
	return true;
}

/* true when the store can be used: never lost, or connected again now that an attempt is due. */
static bool store_ready(struct store *st)
{
	struct error err = { 0 };

	if (!outage.down)
		return true;
	if (time_now() < outage.retry_at)
		return false;
	if (store_reconnect(st, &err)) {
		outage.retry_at = time_now() + outage.backoff;
		outage.backoff = fmin(outage.backoff * 2, STORE_BACKOFF_MOST);
		return false;
	}
	outage.down = false;
	fprintf(stderr, "schedperf: worker: the store is reachable again\n");
	return true;
}

/*
 * Until the store is back: 0 when it is, 1 when @until came first, 128 +
 * the signal when the worker was stopped meanwhile.
 */
static int wait_for_store(struct store *st, double until)
{
	while (!store_ready(st)) {
		if (stop_signal)
			return 128 + stop_signal;
		if (time_now() >= until)
			return 1;
		/* a second at most, so that a stop is not kept waiting */
		time_sleep_until(fmin(fmin(until, outage.retry_at), time_now() + 1));
	}
	return 0;
}

struct worker_options {
	bool once;
	int idle_exit;		/* 0: wait for jobs for ever */
	int lease;
	const char *boot_cmd;	/* installs and boots the release given as $1; NULL */
	int boot_timeout;	/* seconds a boot may take, from its command's start to the job */
	const char *home_kernel;	/* the machine's default kernel; NULL: none */
	int home_after;		/* idle seconds before it boots the default kernel */
};

/* The last line the run wrote on stderr: a failed job's reason. */
struct run_output {
	char line[512];
	char partial[512];
	size_t len;
};

static void take_output(struct run_output *out, const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (buf[i] != '\n') {
			if (out->len < sizeof(out->partial) - 1)
				out->partial[out->len++] = buf[i];
			continue;
		}
		out->partial[out->len] = '\0';
		if (out->len)
			snprintf(out->line, sizeof(out->line), "%s", out->partial);
		out->len = 0;
	}
}

/* argv for `schedperf -q COMMAND ARGS...` from the job's JSON array of strings. */
static char **run_argv(const struct store_job *job)
{
	json_t *list = json_loads(job->args, 0, NULL);
	size_t n = json_is_array(list) ? json_array_size(list) : 0;
	char **argv = xcalloc(n + 4, sizeof(char *));

	argv[0] = xstrdup("schedperf");
	argv[1] = xstrdup("-q");
	argv[2] = xstrdup(job->command);
	for (size_t i = 0; i < n; i++) {
		const char *s = json_string_value(json_array_get(list, i));

		argv[3 + i] = xstrdup(s ? s : "");
	}
	json_decref(list);
	return argv;
}

static void free_argv(char **argv)
{
	for (char **a = argv; *a; a++)
		free(*a);
	free(argv);
}

static pid_t start_run(const struct store_job *job, int lease, int err_fd)
{
	char **argv = run_argv(job);
	char *env[] = { xasprintf("SCHEDPERF_DB=%s", global.db),
			xasprintf("SCHEDPERF_JOB=%lld:%s", (long long)job->id, job->claim),
			xasprintf("%s=%d", JOB_ENV_PATIENCE, patience_ms(lease)),
			NULL };
	pid_t pid;

	/*
	 * The store and the job go by the child's environment, never on a
	 * command line nor in ours: the boot command we run must not read them.
	 */
	pid = spawn_self(argv, -2, err_fd, true, env);
	for (int i = 0; env[i]; i++)
		free(env[i]);
	free_argv(argv);
	return pid;
}

/* Whether a job is still this worker's. */
enum hold {
	HELD,
	TAKEN,		/* cancelled, or lost and claimed again: the store said so */
	LAPSED,		/* its lease ran out while the store was unreachable */
};

/*
 * Renew @job's lease when the store can be reached; when it cannot and
 * the lease is over since the last renewal sent (*@renewed), the job is
 * lost (*@hold). Returns when to renew next, or to try the store again.
 */
static double keep_lease(struct store *st, const struct store_job *job, int lease,
			 double *renewed, enum hold *hold)
{
	struct error err = { 0 };
	double sent;
	int rc;

	if (outage.down && time_now() - *renewed >= lease)
		*hold = LAPSED;
	if (*hold != HELD)
		return INFINITY;
	if (!store_ready(st))
		return fmin(outage.retry_at, *renewed + lease);
	sent = time_now();
	rc = store_job_renew(st, job->id, job->claim, lease, &err);
	if (rc > 0)
		*renewed = sent;
	else if (!rc)
		*hold = TAKEN;
	else if (store_lost(st))
		return fmin(outage.retry_at, *renewed + lease);
	else
		error_report(&err);	/* the run goes on; its own commits will tell */
	return time_now() + lease / 3.0;
}

/*
 * Follow the run until it ends, renewing the lease every third of it from
 * *@renewed, when it was last renewed; when the job is no longer ours
 * (cancelled, or its lease over), stop the run. A run still there a
 * patience after its lease ran out is killed: a call of its own to a server
 * that stopped answering gives up within that (JOB_ENV_PATIENCE), and what
 * goes on waits for nothing this worker may still store. Returns its exit
 * code, or SPAWN_SIGNALED() of the signal that killed it.
 */
static int follow_run(struct store *st, const struct store_job *job, pid_t pid, int fd,
		      int lease, double *renewed, struct run_output *out, enum hold *hold)
{
	double next = *renewed + lease / 3.0, kill_at = INFINITY;
	bool forwarded = false;
	char buf[512];

	for (;;) {
		struct pollfd p = { fd, POLLIN, 0 };
		double wait = fmin(fmin(next, kill_at) - time_now(), 60);
		int rc = poll(&p, 1, wait > 0 ? (int)(wait * 1000) + 1 : 0);
		ssize_t n;

		if (stop_signal && !forwarded) {
			/* The command puts back what it changed (ab's settings), then ends. */
			kill(pid, SIGTERM);
			forwarded = true;
		}
		if (rc > 0) {
			n = read(fd, buf, sizeof(buf));
			if (n > 0) {
				take_output(out, buf, (size_t)n);
				continue;
			}
			if (n == 0 || errno != EINTR)
				break;
		}
		if (time_now() >= kill_at) {
			kill(pid, SIGKILL);
			break;
		}
		if (time_now() < next)
			continue;
		next = keep_lease(st, job, lease, renewed, hold);
		if (*hold != HELD && !forwarded) {
			kill(pid, SIGTERM);
			forwarded = true;
		}
		if (*hold == LAPSED)
			kill_at = time_now() + patience_ms(lease) / 1e3;
	}
	return spawn_wait_signaled(pid);
}

/* How a job's run ended, as the store has it now. */
enum job_end {
	JOB_FAILED,		/* failed here, with the run's reason */
	JOB_DONE,		/* the command completed it (a verdict's exit status) */
	JOB_TAKEN,		/* no longer this claim's: cancelled, or lost and run again */
};

/*
 * A run that exited did not say it completed the job it ran for: fail it
 * with @reason unless it is done. 0 with *@end set, or -1 with @err.
 */
static int fail_unless_done(struct store *st, const struct store_job *job, const char *reason,
			    enum job_end *end, struct error *err)
{
	struct store_job now = { 0 };
	int rc = store_job_fail(st, job->id, job->claim, reason, err);

	*end = JOB_FAILED;
	if (rc)
		return rc < 0 ? -1 : 0;
	rc = store_job_get(st, job->id, &now, err);
	if (rc < 0)
		return -1;
	if (rc && !strcmp(now.state, "done") && now.claim && !strcmp(now.claim, job->claim))
		*end = JOB_DONE;
	else
		*end = JOB_TAKEN;
	store_job_release(&now);
	return 0;
}

static void not_ours(const struct store_job *job, const char *what)
{
	fprintf(stderr, "schedperf: job %lld: no longer this worker's (cancelled, or its lease "
		"ran out and another worker took it): %s\n", (long long)job->id, what);
}

static void lapsed(const struct store_job *job)
{
	fprintf(stderr, "schedperf: job %lld: its lease ran out while the store was "
		"unreachable: it is a lost worker's job now, which a claim runs again (or gives "
		"up after its last attempt); its run was stopped, and nothing more of it is "
		"stored by this worker\n", (long long)job->id);
}

/* The run had ended: it may have completed the job before the store went. */
static void lapsed_after_run(const struct store_job *job)
{
	fprintf(stderr, "schedperf: job %lld: its lease ran out while the store was "
		"unreachable, before this worker could store how its run ended: unless the run "
		"completed it ('schedperf jobs' says), it is a lost worker's job now, which a "
		"claim runs again (or gives up after its last attempt)\n", (long long)job->id);
}

/*
 * The job's end, once the store is reachable (within the lease, from
 * @renewed): 0 with *@end; 1 when the lease ran out first (said); else a
 * store error's code, or 128 + the signal that stopped the worker.
 */
static int record_end(struct store *st, const struct store_job *job, const char *reason,
		      int lease, double renewed, enum job_end *end)
{
	struct error err = { 0 };
	int rc;

	while (fail_unless_done(st, job, reason, end, &err)) {
		if (!store_lost(st))
			return error_report(&err);
		rc = wait_for_store(st, renewed + lease);
		if (rc == 1)
			lapsed_after_run(job);
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * The worker was stopped: job @job goes back to the queue now, not when its
 * lease is over, and this attempt is not counted. 128 + the signal when it
 * went back (@how: what comes of it); 0 when it is no longer this claim's;
 * else a store error's code, the job then run again when its lease is over.
 */
static int give_back(struct store *st, const struct store_job *job, const char *how)
{
	struct error err = { 0 };
	int rc = store_job_give_back(st, job->id, job->claim, &err);

	if (rc < 0)
		return error_report(&err);
	if (!rc)
		return 0;
	fprintf(stderr, "schedperf: job %lld: the worker was stopped by signal %d; the job is "
		"queued again, %s (this attempt is not counted)\n", (long long)job->id,
		(int)stop_signal, how);
	return 128 + stop_signal;
}

/*
 * The run was killed by signal @sig, or @interrupted by it (it stopped as
 * a command stops at Ctrl-C), not by this worker (the OOM killer ends a
 * run with SIGKILL): its job is a lost run's, as a lost worker's is,
 * queued again with this attempt counted, or given up after its last. 1
 * then; -1 when no longer running under this claim (done, or taken); else
 * a store error's code.
 */
static int run_killed(struct store *st, const struct store_job *job, int sig, bool interrupted,
		      char *reason, size_t len)
{
	struct error err = { 0 };
	char how[64];
	int rc;

	/* "killed by SIGKILL" */
	run_command_status(RUN_COMMAND_SIGNALED(sig), how, sizeof(how));
	if (interrupted)
		snprintf(reason, len, "its %s was interrupted %s", job->command,
			 strncmp(how, "killed ", 7) ? how : how + 7);
	else
		snprintf(reason, len, "its %s was %s%s", job->command, how,
			 sig == SIGKILL ? " (by the OOM killer, say)" : "");
	rc = store_job_lost_run(st, job->id, job->claim, reason, &err);
	if (rc < 0)
		return error_report(&err);
	if (rc == 1)
		fprintf(stderr, "schedperf: job %lld: %s; the job is queued again (%d of its %d "
			"attempts used)\n", (long long)job->id, reason, job->attempts,
			job->max_attempts);
	else if (rc == 2)
		fprintf(stderr, "schedperf: job %lld failed: %s, and that was its last attempt "
			"(%d of %d)\n", (long long)job->id, reason, job->attempts, job->max_attempts);
	return rc ? 1 : -1;
}

/*
 * Run one claimed job, whose lease was last renewed (or begun) at
 * @renewed, to its end: 0 done, 1 failed or lost, or a store error's code.
 */
static int run_job(struct store *st, const struct store_job *job, int lease, double renewed)
{
	struct run_output out = { "", "", 0 };
	enum hold hold = HELD;
	enum job_end end;
	char reason[600];
	int fds[2], code, rc;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return die_code(EXIT_ENV, "worker: cannot run job %lld: %m (check the "
				"limit on open files)", (long long)job->id);
	pid = start_run(job, lease, fds[1]);
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		return die_code(EXIT_ENV, "worker: cannot run job %lld: %m (check the "
				"process limit)", (long long)job->id);
	}
	code = follow_run(st, job, pid, fds[0], lease, &renewed, &out, &hold);
	close(fds[0]);
	if (hold == LAPSED) {
		lapsed(job);
		return 1;
	}
	if (hold == TAKEN) {
		not_ours(job, "its run was stopped");
		return 1;
	}
	/* Not the job's failure: it goes back to the queue now, not when its lease is over. */
	if (stop_signal && (rc = give_back(st, job, "to run from its start")))
		return rc;
	/* the run completed it meanwhile, or it was cancelled: said below */
	/*
	 * Killed, or interrupted (a command's exit status 128 + the signal, and
	 * no other's), not failed: run again, as a lost worker's job is.
	 */
	if (code >= SPAWN_SIGNALED(0) &&
	    (rc = run_killed(st, job, code - SPAWN_SIGNALED(0), false, reason,
			     sizeof(reason))) >= 0)
		return rc;
	if (code > 128 && code < SPAWN_SIGNALED(0) &&
	    (rc = run_killed(st, job, code - 128, true, reason, sizeof(reason))) >= 0)
		return rc;
	/* Even a run that exited 0 may not have completed it (its options made it no job). */
	if (code > 128)
		;	/* it completed the job, or the job is no longer ours: said below */
	else if (code && out.line[0])
		snprintf(reason, sizeof(reason), "%s", strncmp(out.line, "schedperf: ", 11) ?
			 out.line : out.line + 11);
	else if (code)
		snprintf(reason, sizeof(reason), "the %s exited with status %d", job->command,
			 code);
	else
		snprintf(reason, sizeof(reason), "the %s ended without storing the job's "
			 "results", job->command);
	rc = record_end(st, job, reason, lease, renewed, &end);
	if (rc)
		return rc;
	if (end == JOB_TAKEN) {
		not_ours(job, "how its run ended is not the job's");
		return 1;
	}
	if (end == JOB_FAILED) {
		fprintf(stderr, "schedperf: job %lld failed: %s\n", (long long)job->id, reason);
		return 1;
	}
	if (!global.quiet)
		printf("job %lld: done\n", (long long)job->id);
	return 0;
}

static void on_stop(int sig)
{
	stop_signal = sig;
}

static int host_name(char *buf, size_t len)
{
	machine_host_name(buf, len);
	if (!*buf)
		return die_code(EXIT_ENV, "worker: cannot read this machine's name: %m (give "
				"the machine a host name, which the queue's jobs match)");
	return 0;
}

/*
 * The job a boot is for, while its command runs and the machine goes down:
 * its lease is renewed, so that a worker started meanwhile on this machine
 * sees that this one lives, and takes the job up only once it is lost
 * (store_job_booted()).
 */
static struct {
	struct store *st;
	const struct store_job *job;	/* NULL: no boot for a job */
	int lease;
	double next;
	double deadline;	/* the boot's */
	bool taken;		/* no longer this claim's (cancelled): said */
} boot_lease;

/*
 * Job @job, booted for, is no longer this claim's: say so, as a cancel when
 * it was one (the machine boots all the same; the job does not run after).
 */
static void boot_taken(struct store *st, const struct store_job *job)
{
	struct store_job now = { 0 };
	struct error err = { 0 };

	if (store_job_get(st, job->id, &now, &err) > 0 && !strcmp(now.state, "cancelled"))
		fprintf(stderr, "schedperf: job %lld: cancelled while its machine boots %s: it "
			"does not run after the boot\n", (long long)job->id, job->kernel);
	else
		not_ours(job, "it does not run after the boot");
	store_job_release(&now);
	boot_lease.taken = true;
}

/*
 * Renewed from the loops that kill the boot command at the boot's
 * deadline, and wait for the reboot until then: a call, or an attempt to
 * reach the store again, waits no longer than what is left of the boot.
 */
static void renew_boot_lease(void)
{
	double left = boot_lease.deadline - time_now();
	struct error err = { 0 };
	int rc;

	if (!boot_lease.job || boot_lease.taken || time_now() < boot_lease.next || left <= 0)
		return;
	boot_lease.next = time_now() + boot_lease.lease / 3.0;
	store_set_patience(boot_lease.st,
			   (int)fmin(left * 1000 + 1, patience_ms(boot_lease.lease)));
	if (!store_ready(boot_lease.st)) {
		boot_lease.next = fmin(boot_lease.next, outage.retry_at);
		goto out;
	}
	/* a lease that cannot be renewed stops no boot: the machine goes down all the same */
	rc = store_job_renew(boot_lease.st, boot_lease.job->id, boot_lease.job->claim,
			     boot_lease.lease, &err);
	if (rc < 0 && store_lost(boot_lease.st))
		boot_lease.next = outage.retry_at;
	else if (rc < 0)
		error_report(&err);
	else if (!rc)
		boot_taken(boot_lease.st, boot_lease.job);
out:
	store_set_patience(boot_lease.st, patience_ms(boot_lease.lease));
}

/* Polled by run_command() while the boot command runs: it is never stopped. */
static int boot_command_polled(void)
{
	renew_boot_lease();
	return 0;
}

/*
 * Run the boot command for @release, killed with its process group at
 * @deadline (a hung command must not hang the worker, nor keep its job
 * booting past the deadline the store has): 0 when it ran and exited 0
 * (the machine is going down), else why it did not into @why.
 */
static int boot_command(const struct worker_options *opt, const char *release,
			double deadline, char *why, size_t len)
{
	char *argv[] = { (char *)"sh", (char *)"-c", (char *)opt->boot_cmd, (char *)"sh",
			 (char *)release, NULL };
	double left = ceil(deadline - time_now());
	/* its output goes to ours unread: the boot ends us, and it must not die of that */
	struct child_command cmd = { .argv = argv, .log_fd = STDERR_FILENO, .log_only = true,
				     .timeout = left > 1 ? (unsigned int)left : 1,
				     .interrupted = boot_command_polled };
	struct error err = { 0 };
	char last[200], how[64];
	int status = run_command(&cmd, last, sizeof(last), &err);

	if (status < 0 && time_now() >= deadline)
		snprintf(why, len, "the boot command did not finish within %d s (--boot-timeout): "
			 "it was killed, with its process group", opt->boot_timeout);
	else if (status < 0)
		snprintf(why, len, "%s", err.msg);
	else if (status)
		snprintf(why, len, "the boot command failed (%s; its output is in the "
			 "worker's)", run_command_status(status, how, sizeof(how)));
	return status ? -1 : 0;
}

/*
 * The machine reboots now, which ends this worker: wait for that, up to
 * @deadline, the boot's, which began with its command. 128 + the signal
 * when it came; 0 when nothing came.
 */
static int wait_for_reboot(double deadline)
{
	double step = boot_lease.job ? fmin(1, boot_lease.lease / 3.0) : 1;

	while (time_now() < deadline && !stop_signal) {
		renew_boot_lease();
		time_sleep_until(fmin(deadline, time_now() + step));
	}
	return stop_signal ? 128 + stop_signal : 0;
}

/* Boot the release job @job needs; it runs after the boot, in the next worker. */
static int boot_for(struct store *st, const struct store_job *job, const char *release,
		    const struct worker_options *opt)
{
	/* the store's deadline for the boot is as far from now */
	double deadline = time_now() + opt->boot_timeout;
	struct error err = { 0 };
	bool said = false;	/* that it cannot boot */
	char why[300];
	int rc = store_job_booting(st, job->id, job->claim, opt->boot_timeout, release,
				   opt->lease, &err);

	if (rc <= 0) {
		if (rc < 0)
			return error_report(&err);
		not_ours(job, "it was not booted for");
		return 1;
	}
	/*
	 * A stop that came since the claim is the worker's (systemctl stop), not
	 * the reboot's: the machine must not boot a test kernel for a job that
	 * no worker waits for.
	 */
	if (stop_signal) {
		rc = give_back(st, job, "not booted for");
		if (!rc)
			not_ours(job, "it was not booted for");
		return rc ? rc : 128 + stop_signal;
	}
	if (!global.quiet)
		printf("job %lld: booting %s\n", (long long)job->id, job->kernel);
	fflush(stdout);
	boot_lease.st = st;
	boot_lease.job = job;
	boot_lease.lease = opt->lease;
	boot_lease.next = time_now() + opt->lease / 3.0;
	boot_lease.deadline = deadline;
	boot_lease.taken = false;
	if (!boot_command(opt, job->kernel, deadline, why, sizeof(why))) {
		rc = wait_for_reboot(deadline);
		if (rc) {
			boot_lease.job = NULL;
			return rc;	/* the shutdown: the job waits for the boot */
		}
		snprintf(why, sizeof(why), "the boot command returned, but the machine did not "
			 "restart within %d s (check --boot-cmd; it must reboot)", opt->boot_timeout);
	}
	boot_lease.job = NULL;
	/*
	 * A stop that cut the boot command short is the worker's (systemctl stop
	 * and Ctrl-C signal its whole group), not the reboot's, which comes once
	 * the command is done: no failure of the job's.
	 */
	if (stop_signal) {
		rc = give_back(st, job, "its boot command cut short");
		if (!rc && !boot_lease.taken)
			not_ours(job, "its boot command was cut short");
		return rc ? rc : 128 + stop_signal;
	}
	/* past its deadline, a sweep fails it too, with its reason, if it finds the store first */
	while (!boot_lease.taken &&
	       (rc = store_job_boot_failed(st, job->id, job->claim, why, &err)) < 0) {
		/* said before any wait for the store, as the job's, which it likely is */
		if (!said)
			fprintf(stderr, "schedperf: job %lld: cannot boot %s: %s\n",
				(long long)job->id, job->kernel, why);
		said = true;
		if (!store_lost(st))
			return error_report(&err);
		if ((rc = wait_for_store(st, INFINITY)))
			return rc;
	}
	if (boot_lease.taken || !rc) {
		/* a cancel noticed now, or before (and said then): no job's failure */
		if (!boot_lease.taken)
			boot_taken(st, job);
		if (!said)
			fprintf(stderr, "schedperf: worker: cannot boot %s: %s\n", job->kernel,
				why);
		return 1;
	}
	if (!said)
		fprintf(stderr, "schedperf: job %lld: cannot boot %s: %s\n", (long long)job->id,
			job->kernel, why);
	return 1;
}

/* Back to the machine's default kernel, once, when no job needs the one it runs. */
static int boot_home(const struct worker_options *opt, const char *release, bool *tried)
{
	double deadline;
	char why[300];

	if (!opt->boot_cmd || !opt->home_kernel || !strcmp(release, opt->home_kernel) || *tried)
		return 0;
	*tried = true;
	if (!global.quiet)
		printf("worker: booting the default kernel %s\n", opt->home_kernel);
	fflush(stdout);
	deadline = time_now() + opt->boot_timeout;
	if (boot_command(opt, opt->home_kernel, deadline, why, sizeof(why))) {
		fprintf(stderr, "schedperf: worker: cannot boot the default kernel %s: %s\n",
			opt->home_kernel, why);
		return 0;
	}
	return wait_for_reboot(deadline);
}

/*
 * After a start: the job this machine rebooted for, if any. It runs when the
 * machine came back on its kernel; otherwise the store fails it, with why.
 * Not rebooted yet (the same boot id): the worker whose boot command runs
 * keeps the job; one that was lost in it leaves a lost worker's job.
 */
static int after_boot(struct store *st, const char *host, const struct worker_options *opt)
{
	struct store_job job = { 0 };
	struct error err = { 0 };
	char release[256];
	int rc, code = 0;
	double claimed;

	machine_release(release, sizeof(release));
	/* a start while the store is unreachable (the server restarted with the fleet) waits */
	for (;;) {
		claimed = time_now();
		rc = store_job_booted(st, host, release, opt->lease, &job, &err);
		if (rc >= 0 || !store_lost(st))
			break;
		if ((code = wait_for_store(st, INFINITY)))
			return code;
	}
	if (rc < 0)
		return error_report(&err);
	if (rc == 1)
		code = run_job(st, &job, opt->lease, claimed);
	else if (rc == 2)
		fprintf(stderr, "schedperf: job %lld failed: %s\n", (long long)job.id, job.reason);
	else if (rc == 3)
		fprintf(stderr, "schedperf: job %lld: the worker that was booting %s for it was "
			"lost before the machine rebooted; it is a lost worker's job now, claimed "
			"again (or given up after its last attempt)\n", (long long)job.id, job.kernel);
	store_job_release(&job);
	return code > 1 ? code : 0;
}

static int work(struct store *st, const struct worker_options *opt)
{
	double idle_since = time_now();
	struct error err = { 0 };
	bool went_home = false;
	char host[256];
	int code;

	if ((code = host_name(host, sizeof(host))) || (code = after_boot(st, host, opt)))
		return code;
	for (;;) {
		struct store_job job = { 0 };
		char release[256];
		double idle, claimed;
		int rc;

		if (stop_signal)
			return 128 + stop_signal;
		/* Where an ab was killed, no job is claimed until its settings are back. */
		if (knob_guard_put_back(&err))
			return error_report(&err);
		machine_release(release, sizeof(release));
		claimed = time_now();
		rc = store_job_claim(st, host, opt->lease, release, opt->boot_cmd != NULL, &job,
				     &err);
		if (rc < 0 && store_lost(st)) {
			/* --idle-exit ends a worker whose store stays unreachable, with why */
			code = wait_for_store(st, opt->idle_exit ? idle_since + opt->idle_exit :
					      INFINITY);
			if (code == 1)
				return error_report(&err);
			if (code)
				return code;
			continue;
		}
		if (rc < 0)
			return error_report(&err);
		if (rc) {
			if (job.kernel && strcmp(job.kernel, release))
				code = boot_for(st, &job, release, opt);
			else
				code = run_job(st, &job, opt->lease, claimed);
			store_job_release(&job);
			if (code > 1 || opt->once)
				return code > 1 ? code : EXIT_OK;
			idle_since = time_now();
			went_home = false;
			continue;
		}
		idle = time_now() - idle_since;
		if (idle >= opt->home_after && (code = boot_home(opt, release, &went_home)))
			return code;
		if (opt->once)
			return EXIT_OK;
		if (opt->idle_exit && idle >= opt->idle_exit)
			return EXIT_OK;
		/* Nothing to do: look again in a second (or when --idle-exit is up). */
		time_sleep_until(time_now() + (opt->idle_exit && opt->idle_exit - idle < 1 ?
					       opt->idle_exit - idle : 1));
	}
}

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
	struct worker_options opt = { false, 0, 300, NULL, -1, NULL, -1 };
	const struct cmd_option options[] = {
		OPT_BOOL(0, "once", &opt.once, "run at most one job, then exit"),
		OPT_INTEGER(0, "idle-exit", &opt.idle_exit, "SEC", 1, 100000000,
			    "exit after SEC seconds without a job (default: never)"),
		OPT_INTEGER(0, "lease", &opt.lease, "SEC", 1, 86400,
			    "hold each job this long between renewals of the lease, which "
			    "come every third of it (default 300)"),
		OPT_CALLBACK(0, "boot-cmd", &opt.boot_cmd, "CMD", "a shell command that "
			     "installs and boots the kernel release given as $1, for jobs that "
			     "need one", set_boot_cmd),
		OPT_INTEGER(0, "boot-timeout", &opt.boot_timeout, "SEC", 1, 86400, "a boot not "
			    "done within SEC, its command's time included, fails the job (default "
			    "600)"),
		OPT_CALLBACK(0, "home-kernel", &opt.home_kernel, "REL", "the machine's "
			     "default kernel, booted with --boot-cmd when no job needs another",
			     set_home_kernel),
		OPT_INTEGER(0, "home-after", &opt.home_after, "SEC", 0, 86400, "boot the "
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
	if (opt.home_kernel && !opt.boot_cmd)
		return command_usage_error("worker", "--home-kernel is booted with --boot-cmd: "
					   "give both");
	if (opt.boot_timeout >= 0 && !opt.boot_cmd)
		return command_usage_error("worker", "--boot-timeout is how long a boot by "
					   "--boot-cmd may take: give both");
	if (opt.home_after >= 0 && !opt.home_kernel)
		return command_usage_error("worker", "--home-after is when --home-kernel is "
					   "booted: give both");
	opt.boot_timeout = opt.boot_timeout < 0 ? 600 : opt.boot_timeout;
	opt.home_after = opt.home_after < 0 ? 60 : opt.home_after;
	if (store_open_queue(global.db, &st, &err))
		return error_report(&err);
	signals_catch_terminating(on_stop);
	store_set_patience(st, patience_ms(opt.lease));
	code = work(st, &opt);
	store_close(st);
	return code;
}
