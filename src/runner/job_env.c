// SPDX-License-Identifier: GPL-2.0
/* The job a worker runs a command for, from $SCHEDPERF_JOB (job_env.h). */
#include <limits.h>
#include <stdlib.h>

#include "runner/job_env.h"
#include "workload/workload.h"

/* 1 with @id and @claim (the text after the colon), 0 when unset, -1 with @err. */
static int parse(int64_t *id, const char **claim, struct error *err)
{
	const char *job = getenv("SCHEDPERF_JOB");
	char *end;
	long long n;

	*id = 0;
	if (!job || !*job)
		return 0;
	n = strtoll(job, &end, 10);
	if (n < 1 || *end != ':' || !end[1])
		return error_set(err, EXIT_USAGE, "SCHEDPERF_JOB '%.64s' is not ID:CLAIM (it is "
				 "set by 'schedperf worker'; unset it)", job);
	*id = n;
	*claim = end + 1;
	return 1;
}

int job_env_id(int64_t *id, struct error *err)
{
	const char *claim = NULL;

	return parse(id, &claim, err);
}

int job_env_attach(struct store *st, struct error *err)
{
	const char *claim = NULL;
	int64_t id;
	int rc = parse(&id, &claim, err);

	if (rc > 0)
		store_set_job(st, id, claim);
	return rc < 0 ? -1 : 0;
}

void job_env_check_paths(void)
{
	const char *check = getenv(JOB_ENV_CHECK);

	if (check && *check)
		workload_check_for_job();
}

int job_env_check_jobs(void)
{
	const char *check = getenv(JOB_ENV_CHECK);
	long n = check ? strtol(check, NULL, 10) : 0;

	return n > 0 && n <= INT_MAX ? (int)n : 0;
}
