/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STORE_H
#define SCHEDPERF_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "store/results.h"
#include "util/error.h"
#include "util/process.h"

/*
 * The results store: one interface, with SQL drivers behind it chosen by
 * the location's scheme (open.c, driver.h): SQLite for a file path, the
 * embedded default; PostgreSQL for a postgresql:// URL. Every write is its
 * own transaction, so whatever stops schedperf — Ctrl-C, kill -9, a full
 * disk — the store holds whole iterations only. Ids are never reused. A
 * run being written by a live process can be neither replaced nor resumed
 * by another (transactions.c, "Writers").
 */

#define STORE_SCHEMA_VERSION 13

struct store;

/*
 * Open the store at @location to write it: created when missing (never left
 * half made), its schema upgraded. Another program's file is refused
 * (EXIT_USAGE), a store of a newer schema too (EXIT_ENV), untouched.
 */
int store_open(const char *location, struct store **out, struct error *err);
/*
 * The schema version @st's store_open() upgraded from, read under the
 * write lock; 0 when it changed no schema (another process may have
 * upgraded it meanwhile: db upgrade says so, not that it did).
 */
int store_upgraded_from(const struct store *st);
/*
 * Open a store that must exist already, for commands that only read: a
 * mistyped --db is an error (EXIT_USAGE), not a new empty file. Nothing is
 * created or changed, whatever the file: a store of an older schema is
 * read as it would be upgraded; a store on a read-only file system or in a
 * directory this user cannot write can be read.
 */
int store_open_existing(const char *location, struct store **out, struct error *err);
/*
 * store_open() for the job queue (submit, worker, cancel): a location whose
 * driver keeps no queue (SQLite) is refused (EXIT_USAGE) before anything
 * is opened, so that no empty store is left behind by the refusal.
 */
int store_open_queue(const char *location, struct store **out, struct error *err);
/*
 * store_open() for a command that may end having stored nothing (an ab
 * whose side failed at once): @made says whether nothing was stored at
 * @location before, for store_close_made().
 */
int store_open_made(const char *location, struct store **out, bool *made, struct error *err);
/*
 * Close @st; when @made and it still holds nothing, remove it: a command
 * that stored nothing leaves no new store, as one refused before it opens
 * the store. A store another process has open stays (SQLite only: a
 * PostgreSQL store is a database someone made, kept).
 */
void store_close_made(struct store *st, bool made);
/* A new empty store in memory, gone when closed (unit tests). */
int store_open_memory(struct store **out, struct error *err);
void store_close(struct store *st);

/*
 * What is at a store's location, as `schedperf db` reports it: read
 * without creating, upgrading or changing anything, so that a role that
 * may only read can ask.
 */
struct store_status {
	const char *backend;	/* "SQLite", "PostgreSQL" */
	char location[256];	/* as messages show it: no password */
	int version;		/* its schema version; 0: no store there yet */
	char damage[512];	/* "" or what is wrong with it, with the fix */
};

/*
 * Fill @status for @location: version 0 for a missing file, an empty file
 * or a database without tables. Another program's database is an error
 * (EXIT_USAGE), a store of a newer schema too (EXIT_ENV), as for
 * store_open(). A store whose file or tables are damaged is reported in
 * status->damage, not as an error.
 */
int store_inspect(const char *location, struct store_status *status, struct error *err);
/*
 * store_inspect() without the check of every page and reference, which
 * takes longer than an import of 150,000 samples into a store of as many:
 * whether a store is there (its version), for a command that opens it
 * next (status->damage is "").
 */
int store_peek(const char *location, struct store_status *status, struct error *err);

/*
 * In a forked child that will use no store (an iteration's): unmap what
 * only the stores need (libpq and its libraries), so that a workload's
 * processes map as little as on SQLite whatever the store.
 */
void store_forget_in_child(void);

/*
 * Start a batch of run @batch->name with @batch->started and environment,
 * this process its writer. With @replace, the earlier batches of that name
 * are discarded when this one finishes complete (store_batch_finish());
 * until then readers see them and not this one; refused (EXIT_ENV) while
 * another live process writes the run. @plan (JSON, may be NULL) is kept
 * for --resume. Sets batch->id.
 */
int store_batch_begin(struct store *st, struct result_batch *batch, bool replace,
		      const char *plan, struct error *err);
