/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STORE_QUERIES_H
#define SCHEDPERF_STORE_QUERIES_H

/*
 * The store's queries, each written once over the drivers (sql.h) in the
 * file named by what it reads or writes (runs.c: runs, batches, their
 * environment). transactions.c decides which make one transaction, inside
 * which each runs; every lookup tells "no row" (0) from a fault (-1).
 */

#include "store/sql.h"

/* @call (0 or -1) in a write transaction of its own: 0, or -1 with @err. */
#define IN_WRITE_TXN(st, err, call) \
	(sql_begin(st, TXN_WRITE, err) ? -1 : sql_end_write(st, call, err))
/* @call in a read transaction of its own: what it returns (-1 when none began). */
#define IN_READ_TXN(st, err, call) \
	(sql_begin(st, TXN_READ, err) ? -1 : sql_read_done(st, call))
static inline int sql_read_done(struct store *st, int rc)
{
	sql_end_read(st);
	return rc;
}

/* Who writes a batch, checked before another may resume or replace it (guard_run()). */
struct batch_writer {
	struct process_id runner;
	struct process_id tasks;	/* pid = the group's id; 0 when none ran yet */
};

/* An incomplete batch, as resume and the guards need it. */
struct batch_state {
	int64_t id;
	int64_t run_id;
	char *run_name;
	bool replacing;		/* once complete, the run's earlier batches go */
	char *plan;		/* NULL when it has none */
	struct batch_writer writer;
	char *machine;		/* its machine, "ID/HOST" (machine_batch_key()), "/" unknown */
	char *host;		/* its machine's host name, "" when unknown */
	int64_t job_id;		/* the job it was run for; 0 */
};

void batch_state_release(struct batch_state *state);
/* Those of a list, and the list. */
void batch_states_release(struct batch_state *states, size_t nr);

/* runs.c */
/* 1 with *id set, 0 when the run does not exist (and !create), 2 when it was created. */
int run_find(struct store *st, const char *name, bool create, int64_t *id,
	     struct error *err);
/*
 * 1 when run @name holds a batch that is not job @job_id's (0: any job's),
 * nor an unfinished one of a cancelled or failed job, nor one an
 * experiment killed before its first sample left (incomplete, of no job,
 * no measured iteration); else 0.
 */
int run_taken_beyond_unsampled(struct store *st, const char *name, int64_t job_id,
			       struct error *err);
/* Those batches of run @name, each with its state (batch_state_release()). */
int batches_left_unsampled(struct store *st, const char *name, struct batch_state **out,
			   size_t *nr, struct error *err);
/* Delete batch @batch_id and all it holds (@what: as sql_exec()'s). */
int batch_delete(struct store *st, int64_t batch_id, struct error *err, const char *what);
/* -1 with @err (EXIT_USAGE) when run @name is an experiment's own (ab's, a bisection's), else 0. */
int run_own(struct store *st, const char *name, struct error *err);
/*
 * 0 when @batch (inserted or not) may join run @run_id: no other batch,
 * but this process's job's, is an experiment's, and none is there at all
 * when @batch is one (its environment has "experiment") but, for a
 * bisection's when @may_grow, the bisection's own; else -1.
 */
int batch_may_join(struct store *st, int64_t run_id, const struct result_batch *batch,
		   bool may_grow, struct error *err);
/* Insert @batch and its environment, setting batch->id; 1 when its start is taken. */
int batch_insert(struct store *st, int64_t run_id, struct result_batch *batch,
		 const struct batch_state *state, struct error *err);
/* 0 with *state filled (batch_state_release()), -1 with @err (EXIT_ENV: no such batch). */
int batch_get(struct store *st, int64_t batch_id, struct batch_state *state,
	      struct error *err);
/* The incomplete batches of a run, latest first. */
int batches_incomplete(struct store *st, int64_t run_id, struct batch_state **out,
		       size_t *nr, struct error *err);
int batch_set_writer(struct store *st, int64_t batch_id, const struct batch_writer *writer,
		     struct error *err);
