/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STORE_H
#define SCHEDPERF_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "results/results.h"
#include "util/error.h"
#include "util/process.h"

/*
 * The results store: one interface over SQL drivers chosen by the
 * location's scheme (open.c): SQLite for a file path, PostgreSQL for a
 * postgresql:// URL. Every write is its own transaction, so whatever stops
 * schedperf (Ctrl-C, kill -9, a full disk) leaves whole iterations only.
 * Ids are never reused. A run a live process writes can be neither
 * replaced nor resumed by another (transactions.c, "Writers").
 */

#define STORE_SCHEMA_VERSION 13

struct store;

/*
 * Open @location to write: created when missing (never half made), its
 * schema upgraded; another program's file is EXIT_USAGE, a newer schema
 * EXIT_ENV, untouched.
 */
int store_open(const char *location, struct store **out, struct error *err);
/*
 * The schema version store_open() upgraded from, read under the write
 * lock; 0 when it changed none (another process may have meanwhile).
 */
int store_upgraded_from(const struct store *st);
/*
 * Open a store that must exist, to read: a mistyped --db is EXIT_USAGE,
 * not a new file. Nothing is created or changed: an older schema is read
 * as it would be upgraded, a read-only file or directory can be read.
 */
int store_open_existing(const char *location, struct store **out, struct error *err);
/* store_open() for the job queue: SQLite's, which has none, is EXIT_USAGE before opening. */
int store_open_queue(const char *location, struct store **out, struct error *err);
/*
 * store_open() for a command that may store nothing (an ab whose side
 * failed at once): @made, for store_close_made(), says whether nothing
 * was stored at @location before.
 */
int store_open_made(const char *location, struct store **out, bool *made, struct error *err);
/*
 * Close @st; when @made and still empty, remove it, as if never opened
 * (not while another process has it open; SQLite only: a PostgreSQL
 * database someone made is kept).
 */
void store_close_made(struct store *st, bool made);
/* A new empty store in memory, gone when closed (unit tests). */
int store_open_memory(struct store **out, struct error *err);
void store_close(struct store *st);

/* What is at a location, as `schedperf db` reports it: read only, changing nothing. */
struct store_status {
	const char *backend;	/* "SQLite", "PostgreSQL" */
	char location[256];	/* as messages show it: no password */
	int version;		/* its schema version; 0: no store there yet */
	char damage[512];	/* "" or what is wrong with it, with the fix */
};

/*
 * Fill @status (version 0: a missing or empty file, a database without
 * tables), errors as store_open()'s; damage is status->damage, not one.
 */
int store_inspect(const char *location, struct store_status *status, struct error *err);
/*
 * store_inspect() without the check of every page and reference (longer
 * than an import of 150,000 samples): the version only, damage "".
 */
int store_peek(const char *location, struct store_status *status, struct error *err);

/*
 * In a forked child that uses no store (an iteration's): unmap libpq and
 * its libraries, so that a workload maps as little as on SQLite.
 */
void store_forget_in_child(void);

/*
 * Start a batch of run @batch->name with its start and environment, this
 * process its writer; sets batch->id. With @replace the run's earlier
 * batches go when this one finishes complete, readers seeing them until
 * then; refused (EXIT_ENV) while another live process writes the run.
 * @plan (JSON, or NULL) is kept for --resume.
 */
int store_batch_begin(struct store *st, struct result_batch *batch, bool replace,
		      const char *plan, struct error *err);
/*
 * Begin the @n batches of an experiment whose runs are its own (ab's
 * sides), each as store_batch_begin() with @plans[i], in one transaction
 * with the check that their runs hold no batch but an earlier attempt's of
 * this process's job, or one an experiment killed (SIGKILL) here before
 * its first sample, writer gone (taken over). Else refused, nothing begun
 * (EXIT_USAGE naming the run; EXIT_ENV while the killed one's tasks run):
 * of two begun at once under one name, exactly one proceeds.
 */
int store_batches_begin_own(struct store *st, struct result_batch *batches,
			    const char *const *plans, size_t n, struct error *err);
/* Finish a batch, @complete when all its plan ran (a replacing one then replaces). */
int store_batch_finish(struct store *st, int64_t batch_id, bool complete,
		       struct error *err);
/*
 * store_batch_finish() of @nr batches (an ab's sides) in one transaction;
 * when @complete, the job this process runs is done with them, keeping
 * @result, the command's verdict as JSON (NULL: a run's, its batch).
 * Unless @measured (every iteration failed), a job's batch is left
 * unfinished, never seen (its worker fails the job with the command's
 * reason), and a replacing one replaces nothing, left incomplete for
 * --resume.
 */
