// SPDX-License-Identifier: GPL-2.0
/*
 * Jobs (store.h, "Jobs"). Every operation is one statement, atomic by
 * itself, outside the writers' transactions (a claim must not wait for
 * their lock), but the two that tie a job to its batches: the batch a
 * job's run begins names it in the transaction that begins it, and the job
 * is done in the one that completes its batches (store_batches_finish()),
 * or discards them, its verdict reached all the same (an ab capped first).
 *
 * A claim is named by the worker's machine, its pid and the time, so that
 * a worker whose job was claimed again after its lease ran out can neither
 * renew, fail nor complete it: its batch stays incomplete, never seen, and
 * goes when the job's next run begins.
 *
 * Only a driver with the job_* statements (postgres/queue.c) takes jobs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/queries.h"
#include "util/machine.h"
#include "util/strbuf.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

/* The job queue needs a driver that has one. */
static int no_queue(struct store *st, struct error *err)
{
	return st->driver->job_claim ? 0 : store_no_queue(st->location, st->driver, err);
}

/* STORE_JOB_COLUMNS, in order. */
#define JOB(t, field) SQL_FIELD(t, struct store_job, field)
static const struct sql_field job_fields[] = {
	JOB(INT, id), JOB(TEXT, state), JOB(TEXT, args), JOB(TEXT, machine), JOB(INT, priority),
	JOB(INT, attempts), JOB(TEXT_OR_NULL, worker), JOB(TEXT, since),
	JOB(TEXT_OR_NULL, reason), JOB(INT, result_batch), JOB(TEXT_OR_NULL, claim),
	JOB(INT, max_attempts), JOB(TEXT, command), JOB(TEXT_OR_NULL, result),
	JOB(TEXT_OR_NULL, kernel), JOB(TEXT_OR_NULL, home_kernel),
	JOB(TEXT_OR_NULL, boot_deadline), JOB(INT, lease_over),
};
static const struct sql_shape job_shape = SQL_SHAPE(struct store_job, job_fields);

void store_job_release(struct store_job *job)
{
	sql_release(&job_shape, job);
}

/* The job @sql returns, if any: 1 with *job filled, 0 when none, -1 with @err. */
static int one_job(struct store *st, const char *sql, const struct sql_arg *args, size_t nr,
		   struct store_job *job, struct error *err, const char *what)
{
	return no_queue(st, err) ? -1 : sql_one(st, sql, args, nr, &job_shape, job, err, what);
}

/* A statement on one job: 1 when it touched the job, 0 when the claim is gone. */
static int one_row(struct store *st, const char *sql, const struct sql_arg *args, size_t nr,
		   struct error *err, const char *what)
{
	int64_t id;

	return no_queue(st, err) ? -1 : sql_id(st, sql, args, nr, &id, err, what);
}

/* A machine pattern (* any text, ? one character) as SQL LIKE reads it, \ escaping. */
static char *pattern_to_like(const char *pattern)
{
	struct strbuf sb = STRBUF_INIT;

	for (const char *p = pattern; *p; p++) {
		if (strchr("%_\\", *p))
			strbuf_addf(&sb, "\\%c", *p);
		else
			strbuf_addf(&sb, "%c", *p == '*' ? '%' : *p == '?' ? '_' : *p);
	}
	return strbuf_detach(&sb);
}

int store_job_submit(struct store *st, const char *command, const char *args,
		     const char *machine, int priority, int max_attempts, const char *kernel,
		     int64_t *id, struct error *err)
{
	char *like;
	int rc;

	if (no_queue(st, err))
		return -1;
	like = pattern_to_like(machine);
	rc = sql_insert(st, "INSERT INTO jobs (args, machine, machine_like, priority, "
			"max_attempts, command, kernel, submitted, since) VALUES ($1, $2, $3, $4, "
			"$5, $6, $7, {now}, {now}) RETURNING id",
			SQL_ARGS(SQL_TEXT(args), SQL_TEXT(machine), SQL_TEXT(like),
				 SQL_INT(priority), SQL_INT(max_attempts), SQL_TEXT(command),
				 SQL_TEXT(kernel)),
			id, err, "submit a job");
	free(like);
	return rc;
}

