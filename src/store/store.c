// SPDX-License-Identifier: GPL-2.0
/*
 * The store's interface (store.h) over its backends (backend.h): the
 * backend is chosen by the location's scheme, and everything that is not
 * a matter of SQL dialect is here, once: which calls are one transaction,
 * the guards that keep a second process off a run being written, resume
 * bookkeeping, --replace, and importing whole batches.
 *
 * Writers. Each batch records its writer: the process running it and the
 * process group of the iteration it runs now, each by boot id, pid and
 * start time, so that a reused pid is never taken for the writer
 * (util/process.h). A run's name may be replaced (--replace) or resumed
 * only while no incomplete batch of it has a live writer other than this
 * process, nor live tasks of a runner that was killed: the check and the
 * claim that follows are one write transaction, so of two processes that
 * try at once exactly one proceeds. A writer killed with SIGKILL is gone
 * for this check at once, its name free again. Ids are never reused, so a
 * process whose batch was deleted under it fails on its next insert and
 * never writes into another batch.
 *
 * --replace. The replacing batch is stored beside the earlier ones and
 * hidden from every reader (runs, show, compare, export) until it
 * finishes complete; the transaction that marks it complete deletes the
 * earlier batches. Readers see either the old batches or the new one,
 * never both; a replacing run that fails or is interrupted leaves the old
 * ones in place, and `run --resume` can still finish it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/backend.h"
#include "util/array.h"
#include "util/machine.h"
#include "util/strbuf.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

/* Chosen by the location's scheme; the row without schemes takes file paths. */
static const struct store_backend *const store_backends[] = {
	&store_postgres,
	&store_sqlite,
};

#define NR_BACKENDS ARRAY_SIZE(store_backends)

static const struct store_backend *backend_for(const char *location)
{
	const struct store_backend *files = NULL;

	for (size_t i = 0; i < NR_BACKENDS; i++) {
		const struct store_backend *be = store_backends[i];

		if (!be->schemes) {
			files = be;
			continue;
		}
		for (const char *const *s = be->schemes; *s; s++)
			if (!strncmp(location, *s, strlen(*s)))
				return be;
	}
	return files;
}

void store_location_shown(const char *location, char *buf, size_t len)
{
	const char *scheme = strstr(location, "://"), *at, *colon, *param;
	struct strbuf sb = STRBUF_INIT;

	if (!scheme) {
		snprintf(buf, len, "%s", location);
		return;
	}
	at = strchr(scheme + 3, '@');
	colon = at ? memchr(scheme + 3, ':', (size_t)(at - scheme - 3)) : NULL;
	if (colon)
		strbuf_addf(&sb, "%.*s%s", (int)(colon - location), location, at);
	else
		strbuf_addf(&sb, "%s", location);
	param = strstr(sb.buf, "password=");
	if (param)
		snprintf(buf, len, "%.*s...%s", (int)(param + 9 - sb.buf), sb.buf,
			 param + 9 + strcspn(param + 9, "&"));
	else
		snprintf(buf, len, "%s", sb.buf);
	strbuf_release(&sb);
}

/* The backend for @location, or -1 with @err when there is none to use. */
static int usable_backend(const char *location, const struct store_backend **out,
			  struct error *err)
{
	const struct store_backend *be;
	char shown[256];

	if (!location || !*location)
		return error_set(err, EXIT_USAGE, "no store given: --db needs a file name "
				 "or a URL (give --db FILE or --db postgresql://...)");
	be = backend_for(location);
	if (!be->open) {
		store_location_shown(location, shown, sizeof(shown));
		return error_set(err, EXIT_ENV, "cannot open store '%s': this schedperf is not "
				 "built with %s (%s)", shown, be->name, be->build_hint);
	}
	*out = be;
	return 0;
}

static int open_with(const char *location, enum store_access access, struct store **out,
		     struct error *err)
{
	const struct store_backend *be;