int store_batches_finish(struct store *st, const int64_t *batch_ids, size_t nr, bool complete,
			 bool measured, const char *result, struct error *err);
/*
 * Delete @nr batches, samples and all, each with its run when it has no
 * other: an ab that measured nothing keeps no name taken, a kernel
 * bisection's failed round no batch. With @result, a verdict reached all
 * the same (a cap before any sample), the job this process runs is done in
 * that transaction, with no batch.
 */
int store_batches_discard(struct store *st, const int64_t *batch_ids, size_t nr,
			  const char *result, struct error *err);

/* Add a benchmark and its metrics (not their samples) to a batch; fills @metric_ids. */
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
 * Delete iteration @seq of @bench_id with all it holds and its profile: an
 * ab interrupted within a block keeps no sample of one side alone.
 */
int store_iteration_drop(struct store *st, int64_t bench_id, int seq, struct error *err);
/*
 * Commit one iteration and its @samples (a failed one: @failure, usually
 * no samples). @info (NULL: not measured): what other tasks took from it.
 */
int store_iteration_add(struct store *st, int64_t bench_id, int seq, bool warmup,
			const char *failure, const struct result_iteration *info,
			const struct store_sample *samples, size_t nr_samples,
			struct error *err);
/*
 * Whether @st's last failed call failed only because another process held
 * the write lock past the busy timeout (an import holds it throughout):
 * nothing was written, and it may be made again.
 */
bool store_lock_busy(const struct store *st);

/*
 * A store on a server (PostgreSQL) can be unreachable for a while: a
 * restart, a network failure. A command that lives for days (worker)
 * rides that out with these three; SQLite's store is never unreachable.
 *
 * store_set_patience(): each call gives up when the server has not
 * answered within @ms (0: waits as long as it takes), its connection shut
 * down, as a server that stopped answering (stopped, or behind a network
 * that drops what is sent) would otherwise hold the caller for ever.
 * store_unreachable(): whether @st's last failed call failed because the
 * connection is lost (or was given up so), with libpq's reason in @why.
 * store_reconnect(): a new session, set up as the first was (its
 * statements prepared again), bounded as a call is; 0, or -1 with @err.
 * The call that failed is the caller's to make again.
 */
void store_set_patience(struct store *st, int ms);
/* Between a failed store_reconnect() and the next: 0.5 s first, doubled up to 10 s. */
#define STORE_BACKOFF_FIRST 0.5
#define STORE_BACKOFF_MOST 10.0
bool store_unreachable(struct store *st, char *why, size_t len);
int store_reconnect(struct store *st, struct error *err);

/* Store the CPU profile of iteration @p->seq (or an extra one, @p->extra), stored or not. */
int store_profile_add(struct store *st, int64_t bench_id, const struct result_profile *p,
		      struct error *err);

/* What store_load() reads beside batches, environments, benchmarks and metrics. */
enum store_parts {
	STORE_SAMPLES = 1,		/* the metrics' values, and which were disturbed */
	STORE_ITERATIONS = 2,		/* what other tasks took from each (with the samples) */
	STORE_PROFILES = 4,
	STORE_EVERYTHING = 7,		/* every part read (not the counts of them) */
	STORE_COUNTS = 8,		/* only each batch's nr_samples and nr_disturbed */
};

/*
 * Append to @set, in start order, every batch of run @name (all when NULL)
 * with its benchmarks, metrics, failures and @parts; EXIT_USAGE when none.
 */
int store_load(struct store *st, const char *name, unsigned parts,
	       struct result_set *set, struct error *err);

/*
 * What store_load_each() calls: @chosen (when not NULL) once the batches
 * and their environments are read, to keep some (result_set_keep()); then
 * @batch for each batch kept, @set->batches[@at] holding its benchmarks
 * and parts until it returns. Each returns 0, or -1 with @err, which ends
 * the load.
 */
struct store_each {
	int (*chosen)(struct result_set *set, void *arg, struct error *err);
	int (*batch)(struct result_set *set, size_t at, void *arg, struct error *err);
	void *arg;
};

/*
 * store_load() of every run a batch at a time, for a reader that keeps
 * little of each: one batch's benchmarks and @parts are held at a time,
 * not the whole store's (a store of 10,000 benchmarks in 100 runs took
 * half a gigabyte whole). @set, empty, keeps the batches and their
 * environments, but none of their benchmarks. @parts: not STORE_COUNTS,
 * whose query counts the whole store's at each read.
 */
