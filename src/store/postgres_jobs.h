/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STORE_POSTGRES_JOBS_H
#define SCHEDPERF_STORE_POSTGRES_JOBS_H

/* The job queue on PostgreSQL (postgres_jobs.c): operations of backend.h. */

#include "store/backend.h"

int pg_job_submit(struct store *st, const char *command, const char *args,
		  const char *machine, const char *machine_like, int priority,
		  int max_attempts, int64_t *id, struct error *err);
int pg_job_claim(struct store *st, const char *worker, const char *claim, int lease,
		 struct store_job *job, struct error *err);
int pg_job_renew(struct store *st, int64_t id, const char *claim, int lease,
		 struct error *err);
int pg_job_fail(struct store *st, int64_t id, const char *claim, const char *reason,
		struct error *err);
int pg_jobs_list(struct store *st, struct store_job **jobs, size_t *nr, struct error *err);
int pg_job_get(struct store *st, int64_t id, struct store_job *job, struct error *err);
int pg_job_cancel(struct store *st, int64_t id, struct error *err);
int pg_batch_attach_job(struct store *st, int64_t batch_id, int64_t job_id,
			const char *claim, struct error *err);
int pg_job_complete(struct store *st, int64_t batch_id, const char *result,
		    struct error *err);

#endif
