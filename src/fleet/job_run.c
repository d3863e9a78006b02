// SPDX-License-Identifier: GPL-2.0
/*
 * A claimed job's run: `schedperf run` (or ab, or bisect-step) in a child
 * process, its lease renewed while the child runs, and how it ended told
 * to the store (job_run.h).
 *
 * The child writes the results itself, one transaction per iteration as
 * any run; the store makes its batches the job's and completes the job in
 * the transaction that completes them, with ab's or bisect-step's verdict
 * (store.h, "Jobs"). An exit status other than 0 is then the verdict's
 * (ab --fail-on-regression, bisect-step's bad and skip), not a failure. The child
 * dies with the worker (however the worker dies), so a job is never run
 * by a worker's orphan while another worker runs it again.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "fleet/job_run.h"
#include "fleet/outage.h"
#include "fleet/stop.h"
#include "runner/job_env.h"
#include "util/error.h"
#include "util/run_command.h"
#include "util/spawn.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

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
	char **argv, *env[5];
	/* the store's location in a pipe, whose reading end the run inherits */
	int db_fd = job_env_db_pipe(global.db, env);
	pid_t pid;

	if (db_fd < 0)
		return -1;
	argv = run_argv(job);
	/*
	 * The store and the job go by the child's environment, never on a
	 * command line nor in ours: the boot command we run must not read them.
	 */
	env[2] = xasprintf("%s=%lld:%s", JOB_ENV_JOB, (long long)job->id, job->claim);
	env[3] = xasprintf("%s=%d", JOB_ENV_PATIENCE, lease_patience_ms(lease));
	env[4] = NULL;
	pid = spawn_self(argv, -2, err_fd, true, env);
	close(db_fd);
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
	COMPLETED,	/* the run completed it and has yet to exit: no lease to keep */
};

/* 1 when @job is done, completed under its claim (by its run); 0 when not; -1 with @err. */
static int completed_here(struct store *st, const struct store_job *job, struct error *err)
{
	struct store_job now = { 0 };
	int rc = store_job_get(st, job->id, &now, err);

	if (rc > 0)
		rc = !strcmp(now.state, "done") && now.claim && !strcmp(now.claim, job->claim);
	store_job_release(&now);
	return rc;
}

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
	if (!outage_over(st))
		return fmin(outage.retry_at, *renewed + lease);
	sent = time_now();
	rc = store_job_renew(st, job->id, job->claim, lease, &err);
	if (rc > 0)
		*renewed = sent;
	else if (!rc) {
		/*
		 * No longer running under its claim. The run completes the job in
		 * the transaction that stores its last results, then has still to
		 * print and exit: not a job taken from this worker.
		 */
		rc = completed_here(st, job, &err);
		if (rc < 0 && outage_noticed(st))
			return fmin(outage.retry_at, *renewed + lease);
		*hold = rc > 0 ? COMPLETED : TAKEN;
	} else if (outage_noticed(st))
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
 * goes on waits for nothing this worker may still store. A run that
 * completed the job has a lease to exit in, then is stopped so, lest it hold
 * the worker (a run that hangs after its last commit). Returns its exit
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
		if (*hold == COMPLETED) {
			fprintf(stderr, "schedperf: job %lld: its run completed it but had not "
				"exited %d s later: it is stopped\n", (long long)job->id, lease);
			kill(pid, SIGTERM);
			forwarded = true;
			kill_at = time_now() + lease_patience_ms(lease) / 1e3;
			next = INFINITY;
			continue;
		}
		next = keep_lease(st, job, lease, renewed, hold);
		if (*hold == COMPLETED)
			next = time_now() + lease;	/* its time to exit */
		if ((*hold == TAKEN || *hold == LAPSED) && !forwarded) {
			kill(pid, SIGTERM);
			forwarded = true;
		}
		if (*hold == LAPSED)
			kill_at = time_now() + lease_patience_ms(lease) / 1e3;
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
	int rc = store_job_fail(st, job->id, job->claim, false, reason, err);

	*end = JOB_FAILED;
	if (rc)
		return rc < 0 ? -1 : 0;
	rc = completed_here(st, job, err);
	if (rc < 0)
		return -1;
	*end = rc ? JOB_DONE : JOB_TAKEN;
	return 0;
}

void not_ours(const struct store_job *job, const char *what)
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
		if (!outage_noticed(st))
			return error_report(&err);
		rc = outage_wait(st, renewed + lease);
		if (rc == 1)
			lapsed_after_run(job);
		if (rc)
			return rc;
	}
	return 0;
}

int give_back(struct store *st, const struct store_job *job, const char *how)
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

int run_job(struct store *st, const struct store_job *job, int lease, double renewed)
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