/*
 * The host names the store knows, as claims compare a job's pattern with
 * them: the workers' that claimed a job (jobs.worker, kept once it ends,
 * but for a job given back), and each batch's machine.
 */
#define WORKERS_SEEN "SELECT worker FROM jobs WHERE worker IS NOT NULL"
#define BATCH_MACHINES "SELECT value FROM environment WHERE key = 'machine.hostname'"

int store_job_machine_known(struct store *st, const char *machine, char ***known,
			    size_t *nr, struct error *err)
{
	SQL_SCALAR_SHAPE(name_shape, TEXT, char *);
	char *like, **names = NULL;
	int64_t one;
	int rc;

	*known = NULL;
	*nr = 0;
	if (no_queue(st, err))
		return -1;
	like = pattern_to_like(machine);
	/* The first that matches is enough: no scan of every batch's but where none does. */
	rc = sql_id(st, "SELECT 1 FROM (" WORKERS_SEEN " AND worker LIKE $1 UNION ALL "
		    BATCH_MACHINES " AND value LIKE $1) m LIMIT 1", SQL_ARGS(SQL_TEXT(like)),
		    &one, err, "find the machines the store knows");
	free(like);
	if (rc)
		return rc;
	rc = sql_list(st, WORKERS_SEEN " UNION " BATCH_MACHINES " ORDER BY 1", SQL_NO_ARGS,
		      &name_shape, &names, nr, err, "list the machines the store knows");
	if (rc)
		return rc;
	/* NULL-terminated, for words_free() */
	*known = xrealloc(names, (*nr + 1) * sizeof(*names));
	(*known)[*nr] = NULL;
	return 0;
}

/*
 * A claim no other can hold: the worker, its process and this moment; then
 * its machine's boot id, last, which tells a job booting under the claim
 * whether its machine has rebooted since (postgres/queue.c, SAME_BOOT).
 */
static void new_claim(const char *worker, char *claim, size_t len)
{
	static unsigned int nr;
	char boot[64];

	machine_boot_id(boot, sizeof(boot));
	snprintf(claim, len, "%.64s/%ld/%.0f/%u/%.40s", worker, (long)getpid(),
		 time_now() * 1e6, nr++, boot);
}

int store_job_claim(struct store *st, const char *worker, int lease, const char *release,
		    bool can_boot, struct store_job *job, struct error *err)
{
	char claim[sizeof(st->job_claim)];

	new_claim(worker, claim, sizeof(claim));
	return one_job(st, st->driver->job_claim,
		       SQL_ARGS(SQL_TEXT(worker), SQL_TEXT(claim), SQL_INT(lease),
				SQL_TEXT(release), SQL_INT(can_boot)), job, err, "claim a job");
}

int store_job_booting(struct store *st, int64_t id, const char *claim, int timeout,
		      const char *home, int lease, struct error *err)
{
	return one_row(st, st->driver->job_booting,
		       SQL_ARGS(SQL_INT(id), SQL_TEXT(claim), SQL_INT(timeout), SQL_TEXT(home),
				SQL_INT(lease)), err, "mark the job as booting");
}

int store_job_booted(struct store *st, const char *worker, const char *release, int lease,
		     struct store_job *job, struct error *err)
{
	char claim[sizeof(st->job_claim)], boot[64];
	int rc;

	/* the boot that the job waits for has happened only if the boot id is new */
	machine_boot_id(boot, sizeof(boot));
	new_claim(worker, claim, sizeof(claim));
	rc = one_job(st, st->driver->job_booted,
		     SQL_ARGS(SQL_TEXT(worker), SQL_TEXT(release), SQL_TEXT(claim),
			      SQL_INT(lease), SQL_TEXT(boot)), job, err, "claim a job");
	if (rc)
		return rc;
	rc = one_job(st, st->driver->job_came_back,
		     SQL_ARGS(SQL_TEXT(worker), SQL_TEXT(release), SQL_TEXT(boot)), job, err,
		     "fail a job whose boot did not come back on its kernel");
	if (rc)
		return rc > 0 ? 2 : rc;
	rc = one_job(st, st->driver->job_boot_lost, SQL_ARGS(SQL_TEXT(worker), SQL_TEXT(boot)),
		     job, err, "take back a job whose worker was lost before its boot");
	return rc > 0 ? 3 : rc;
}