	if (usable_backend(location, &be, err) || be->open(location, access, out, err))
		return -1;
	/* Set here, so that a backend's open never names its operations table. */
	(*out)->be = be;
	return 0;
}

#define BUSY_TIMEOUT_MS 10000

int store_busy_timeout_ms(void)
{
	const char *env = getenv("SCHEDPERF_BUSY_TIMEOUT_MS");
	char *end;
	long ms;

	if (!env || !*env)
		return BUSY_TIMEOUT_MS;
	errno = 0;
	ms = strtol(env, &end, 10);
	if (errno || *end || ms < 0 || ms > 3600 * 1000)
		return BUSY_TIMEOUT_MS;
	return (int)ms;
}

int store_open(const char *location, struct store **out, struct error *err)
{
	return open_with(location, STORE_WRITE, out, err);
}

int store_open_existing(const char *location, struct store **out, struct error *err)
{
	return open_with(location, STORE_READ, out, err);
}

int store_open_queue(const char *location, struct store **out, struct error *err)
{
	const struct store_backend *be;
	char shown[256];

	if (usable_backend(location, &be, err))
		return -1;
	if (!be->job_claim) {
		store_location_shown(location, shown, sizeof(shown));
		return error_set(err, EXIT_USAGE, "store '%s' has no job queue: the %s backend "
				 "keeps none (give --db postgresql://... for a store that workers "
				 "share)", shown, be->name);
	}
	return open_with(location, STORE_WRITE, out, err);
}

int store_inspect(const char *location, struct store_status *status, struct error *err)
{
	const struct store_backend *be;
	struct store *st = NULL;
	int rc;

	memset(status, 0, sizeof(*status));
	if (usable_backend(location, &be, err))
		return -1;
	status->backend = be->name;
	store_location_shown(location, status->location, sizeof(status->location));
	if (be->inspect(location, &st, &status->version, err))
		return -1;
	if (!st)
		return 0;
	st->be = be;
	rc = be->damage(st, status->version, status->damage, sizeof(status->damage), err);
	be->close(st);
	return rc;
}

void store_close(struct store *st)
{
	if (st)
		st->be->close(st);
}

int store_not_ours(const char *location, const char *why, struct error *err)
{
	return error_set(err, EXIT_USAGE, "cannot open store '%s': it is not a schedperf "
			 "store: %s (give the --db of a schedperf store, or a new file name)",
			 location, why);
}

int store_too_new(const char *location, int version, struct error *err)
{
	return error_set(err, EXIT_ENV, "cannot open store '%s': its schema version %d is "
			 "newer than this schedperf knows (%d); it is left untouched (use a "
			 "newer schedperf or another --db)", location, version,
			 STORE_SCHEMA_VERSION);
}

int store_better_read(struct store *st, const char *text, enum better *out,
		      struct error *err)
{
	if (!better_parse(text, out))
		return 0;
	return error_set(err, EXIT_ENV, "cannot read store '%s': a metric's direction is "
			 "'%.32s', neither 'lower' nor 'higher': the store is damaged (check it "
			 "with 'sqlite3 FILE \"PRAGMA integrity_check\"')", st->location, text);
}

struct result_benchmark *store_benchmark_of(struct result_batch *batch, const int64_t *ids,
					   size_t *at, int64_t id)
{
	while (*at < batch->nr_benchmarks && ids[*at] != id)
		(*at)++;
	return *at < batch->nr_benchmarks ? &batch->benchmarks[*at] : NULL;
}

void batch_state_release(struct batch_state *state)
{
	free(state->run_name);
	free(state->plan);
	state->run_name = NULL;
	state->plan = NULL;
}

/* The job queue needs a backend that has one. */
static int no_queue(struct store *st, struct error *err)
{
	return error_set(err, EXIT_USAGE, "store '%s' has no job queue: the %s backend keeps "
			 "none (give --db postgresql://... for a store that workers share)",
			 st->location, st->be->name);
}

