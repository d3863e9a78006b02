// SPDX-License-Identifier: GPL-2.0
/*
 * A worker booting the kernel a job needs, and the job taken up again by
 * the worker started after the boot (boot.h; doc/design.md, "Jobs").
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "fleet/boot.h"
#include "fleet/job_run.h"
#include "fleet/outage.h"
#include "fleet/stop.h"
#include "util/error.h"
#include "util/machine.h"
#include "util/run_command.h"
#include "util/timeutil.h"

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
			   (int)fmin(left * 1000 + 1, lease_patience_ms(boot_lease.lease)));
	if (!outage_over(boot_lease.st)) {
		boot_lease.next = fmin(boot_lease.next, outage.retry_at);
		goto out;
	}
	/* a lease that cannot be renewed stops no boot: the machine goes down all the same */
	rc = store_job_renew(boot_lease.st, boot_lease.job->id, boot_lease.job->claim,
			     boot_lease.lease, &err);
	if (rc < 0 && outage_noticed(boot_lease.st))
		boot_lease.next = outage.retry_at;
	else if (rc < 0)
		error_report(&err);
	else if (!rc)
		boot_taken(boot_lease.st, boot_lease.job);
out:
	store_set_patience(boot_lease.st, lease_patience_ms(boot_lease.lease));
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
static int boot_command(const struct boot_options *boot, const char *release,
			double deadline, char *why, size_t len)
{
	char *argv[] = { (char *)"sh", (char *)"-c", (char *)boot->cmd, (char *)"sh",
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
			 "it was killed, with its process group", boot->timeout);
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

int boot_for(struct store *st, const struct store_job *job, const char *release, int lease,
	     const struct boot_options *boot)
{
	/* the store's deadline for the boot is as far from now */
	double deadline = time_now() + boot->timeout;
	struct error err = { 0 };
	bool said = false;	/* that it cannot boot */
	char why[300];
	int rc = store_job_booting(st, job->id, job->claim, boot->timeout, release, lease,
				   &err);

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
	boot_lease.lease = lease;
	boot_lease.next = time_now() + lease / 3.0;
	boot_lease.deadline = deadline;
	boot_lease.taken = false;
	if (!boot_command(boot, job->kernel, deadline, why, sizeof(why))) {
		rc = wait_for_reboot(deadline);
		if (rc) {
			boot_lease.job = NULL;
			return rc;	/* the shutdown: the job waits for the boot */
		}
		snprintf(why, sizeof(why), "the boot command returned, but the machine did not "
			 "restart within %d s (check --boot-cmd; it must reboot)", boot->timeout);
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
	       (rc = store_job_fail(st, job->id, job->claim, true, why, &err)) < 0) {
		/* said before any wait for the store, as the job's, which it likely is */
		if (!said)
			fprintf(stderr, "schedperf: job %lld: cannot boot %s: %s\n",
				(long long)job->id, job->kernel, why);
		said = true;
		if (!outage_noticed(st))
			return error_report(&err);
		if ((rc = outage_wait(st, INFINITY)))
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

int boot_home(const struct boot_options *boot, const char *release, bool *tried)
{
	double deadline;
	char why[300];

	if (!boot->cmd || !boot->home_kernel || !strcmp(release, boot->home_kernel) || *tried)
		return 0;
	*tried = true;
	if (!global.quiet)
		printf("worker: booting the default kernel %s\n", boot->home_kernel);
	fflush(stdout);
	deadline = time_now() + boot->timeout;
	if (boot_command(boot, boot->home_kernel, deadline, why, sizeof(why))) {
		fprintf(stderr, "schedperf: worker: cannot boot the default kernel %s: %s\n",
			boot->home_kernel, why);
		return 0;
	}
	return wait_for_reboot(deadline);
}

int after_boot(struct store *st, const char *host, int lease)
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
		rc = store_job_booted(st, host, release, lease, &job, &err);
		if (rc >= 0 || !outage_noticed(st))
			break;
		if ((code = outage_wait(st, INFINITY)))
			return code;
	}
	if (rc < 0)
		return error_report(&err);
	if (rc == 1)
		code = run_job(st, &job, lease, claimed);
	else if (rc == 2)
		fprintf(stderr, "schedperf: job %lld failed: %s\n", (long long)job.id, job.reason);
	else if (rc == 3)
		fprintf(stderr, "schedperf: job %lld: the worker that was booting %s for it was "
			"lost before the machine rebooted; it is a lost worker's job now, claimed "
			"again (or given up after its last attempt)\n", (long long)job.id, job.kernel);
	store_job_release(&job);
	return code > 1 ? code : 0;
}