int store_jobs_expire_boots(struct store *st, struct error *err)
{
	return no_queue(st, err) ? -1 :
	       sql_exec(st, st->driver->job_boots_over, SQL_NO_ARGS, err,
			"expire the boots overdue");
}

int store_job_pin(struct store *st, int64_t id, const char *host, struct error *err)
{
	char *like = pattern_to_like(host);
	int rc = no_queue(st, err) ? -1 :
		 sql_exec(st, "UPDATE jobs SET machine = $2, machine_like = $3 WHERE id = $1",
			  SQL_ARGS(SQL_INT(id), SQL_TEXT(host), SQL_TEXT(like)), err,
			  "keep the job to one machine");

	free(like);
	return rc;
}

int store_job_renew(struct store *st, int64_t id, const char *claim, int lease,
		    struct error *err)
{
	return one_row(st, st->driver->job_renew,
		       SQL_ARGS(SQL_INT(id), SQL_TEXT(claim), SQL_INT(lease)), err,
		       "renew a job's lease");
}

int store_job_fail(struct store *st, int64_t id, const char *claim, bool booting,
		   const char *reason, struct error *err)
{
	return one_row(st, "UPDATE jobs SET state = 'failed', reason = $3, since = {now} "
		       "WHERE id = $1 AND claim = $2 AND state = $4 RETURNING id",
		       SQL_ARGS(SQL_INT(id), SQL_TEXT(claim), SQL_TEXT(reason),
				SQL_TEXT(booting ? "booting" : "running")), err,
		       booting ? "fail the job whose boot failed" : "record a job's failure");
}

int store_job_give_back(struct store *st, int64_t id, const char *claim, struct error *err)
{
	/* a job marked booting, its boot not begun, is as if it never was */
	return one_row(st, "UPDATE jobs SET state = 'queued', attempts = attempts - 1, "
		       "worker = NULL, claim = NULL, lease_until = NULL, since = {now}, "
		       "home_kernel = CASE state WHEN 'booting' THEN NULL ELSE home_kernel END, "
		       "boot_deadline = CASE state WHEN 'booting' THEN NULL ELSE boot_deadline END "
		       "WHERE id = $1 AND claim = $2 AND state IN ('running', 'booting') "
		       "RETURNING id",
		       SQL_ARGS(SQL_INT(id), SQL_TEXT(claim)), err, "give a job back");
}

int store_job_lost_run(struct store *st, int64_t id, const char *claim, const char *reason,
		       struct error *err)
{
	int64_t rc = 0;

	if (no_queue(st, err) ||
	    sql_id(st, st->driver->job_lost_run,
		   SQL_ARGS(SQL_INT(id), SQL_TEXT(claim), SQL_TEXT(reason)), &rc, err,
		   "queue again a job whose run was killed") < 0)
		return -1;
	return (int)rc;
}

int store_job_get(struct store *st, int64_t id, struct store_job *job, struct error *err)
{
	return one_job(st, "SELECT " STORE_JOB_COLUMNS " FROM jobs WHERE id = $1",
		       SQL_ARGS(SQL_INT(id)), job, err, "read a job");
}

int store_jobs_list(struct store *st, struct store_job **jobs, size_t *nr, struct error *err)
{
	*jobs = NULL;
	*nr = 0;
	return no_queue(st, err) ? -1 :
	       sql_list(st, "SELECT " STORE_JOB_COLUMNS " FROM jobs ORDER BY id", SQL_NO_ARGS,
			&job_shape, jobs, nr, err, "list the jobs");
}