/*
 * Begin the @n batches of an experiment whose runs are its own (ab's two
 * sides), each as store_batch_begin() with @plans[i], in one transaction
 * with the check that none of their runs holds a batch, other than those
 * of an earlier attempt of the job this process runs, or those an
 * experiment killed (SIGKILL) before its first sample left here, whose
 * writer is gone (they go in that transaction): refused (EXIT_USAGE,
 * naming the run; EXIT_ENV while the killed one's tasks still run)
 * otherwise, nothing begun, so that of two
 * experiments begun at once under one name exactly one proceeds and
 * compare never pools one's samples with another's.
 */
int store_batches_begin_own(struct store *st, struct result_batch *batches,
			    const char *const *plans, size_t n, struct error *err);
/*
 * Mark a batch finished; @complete says whether every planned iteration ran.
 * A complete replacing batch discards the run's earlier batches in the same
 * transaction.
 */
int store_batch_finish(struct store *st, int64_t batch_id, bool complete,
		       struct error *err);
/*
 * Finish @nr batches in one transaction, each as store_batch_finish()
 * does: the two sides of an ab. A job this process runs is done with them
 * (when @complete), keeping @result, the verdict the command reached as
 * JSON (NULL: none; a run's result is its batch).
 */
int store_batches_finish(struct store *st, const int64_t *batch_ids, size_t nr,
			 bool complete, const char *result, struct error *err);
/*
 * Delete @nr batches that hold no sample, each with its run when the run
 * holds no other batch: an ab that measured nothing keeps no name taken
 * (a failed job's batches hold none either: run_taken()). With @result,
 * the verdict the command reached all the same (a cap before any sample),
 * a job this process runs is done in that transaction, with no batch,
 * keeping @result.
 */
int store_batches_discard(struct store *st, const int64_t *batch_ids, size_t nr,
			  const char *result, struct error *err);
/*
 * store_batch_finish() of a batch whose every iteration ran and failed: it
 * is complete, but a job this process runs is not done with it (the
 * command exits saying why, and its worker fails the job with that); and
 * a replacing one replaces nothing, left incomplete (hidden; --resume
 * may finish it), the run's earlier batches kept.
 */
int store_batch_finish_failed(struct store *st, int64_t batch_id, struct error *err);

/*
 * Add a benchmark to a batch with its metric definitions (names, units,
 * direction, source; samples are ignored). Fills @metric_ids[nr_metrics].
 */
int store_benchmark_add(struct store *st, int64_t batch_id,
			const struct result_benchmark *bench, int64_t *bench_id,
			int64_t *metric_ids, struct error *err);

/* One value of an iteration: a metric's, in one of its repetitions. */
struct store_sample {
	int64_t metric_id;	/* from store_benchmark_add(); 0 = not stored */
	int rep;		/* 0 .. the metric's repetitions - 1 */
	double value;		/* NAN = absent, not stored */
};

/*
 * Delete iteration @seq of benchmark @bench_id with its samples and
 * culprits, and a profile taken in it: an ab interrupted within a block
 * keeps no sample of one side alone.
 */
int store_iteration_drop(struct store *st, int64_t bench_id, int seq, struct error *err);
/*
 * Commit one iteration and its @samples. A failed iteration has @failure
 * set and usually no samples. @info (NULL: nothing measured) says what
 * other tasks took from it; its warmup field is not used.
 */
int store_iteration_add(struct store *st, int64_t bench_id, int seq, bool warmup,
			const char *failure, const struct result_iteration *info,
			const struct store_sample *samples, size_t nr_samples,
			struct error *err);
/*
 * Whether the last call on @st that failed did so only because another
 * process held the store's write lock past the busy timeout (an import
 * holds it for its whole transaction): nothing of that call was written,
 * and it may be made again.
 */
bool store_lock_busy(const struct store *st);

/*
 * Store the CPU profile of a benchmark's iteration @p->seq (or of an extra
 * iteration run only to be profiled, @p->extra), in a transaction of its
 * own. Symbols are stored as they are; the iteration is not needed.
 */
int store_profile_add(struct store *st, int64_t bench_id, const struct result_profile *p,
		      struct error *err);

/* What store_load() reads beside batches, environments, benchmarks and metrics. */
enum store_parts {
	STORE_SAMPLES = 1,		/* the metrics' values, and which were disturbed */
	STORE_ITERATIONS = 2,		/* what other tasks took from each (with the samples) */
	STORE_PROFILES = 4,
	STORE_EVERYTHING = 7,		/* every part read (not the counts of them) */
	/*
	 * Each batch's nr_samples and nr_disturbed, counted in the store
	 * without reading the samples and iterations (what runs prints).
	 */
	STORE_COUNTS = 8,
};

