/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STORE_BACKEND_H
#define SCHEDPERF_STORE_BACKEND_H

/*
 * The store's backends: what store.c asks of one. Only src/store/ includes
 * this; callers use store.h. A backend is one file plus one row of
 * store_backends[] in store.c, chosen by the location's scheme, as git
 * chooses its ref storage backends.
 *
 * store.c holds everything that is not a matter of SQL dialect: which
 * transaction a call is, the guards against a second writer of a run,
 * resume bookkeeping, --replace, importing whole batches. A backend does
 * single queries, always inside the transaction store.c opened, and says
 * "no row" (0) apart from a fault (-1 with @err) in every lookup.
 */

#include "store/store.h"
#include "util/process.h"

/* What a command will do with the store it opens. */
enum store_access {
	STORE_READ,		/* never create or change anything */
	STORE_WRITE,		/* create it if missing, upgrade its schema */
};

/* The part of every backend's handle that store.c reads. */
struct store {
	const struct store_backend *be;
	char *location;		/* as given, for messages */
	int64_t job_id;		/* the job this process runs (store_set_job()); 0 */
	char job_claim[128];
};

/*
 * Who writes a batch: the process running it and the process group of the
 * iteration it runs now. Both are checked before another process may
 * resume or replace the run (store.c, guard_run()).
 */
struct batch_writer {
	struct process_id runner;
	struct process_id tasks;	/* pid = the group's id; 0 when none ran yet */
};

/* An incomplete batch, as resume and the guards need it. */
struct batch_state {
	int64_t id;
	int64_t run_id;
	char *run_name;
	bool complete;
	bool replacing;		/* once complete, the run's earlier batches go */
	char *plan;		/* NULL when it has none */
	struct batch_writer writer;
};

struct bisection_filter;

struct store_backend {
	const char *name;
	/* Location prefixes it takes ("postgresql://"); NULL: a file path. */
	const char *const *schemes;
	/*
	 * How to get this backend into a schedperf that lacks it; with no
	 * open() the row only names the backend, so that its locations are
	 * refused as "not built with it" instead of being taken for files.
	 */
	const char *build_hint;
	int (*open)(const char *location, enum store_access access, struct store **out,
		    struct error *err);
	void (*close)(struct store *st);
	/* In a child that will use no store: unmap the libraries it loaded; may be NULL. */
	void (*forget_in_child)(void);
	/*
	 * For store_inspect() (store.h), nothing changed: open the store at
	 * @location to read it as it is, any version this schedperf knows,
	 * with *version set; *out stays NULL when nothing is stored there
	 * yet. Then @damage says what is wrong with it ("" when nothing).
	 */
	int (*inspect)(const char *location, struct store **out, int *version,
		       struct error *err);
	int (*damage)(struct store *st, int version, char *buf, size_t len, struct error *err);

	int (*begin)(struct store *st, bool write, struct error *err);
	int (*commit)(struct store *st, struct error *err);
	void (*rollback)(struct store *st);

	/* 1 with *id set, 0 when the run does not exist (and !create). */
	int (*run_find)(struct store *st, const char *name, bool create, int64_t *id,
			struct error *err);
	/*
	 * Insert @batch (environment too); sets batch->id. 1, and nothing
	 * inserted, when the run has a batch of the same start time already.
	 */
	int (*batch_insert)(struct store *st, int64_t run_id, struct result_batch *batch,
			    const struct batch_state *state, struct error *err);
	/* 1 with *state filled (free with batch_state_release()), 0 when no such batch. */
	int (*batch_get)(struct store *st, int64_t batch_id, struct batch_state *state,
			 struct error *err);
	/* The incomplete batches of a run, latest first. */
	int (*batches_incomplete)(struct store *st, int64_t run_id, struct batch_state **out,
				  size_t *nr, struct error *err);
	int (*batch_set_writer)(struct store *st, int64_t batch_id,
				const struct batch_writer *writer, struct error *err);
	int (*batch_finish)(struct store *st, int64_t batch_id, bool complete,
			    struct error *err);
	/* Delete the batches of @run_id older than @batch_id (smaller ids). */
	int (*batches_delete_before)(struct store *st, int64_t run_id, int64_t batch_id,
				     struct error *err);

	int (*benchmark_insert)(struct store *st, int64_t batch_id,
				const struct result_benchmark *bench, int64_t *bench_id,
				int64_t *metric_ids, struct error *err);
	/* @info: what other tasks took from it (store.h, store_iteration_add()). */
	int (*iteration_insert)(struct store *st, int64_t bench_id, int seq, bool warmup,
				const char *failure, const struct result_iteration *info,
				const struct store_sample *samples, size_t nr_samples,
				struct error *err);
	/* A profile and its symbols. */
	int (*profile_insert)(struct store *st, int64_t bench_id,
			      const struct result_profile *profile, struct error *err);
	/* 1 with *bench_id set, 0 when the batch has no benchmark at @position. */
	int (*benchmark_find)(struct store *st, int64_t batch_id, size_t position,
			      int64_t *bench_id, struct error *err);
	/* 1 with *metric_id set, 0 when the benchmark has no such metric. */
	int (*metric_find)(struct store *st, int64_t bench_id, const char *name,
			   int64_t *metric_id, struct error *err);
	int (*iterations_count)(struct store *st, int64_t bench_id,
				struct benchmark_progress *progress, struct error *err);