/*
 * Finish a batch (store_batches_finish()), complete unless it or its job
 * measured nothing; a replacing one deletes its machine's earlier batches.
 */
int batch_finish(struct store *st, int64_t batch_id, bool complete, bool measured,
		 struct error *err);
/* store_load()'s reading: an incomplete replacing batch, or a job's, is not seen. */
int batches_load(struct store *st, const char *name, unsigned parts,
		 struct result_set *set, struct error *err);
/* store_load_each()'s, in its transaction. */
int batches_load_each(struct store *st, unsigned parts, struct result_set *set,
		      const struct store_each *each, struct error *err);

/* benchmarks.c */
/*
 * @nr benchmarks at positions @position, @position + 1, ... of a batch,
 * with their metric definitions: fills @bench_ids[nr] and @metric_ids
 * (each benchmark's metrics in turn, in order).
 */
int benchmarks_insert(struct store *st, int64_t batch_id, size_t position,
		      const struct result_benchmark *benches, size_t nr, int64_t *bench_ids,
		      int64_t *metric_ids, struct error *err);

/* iterations.c */
/*
 * Iterations written many a statement, each with its samples and culprits
 * once its id is known: iteration_rows_room() is where the next one's
 * samples go, iteration_rows_add() adds it (@info, when not NULL, must
 * stay valid until the finish), iteration_rows_finish() sends what is
 * left and lets go (@rc: how the adding went), 0 or -1 with @err. An
 * import of results without records packs their samples instead (packs.c).
 */
struct iteration_rows {
	struct sql_rows iterations, samples, culprits;
	struct iteration_pending {
		const struct result_iteration *info;
		struct store_sample *samples;
		size_t nr, alloc;
	} pending[SQL_ROWS];	/* of the iterations' chunk */
};

void iteration_rows_init(struct iteration_rows *w, struct store *st);
struct store_sample *iteration_rows_room(struct iteration_rows *w, size_t nr);
int iteration_rows_add(struct iteration_rows *w, int64_t bench_id, int seq, bool warmup,
		       const char *failure, const struct result_iteration *info,
		       size_t nr_samples, struct error *err);
int iteration_rows_finish(struct iteration_rows *w, int rc, struct error *err);

/*
 * packs.c: an imported metric's samples in a few rows of packed_samples,
 * many rows a statement: pack_rows_add() the parts of @m's values in its
 * benchmark's @nr_warmup warm-up and @nr_measured measured iterations
 * (its import_shape()), pack_rows_finish() sends what is left and lets go
 * (@rc: how the adding went), 0 or -1 with @err.
 */
struct pack_rows {
	struct sql_rows rows;
	char *hex[SQL_ROWS];		/* the chunk's values, as its rows bind them */
};

void pack_rows_init(struct pack_rows *w, struct store *st);
int pack_rows_add(struct pack_rows *w, int64_t metric_id, const struct result_metric *m,
		  size_t nr_warmup, size_t nr_measured, struct error *err);
int pack_rows_finish(struct pack_rows *w, int rc, struct error *err);

/* profiles.c: a profile and its symbols. */
int profile_insert(struct store *st, int64_t bench_id, const struct result_profile *profile,
		   struct error *err);

/*
 * jobs.c, in the transactions that begin and finish a job's batches: each
 * 0, or -1 (EXIT_ENV when the job's claim no longer holds). The job of a
 * batch, or the one this process runs with no batch, is done keeping @result.
 */
int batch_attach_job(struct store *st, int64_t batch_id, struct error *err);
int job_complete(struct store *st, int64_t batch_id, const char *result, struct error *err);
int job_complete_unstored(struct store *st, const char *result, struct error *err);

/*
 * A load (store_load()): its batches, and each of their parts
 * (environment, benchmarks, metrics, samples, profiles) read in one query
 * for the whole store when every run is read, else in one query a batch;
 * a row goes to its batch or benchmark by id. Not one query a benchmark:
 * that was 500,000 statement runs for 100 batches of 1,000 benchmarks, and
 * a round trip to a server costs more than a row.
 */
