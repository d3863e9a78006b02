// SPDX-License-Identifier: GPL-2.0
/*
 * The calls of store.h that write or read results, each one transaction
 * of the queries (queries.h) that make it: the writer guards, resume
 * bookkeeping and --replace.
 *
 * Writers. A batch records its writer, the process running it, and the
 * process group of its current iteration, each by boot id, pid and start
 * time, so that a reused pid is never taken for it (util/process.h). A
 * run may be replaced or resumed only while no incomplete batch of it has
 * a live writer other than this process, nor live tasks of a killed one;
 * the check and the claim are one write transaction, so of two processes
 * trying at once exactly one proceeds. A writer killed with SIGKILL frees
 * the name at once. Ids are never reused: a process whose batch was
 * deleted under it fails on its next insert, never writing into another.
 *
 * An experiment's own runs (ab's sides): the check that none holds a
 * batch but an earlier, lost attempt's of the job this process runs, and
 * the begin of all their batches, are one write transaction, so that of
 * two experiments begun at once under one name exactly one proceeds and
 * compare never pools them. The batches of one killed (SIGKILL) before
 * its first sample hold nothing to pool: their writer gone, that
 * transaction takes them over (deletes them).
 *
 * --replace. The replacing batch is hidden from every reader until it
 * finishes complete, in the transaction that deletes the earlier batches
 * of its machine (another machine's stay: a fleet shares run names).
 * Readers see the old batches or the new one, never both; one that fails
 * or is interrupted leaves the old in place, for `run --resume` to finish.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/queries.h"
#include "util/machine.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

static void writer_self(struct batch_writer *writer)
{
	memset(writer, 0, sizeof(*writer));
	process_id_of(getpid(), &writer->runner);
}

/*
 * Whether another live process writes @state's batch: its runner, or the
 * tasks of its iteration when it died (kill -9 leaves them, and samples
 * taken beside them would be skewed).
 */
static int writer_conflict(const struct batch_state *state, struct error *err)
{
	const struct batch_writer *w = &state->writer;
	const char *name = state->run_name;

	if (w->runner.pid && !process_is_self(&w->runner) && process_alive(&w->runner))
		return error_set(err, EXIT_ENV, "run '%.128s' is being written by process "
				 "%lld, batch %lld (wait for it to end, or stop it first)",
				 name, (long long)w->runner.pid, (long long)state->id);
	if (w->tasks.pid && process_group_alive(&w->tasks))
		return error_set(err, EXIT_ENV, "run '%.128s': tasks of batch %lld still run in "
				 "process group %lld, their runner gone (stop them with 'kill "
				 "-KILL -- -%lld', then run again)", name, (long long)state->id,
				 (long long)w->tasks.pid, (long long)w->tasks.pid);
	return 0;
}

/*
 * Whether a batch of machine @key ("ID/HOST") ran here (@here): its key,
 * or no id (older than machine ids: not another machine's) and this host
 * name or none.
 */
static bool ran_here(const char *key, const char *here)
{
	if (!strcmp(key, here))
		return true;
	return key[0] == '/' && (!key[1] || !strcmp(key + 1, strchr(here, '/') + 1));
}

/*
 * Refuse while another live process writes an incomplete batch of the
 * run; in the write transaction of the claim that follows.
 */
static int guard_run(struct store *st, int64_t run_id, struct error *err)
{
	struct batch_state *states;
	size_t nr;
	int rc = batches_incomplete(st, run_id, &states, &nr, err);

	for (size_t i = 0; i < nr && !rc; i++)
		rc = writer_conflict(&states[i], err);
	batch_states_release(states, nr);
	return rc;
}

