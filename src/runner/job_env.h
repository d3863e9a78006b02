/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_RUNNER_JOB_ENV_H
#define SCHEDPERF_RUNNER_JOB_ENV_H

#include <stdbool.h>
#include <stdint.h>

#include "store/store.h"
#include "util/error.h"

/*
 * A command that a worker runs for a job (run, ab, bisect-step) finds the
 * job in $SCHEDPERF_JOB, "ID:CLAIM", set by fleet/job_run.c: never on a
 * command line. The batches it begins are the job's.
 */
#define JOB_ENV_JOB "SCHEDPERF_JOB"

/*
 * The worker's patience (store_set_patience(), in ms) in $SCHEDPERF_JOB_PATIENCE,
 * set by the worker for its run alone: the run's calls to a server that
 * stopped answering give up as the worker's do, and the run, stopped by its
 * worker when the lease ran out meanwhile, ends rather than wait on.
 */
#define JOB_ENV_PATIENCE "SCHEDPERF_JOB_PATIENCE"

/*
 * The store's location, which a worker gives its run in a pipe rather than
 * in its environment (fleet/job_run.c: a URL's password would show in
 * /proc): the reading end's number in $SCHEDPERF_JOB_DB_FD.
 */
#define JOB_ENV_DB_FD "SCHEDPERF_JOB_DB_FD"
/*
 * 1 with the location read from that pipe, malloc'd, in @db, the pipe
 * closed; 0 when the variable is not set; -1 with @err when the pipe
 * cannot be read or holds nothing.
 */
int job_env_db(char **db, struct error *err);
/*
 * The other end: store @db for a child that runs one of schedperf's
 * commands (spawn_self()), a worker's run or submit's check. @env[0] is
 * "SCHEDPERF_DB=" @db without its password (which store, for ps e and the
 * tests), @env[1] JOB_ENV_DB_FD's entry, both malloc'd, for spawn_self()'s
 * @env. Returns the pipe's reading end, for the caller to close once the
 * child is started, or -1 with errno (and nothing in @env).
 */
int job_env_db_pipe(const char *db, char *env[2]);

/*
 * Read JOB_ENV_JOB, JOB_ENV_PATIENCE and JOB_ENV_DB_FD once and take them
 * out of the environment: no program the command starts (a command
 * workload's, a build) sees them, for with the job's claim one could store
 * as the job. The functions here read what it took, and call it
 * themselves; cli_setup() calls it first, before any child is started.
 */
void job_env_take(void);

/* 1 with the job's @id, 0 when no job is set, -1 with @err when it is malformed. */
int job_env_id(int64_t *id, struct error *err);
/*
 * store_set_job() of the environment's job, if any, and store_set_patience()
 * of its worker's patience: 0, or -1 with @err (either malformed).
 */
int job_env_attach(struct store *st, struct error *err);

/*
 * submit checks a job with the command's own dry run, run with
 * $SCHEDPERF_JOB_CHECK set (JOB_ENV_CHECK): then what names a file refuses
 * a path relative to this directory (workload_check_for_job()), since a
 * worker runs the job in its own. Called once, before the command runs.
 */
#define JOB_ENV_CHECK "SCHEDPERF_JOB_CHECK"
void job_env_check_paths(void);
/*
 * In that check, how many jobs of these arguments submit queues (its
 * --repeat; JOB_ENV_CHECK's value); 0 when the command checks no job.
 */
int job_env_check_jobs(void);
/*
 * In that check, of a job of @command whose runs are named @name: refused
 * (EXIT_USAGE) when another queued, booting or running job of @command
 * names its runs so too, for the two would pool their samples. 0, or -1
 * with @err. @runs_name: the name job @id's arguments give its runs
 * (@argv[0] the command), read by the command's own parser; malloc'd, NULL
 * when they do not parse (a job of another version).
 */
typedef char *job_runs_name_fn(int argc, char **argv, int64_t id);
int job_env_name_free(struct store *st, const char *command, const char *name,
		      job_runs_name_fn *runs_name, struct error *err);

#endif