	/*
	 * Append the visible batches of run @name (every run when NULL) to
	 * @set in start order, without their contents: an incomplete
	 * replacing batch is not visible (store.h, store_load()).
	 */
	int (*batches_load)(struct store *st, const char *name, struct result_set *set,
			    struct error *err);
	/*
	 * Fill @batch (its id set) with its environment and benchmarks; with
	 * @with_samples their samples and profiles too.
	 */
	int (*batch_load)(struct store *st, struct result_batch *batch, bool with_samples,
			  struct error *err);

	/*
	 * The job queue; NULL where the backend has none. Each job operation
	 * is one statement, atomic by itself, outside store.c's transactions
	 * (a claim must not wait for the writers' lock). batch_attach_job and
	 * job_complete run inside the transaction that begins or finishes the
	 * job's batches, so that a job is done exactly when they are complete.
	 */
	int (*job_submit)(struct store *st, const char *command, const char *args,
			  const char *machine, const char *machine_like, int priority,
			  int max_attempts, int64_t *id, struct error *err);
	int (*job_claim)(struct store *st, const char *worker, const char *claim, int lease,
			 struct store_job *job, struct error *err);
	int (*job_renew)(struct store *st, int64_t id, const char *claim, int lease,
			 struct error *err);
	int (*job_fail)(struct store *st, int64_t id, const char *claim, const char *reason,
			struct error *err);
	int (*jobs_list)(struct store *st, struct store_job **jobs, size_t *nr,
			 struct error *err);
	int (*job_get)(struct store *st, int64_t id, struct store_job *job, struct error *err);
	int (*job_cancel)(struct store *st, int64_t id, struct error *err);
	/* 0, or -1 with EXIT_ENV when the claim no longer holds. */
	int (*batch_attach_job)(struct store *st, int64_t batch_id, int64_t job_id,
				const char *claim, struct error *err);
	/*
	 * Complete the job of a batch, if it has one, keeping @result (may be
	 * NULL); -1 when its claim no longer holds.
	 */
	int (*job_complete)(struct store *st, int64_t batch_id, const char *result,
			    struct error *err);
	/*
	 * The knob journal (store.h), each row of one @machine (rows of
	 * before version 9 have machine '', taken as any machine's): one
	 * row; every row, oldest first (of every machine when @machine is
	 * NULL), each with its machine; one or all.
	 */
	int (*journal_insert)(struct store *st, const char *machine,
			      const struct knob_original *k, struct error *err);
	int (*journal_list)(struct store *st, const char *machine, struct knob_original **out,
			    size_t *nr, struct error *err);
	int (*journal_delete)(struct store *st, const char *machine, const char *kind,
			      const char *name, struct error *err);
	/*
	 * Bisections (store.h): add one; set its state (and its record unless
	 * @doc is NULL); select those that @f matches, newest first.
	 */
	int (*bisection_insert)(struct store *st, const struct stored_bisection *b, int64_t *id,
				struct error *err);
	int (*bisection_update)(struct store *st, int64_t id, const char *state, const char *doc,
				struct error *err);
	int (*bisection_select)(struct store *st, const struct bisection_filter *f,
				struct stored_bisection **out, size_t *n, struct error *err);
};

/*
 * Which bisections bisection_select() returns: @id's (0: any), of @repo on
 * @machine still running or interrupted (@repo NULL: any), at most @limit.
 */
struct bisection_filter {
	int64_t id;
	const char *repo, *machine;
	int64_t limit;
};

void batch_state_release(struct batch_state *state);

/*
 * Shared by the backends, so that every backend says the same thing: a
 * direction read back from the store, checked (a bad one means damage).
 */
int store_better_read(struct store *st, const char *text, enum better *out,
		      struct error *err);

/*
 * The backends read each part of a batch (metrics, samples, iterations)
 * in one query for the whole batch, ordered by the benchmarks' positions,
 * rather than one query per benchmark. For each row, the benchmark of
 * store id @id: @ids are the batch's benchmarks' ids in position order,
 * *@at where the query's previous row was (0 before its first), moved
 * forward. NULL when no benchmark at or after *@at has @id.
 */
struct result_benchmark *store_benchmark_of(struct result_batch *batch, const int64_t *ids,
					   size_t *at, int64_t id);

/* "not a schedperf store" (EXIT_USAGE), with @why. */
int store_not_ours(const char *location, const char *why, struct error *err);
/* A schema newer than this schedperf knows: left untouched (EXIT_ENV). */
int store_too_new(const char *location, int version, struct error *err);

/*
 * @location as messages show it: a URI's password (user:PASSWORD@host, or
 * password=... among its parameters) is left out.
 */
/*
 * How long a write waits for another writer's lock before it gives up with
 * an error, in ms: 10 s (a second `schedperf run` on the same store
 * commits one iteration at a time, so waits are short), or
 * $SCHEDPERF_BUSY_TIMEOUT_MS (tests).
 */
int store_busy_timeout_ms(void);

void store_location_shown(const char *location, char *buf, size_t len);

extern const struct store_backend store_sqlite;
extern const struct store_backend store_postgres;

#endif
