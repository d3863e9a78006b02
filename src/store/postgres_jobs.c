// SPDX-License-Identifier: GPL-2.0
/*
 * The job queue on PostgreSQL (store.h, "Jobs"). A claim is one UPDATE
 * of the next job that FOR UPDATE SKIP LOCKED finds: workers that claim at
 * once each take a different job and none waits for another. A lease is a
 * time on the server's clock, so that machines' clocks never matter.
 * Completion is a statement of the transaction that marks the job's batch
 * complete (store_batch_finish()): the job is done, its batch linked,
 * exactly when the batch is complete, and only under the claim it ran
 * under.
 */
#include <stdlib.h>
#include <string.h>

#include "store/postgres_jobs.h"
#include "store/postgres_stmt.h"
#include "util/xalloc.h"

int pg_job_submit(struct store *st, const char *command, const char *args,
		  const char *machine, const char *machine_like, int priority,
		  int max_attempts, int64_t *id, struct error *err)
{
	struct pg_params p = { .nr = 0 };
	PGresult *res;

	pg_param_text(&p, args);
	pg_param_text(&p, machine);
	pg_param_text(&p, machine_like);
	pg_param_int(&p, priority);
	pg_param_int(&p, max_attempts);
	pg_param_text(&p, command);
	res = pg_query(pg_of(st), "INSERT INTO jobs (args, machine, machine_like, priority, "
		       "max_attempts, command, submitted, since) VALUES ($1, $2, $3, $4, $5, $6, "
		       PG_NOW ", " PG_NOW ") RETURNING id", &p, err, "submit a job");
	if (!res)
		return -1;
	*id = pg_int(res, 0, 0);
	PQclear(res);
	return 0;
}

#define JOB_COLUMNS "id, state, args, machine, priority, attempts, worker, since, reason, " \
	"coalesce(result_batch, 0), claim, max_attempts, command, result"

static char *column_or_null(const PGresult *res, int row, int col)
{
	return PQgetisnull(res, row, col) ? NULL : xstrdup(pg_text(res, row, col));
}

static void column_job(const PGresult *res, int row, struct store_job *job)
{
	job->id = pg_int(res, row, 0);
	job->state = xstrdup(pg_text(res, row, 1));
	job->args = xstrdup(pg_text(res, row, 2));
	job->machine = xstrdup(pg_text(res, row, 3));
	job->priority = (int)pg_int(res, row, 4);
	job->attempts = (int)pg_int(res, row, 5);
	job->worker = column_or_null(res, row, 6);
	job->since = xstrdup(pg_text(res, row, 7));
	job->reason = column_or_null(res, row, 8);
	job->result_batch = pg_int(res, row, 9);
	job->claim = column_or_null(res, row, 10);
	job->max_attempts = (int)pg_int(res, row, 11);
	job->command = xstrdup(pg_text(res, row, 12));
	job->result = column_or_null(res, row, 13);
}

/* The job @sql returns, if any: 1 with *job filled, 0 when none, -1 with @err. */
static int one_job(struct store *st, const char *sql, struct pg_params *p,
		   struct store_job *job, struct error *err, const char *what)
{
	PGresult *res = pg_query(pg_of(st), sql, p, err, what);
	int rc;

	if (!res)
		return -1;
	rc = PQntuples(res) > 0;
	if (rc)
		column_job(res, 0, job);
	PQclear(res);
	return rc;
}

int pg_job_claim(struct store *st, const char *worker, const char *claim, int lease,
		 struct store_job *job, struct error *err)
{
	/*
	 * Jobs lost after their last allowed claim fail first, in the same
	 * statement: the rows it fails and the one it claims are never the same.
	 */
	static const char sql[] =
		"WITH given_up AS (UPDATE jobs SET state = 'failed', since = " PG_NOW ", "
		"reason = format('given up after %s attempts: each time, the worker running "
		"it was lost before the run ended (last on %s) (find what kills it, or "
		"submit it again with a larger --max-attempts)', attempts, worker) "
		"WHERE state = 'running' AND lease_until < clock_timestamp() AND "
		"attempts >= max_attempts) "
		"UPDATE jobs SET state = 'running', worker = $1, claim = $2, "
		"attempts = attempts + 1, since = " PG_NOW ", "
		"lease_until = clock_timestamp() + make_interval(secs => $3) "
		"WHERE id = (SELECT id FROM jobs WHERE (state = 'queued' OR (state = 'running' "
		"AND lease_until < clock_timestamp() AND attempts < max_attempts)) AND "
		"$1 LIKE machine_like ORDER BY priority DESC, id LIMIT 1 FOR UPDATE SKIP LOCKED) "
		"RETURNING " JOB_COLUMNS;
	struct pg_params p = { .nr = 0 };

	pg_param_text(&p, worker);
	pg_param_text(&p, claim);
	pg_param_int(&p, lease);
	return one_job(st, sql, &p, job, err, "claim a job");
}

/* A statement on one job under one claim: 1 when it touched the job, 0 when the claim is gone. */
static int under_claim(struct store *st, const char *sql, struct pg_params *p,
		       struct error *err, const char *what)
{
	PGresult *res = pg_query(pg_of(st), sql, p, err, what);
	int rc;