/* store_batch_begin() in the write transaction open. */
static int begin_one(struct store *st, struct result_batch *batch, bool replace,
		     const char *plan, struct error *err)
{
	struct batch_state state = { .replacing = replace, .plan = (char *)plan };
	int64_t run_id;
	int rc;

	writer_self(&state.writer);
	rc = run_find(st, batch->name, true, &run_id, err) < 0 ||
	     batch_may_join(st, run_id, batch, true, err) ||
	     (replace && guard_run(st, run_id, err)) ? -1 : 0;
	/*
	 * Two processes may begin batches of one run in the same microsecond
	 * (workers of a --repeat'ed job do): the later takes the clock's next.
	 */
	for (int tries = 0; !rc && (rc = batch_insert(st, run_id, batch, &state,
							      err)) > 0; tries++) {
		char later[64];

		if (tries == 1000) {
			rc = error_set(err, EXIT_INTERNAL, "run '%s' has a batch of every start "
				       "time the clock gave", batch->name);
			break;
		}
		time_iso8601(later, sizeof(later));
		free(batch->started);
		batch->started = xstrdup(later);
		rc = 0;
	}
	if (!rc && st->job_id)
		rc = batch_attach_job(st, batch->id, err);
	return rc;
}

int store_batch_begin(struct store *st, struct result_batch *batch, bool replace,
		      const char *plan, struct error *err)
{
	return IN_WRITE_TXN(st, err, begin_one(st, batch, replace, plan, err));
}

/*
 * Whether run @name is held for an experiment begun under it: by a batch
 * not an earlier attempt's of job @job_id, nor one an experiment killed
 * (SIGKILL; other signals discard their own) here before its first sample,
 * its writer gone, which holds nothing to pool (with @take, those go now).
 * A live writer holds the name from its begin, before any sample. 1 held,
 * 0 free, -1 with @err (a killed writer's tasks still run).
 */
static int run_held(struct store *st, const char *name, int64_t job_id, bool take,
		    struct error *err)
{
	struct batch_state *states = NULL;
	char here[256];
	size_t nr = 0;
	int rc = run_taken_beyond_unsampled(st, name, job_id, err);

	if (!rc)
		rc = batches_left_unsampled(st, name, &states, &nr, err);
	machine_batch_key(here, sizeof(here));
	for (size_t i = 0; i < nr && !rc; i++) {
		const struct process_id *w = &states[i].writer.runner;

		if (!ran_here(states[i].machine, here) || (w->pid && process_alive(w)))
			rc = 1;
		else if (writer_conflict(&states[i], err))
			rc = -1;
	}
	for (size_t i = 0; i < nr && !rc && take; i++)
		rc = batch_delete(st, states[i].id, err, "delete the batch");
	batch_states_release(states, nr);
	return rc;
}

/*
 * An experiment's runs are its own: another batch of one (run_held()) is
 * another experiment's, whose samples compare would pool with these.
 */
static int runs_free(struct store *st, struct result_batch *batches, size_t n,
		     struct error *err)
{
	for (size_t i = 0; i < n; i++) {
		int rc = run_held(st, batches[i].name, st->job_id, true, err);

		if (rc)
			return rc < 0 ? -1 :
			       error_set(err, EXIT_USAGE, "run %.128s exists already, and "
					 "compare would pool its samples with this experiment's "
					 "(give another --name)", batches[i].name);
	}
	return 0;
}

int store_batches_begin_own(struct store *st, struct result_batch *batches,
			    const char *const *plans, size_t n, struct error *err)
{
	int rc;

	if (sql_begin(st, TXN_WRITE, err))
		return -1;
	rc = runs_free(st, batches, n, err);
	for (size_t i = 0; i < n && !rc; i++)
		rc = begin_one(st, &batches[i], false, plans[i], err);
	return sql_end_write(st, rc, err);
}

/* Make this process the batch's writer, unless another live one is; in a write transaction. */
static int claim(struct store *st, const struct batch_state *state, struct error *err)
{
	struct batch_writer writer;

	if (guard_run(st, state->run_id, err))
		return -1;
	writer_self(&writer);
	return batch_set_writer(st, state->id, &writer, err);
}

