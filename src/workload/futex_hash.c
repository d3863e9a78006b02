// SPDX-License-Identifier: GPL-2.0
/*
 * futex-hash: our implementation of `perf bench futex hash` (Davidlohr
 * Bueso).
 *
 * It measures the kernel's futex hashing: every thread calls FUTEX_WAIT
 * over its own array of futex words with a value that never matches, so
 * each call hashes the address, takes the hash bucket lock, finds the
 * mismatch and returns EAGAIN without ever sleeping. With shared=1 the key
 * lookup also has to resolve the page (get_futex_key on a shared key).
 *
 * What follows perf (tools/perf/bench/futex-hash.c): `threads` threads
 * (default one per CPU) pinned round-robin over the CPUs (perf: online
 * CPUs; we: the CPUs this process may use), each with `futexes` zeroed
 * words from calloc, pass a start barrier and loop over their words until
 * the caller, after sleeping `runtime` seconds, says stop; the stop flag is
 * read once per pass over the words, as in perf; an operation is one
 * FUTEX_WAIT call. `ops_per_sec` is perf's "Averaged N operations/sec": the
 * mean over threads of each thread's operations per second.
 * Where we differ: perf divides by the whole seconds of its runtime; we
 * divide by the measured time from opening the barrier to the stop, in
 * full precision. We also report the sum over threads, `total_ops_per_sec`,
 * and fail the run if a FUTEX_WAIT returns anything but EAGAIN (perf
 * warns), since then the numbers would not measure hashing.
 */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util/array.h"
#include "util/timeutil.h"
#include "util/xalloc.h"
#include "workload/start_gate.h"
#include "workload/workload.h"

enum {
	FH_PARAM_THREADS,
	FH_PARAM_FUTEXES,
	FH_PARAM_RUNTIME,
	FH_PARAM_SHARED,
	NR_FH_PARAMS,
};

static const struct param_spec fh_params[NR_FH_PARAMS] = {
	[FH_PARAM_THREADS] = { "threads", PARAM_INT, "0", 0, 4096, NULL,
		"threads; 0 = one per CPU allowed (perf -t)" },
	[FH_PARAM_FUTEXES] = { "futexes", PARAM_INT, "1024", 1, 1048576, NULL,
		"futex words per thread (perf -f)" },
	[FH_PARAM_RUNTIME] = { "runtime", PARAM_INT, "10", 1, 3600, NULL,
		"seconds to run (perf -r)" },
	[FH_PARAM_SHARED] = { "shared", PARAM_INT, "0", 0, 1, NULL,
		"1: shared futexes instead of private (perf -S)" },
};

static const struct metric_spec fh_metrics[] = {
	{ "ops_per_sec", "ops/s", BETTER_HIGHER,
	  "FUTEX_WAIT calls per second per thread, mean over threads (perf's figure)" },
	{ "total_ops_per_sec", "ops/s", BETTER_HIGHER,
	  "FUTEX_WAIT calls per second, all threads together" },
};

/* All futex words of one iteration together: beyond this, refuse. */
#define FH_MAX_BYTES		(1L << 30)
/* A value FUTEX_WAIT never finds in a zeroed word, as perf uses. */
#define FH_MISMATCH		1234

struct futex_hash {
	int flag;			/* FUTEX_PRIVATE_FLAG or 0 */
	long nr_futexes;
	atomic_bool done;
	struct start_gate gate;
};

struct fh_worker {
	struct futex_hash *fh;
	uint32_t *futexes;
	unsigned long ops;
	bool unexpected;		/* a FUTEX_WAIT did not return EAGAIN */
};

static long fh_threads(const struct param_value *values)
{
	long threads = values[FH_PARAM_THREADS].num;

	return threads ? threads : workload_cpus_allowed();
}

static int fh_check(const struct param_value *values,
		    struct workload_needs *needs, struct error *err)
{
	long threads = fh_threads(values);
	long futexes = values[FH_PARAM_FUTEXES].num;