/*
 * Load every batch of run @name (all runs when @name is NULL) with its
 * benchmarks, metrics, failed iterations' counts and the @parts (enum
 * store_parts) asked for, appended to @set in start order. A name with no
 * batch is an error (EXIT_USAGE) naming the run.
 */
int store_load(struct store *st, const char *name, unsigned parts,
	       struct result_set *set, struct error *err);

/*
 * A batch that run --replace began and that has not completed (it was
 * interrupted, or is being written now): store_load() leaves it out and
 * shows the batches it would replace, so a reader says it apart.
 */
struct unfinished_replacement {
	int64_t batch_id;
	char *name;		/* its run's */
	char *started;
};

/*
 * The unfinished replacements of run @name (all runs when NULL), by run
 * name and start, into *@list (*@nr of them; NULL and 0 when none).
 */
int store_unfinished_replacements(struct store *st, const char *name,
				  struct unfinished_replacement **list, size_t *nr,
				  struct error *err);
void unfinished_replacements_release(struct unfinished_replacement *list, size_t nr);

/*
 * Refused (EXIT_USAGE) when the store at @db, if there is one, holds run
 * @name as an ab experiment's own: what adding a batch to it would be
 * refused for, told before anything runs (a dry run, submit's check).
 */
int store_check_run_own(const char *db, const char *name, struct error *err);
/* The stored plan of batch @batch_id (malloc'd JSON), NULL when it has none. */
int store_batch_plan(struct store *st, int64_t batch_id, char **plan, struct error *err);
/*
 * Whether run @name holds a batch (a run's, an ab's, any job's), but for
 * those an experiment killed before its first sample left, which the next
 * store_batches_begin_own() of the name takes over.
 */
int store_run_taken(struct store *st, const char *name, bool *taken, struct error *err);

/*
 * Claim the latest incomplete batch of run @name for this process, with
 * its stored plan (malloc'd, NULL when it has none). Refused (EXIT_ENV,
 * naming the pid) while another live process or the tasks of its last
 * iteration still write the run: of two resumes at once, one proceeds.
 */
int store_resume_find(struct store *st, const char *name, int64_t *batch_id, char **plan,
		      struct error *err);
/* Claim the batch for this process, on the same terms. */
int store_batch_claim(struct store *st, int64_t batch_id, struct error *err);
/*
 * Record the process group of the iteration this process is about to let
 * run (0: none), so that a resume after this process is killed waits for
 * its tasks to be gone.
 */
int store_batch_tasks(struct store *st, int64_t batch_id, pid_t group, struct error *err);

struct benchmark_progress {
	int next_seq;		/* the seq the next iteration gets */
	int warmup_done;	/* successful warm-up iterations */
	int measured_done;	/* successful measured iterations */
};

/* The attempts a slot (one planned iteration) of a resumed benchmark had. */
struct open_slot {
	bool warmup;		/* of a warm-up slot */
	int failed;		/* attempts that failed */
	int reruns;		/* disturbed attempts kept and run again */
};

/*
 * Find the benchmark at @position of a batch being resumed: its id, the ids
 * of @bench's metrics by name (0 where it has no such metric) and how far
 * it got. Returns 1 when the batch has no benchmark there yet.
 */
int store_benchmark_progress(struct store *st, int64_t batch_id, size_t position,
			     const struct result_benchmark *bench, int64_t *bench_id,
			     int64_t *metric_ids, struct benchmark_progress *progress,
			     struct error *err);

/*
 * The attempts of the slot benchmark @bench_id was cut short in: those
 * stored after the last one that ended a slot, which is one that
 * succeeded and was not rerun, or a slot's 1 + @retries-th failure (a
 * slot's attempts are all warm-ups or none). All zero when it was cut
 * short between slots.
 */
int store_benchmark_open_slot(struct store *st, int64_t bench_id, int retries,
			      struct open_slot *slot, struct error *err);

/*
 * The knob journal of `schedperf ab`: the original values of the machine
 * settings it changes (sysctls, scheduler features), written before the
 * first change and removed once they are put back, so that after a crash
 * or SIGKILL `schedperf ab --restore` knows what to restore.
 */