int store_load_each(struct store *st, unsigned parts, struct result_set *set,
		    const struct store_each *each, struct error *err);

/* A batch run --replace began, not complete: store_load() shows what it would replace. */
struct unfinished_replacement {
	int64_t batch_id;
	char *name;		/* its run's */
	char *started;
};

/* Those of run @name (all when NULL), by run and start, into *@list (NULL when none). */
int store_unfinished_replacements(struct store *st, const char *name,
				  struct unfinished_replacement **list, size_t *nr,
				  struct error *err);
void unfinished_replacements_release(struct unfinished_replacement *list, size_t nr);

/*
 * EXIT_USAGE when the store at @db, if any, holds run @name as an
 * experiment's own (an ab's, a bisection's): a batch's begin refused, told before anything runs.
 */
int store_check_run_own(const char *db, const char *name, struct error *err);
/* The stored plan of batch @batch_id (malloc'd JSON), NULL when it has none. */
int store_batch_plan(struct store *st, int64_t batch_id, char **plan, struct error *err);
/*
 * Whether run @name holds a batch (any job's too), but for those an
 * experiment killed before its first sample, which the next
 * store_batches_begin_own() takes over.
 */
int store_run_taken(struct store *st, const char *name, bool *taken, struct error *err);

/*
 * Claim the latest incomplete batch of run @name with its plan (malloc'd,
 * or NULL). EXIT_ENV, naming the pid, while another live process or its
 * last iteration's tasks write the run: of two resumes, one proceeds.
 */
int store_resume_find(struct store *st, const char *name, int64_t *batch_id, char **plan,
		      struct error *err);
/* Claim the batch for this process, on the same terms. */
int store_batch_claim(struct store *st, int64_t batch_id, struct error *err);
/* Record the process group of the iteration about to run (0: none), for a resume to wait on. */
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
 * The benchmark at @position of a batch being resumed: its id, @bench's
 * metric ids by name (0: none such), its progress; 1 when none there yet.
 */
int store_benchmark_progress(struct store *st, int64_t batch_id, size_t position,
			     const struct result_benchmark *bench, int64_t *bench_id,
			     int64_t *metric_ids, struct benchmark_progress *progress,
			     struct error *err);

/*
 * The attempts of the slot @bench_id was cut short in: those after the
 * last that ended a slot (a success not rerun, or a 1 + @retries-th
 * failure); all zero when cut between slots.
 */
int store_benchmark_open_slot(struct store *st, int64_t bench_id, int retries,
			      struct open_slot *slot, struct error *err);

/*
 * The knob journal of `schedperf ab`: the original values of the settings
 * it changes, written before the first change and removed once put back,
 * so that after a crash `schedperf ab --restore` knows what to restore.
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
 * Journal @n originals in one transaction; one journalled already is
 * EXIT_ENV. Bytes not UTF-8 are copied as \xHH, a '\' as "\\"
 * (utf8_quoted()), read back as they were: the copy is shown, not put back.
 */
int store_journal_write(struct store *st, const struct knob_original *k, size_t n,
			struct error *err);
/*
 * Every journalled original of this machine (of every one with
 * @every_machine, for `schedperf jobs`), in the order written (*@out NULL
 * when none).
 */
int store_journal_read(struct store *st, bool every_machine, struct knob_original **out,
		       size_t *n, struct error *err);
/* Forget a restored original: the one of @kind and @name, or every one (NULL). */
int store_journal_remove(struct store *st, const char *kind, const char *name,
			 struct error *err);
void store_journal_release(struct knob_original *k, size_t n);

/*
 * Bisections (experiment/bisection.h): the repository and machine each
 * bisects, its state (running, interrupted, done, failed, abandoned) and
 * its record, JSON rewritten after every step (doc/design.md, "Bisection").
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
/*
 * Bisection @id, or the newest with @id 0 (with @repo, the newest of @repo
 * on this machine that is running or interrupted): 0, 1 when there is
 * none, -1 with @err.
 */
int store_bisection_get(struct store *st, int64_t id, const char *repo,
			struct stored_bisection *out, struct error *err);
/* Every bisection, newest first. */
int store_bisection_list(struct store *st, struct stored_bisection **out, size_t *n,
			 struct error *err);
void stored_bisection_release(struct stored_bisection *b);

/* Import whole batches, all or none; once @stopped (if not NULL) says so, none and -1. */
int store_import(struct store *st, const struct result_set *set, bool (*stopped)(void),
		 struct error *err);