	if (!res)
		return -1;
	rc = PQntuples(res) > 0;
	PQclear(res);
	return rc;
}

int pg_job_renew(struct store *st, int64_t id, const char *claim, int lease,
		 struct error *err)
{
	struct pg_params p = { .nr = 0 };

	pg_param_int(&p, id);
	pg_param_text(&p, claim);
	pg_param_int(&p, lease);
	return under_claim(st, "UPDATE jobs SET lease_until = clock_timestamp() + "
			   "make_interval(secs => $3) WHERE id = $1 AND claim = $2 AND "
			   "state = 'running' RETURNING id", &p, err, "renew a job's lease");
}

int pg_job_fail(struct store *st, int64_t id, const char *claim, const char *reason,
		struct error *err)
{
	struct pg_params p = { .nr = 0 };

	pg_param_int(&p, id);
	pg_param_text(&p, claim);
	pg_param_text(&p, reason);
	return under_claim(st, "UPDATE jobs SET state = 'failed', reason = $3, since = " PG_NOW
			   " WHERE id = $1 AND claim = $2 AND state = 'running' RETURNING id",
			   &p, err, "record a job's failure");
}

int pg_job_get(struct store *st, int64_t id, struct store_job *job, struct error *err)
{
	struct pg_params p = { .nr = 0 };

	pg_param_int(&p, id);
	return one_job(st, "SELECT " JOB_COLUMNS " FROM jobs WHERE id = $1", &p, job, err,
		       "read a job");
}

int pg_jobs_list(struct store *st, struct store_job **jobs, size_t *nr, struct error *err)
{
	PGresult *res = pg_query(pg_of(st), "SELECT " JOB_COLUMNS " FROM jobs ORDER BY id",
				 NULL, err, "list the jobs");

	if (!res)
		return -1;
	*nr = (size_t)PQntuples(res);
	*jobs = xcalloc(*nr + 1, sizeof(**jobs));
	for (size_t i = 0; i < *nr; i++)
		column_job(res, (int)i, &(*jobs)[i]);
	PQclear(res);
	return 0;
}

int pg_job_cancel(struct store *st, int64_t id, struct error *err)
{
	struct pg_params p = { .nr = 0 };

	pg_param_int(&p, id);
	return under_claim(st, "UPDATE jobs SET state = 'cancelled', since = " PG_NOW
			   " WHERE id = $1 AND state IN ('queued', 'running') RETURNING id", &p,
			   err, "cancel a job");
}

/*
 * In the transaction that begins the batch: the claim must still hold; the
 * batches that an earlier, lost run of the job began go now (not those of
 * this run: an ab begins two).
 */
int pg_batch_attach_job(struct store *st, int64_t batch_id, int64_t job_id,
			const char *claim, struct error *err)
{
	struct pg_params p = { .nr = 0 };
	int rc;

	pg_param_int(&p, job_id);
	pg_param_text(&p, claim);
	rc = under_claim(st, "SELECT id FROM jobs WHERE id = $1 AND claim = $2 AND "
			 "state = 'running' FOR UPDATE", &p, err, "check the job's claim");
	if (rc <= 0)
		return rc < 0 ? -1 : error_set(err, EXIT_ENV, "job %lld is no longer this "
					       "worker's: it was cancelled, or claimed again when "
					       "its lease ran out (nothing was stored)",
					       (long long)job_id);
	pg_param_int(&p, batch_id);
	if (pg_exec(pg_of(st), "UPDATE batches SET job_id = $1, job_claim = $2 WHERE id = $3",
		    &p, err, "link the batch to its job"))
		return -1;
	p.nr = 0;
	pg_param_int(&p, job_id);
	pg_param_text(&p, claim);
	return pg_exec(pg_of(st), "DELETE FROM batches WHERE job_id = $1 AND NOT complete AND "
		       "job_claim <> $2", &p, err, "discard a lost run of the job");
}

int pg_job_complete(struct store *st, int64_t batch_id, const char *result,
		    struct error *err)
{
	struct pg_params p = { .nr = 0 };
	PGresult *res;
	int rc;

	pg_param_int(&p, batch_id);
	res = pg_query(pg_of(st), "SELECT job_id FROM batches WHERE id = $1 AND "
		       "job_id IS NOT NULL", &p, err, "find the batch's job");
	if (!res)
		return -1;
	rc = PQntuples(res);
	PQclear(res);
	if (!rc)
		return 0;
	pg_param_text(&p, result);
	rc = under_claim(st, "UPDATE jobs j SET state = 'done', result_batch = b.id, result = $2, "
			 "since = " PG_NOW " FROM batches b WHERE b.id = $1 AND j.id = b.job_id AND "
			 "j.claim = b.job_claim AND j.state = 'running' RETURNING j.id", &p, err,
			 "complete the job");
	if (rc < 0)
		return -1;
	if (!rc)
		return error_set(err, EXIT_ENV, "batch %lld's job is no longer this worker's: it "
				 "was cancelled, or claimed again when its lease ran out (the batch "
				 "stays hidden)", (long long)batch_id);
	return 0;
}