struct knob_original {
	char *kind;			/* runner/knobs.h's kind: "sysctl", "sysfs" ... */
	char *name;
	char *value;			/* what to put back */
	struct process_id writer;	/* the ab that changed it */
	char *started;			/* when, ISO 8601 */
	char *machine;			/* whose (read from a store; NULL: this one) */
	char *command;			/* ab, run or bisect-step; NULL: not known */
};

/*
 * Journal @n originals in one transaction (one per kind and name: a
 * setting journalled already is refused, EXIT_ENV). An original's bytes
 * that are not UTF-8 are copied as \xHH, a '\' as "\\" (utf8_quoted()),
 * and read back as they were: the copy is shown, never put back.
 */
int store_journal_write(struct store *st, const struct knob_original *k, size_t n,
			struct error *err);
/* Every journalled original, in the order written (*@out NULL when none). */
int store_journal_read(struct store *st, struct knob_original **out, size_t *n,
		       struct error *err);
/* The same for every machine, for `schedperf jobs`. */
int store_journal_read_all(struct store *st, struct knob_original **out, size_t *n,
			   struct error *err);
/* Forget a restored original: the one of @kind and @name, or every one (NULL). */
int store_journal_remove(struct store *st, const char *kind, const char *name,
			 struct error *err);
void store_journal_release(struct knob_original *k, size_t n);

/*
 * Bisections (schedperf bisect, experiment/bisection.h): one each, the repository
 * and machine it bisects, its state (running, interrupted, done, failed,
 * abandoned) and its record, a JSON document (doc/design.md, "Bisection")
 * rewritten after every step. The machine is this one's identity.
 */
struct stored_bisection {
	int64_t id;
	char *repo, *machine, *state, *started, *doc;
};

int store_bisection_add(struct store *st, const char *repo, const char *state,
			const char *doc, int64_t *id, struct error *err);
/* Set its state and, unless @doc is NULL, its record. */
int store_bisection_save(struct store *st, int64_t id, const char *state, const char *doc,
			 struct error *err);
/* Forget bisection @id, refused before it measured (its record only: runs stay). */
int store_bisection_delete(struct store *st, int64_t id, struct error *err);
/* Bisection @id, or the newest with @id 0: 0, 1 when there is none, -1 with @err. */
int store_bisection_get(struct store *st, int64_t id, struct stored_bisection *out,
			struct error *err);
/* The newest of @repo on this machine that is running or interrupted: 0, 1 none, -1. */
int store_bisection_open_of(struct store *st, const char *repo, struct stored_bisection *out,
			    struct error *err);
/* Every bisection, newest first. */
int store_bisection_list(struct store *st, struct stored_bisection **out, size_t *n,
			 struct error *err);
void stored_bisection_release(struct stored_bisection *b);

/*
 * Import whole batches (all or nothing, one transaction). @stopped, when
 * not NULL, is asked before each iteration; once it says true, nothing is
 * imported and -1 returned.
 */
int store_import(struct store *st, const struct result_set *set, bool (*stopped)(void),
		 struct error *err);

/*
 * Jobs: commands queued in the store for workers on many machines
 * (PostgreSQL stores; jobs.c): a run, an ab or a bisect-step. A
 * job is queued, then running on one machine under a claim with a lease
 * that its worker renews, then done (its batches complete and linked, in
 * the transaction that completes them), failed (with a reason) or
 * cancelled. A job whose lease ran out is claimed again, one whose worker
 * was stopped is queued again at once; the batches its lost or stopped
 * run began are never seen and go when the next run of the job begins.
 * A job may need a kernel release (schema version 11): between its claim
 * and its run it is booting, its state in the store while its worker's
 * machine reboots into that kernel.
 */
struct store_job {
	int64_t id;
	char *state;		/* queued, running, booting, done, failed, cancelled */
	char *command;		/* run, ab or bisect-step */
	char *args;		/* the command's arguments: a JSON array of strings */
	char *machine;		/* the machines it may run on: a pattern (* and ?) */
	int priority;		/* higher first */
	int attempts;		/* claims so far */
	int max_attempts;	/* claims it may have: lost that often, it fails */
	char *worker;		/* the machine that runs it, or ran it last; NULL */
	char *since;		/* when it entered its state, ISO 8601 UTC */
	char *reason;		/* why it failed; NULL */
	int64_t result_batch;	/* its (first) complete batch; 0 */
	char *result;		/* what ab or bisect-step decided, JSON; NULL */
	char *claim;		/* the claim it runs under, when claimed */
	char *kernel;		/* the kernel release it needs; NULL: any */
	char *home_kernel;	/* what its machine ran before booting for it; NULL */
	char *boot_deadline;	/* when its machine must be back, ISO 8601 UTC; NULL */
	bool lease_over;	/* running, but its lease ran out: its worker was lost */
};