int store_batch_claim(struct store *st, int64_t batch_id, struct error *err)
{
	struct batch_state state = { 0 };
	int rc;

	if (sql_begin(st, TXN_WRITE, err))
		return -1;
	rc = batch_get(st, batch_id, &state, err) || claim(st, &state, err) ? -1 : 0;
	batch_state_release(&state);
	return sql_end_write(st, rc, err);
}

int store_batch_plan(struct store *st, int64_t batch_id, char **plan, struct error *err)
{
	SQL_SCALAR_SHAPE(plan_shape, TEXT_OR_NULL, char *);

	*plan = NULL;
	return IN_READ_TXN(st, err, sql_one(st, "SELECT plan FROM batches WHERE id = $1",
					    SQL_ARGS(SQL_INT(batch_id)), &plan_shape, plan, err,
					    "read a batch's plan")) < 0 ? -1 : 0;
}

int store_run_taken(struct store *st, const char *name, bool *taken, struct error *err)
{
	int rc = IN_READ_TXN(st, err, run_held(st, name, 0, false, err));

	*taken = rc > 0;
	return rc < 0 ? -1 : 0;
}

int store_check_run_own(const char *db, const char *name, struct error *err)
{
	struct store_status status;
	struct store *st = NULL;
	int rc;

	if (store_peek(db, &status, err))
		return -1;
	if (!status.version)
		return 0;
	if (store_open_existing(db, &st, err))
		return -1;
	rc = IN_READ_TXN(st, err, run_own(st, name, err));
	store_close(st);
	return rc;
}

/* @state ran on another machine than @here: named by host, and by id when the host is ours. */
static int other_machine(const struct batch_state *state, const char *name, const char *here,
			 struct error *err)
{
	const char *host = strchr(here, '/') + 1;
	int id_len = (int)strcspn(state->machine, "/"), here_len = (int)(host - here - 1);

	if (*state->host && strcmp(state->host, host))
		return error_set(err, EXIT_USAGE, "run '%.128s': its incomplete batch %lld ran "
				 "on machine '%.128s', not this one (resume it there; here, run "
				 "it without --resume)", name, (long long)state->id, state->host);
	return error_set(err, EXIT_USAGE, "run '%.128s': its incomplete batch %lld ran on "
			 "machine '%.128s' of machine id '%.*s', not this one, of machine id "
			 "'%.*s' (resume it there; here, run it without --resume)", name,
			 (long long)state->id, *state->host ? state->host : "unknown", id_len,
			 state->machine, here_len, here);
}

/*
 * The latest incomplete batch of this machine's in @states: another's is
 * that machine's to resume (its writer is not seen here, and our samples
 * would pool with its).
 */
static int this_machines(const struct batch_state *states, size_t nr, const char *name,
			 size_t *at, struct error *err)
{
	char here[256];

	machine_batch_key(here, sizeof(here));
	for (size_t i = 0; i < nr; i++) {
		if (ran_here(states[i].machine, here)) {
			*at = i;
			return 0;
		}
	}
	return other_machine(&states[0], name, here, err);
}

/*
 * Leave out of @states the batches of jobs (their worker runs a job from its
 * start): 0 when some are left, else the job of the newest left out.
 */
static int not_jobs(struct batch_state *states, size_t *nr)
{
	int64_t job = 0;
	size_t kept = 0;

	for (size_t i = 0; i < *nr; i++) {
		if (states[i].job_id) {
			job = job ? job : states[i].job_id;
			batch_state_release(&states[i]);
			continue;
		}
		states[kept++] = states[i];
	}
	*nr = kept;
	return kept ? 0 : (int)job;
}

int store_resume_find(struct store *st, const char *name, int64_t *batch_id, char **plan,
		      struct error *err)
{
	struct batch_state *states = NULL;
	size_t nr = 0, at = 0;
	int64_t run_id;
	int rc;