/* End the transaction that @rc (0 or -1) says went well or not. */
static int end_write(struct store *st, int rc, struct error *err)
{
	if (rc) {
		st->be->rollback(st);
		return -1;
	}
	return st->be->commit(st, err);
}

static void writer_self(struct batch_writer *writer)
{
	memset(writer, 0, sizeof(*writer));
	process_id_of(getpid(), &writer->runner);
}

/*
 * Whether another live process writes @state's batch: its runner, or
 * the tasks of the iteration it was running when it died (kill -9 leaves
 * them, and new samples taken beside them would be skewed).
 */
static int writer_conflict(const struct batch_state *state, struct error *err)
{
	const struct batch_writer *w = &state->writer;
	const char *name = state->run_name;

	if (w->runner.pid && !process_is_self(&w->runner) && process_alive(&w->runner))
		return error_set(err, EXIT_ENV, "run '%.128s' is being written by process "
				 "%lld (batch %lld) (wait for it to end, or stop it first)",
				 name, (long long)w->runner.pid, (long long)state->id);
	if (w->tasks.pid && process_group_alive(&w->tasks))
		return error_set(err, EXIT_ENV, "run '%.128s': tasks of batch %lld still run in "
				 "process group %lld, their runner gone (stop them with 'kill "
				 "-KILL -- -%lld', then run again)", name, (long long)state->id,
				 (long long)w->tasks.pid, (long long)w->tasks.pid);
	return 0;
}

/*
 * Refuse when a live process other than this one writes an incomplete
 * batch of the run: its name may then be neither replaced nor resumed.
 * Called inside a write transaction, so that the check and the claim that
 * follows are one step for every other process.
 */
static int guard_run(struct store *st, int64_t run_id, struct error *err)
{
	struct batch_state *states;
	size_t nr;
	int rc;

	if (st->be->batches_incomplete(st, run_id, &states, &nr, err))
		return -1;
	rc = 0;
	for (size_t i = 0; i < nr; i++) {
		if (!rc)
			rc = writer_conflict(&states[i], err);
		batch_state_release(&states[i]);
	}
	free(states);
	return rc;
}

void store_forget_in_child(void)
{
	for (size_t i = 0; i < NR_BACKENDS; i++)
		if (store_backends[i]->forget_in_child)
			store_backends[i]->forget_in_child();
}