/*
 * Jobs: a run, an ab or a bisect-step queued for workers on many machines
 * (PostgreSQL; jobs.c). Queued, then running under a claim whose lease
 * its worker renews, then done (with its batches, in one transaction),
 * failed or cancelled. A job whose lease ran out is claimed again, one
 * whose worker stopped queued again at once; its lost run's batches are
 * never seen. A job that needs a kernel is booting between its claim and
 * its run, while its machine reboots into that kernel.
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
 * Whether a machine that the store knows matches @machine, a job's pattern
 * as store_job_submit() takes it, as a worker's claim matches it: the host
 * names of the workers that claimed a job, and of the machines batches ran
 * on (machine.hostname). 1 when one does; 0 when none does, with *@known
 * every one it knows, sorted, *@nr of them and then NULL (words_free()
 * frees them); -1 with @err.
 */
int store_job_machine_known(struct store *st, const char *machine, char ***known,
			    size_t *nr, struct error *err);
/*
 * Claim the next job machine @worker matches, highest priority then
 * oldest, leased @lease seconds: 1 with *job, 0 when none; never waiting
 * on other claims. A job lost after its last allowed claim is failed
 * instead (one that kills its machine is not run for ever). One that
 * needs a kernel other than @release only when the worker @can_boot.
 */
int store_job_claim(struct store *st, const char *worker, int lease, const char *release,
		    bool can_boot, struct store_job *job, struct error *err);
/*
 * Kernel jobs. store_job_booting() marks a claimed job booting: its
 * machine's deadline @timeout seconds away, @home the release it runs, a
 * lease of @lease seconds renewed while the boot command runs; 1, or 0
 * when the claim is gone. After a start, store_job_booted() finds the job
 * machine @worker booted for, once its boot id (util/machine.h) is not the
 * claim's: 1, running again under a new claim, when it runs @release by
 * the deadline; 2, failed and why, when on another or late. Before that
 * reboot (a worker started during another's boot command, or that one
 * killed in it): 3 with the job a lost worker's running one, once that
 * lease is over. 0 when nothing was done. A boot that failed otherwise
 * fails it (store_job_fail()); a machine not back by its deadline fails it when
 * store_jobs_expire_boots() or a claim looks.
 */
int store_job_booting(struct store *st, int64_t id, const char *claim, int timeout,
		      const char *home, int lease, struct error *err);
int store_job_booted(struct store *st, const char *worker, const char *release, int lease,
		     struct store_job *job, struct error *err);
int store_jobs_expire_boots(struct store *st, struct error *err);
/* Job @id may run only on machine @host from now on (a bisection's first job). */
int store_job_pin(struct store *st, int64_t id, const char *host, struct error *err);
/* Extend the lease: 1 while the job is still this claim's, 0 when it is not (cancelled, lost). */
int store_job_renew(struct store *st, int64_t id, const char *claim, int lease,
		    struct error *err);
/*
 * Fail a claimed job with @reason: 1, or 0 when no longer running (with
 * @booting, booting: store_job_booting()) under @claim.
 */
int store_job_fail(struct store *st, int64_t id, const char *claim, bool booting,
		   const char *reason, struct error *err);
/*
 * Its worker was stopped: queue the job again at once, this claim not
 * counted, its batches going as a lost run's (a booting one, its boot not
 * begun, too). 1, or 0 when no longer running or booting under @claim.
 */
int store_job_give_back(struct store *st, int64_t id, const char *claim, struct error *err);
/*
 * The run of a claimed job was killed (@reason: by what), as a lost
 * worker's is: the job is queued again, this claim counted, or failed
 * after its last attempt. 1 queued, 2 failed, 0 when no longer running
 * under @claim.
 */
int store_job_lost_run(struct store *st, int64_t id, const char *claim, const char *reason,
		       struct error *err);
/* Job @id: 1 with *job filled, 0 when there is none. */
int store_job_get(struct store *st, int64_t id, struct store_job *job, struct error *err);
/* Every job, oldest first. */
int store_jobs_list(struct store *st, struct store_job **jobs, size_t *nr, struct error *err);
/* Cancel jobs @ids, all or none: EXIT_USAGE when one is no such job or has ended. */
int store_jobs_cancel(struct store *st, const int64_t *ids, size_t n, struct error *err);
/* This process runs job @id under @claim: its next batch is the job's, while the claim holds. */
void store_set_job(struct store *st, int64_t id, const char *claim);

#endif