	needs->tasks = threads + 1;
	needs->fds = 0;
	if (threads * futexes * (long)sizeof(uint32_t) > FH_MAX_BYTES)
		return error_set(err, EXIT_USAGE,
			"bad value for parameter 'futexes': %ld threads x %ld futexes "
			"need more than 1 GiB (give fewer threads or futexes)",
			threads, futexes);
	return 0;
}

static void *fh_worker_fn(void *arg)
{
	struct fh_worker *w = arg;
	struct futex_hash *fh = w->fh;
	int op = FUTEX_WAIT | fh->flag;
	unsigned long ops = 0;		/* local: no cache line bouncing */

	if (!start_gate_arrive(&fh->gate))
		return NULL;
	do {
		for (long i = 0; i < fh->nr_futexes; i++, ops++) {
			long ret = syscall(SYS_futex, &w->futexes[i], op,
					   FH_MISMATCH, NULL, NULL, 0);

			if (ret != -1 || errno != EAGAIN)
				w->unexpected = true;
		}
	} while (!atomic_load_explicit(&fh->done, memory_order_relaxed));
	w->ops = ops;
	return NULL;
}

static int fh_measure(struct futex_hash *fh, struct fh_worker *workers, pthread_t *tids,
		      long threads, long runtime, double *metrics, struct error *err)
{
	unsigned long total = 0;
	bool unexpected = false;
	double start, elapsed;

	/* Each thread pinned round-robin over the allowed CPUs, as perf does. */
	if (start_gate_spawn(&fh->gate, "futex-hash", threads, fh_worker_fn, workers,
			     sizeof(*workers), 0, true, tids, err))
		return -1;
	start_gate_open(&fh->gate, threads, false, &start);
	time_sleep_until(start + (double)runtime);
	atomic_store(&fh->done, true);
	elapsed = time_now() - start;
	for (long i = 0; i < threads; i++) {
		pthread_join(tids[i], NULL);
		total += workers[i].ops;
		unexpected |= workers[i].unexpected;
	}
	if (unexpected)
		return error_set(err, EXIT_ENV,
			"futex-hash: FUTEX_WAIT did not fail with EAGAIN as expected "
			"(this kernel's futex support is missing or different)");
	metrics[0] = (double)total / elapsed / (double)threads;
	metrics[1] = (double)total / elapsed;
	return 0;
}

static int fh_run(const struct param_value *values, double *metrics,
		  struct error *err)
{
	long threads = fh_threads(values);
	struct futex_hash fh = {
		.flag = values[FH_PARAM_SHARED].num ? 0 : FUTEX_PRIVATE_FLAG,
		.nr_futexes = values[FH_PARAM_FUTEXES].num,
	};
	struct fh_worker *workers = xcalloc((size_t)threads, sizeof(*workers));
	pthread_t *tids = xcalloc((size_t)threads, sizeof(*tids));
	int ret;

	atomic_init(&fh.done, false);
	start_gate_init(&fh.gate);
	for (long i = 0; i < threads; i++) {
		workers[i].fh = &fh;
		workers[i].futexes = xcalloc((size_t)fh.nr_futexes, sizeof(uint32_t));
	}
	ret = fh_measure(&fh, workers, tids, threads, values[FH_PARAM_RUNTIME].num,
			 metrics, err);
	for (long i = 0; i < threads; i++)
		free(workers[i].futexes);
	free(workers);
	free(tids);
	start_gate_destroy(&fh.gate);
	return ret;
}

const struct workload workload_futex_hash = {
	.name = "futex-hash",
	.summary = "threads hammer FUTEX_WAIT on non-matching values over many "
		   "futexes (perf bench futex hash)",
	.params = fh_params,
	.nr_params = NR_FH_PARAMS,
	.metrics = fh_metrics,
	.nr_metrics = ARRAY_SIZE(fh_metrics),
	.check = fh_check,
	.run = fh_run,
};