	if (sql_begin(st, TXN_WRITE, err))
		return -1;
	rc = run_find(st, name, false, &run_id, err);
	if (rc > 0)
		rc = batches_incomplete(st, run_id, &states, &nr, err) ? -1 : (int)nr;
	if (rc > 0 && (rc = not_jobs(states, &nr)) > 0)
		rc = error_set(err, EXIT_USAGE, "run '%.128s': its incomplete batch is job %d's, "
			       "and a job's batch is resumed by no one: a worker runs the job "
			       "again from its start (see 'schedperf jobs'; submit it again if it "
			       "failed)", name, rc);
	else if (rc >= 0)
		rc = (int)nr;
	if (!rc)
		rc = error_set(err, EXIT_USAGE, "run '%.128s' has no incomplete batch to "
			       "resume (see 'schedperf runs')", name);
	rc = rc < 0 || this_machines(states, nr, name, &at, err) ||
	     claim(st, &states[at], err) ? -1 : 0;
	if (!rc) {
		*batch_id = states[at].id;
		*plan = states[at].plan;
		states[at].plan = NULL;
	}
	batch_states_release(states, nr);
	return sql_end_write(st, rc, err);
}

int store_batch_tasks(struct store *st, int64_t batch_id, pid_t group, struct error *err)
{
	struct batch_writer writer;

	writer_self(&writer);
	if (group > 0 && process_id_of(group, &writer.tasks))
		return 0;	/* the group already ended: nothing of it can be left */
	return IN_WRITE_TXN(st, err, batch_set_writer(st, batch_id, &writer, err));
}

int store_batches_finish(struct store *st, const int64_t *batch_ids, size_t nr, bool complete,
			 bool measured, const char *result, struct error *err)
{
	int rc = 0;

	if (sql_begin(st, TXN_WRITE, err))
		return -1;
	for (size_t i = 0; i < nr && !rc; i++)
		rc = batch_finish(st, batch_ids[i], complete, measured, err);
	/* The job goes with its batches: every batch names it, the first says so. */
	if (!rc && nr && complete && measured)
		rc = job_complete(st, batch_ids[0], result, err);
	return sql_end_write(st, rc, err);
}

int store_batches_discard(struct store *st, const int64_t *batch_ids, size_t nr,
			  const char *result, struct error *err)
{
	int rc = 0;

	if (sql_begin(st, TXN_WRITE, err))
		return -1;
	if (result)
		rc = job_complete_unstored(st, result, err);
	for (size_t i = 0; i < nr && !rc; i++)
		rc = sql_exec(st, "DELETE FROM runs WHERE id IN (SELECT run_id FROM batches WHERE "
			      "id = $1) AND NOT EXISTS (SELECT 1 FROM batches o WHERE o.run_id = "
			      "runs.id AND o.id <> $1)", SQL_ARGS(SQL_INT(batch_ids[i])), err,
			      "discard the run") ||
		     batch_delete(st, batch_ids[i], err, "discard the batch");
	return sql_end_write(st, rc, err);
}

int store_batch_finish(struct store *st, int64_t batch_id, bool complete, struct error *err)
{
	return store_batches_finish(st, &batch_id, 1, complete, true, NULL, err);
}

int store_profile_add(struct store *st, int64_t bench_id, const struct result_profile *p,
		      struct error *err)
{
	return IN_WRITE_TXN(st, err, profile_insert(st, bench_id, p, err));
}

int store_load(struct store *st, const char *name, unsigned parts,
	       struct result_set *set, struct error *err)
{
	size_t first = set->nr_batches;

	/* One read transaction: a run being written concurrently is seen whole-iteration. */
	if (IN_READ_TXN(st, err, batches_load(st, name, parts, set, err)))
		return -1;
	if (name && set->nr_batches == first)
		return error_set(err, EXIT_USAGE, "no run named '%.128s' in store '%s' "
				 "(see 'schedperf runs' for the runs it holds)", name,
				 st->location);
	return 0;
}

int store_load_each(struct store *st, unsigned parts, struct result_set *set,
		    const struct store_each *each, struct error *err)
{
	/* one read transaction, as store_load()'s: every batch as of one moment */
	return IN_READ_TXN(st, err, batches_load_each(st, parts, set, each, err));
}