void store_job_release(struct store_job *job);

/* How often a job may be claimed unless its submit says otherwise. */
#define STORE_JOB_MAX_ATTEMPTS 3

/* @kernel: the release the job needs; NULL: any. */
int store_job_submit(struct store *st, const char *command, const char *args,
		     const char *machine, int priority, int max_attempts, const char *kernel,
		     int64_t *id, struct error *err);
/*
 * Claim the next job that machine @worker matches, highest priority then
 * oldest, with a lease of @lease seconds: 1 with *job filled, 0 when there
 * is none. Workers never wait for each other's claims. A job whose lease
 * ran out after its last allowed claim is failed instead, with the reason
 * (a job that kills its worker, or its machine, is not run for ever). A
 * job that needs a kernel other than @release, the one the worker's
 * machine runs, is claimed only when the worker @can_boot.
 */
int store_job_claim(struct store *st, const char *worker, int lease, const char *release,
		    bool can_boot, struct store_job *job, struct error *err);
/*
 * Kernel jobs. The worker that claimed one marks it booting, its machine's
 * deadline @timeout seconds away, @home the release it runs now and a
 * lease of @lease seconds, which it renews (store_job_renew()) while its
 * boot command runs (1; 0 when the claim is gone), then boots. After a
 * start, store_job_booted() finds the job machine @worker booted for, if
 * the machine has rebooted since (its boot id, util/machine.h, is not the
 * claim's): 1 with it running again under a new claim and lease when the
 * machine runs its kernel (@release) by the job's deadline; 2 with it
 * failed, and why, when it came back on another or too late (failed as
 * store_jobs_expire_boots() fails it). Before the reboot (a worker started
 * while another's boot command runs, or after its worker was killed in
 * it): 3 with the job a lost worker's running job, claimed again or given
 * up as those are, once that worker's lease is over; else nothing. 0 when
 * nothing was done. A boot that failed otherwise fails the job with
 * @reason; a machine not back by its deadline fails it too, when
 * store_jobs_expire_boots() or a claim sees it.
 */
int store_job_booting(struct store *st, int64_t id, const char *claim, int timeout,
		      const char *home, int lease, struct error *err);
int store_job_booted(struct store *st, const char *worker, const char *release, int lease,
		     struct store_job *job, struct error *err);
int store_job_boot_failed(struct store *st, int64_t id, const char *reason,
			  struct error *err);
int store_jobs_expire_boots(struct store *st, struct error *err);
/* Job @id may run only on machine @host from now on (a bisection's first job). */
int store_job_pin(struct store *st, int64_t id, const char *host, struct error *err);
/* Extend the lease: 1 while the job is still this claim's, 0 when it is not (cancelled, lost). */
int store_job_renew(struct store *st, int64_t id, const char *claim, int lease,
		    struct error *err);
/*
 * The run of a claimed job failed: @reason is kept. 1 when it failed the
 * job, 0 when the job is no longer running under @claim (the command
 * completed it, or it was cancelled or lost).
 */
int store_job_fail(struct store *st, int64_t id, const char *claim, const char *reason,
		   struct error *err);
/*
 * Its worker was stopped: the job is queued again, at once, this claim not
 * counted among its attempts; its run's batches go as a lost run's. A job
 * marked booting, its boot not begun, goes back too, its boot columns
 * cleared. 1 when it was given back, 0 when it is no longer running or
 * booting under @claim.
 */
int store_job_give_back(struct store *st, int64_t id, const char *claim, struct error *err);
/* Job @id: 1 with *job filled, 0 when there is none. */
int store_job_get(struct store *st, int64_t id, struct store_job *job, struct error *err);
/* Every job, oldest first. */
int store_jobs_list(struct store *st, struct store_job **jobs, size_t *nr, struct error *err);
/*
 * Cancel the queued, running or booting jobs @ids, all or none: EXIT_USAGE, and
 * none cancelled, when one is no such job or has ended.
 */
int store_jobs_cancel(struct store *st, const int64_t *ids, size_t n, struct error *err);
/*
 * This process runs job @id under @claim: the batch it begins next belongs
 * to the job, and is refused unless the claim still holds.
 */
void store_set_job(struct store *st, int64_t id, const char *claim);

#endif