struct load_bench {
	int64_t id;
	size_t batch, index;		/* set->batches[batch].benchmarks[index] */
	size_t first_metric;		/* its metrics in load.metric_ids[first_metric ..] */
	int64_t last_seq;		/* of its iterations read so far */
};

/* id_index_build() reads each row's id as its first member. */
_Static_assert(offsetof(struct load_bench, id) == 0, "a row's id comes first");
_Static_assert(offsetof(struct result_batch, id) == 0, "a row's id comes first");

/*
 * A load's rows by id: each id with its row's position, sorted by id.
 * Rows come in the order of their ids, so the last found and the next are
 * tried before a search.
 */
struct id_index {
	struct id_at {
		int64_t id;
		size_t at;
	} *ids;
	size_t nr;
	size_t last;			/* in ids, the last found */
};

/*
 * Index @nr rows of @stride bytes at @rows by their ids, each row's first
 * member (an int64_t): a row's position is its place there.
 */
void id_index_build(struct id_index *ix, const void *rows, size_t nr, size_t stride);
/* The position of @id's row, SIZE_MAX when it has none. */
size_t id_index_find(struct id_index *ix, int64_t id);

struct load {
	struct store *st;
	struct result_set *set;
	size_t first;			/* its batches: set->batches[first ..] */
	bool whole;			/* every run's: the parts of the whole store */
	unsigned parts;			/* enum store_parts */
	struct id_index batches_by_id;	/* made on the first load_batch() */
	struct load_bench *benches;	/* in the order read */
	size_t nr_benches, alloc_benches;
	struct id_index benches_by_id;
	int64_t *metric_ids;		/* the benchmarks' metrics, a benchmark's together */
	int *metric_positions;		/* and their positions */
	size_t nr_metric_ids, alloc_metric_ids;
	struct id_index metrics_by_id;	/* into metric_ids, once they are all read */
	void *part;			/* the state of the part being read */
};

/* The batch of id @id, NULL when it is not one being read. */
struct result_batch *load_batch(struct load *l, int64_t id);
/* The benchmark of id @id with what the load keeps of it, NULL when not read. */
struct load_bench *load_bench(struct load *l, int64_t id);
/* The metric of benchmark @b with store id @id; NULL if none. */
struct result_metric *load_metric(struct load *l, struct load_bench *b, int64_t id);
static inline struct result_benchmark *load_benchmark(struct load *l,
						      const struct load_bench *b)
{
	return &l->set->batches[b->batch].benchmarks[b->index];
}
/* Every row of @sql with its @nr values @args through @row: 0, or -1 with @err. */
int load_query(struct load *l, const char *sql, const struct sql_arg *args, size_t nr,
	       int (*row)(struct load *l, struct store_stmt *s, struct error *err),
	       struct error *err);
/*
 * Every row of a part through @row: of @of_store once when the load is
 * the whole store's, else of @of_batch ($1 a batch's id) for each batch.
 * 0, or -1 with @err.
 */
int load_rows(struct load *l, const char *of_store, const char *of_batch,
	      int (*row)(struct load *l, struct store_stmt *s, struct error *err),
	      struct error *err);

/*
 * A batch whose start is not an ISO 8601 time (iso8601()), which export
 * refuses, into @buf, left "" when none.
 */
extern const struct sql_check batches_damage;
int benchmarks_read(struct load *l, struct error *err);
/* What is wrong with the benchmarks' parameters into @buf, left "" when nothing. */
extern const struct sql_check benchmarks_damage;
/* The samples: iterations.c's rows, then packs.c's (packs_read()). */
int samples_read(struct load *l, struct error *err);
/* A sample no reader takes (iterations.c) into @buf, left "" when none. */
extern const struct sql_check samples_damage;
int packs_read(struct load *l, struct error *err);
/* What is wrong with the packed samples (packs.c) into @buf, left "" when nothing. */
extern const struct sql_check packs_damage;
int counts_read(struct load *l, struct error *err);
int profiles_read(struct load *l, struct error *err);

#endif