int store_batch_begin(struct store *st, struct result_batch *batch, bool replace,
		      const char *plan, struct error *err)
{
	struct batch_state state = { .replacing = replace, .plan = (char *)plan };
	int64_t run_id;
	int rc;

	writer_self(&state.writer);
	if (st->be->begin(st, true, err))
		return -1;
	rc = st->be->run_find(st, batch->name, true, &run_id, err) < 0 ||
	     (replace && guard_run(st, run_id, err)) ? -1 : 0;
	/*
	 * Two processes, on one machine or two, may begin batches of one run
	 * in the same microsecond (workers of a --repeat'ed job do): the later
	 * one takes the next time the clock gives.
	 */
	for (int tries = 0; !rc && (rc = st->be->batch_insert(st, run_id, batch, &state,
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
		rc = st->be->batch_attach_job ?
		     st->be->batch_attach_job(st, batch->id, st->job_id, st->job_claim, err) :
		     no_queue(st, err);
	return end_write(st, rc, err);
}

/* Make this process the batch's writer, unless another live one is; in a write transaction. */
static int claim(struct store *st, const struct batch_state *state, struct error *err)
{
	struct batch_writer writer;

	if (guard_run(st, state->run_id, err))
		return -1;
	writer_self(&writer);
	return st->be->batch_set_writer(st, state->id, &writer, err);
}

/* The state of a batch that must exist; in a transaction. */
static int batch_state_of(struct store *st, int64_t batch_id, struct batch_state *state,
			  struct error *err)
{
	int rc = st->be->batch_get(st, batch_id, state, err);

	if (!rc)
		return error_set(err, EXIT_ENV, "batch %lld is no longer in store '%s' (it was "
				 "replaced; start a new run)", (long long)batch_id, st->location);
	return rc < 0 ? -1 : 0;
}

int store_batch_claim(struct store *st, int64_t batch_id, struct error *err)
{
	struct batch_state state = { 0 };
	int rc;

	if (st->be->begin(st, true, err))
		return -1;
	rc = batch_state_of(st, batch_id, &state, err) || claim(st, &state, err) ? -1 : 0;
	batch_state_release(&state);
	return end_write(st, rc, err);
}

int store_resume_find(struct store *st, const char *name, int64_t *batch_id, char **plan,
		      struct error *err)
{
	struct batch_state *states = NULL;
	size_t nr = 0;
	int64_t run_id;
	int rc;

	if (st->be->begin(st, true, err))
		return -1;
	rc = st->be->run_find(st, name, false, &run_id, err);
	if (rc > 0)
		rc = st->be->batches_incomplete(st, run_id, &states, &nr, err) ? -1 : (int)nr;
	if (!rc)
		rc = error_set(err, EXIT_USAGE, "run '%.128s' has no incomplete batch to "
			       "resume (see 'schedperf runs')", name);
	rc = rc < 0 || claim(st, &states[0], err) ? -1 : 0;
	if (!rc) {
		*batch_id = states[0].id;
		*plan = states[0].plan;
		states[0].plan = NULL;
	}
	for (size_t i = 0; i < nr; i++)
		batch_state_release(&states[i]);
	free(states);
	return end_write(st, rc, err);
}

int store_batch_tasks(struct store *st, int64_t batch_id, pid_t group, struct error *err)
{
	struct batch_writer writer;

	writer_self(&writer);
	if (group > 0 && process_id_of(group, &writer.tasks))
		return 0;	/* the group already ended: nothing of it can be left */
	if (st->be->begin(st, true, err))
		return -1;
	return end_write(st, st->be->batch_set_writer(st, batch_id, &writer, err), err);
}

/*
 * A replacing batch takes its run's place only now, complete, in the
 * transaction that marks it so: until then the earlier batches are what
 * every reader sees, and a replacing run that fails leaves them as they
 * were. Batches begun after it (ids are never reused, so larger) stay.
 */
static int finish_one(struct store *st, int64_t batch_id, bool complete, struct error *err)
{
	struct batch_state state = { 0 };
	int rc;

	rc = batch_state_of(st, batch_id, &state, err) ||
	     st->be->batch_finish(st, batch_id, complete, err) ||
	     (complete && state.replacing &&
	      st->be->batches_delete_before(st, state.run_id, batch_id, err)) ? -1 : 0;
	batch_state_release(&state);
	return rc;
}

int store_batches_finish(struct store *st, const int64_t *batch_ids, size_t nr,
			 bool complete, const char *result, struct error *err)
{
	int rc = 0;

	if (st->be->begin(st, true, err))
		return -1;
	for (size_t i = 0; i < nr && !rc; i++)
		rc = finish_one(st, batch_ids[i], complete, err);
	/* The job goes with its batches: every batch names it, the first says so. */
	if (!rc && nr && complete && st->be->job_complete)
		rc = st->be->job_complete(st, batch_ids[0], result, err);
	return end_write(st, rc, err);
}

int store_batch_finish(struct store *st, int64_t batch_id, bool complete, struct error *err)
{
	return store_batches_finish(st, &batch_id, 1, complete, NULL, err);
}

int store_benchmark_add(struct store *st, int64_t batch_id,
			const struct result_benchmark *bench, int64_t *bench_id,
			int64_t *metric_ids, struct error *err)
{
	if (st->be->begin(st, true, err))
		return -1;
	return end_write(st, st->be->benchmark_insert(st, batch_id, bench, bench_id,
						      metric_ids, err), err);
}

int store_iteration_add(struct store *st, int64_t bench_id, int seq, bool warmup,
			const char *failure, const struct result_iteration *info,
			const struct store_sample *samples, size_t nr_samples,
			struct error *err)
{
	if (st->be->begin(st, true, err))
		return -1;
	return end_write(st, st->be->iteration_insert(st, bench_id, seq, warmup, failure,
						      info, samples, nr_samples, err), err);
}

int store_profile_add(struct store *st, int64_t bench_id, const struct result_profile *p,
		      struct error *err)
{
	if (st->be->begin(st, true, err))
		return -1;
	return end_write(st, st->be->profile_insert(st, bench_id, p, err), err);
}

static int find_progress(struct store *st, int64_t batch_id, size_t position,
			 const struct result_benchmark *bench, int64_t *bench_id,
			 int64_t *metric_ids, struct benchmark_progress *progress,
			 struct error *err)
{
	int rc = st->be->benchmark_find(st, batch_id, position, bench_id, err);

	if (rc <= 0)
		return rc < 0 ? -1 : 1;
	for (size_t i = 0; i < bench->nr_metrics; i++) {
		/* A metric this machine did not have then stays unrecorded: 0 = skip. */
		rc = st->be->metric_find(st, *bench_id, bench->metrics[i].name, &metric_ids[i],
					 err);
		if (rc < 0)
			return -1;
		if (!rc)
			metric_ids[i] = 0;
	}
	return st->be->iterations_count(st, *bench_id, progress, err);
}

int store_benchmark_progress(struct store *st, int64_t batch_id, size_t position,
			     const struct result_benchmark *bench, int64_t *bench_id,
			     int64_t *metric_ids, struct benchmark_progress *progress,
			     struct error *err)
{
	int rc;

	memset(progress, 0, sizeof(*progress));
	if (st->be->begin(st, false, err))
		return -1;
	rc = find_progress(st, batch_id, position, bench, bench_id, metric_ids, progress, err);
	st->be->rollback(st);
	return rc;
}

int store_load(struct store *st, const char *name, bool with_samples,
	       struct result_set *set, struct error *err)
{
	size_t first = set->nr_batches;
	int rc;

	/* One read transaction: a run being written concurrently is seen whole-iteration. */
	if (st->be->begin(st, false, err))
		return -1;
	rc = st->be->batches_load(st, name, set, err);
	for (size_t i = first; i < set->nr_batches && !rc; i++)
		rc = st->be->batch_load(st, &set->batches[i], with_samples, err);
	st->be->rollback(st);
	if (rc)
		return -1;
	if (name && set->nr_batches == first)
		return error_set(err, EXIT_USAGE, "no run named '%.128s' in store '%s' "
				 "(see 'schedperf runs' for the runs it holds)", name,
				 st->location);
	return 0;
}

/* How many iterations an imported benchmark's samples fill, and how many values each. */
static void import_shape(const struct result_benchmark *bench, size_t *nr_warmup,
			 size_t *nr_measured, size_t *width)
{
	*nr_warmup = *nr_measured = *width = 0;
	for (size_t i = 0; i < bench->nr_metrics; i++) {
		const struct result_metric *m = &bench->metrics[i];
		size_t reps = result_metric_repetitions(m);
		size_t warmup = (m->nr_warmup + reps - 1) / reps;
		size_t measured = (m->nr_samples + reps - 1) / reps;

		if (warmup > *nr_warmup)
			*nr_warmup = warmup;
		if (measured > *nr_measured)
			*nr_measured = measured;
		*width += reps;
	}
}

/* The values of iteration @k of @bench (warm-up or measured) into @samples; returns how many. */
static size_t import_values(const struct result_benchmark *bench, const int64_t *metric_ids,
			    bool warmup, size_t k, struct store_sample *samples)
{
	size_t n = 0;

	for (size_t i = 0; i < bench->nr_metrics; i++) {
		const struct result_metric *m = &bench->metrics[i];
		size_t have = warmup ? m->nr_warmup : m->nr_samples;
		const double *v = warmup ? m->warmup : m->samples;
		size_t reps = result_metric_repetitions(m);

		for (size_t r = 0; r < reps; r++, n++) {
			size_t at = k * reps + r;

			samples[n].metric_id = metric_ids[i];
			samples[n].rep = (int)r;
			samples[n].value = at < have ? v[at] : NAN;
		}
	}
	return n;
}

/* The interference record of imported iteration @index, when the file has them. */
static const struct result_iteration *import_info(const struct result_benchmark *bench,
						  size_t nr_warmup, size_t nr_measured,
						  size_t index)
{
	if (bench->nr_iterations != nr_warmup + nr_measured)
		return NULL;
	return &bench->iterations[index];
}

/*
 * Iteration k holds the k-th group of each metric's values, one per
 * repetition; warm-ups come first, failures last; the profiles keep their
 * iteration numbers.
 */
static int import_benchmark(struct store *st, int64_t batch_id,
			    const struct result_benchmark *bench, struct error *err)
{
	int64_t bench_id, *metric_ids = xcalloc(bench->nr_metrics, sizeof(int64_t));
	size_t nr_warmup, nr_measured, width;
	struct store_sample *samples;
	int seq = 0, rc = -1;

	import_shape(bench, &nr_warmup, &nr_measured, &width);
	samples = xcalloc(width ? width : 1, sizeof(*samples));
	if (st->be->benchmark_insert(st, batch_id, bench, &bench_id, metric_ids, err))
		goto out;
	for (int pass = 0; pass < 2; pass++) {
		bool warmup = !pass;

		for (size_t k = 0; k < (warmup ? nr_warmup : nr_measured); k++) {
			size_t n = import_values(bench, metric_ids, warmup, k, samples);

			if (st->be->iteration_insert(st, bench_id, seq++, warmup, NULL,
						     import_info(bench, nr_warmup, nr_measured,
								 warmup ? k : nr_warmup + k),
						     samples, n, err))
				goto out;
		}
	}
	for (size_t k = 0; k < bench->nr_failed; k++)
		if (st->be->iteration_insert(st, bench_id, seq++, false, "imported failure",
					     NULL, NULL, 0, err))
			goto out;
	for (size_t k = 0; k < bench->nr_profiles; k++)
		if (st->be->profile_insert(st, bench_id, &bench->profiles[k], err))
			goto out;
	rc = 0;
out:
	free(metric_ids);
	free(samples);
	return rc;
}

static int import_batch(struct store *st, const struct result_batch *from, struct error *err)
{
	struct result_batch batch = *from;
	struct batch_state state = { 0 };
	int64_t run_id;

	int rc;

	if (st->be->run_find(st, batch.name, true, &run_id, err) < 0)
		return -1;
	rc = st->be->batch_insert(st, run_id, &batch, &state, err);
	if (rc > 0)
		return error_set(err, EXIT_USAGE, "run '%s' already has a batch started at %s "
				 "(it was imported before; nothing was changed)", batch.name,
				 batch.started);
	if (rc)
		return -1;
	for (size_t j = 0; j < batch.nr_benchmarks; j++)
		if (import_benchmark(st, batch.id, &batch.benchmarks[j], err))
			return -1;
	return 0;
}

int store_import(struct store *st, const struct result_set *set, struct error *err)
{
	int rc = 0;

	if (st->be->begin(st, true, err))
		return -1;
	for (size_t i = 0; i < set->nr_batches && !rc; i++)
		rc = import_batch(st, &set->batches[i], err);
	return end_write(st, rc, err);
}

/*
 * Jobs. Every operation is one statement of the backend's, atomic by
 * itself. A claim is named by the worker's machine, its pid and the time,
 * so that a worker whose lease ran out and whose job was claimed again can
 * neither renew it, nor fail it, nor complete it: its batch stays
 * incomplete, never seen, and goes when the next run of the job begins.
 */
void store_job_release(struct store_job *job)
{
	free(job->state);
	free(job->command);
	free(job->args);
	free(job->machine);
	free(job->worker);
	free(job->since);
	free(job->reason);
	free(job->result);
	free(job->claim);
	memset(job, 0, sizeof(*job));
}

/* A machine pattern (* any text, ? one character) as SQL LIKE reads it, \ escaping. */
static char *pattern_to_like(const char *pattern)
{
	struct strbuf sb = STRBUF_INIT;

	for (const char *p = pattern; *p; p++) {
		if (*p == '*')
			strbuf_addf(&sb, "%%");
		else if (*p == '?')
			strbuf_addf(&sb, "_");
		else if (*p == '%' || *p == '_' || *p == '\\')
			strbuf_addf(&sb, "\\%c", *p);
		else
			strbuf_addf(&sb, "%c", *p);
	}
	return strbuf_detach(&sb);
}

int store_job_submit(struct store *st, const char *command, const char *args,
		     const char *machine, int priority, int max_attempts, int64_t *id,
		     struct error *err)
{
	char *like;
	int rc;

	if (!st->be->job_submit)
		return no_queue(st, err);
	like = pattern_to_like(machine);
	rc = st->be->job_submit(st, command, args, machine, like, priority, max_attempts, id,
				err);
	free(like);
	return rc;
}

int store_job_claim(struct store *st, const char *worker, int lease, struct store_job *job,
		    struct error *err)
{
	static unsigned int nr;
	char claim[sizeof(st->job_claim)];

	if (!st->be->job_claim)
		return no_queue(st, err);
	snprintf(claim, sizeof(claim), "%.64s/%ld/%.0f/%u", worker, (long)getpid(),
		 time_now() * 1e6, nr++);
	return st->be->job_claim(st, worker, claim, lease, job, err);
}

int store_job_renew(struct store *st, int64_t id, const char *claim, int lease,
		    struct error *err)
{
	if (!st->be->job_renew)
		return no_queue(st, err);
	return st->be->job_renew(st, id, claim, lease, err);
}

int store_job_fail(struct store *st, int64_t id, const char *claim, const char *reason,
		   struct error *err)
{
	if (!st->be->job_fail)
		return no_queue(st, err);
	return st->be->job_fail(st, id, claim, reason, err);
}

int store_job_get(struct store *st, int64_t id, struct store_job *job, struct error *err)
{
	if (!st->be->job_get)
		return no_queue(st, err);
	return st->be->job_get(st, id, job, err);
}

int store_jobs_list(struct store *st, struct store_job **jobs, size_t *nr, struct error *err)
{
	*jobs = NULL;
	*nr = 0;
	if (!st->be->jobs_list)
		return no_queue(st, err);
	return st->be->jobs_list(st, jobs, nr, err);
}

/* One transaction: a job that cannot be cancelled leaves every other as it was. */
int store_jobs_cancel(struct store *st, const int64_t *ids, size_t n, struct error *err)
{
	int rc = 1;

	if (!st->be->job_cancel)
		return no_queue(st, err);
	if (st->be->begin(st, true, err))
		return -1;
	for (size_t i = 0; i < n && rc > 0; i++)
		if (!(rc = st->be->job_cancel(st, ids[i], err)))
			error_set(err, EXIT_USAGE, "job %lld cannot be cancelled: there is no such "
				  "job, or it has ended (see 'schedperf jobs'; no job was cancelled)",
				  (long long)ids[i]);
	return end_write(st, rc <= 0, err);
}

void store_set_job(struct store *st, int64_t id, const char *claim)
{
	st->job_id = id;
	snprintf(st->job_claim, sizeof(st->job_claim), "%s", claim);
}

/*
 * The knob journal is this machine's: machines that share a store each
 * journal, see and restore only their own settings.
 */
int store_journal_write(struct store *st, const struct knob_original *k, size_t n,
			struct error *err)
{
	char machine[256];
	int rc = 0;

	machine_identity(machine, sizeof(machine));
	if (st->be->begin(st, true, err))
		return -1;
	for (size_t i = 0; i < n && !rc; i++)
		rc = st->be->journal_insert(st, machine, &k[i], err);
	return end_write(st, rc, err);
}

static int journal_read(struct store *st, const char *machine, struct knob_original **out,
			size_t *n, struct error *err)
{
	int rc;

	*out = NULL;
	*n = 0;
	if (st->be->begin(st, false, err))
		return -1;
	rc = st->be->journal_list(st, machine, out, n, err);
	st->be->rollback(st);
	if (rc) {
		store_journal_release(*out, *n);
		*out = NULL;
		*n = 0;
		return -1;
	}
	return 0;
}

int store_journal_read(struct store *st, struct knob_original **out, size_t *n,
		       struct error *err)
{
	char machine[256];

	machine_identity(machine, sizeof(machine));
	return journal_read(st, machine, out, n, err);
}

int store_journal_read_all(struct store *st, struct knob_original **out, size_t *n,
			   struct error *err)
{
	return journal_read(st, NULL, out, n, err);
}

int store_journal_remove(struct store *st, const char *kind, const char *name,
			 struct error *err)
{
	char machine[256];

	machine_identity(machine, sizeof(machine));
	if (st->be->begin(st, true, err))
		return -1;
	return end_write(st, st->be->journal_delete(st, machine, kind, name, err), err);
}

void store_journal_release(struct knob_original *k, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(k[i].kind);
		free(k[i].name);
		free(k[i].value);
		free(k[i].started);
		free(k[i].machine);
	}
	free(k);
}

int store_bisection_add(struct store *st, const char *repo, const char *state,
			const char *doc, int64_t *id, struct error *err)
{
	struct stored_bisection b = { 0, (char *)repo, NULL, (char *)state, NULL, (char *)doc };
	char machine[256], started[40];

	machine_identity(machine, sizeof(machine));
	time_iso8601(started, sizeof(started));
	b.machine = machine;
	b.started = started;
	if (st->be->begin(st, true, err))
		return -1;
	return end_write(st, st->be->bisection_insert(st, &b, id, err), err);
}

int store_bisection_save(struct store *st, int64_t id, const char *state, const char *doc,
			 struct error *err)
{
	if (st->be->begin(st, true, err))
		return -1;
	return end_write(st, st->be->bisection_update(st, id, state, doc, err), err);
}

/* The first bisection that @f selects: 0, 1 when none, -1. */
static int bisection_one(struct store *st, const struct bisection_filter *f,
			 struct stored_bisection *out, struct error *err)
{
	struct stored_bisection *list = NULL;
	size_t n = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	if (st->be->begin(st, false, err))
		return -1;
	rc = st->be->bisection_select(st, f, &list, &n, err);
	st->be->rollback(st);
	if (!rc && n)
		*out = list[0];
	for (size_t i = 1; i < n; i++)
		stored_bisection_release(&list[i]);
	free(list);
	return rc ? -1 : n ? 0 : 1;
}

int store_bisection_get(struct store *st, int64_t id, struct stored_bisection *out,
			struct error *err)
{
	struct bisection_filter f = { id, NULL, NULL, 1 };

	return bisection_one(st, &f, out, err);
}

int store_bisection_open_of(struct store *st, const char *repo, struct stored_bisection *out,
			    struct error *err)
{
	char machine[256];
	struct bisection_filter f = { 0, repo, machine, 1 };

	machine_identity(machine, sizeof(machine));
	return bisection_one(st, &f, out, err);
}

int store_bisection_list(struct store *st, struct stored_bisection **out, size_t *n,
			 struct error *err)
{
	struct bisection_filter f = { 0, NULL, NULL, INT64_MAX };
	int rc;

	*out = NULL;
	*n = 0;
	if (st->be->begin(st, false, err))
		return -1;
	rc = st->be->bisection_select(st, &f, out, n, err);
	st->be->rollback(st);
	return rc ? -1 : 0;
}

void stored_bisection_release(struct stored_bisection *b)
{
	free(b->repo);
	free(b->machine);
	free(b->state);
	free(b->started);
	free(b->doc);
	memset(b, 0, sizeof(*b));
}