/* One transaction: a job that cannot be cancelled leaves every other as it was. */
int store_jobs_cancel(struct store *st, const int64_t *ids, size_t n, struct error *err)
{
	int rc = 1;

	if (no_queue(st, err) || sql_begin(st, TXN_WRITE, err))
		return -1;
	for (size_t i = 0; i < n && rc > 0; i++)
		if (!(rc = one_row(st, "UPDATE jobs SET state = 'cancelled', since = {now} "
				   "WHERE id = $1 AND state IN ('queued', 'running', 'booting') "
				   "RETURNING id",
				   SQL_ARGS(SQL_INT(ids[i])), err, "cancel a job")))
			error_set(err, EXIT_USAGE, "job %lld cannot be cancelled: there is no "
				  "such job, or it has ended (see 'schedperf jobs'; no job was "
				  "cancelled)", (long long)ids[i]);
	return sql_end_write(st, rc <= 0 ? -1 : 0, err);
}

void store_set_job(struct store *st, int64_t id, const char *claim)
{
	st->job_id = id;
	snprintf(st->job_claim, sizeof(st->job_claim), "%s", claim);
}

/* 0 when @rc, one_row()'s, says the claim of this process's job held, else -1. */
static int claim_held(const struct store *st, int rc, struct error *err)
{
	if (rc)
		return rc < 0 ? -1 : 0;
	return error_set(err, EXIT_ENV, "job %lld is no longer this worker's: it was cancelled, "
			 "or claimed again when its lease ran out (nothing was stored)",
			 (long long)st->job_id);
}

/*
 * In the transaction that begins the batch: the claim must still hold (and
 * holds until its end); the batches an earlier, lost run of the job began
 * go now (not this run's: an ab begins two).
 */
int batch_attach_job(struct store *st, int64_t batch_id, struct error *err)
{
	int rc = one_row(st, st->driver->job_hold,
			 SQL_ARGS(SQL_INT(st->job_id), SQL_TEXT(st->job_claim)), err,
			 "check the job's claim");

	return claim_held(st, rc, err) ||
	       sql_exec(st, "UPDATE batches SET job_id = $1, job_claim = $2 WHERE id = $3",
			SQL_ARGS(SQL_INT(st->job_id), SQL_TEXT(st->job_claim), SQL_INT(batch_id)),
			err, "link the batch to its job") ||
	       sql_exec(st, "DELETE FROM batches WHERE job_id = $1 AND NOT complete AND "
			"job_claim <> $2", SQL_ARGS(SQL_INT(st->job_id), SQL_TEXT(st->job_claim)),
			err, "discard a lost run of the job") ? -1 : 0;
}

int job_complete(struct store *st, int64_t batch_id, const char *result, struct error *err)
{
	int64_t job_id;
	int rc;

	if (!st->driver->job_claim)
		return 0;
	rc = sql_id(st, "SELECT job_id FROM batches WHERE id = $1 AND job_id IS NOT NULL",
		    SQL_ARGS(SQL_INT(batch_id)), &job_id, err, "find the batch's job");
	if (rc <= 0)
		return rc;
	rc = one_row(st, "UPDATE jobs SET state = 'done', result_batch = b.id, result = $2, "
		     "since = {now} FROM batches b WHERE b.id = $1 AND jobs.id = b.job_id AND "
		     "jobs.claim = b.job_claim AND jobs.state = 'running' RETURNING jobs.id",
		     SQL_ARGS(SQL_INT(batch_id), SQL_TEXT(result)), err, "complete the job");
	if (rc)
		return rc < 0 ? -1 : 0;
	return error_set(err, EXIT_ENV, "batch %lld's job is no longer this worker's: it was "
			 "cancelled, or claimed again when its lease ran out (the batch stays "
			 "hidden)", (long long)batch_id);
}

int job_complete_unstored(struct store *st, const char *result, struct error *err)
{
	int rc;

	if (!st->driver->job_claim || !st->job_id)
		return 0;
	rc = one_row(st, "UPDATE jobs SET state = 'done', result_batch = NULL, result = $3, "
		     "since = {now} WHERE id = $1 AND claim = $2 AND state = 'running' "
		     "RETURNING id", SQL_ARGS(SQL_INT(st->job_id), SQL_TEXT(st->job_claim),
					      SQL_TEXT(result)), err, "complete the job");
	return claim_held(st, rc, err);
}
