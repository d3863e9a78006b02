// SPDX-License-Identifier: GPL-2.0
/*
 * The job queue's statements that only PostgreSQL has (driver.h; the rest
 * of the queue is store/jobs.c's). A claim is one UPDATE of the next job
 * that FOR UPDATE SKIP LOCKED finds: workers that claim at once each take
 * a different job and none waits for another. A lease is a time on the
 * server's clock, so that machines' clocks never matter. The claim that
 * begins a job's batch holds the job's row until that transaction ends, so
 * that no cancel or new claim comes between its check and its commit.
 */
#include "store/postgres/postgres.h"

/* A deadline as the store writes times: ISO 8601 UTC, so that text compares as time does. */
#define PG_IN(seconds) "to_char((clock_timestamp() + make_interval(secs => " seconds \
	")) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"

/* A lease of @seconds from now, on the server's clock. */
#define LEASE(seconds) "lease_until = clock_timestamp() + make_interval(secs => " seconds ")"

/* A booting job whose machine was not back by its deadline, and why it fails. */
#define OVERDUE "boot_deadline < {now}"
#define OVERDUE_REASON								\
	"format('the machine %s did not come back on %s within its boot timeout "	\
	"(check its console, and worker --boot-cmd)', worker, kernel)"

/* Those jobs failed: a CTE of the claim, and a statement. */
#define BOOTS_OVER								\
	"UPDATE jobs SET state = 'failed', since = {now}, reason = " OVERDUE_REASON " "	\
	"WHERE state = 'booting' AND " OVERDUE

/* How a job given up after its last attempt is seen to. */
#define GIVE_UP_HINT " (find what kills it, or submit it again with a larger --max-attempts)"

/*
 * Jobs lost after their last allowed claim, and jobs whose machine did not
 * come back from its boot, fail first, in the same statement: the rows it
 * fails and the one it claims are never the same.
 */
const char pg_job_claim[] =
	"WITH given_up AS (UPDATE jobs SET state = 'failed', since = {now}, "
	"reason = format(CASE WHEN attempts = 1 THEN 'given up after %s attempt: the "
	"worker running it was lost before the run ended (on %s)' ELSE 'given up after "
	"%s attempts: each time, the worker running it was lost before the run ended "
	"(last on %s)' END || '" GIVE_UP_HINT "', attempts, worker) "
	"WHERE state = 'running' AND lease_until < clock_timestamp() AND "
	"attempts >= max_attempts), boots_over AS (" BOOTS_OVER ") "
	"UPDATE jobs SET state = 'running', worker = $1, claim = $2, "
	"attempts = attempts + 1, since = {now}, " LEASE("$3") " "
	"WHERE id = (SELECT id FROM jobs WHERE (state = 'queued' OR (state = 'running' "
	"AND lease_until < clock_timestamp() AND attempts < max_attempts)) AND "
	"$1 LIKE machine_like AND (kernel IS NULL OR kernel = $4 OR $5 = 1) "
	"ORDER BY priority DESC, id LIMIT 1 FOR UPDATE SKIP LOCKED) "
	"RETURNING " STORE_JOB_COLUMNS;

/*
 * A booting job's claim was made in boot @boot of its machine: the boot id
 * ends the claim (jobs.c, new_claim()). Then the machine has not rebooted
 * yet, whatever release it runs; an unknown boot id ("") is never the same.
 */
#define SAME_BOOT(boot) "(" boot " <> '' AND right(claim, length(" boot ") + 1) = '/' || " \
	boot ")"

/* Its worker's lease goes on while the boot command runs: it is alive, or lost (boot_lost). */
const char pg_job_booting[] =
	"UPDATE jobs SET state = 'booting', since = {now}, boot_deadline = " PG_IN("$3") ", "
	"home_kernel = $4, " LEASE("$5") " WHERE id = $1 AND claim = $2 AND "
	"state = 'running' RETURNING id";

/*
 * A machine back after its deadline takes nothing up: the job is failed
 * then, by boots_over or came_back, and taking it up would race with them
 * (the row lock orders this UPDATE and theirs; whichever comes second no
 * longer finds the job booting).
 */
const char pg_job_booted[] =
	"UPDATE jobs SET state = 'running', claim = $3, since = {now}, " LEASE("$4") " "
	"WHERE state = 'booting' AND worker = $1 AND kernel = $2 AND NOT " OVERDUE " AND "
	"NOT " SAME_BOOT("$5") " RETURNING " STORE_JOB_COLUMNS;

/*
 * Back on another kernel, or too late: the reason boots_over would give.
 * Not before a reboot: a worker started while another's boot command runs,
 * or after its worker was lost in it, finds the release of before.
 */
const char pg_job_came_back[] =
	"UPDATE jobs SET state = 'failed', since = {now}, reason = CASE WHEN " OVERDUE " "
	"THEN " OVERDUE_REASON " ELSE format('the machine came "
	"back on %s, not on %s (a kernel that did not boot, or a boot command whose "
	"choice did not hold)', $2::text, kernel) END WHERE state = 'booting' AND worker = $1 "
	"AND (" OVERDUE " OR NOT " SAME_BOOT("$3") ") RETURNING " STORE_JOB_COLUMNS;

/*
 * No reboot yet, and the worker that runs the boot command no longer
 * renews its lease: it was lost (killed in its boot command). The job is
 * then a lost worker's running job, as pg_job_claim takes those: claimed
 * again, or given up after its last attempt.
 */
const char pg_job_boot_lost[] =
	"UPDATE jobs SET state = 'running', since = {now}, boot_deadline = NULL, "
	"home_kernel = NULL WHERE state = 'booting' AND worker = $1 AND " SAME_BOOT("$2") " "
	"AND lease_until < clock_timestamp() AND NOT " OVERDUE " RETURNING " STORE_JOB_COLUMNS;

const char pg_job_boots_over[] = BOOTS_OVER;

/* A running job whose run was killed: queued again, as a claim gives up a lost worker's. */
const char pg_job_lost_run[] =
	"UPDATE jobs SET since = {now}, "
	"state = CASE WHEN attempts < max_attempts THEN 'queued' ELSE 'failed' END, "
	"reason = CASE WHEN attempts < max_attempts THEN NULL ELSE format('given up "
	"after %s attempt%s: %s" GIVE_UP_HINT "', attempts, "
	"CASE WHEN attempts = 1 THEN '' ELSE 's' END, $3::text) END, "
	"worker = CASE WHEN attempts < max_attempts THEN NULL ELSE worker END, "
	"claim = CASE WHEN attempts < max_attempts THEN NULL ELSE claim END, "
	"lease_until = NULL WHERE id = $1 AND claim = $2 AND state = 'running' "
	"RETURNING CASE state WHEN 'queued' THEN 1 ELSE 2 END";

const char pg_job_renew[] =
	"UPDATE jobs SET " LEASE("$3") " "
	"WHERE id = $1 AND claim = $2 AND state IN ('running', 'booting') RETURNING id";

const char pg_job_hold[] =
	"SELECT id FROM jobs WHERE id = $1 AND claim = $2 AND state = 'running' FOR UPDATE";
