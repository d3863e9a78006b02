// SPDX-License-Identifier: GPL-2.0
/*
 * A worker of the fleet: take jobs from the store's queue that this machine
 * matches and run each (job_run.c), or boot the kernel it needs (boot.c),
 * until stopped (stop.h) or idle for long enough.
 *
 * The store may be unreachable for a while (PostgreSQL restarted for an
 * upgrade, a network failure): the worker rides that out (outage.h)
 * rather than lose the job it holds.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fleet/boot.h"
#include "fleet/job_run.h"
#include "fleet/outage.h"
#include "fleet/stop.h"
#include "fleet/worker.h"
#include "runner/knob_guard.h"
#include "runner/knob_journal.h"
#include "util/error.h"
#include "util/machine.h"
#include "util/timeutil.h"

/* Held from worker_lock_take() until the process exits. */
static struct knob_lock worker_lock = WORKER_LOCK_INIT;

/* How long a look at the lock (worker_lock_looked_at()) is waited out: 100 times 20 ms. */
#define LOOK_TRIES 100

/*
 * An idle worker looks for a job again after FIRST_LOOK seconds, each wait
 * twice the one before, up to LAST_LOOK: a job queued just after another
 * ended (a bisection's next round, a batch of submits) is taken at once,
 * and a worker idle for long asks the store once a second.
 */
#define FIRST_LOOK 0.05
#define LAST_LOOK 1.0

int worker_lock_take(struct error *err)
{
	static const struct timespec poll = { 0, 20 * 1000 * 1000 };
	char text[32];
	int rc, tries = 0;
	long pid;

	/*
	 * A run by hand that looks for a worker holds the lock shared for a
	 * few system calls: a worker started then is no second worker.
	 */
	while (!(rc = knob_lock_take(&worker_lock, true, false, err)) &&
	       worker_lock_looked_at(worker_lock.fd) && ++tries < LOOK_TRIES)
		nanosleep(&poll, NULL);
	if (rc < 0)
		return -1;
	if (!rc) {
		pid = worker_lock_holder(worker_lock.fd);
		snprintf(text, sizeof(text), " (pid %ld)", pid);
		return error_set(err, EXIT_ENV, "worker: another worker%s runs on this machine "
				 "and holds %s: two would measure at once and skew each other's "
				 "jobs (stop that one first, or leave this machine's jobs to it)",
				 pid ? text : "", worker_lock_path());
	}
	/*
	 * The pid, for the next one's message only: a worker that could open
	 * the file read-only alone (another user made it) holds the lock all
	 * the same, unnamed.
	 */
	snprintf(text, sizeof(text), "%ld\n", (long)getpid());
	if (!ftruncate(worker_lock.fd, 0))
		(void)!pwrite(worker_lock.fd, text, strlen(text), 0);
	return 0;
}

static int host_name(char *buf, size_t len)
{
	machine_host_name(buf, len);
	if (!*buf)
		return die_code(EXIT_ENV, "worker: cannot read this machine's name: %m (give "
				"the machine a host name, which the queue's jobs match)");
	return 0;
}

int worker_work(struct store *st, const struct worker_options *opt)
{
	double idle_since = time_now();
	double look_every = FIRST_LOOK;
	struct error err = { 0 };
	bool went_home = false;
	char host[256];
	int code;

	worker_catch_stop();
	store_set_patience(st, lease_patience_ms(opt->lease));
	if ((code = host_name(host, sizeof(host))) || (code = after_boot(st, host, opt->lease)))
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
		rc = store_job_claim(st, host, opt->lease, release, opt->boot.cmd != NULL, &job,
				     &err);
		if (rc < 0 && outage_noticed(st)) {
			/* --idle-exit ends a worker whose store stays unreachable, with why */
			code = outage_wait(st, opt->idle_exit ? idle_since + opt->idle_exit :
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
				code = boot_for(st, &job, release, opt->lease, &opt->boot);
			else
				code = run_job(st, &job, opt->lease, claimed);
			store_job_release(&job);
			if (code > 1 || opt->once)
				return code > 1 ? code : EXIT_OK;
			idle_since = time_now();
			look_every = FIRST_LOOK;
			went_home = false;
			continue;
		}
		idle = time_now() - idle_since;
		if (idle >= opt->boot.home_after &&
		    (code = boot_home(&opt->boot, release, &went_home)))
			return code;
		if (opt->once)
			return EXIT_OK;
		if (opt->idle_exit && idle >= opt->idle_exit)
			return EXIT_OK;
		/* Nothing to do: look again soon (or when --idle-exit is up). */
		time_sleep_until(time_now() + (opt->idle_exit && opt->idle_exit - idle < look_every ?
					       opt->idle_exit - idle : look_every));
		look_every = fmin(2 * look_every, LAST_LOOK);
	}
}
