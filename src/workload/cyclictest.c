// SPDX-License-Identifier: GPL-2.0
/*
 * cyclictest: our implementation of rt-tests' cyclictest (Thomas Gleixner,
 * Clark Williams; followed as Debian's rt-tests 2.4 builds it, cyclictest
 * 2.40) in its standard SMP form, `cyclictest -S`: the latency of periodic
 * timer wake-ups, the time from when a thread asked to be woken to when it
 * runs. It is the wake-up path of a sleeping task in its purest form (the
 * hrtimer interrupt, try_to_wake_up, the preemption of whatever runs
 * there), and under load the scheduler's choice of who runs first.
 *
 * What follows cyclictest:
 *  - one thread per CPU this process may use, pinned to it (-S; threads=N
 *    for -t N -a: N threads pinned round-robin over those CPUs), each
 *    under `policy` at `priority` (cyclictest -p and --policy; -p without
 *    --policy is fifo; fifo or rr at priority 0 takes cyclictest's own
 *    default, threads + 1), all at one priority as with -S;
 *  - each thread reads CLOCK_MONOTONIC, then loops: sleep with
 *    clock_nanosleep(TIMER_ABSTIME) until `next`, read the clock, record
 *    now - next, add the interval to `next` until it is in the future (a
 *    wake-up later than a whole interval skips the periods it missed, as
 *    cyclictest 2.x does; its versions before 2.0 measured each of them
 *    as a wake-up due at once, which under overload counted one delay
 *    many times over);
 *    thread i wakes every interval + (i + 1) x distance microseconds (-i,
 *    -d; cyclictest's -h makes distance 0, our default);
 *  - it stops after `loops` wake-ups of each thread (-l), or with the first
 *    wake-up at or after `runtime` seconds (-D).
 * Latencies are kept in nanoseconds (cyclictest -N) in a log-linear
 * histogram (stats/histogram.h: exact below 256 ns, within 0.4 % above);
 * min, max and the mean are exact; the percentiles are nearest rank over
 * every wake-up of every thread, and `overflows` counts the wake-ups at or
 * above hist_us, the "Histogram Overflows" of cyclictest -h.
 *
 * Where we differ: cyclictest writes 0 to /dev/cpu_dma_latency unless
 * --default-system, keeping CPUs out of deep idle states while it runs; we
 * leave power management alone (compare with cyclictest --default-system;
 * on machines without a cpuidle driver the two are the same). mlock=1 is
 * cyclictest -m. cyclictest's tracing, -b, --secaligned, -r and -s modes
 * are not implemented.
 *
 * load=messaging|pipe runs that schedperf workload beside the threads, over
 * and over, with `load_params` ("groups=4 loops=200": space-separated, the
 * workload's own parameters), as pmqtest and MMTests' cyclictest-under-load
 * configurations do with hackbench: the wake-ups measured are then those of
 * a machine busy with other tasks, which is where the scheduler decides
 * them. The load starts first and runs in a process group of its own held
 * by a guardian (util/guardian.h), so that it is killed whole when the
 * measurement ends, and with this process should it die; a load that stops
 * on its own fails the iteration, since its wake-ups were then not measured
 * under load. The load shares the threads' session, and so, where
 * kernel.sched_autogroup_enabled is 1, their autogroup, as hackbench
 * started from the same shell would.
 *
 * Measured against cyclictest on this project's 2-CPU virtual machines
 * (bench/fidelity-cyclictest.sh, 3000 wake-ups a thread, interleaved, a
 * shared machine at load 12 to 43): median ratios ours/cyclictest of the
 * mean, median and 99th percentile latency 0.935, 1.002 and 0.989 idle at
 * SCHED_FIFO (30 pairs; intervals [0.841, 1.069], [0.934, 1.058],
 * [0.827, 1.292]); 0.952, 0.989, 0.892 beside hackbench (30 pairs;
 * [0.899, 1.125], [0.968, 1.029], [0.719, 1.031]); 1.015, 1.003, 0.984 at
 * SCHED_OTHER beside hackbench, where latencies are 70 us to 14 ms (22
 * pairs; [0.936, 1.136], [0.967, 1.037], [0.851, 1.092]). The maximum
 * moved several times between runs of either tool. Before the late
 * wake-up skipped its missed periods, the SCHED_OTHER case measured 6x
 * cyclictest's mean: each long delay counted once per period it spanned.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "stats/histogram.h"
#include "util/array.h"
#include "util/guardian.h"
#include "util/timeutil.h"
#include "util/xalloc.h"
#include "workload/start_gate.h"
#include "workload/workload.h"
#include "workload/testing.h"

enum {
	CT_PARAM_THREADS,
	CT_PARAM_INTERVAL,
	CT_PARAM_DISTANCE,
	CT_PARAM_LOOPS,
	CT_PARAM_RUNTIME,
	CT_PARAM_POLICY,
	CT_PARAM_PRIORITY,
	CT_PARAM_HIST_US,
	CT_PARAM_MLOCK,
	CT_PARAM_LOAD,
	CT_PARAM_LOAD_PARAMS,
	NR_CT_PARAMS,
};

enum {
	CT_MIN, CT_AVG, CT_P50, CT_P90, CT_P99, CT_P999, CT_MAX, CT_OVERFLOWS,
	NR_CT_METRICS,
};

enum ct_policy { CT_OTHER, CT_BATCH, CT_IDLE, CT_FIFO, CT_RR };
enum ct_load { CT_LOAD_NONE, CT_LOAD_MESSAGING, CT_LOAD_PIPE };

static const char *const policy_choices[] = { "other", "batch", "idle", "fifo", "rr", NULL };
static const int policy_values[] = { SCHED_OTHER, SCHED_BATCH, SCHED_IDLE, SCHED_FIFO, SCHED_RR };
static const char *const load_choices[] = { "none", "messaging", "pipe", NULL };

static const struct param_spec ct_params[NR_CT_PARAMS] = {
	[CT_PARAM_THREADS] = { "threads", PARAM_INT, "0", 0, 4096, NULL,
		"measuring threads, pinned round-robin; 0: one per CPU allowed "
		"(cyclictest -S; -t N -a)" },
	[CT_PARAM_INTERVAL] = { "interval", PARAM_INT, "1000", 10, 10000000, NULL,
		"microseconds between wake-ups (cyclictest -i)" },
	[CT_PARAM_DISTANCE] = { "distance", PARAM_INT, "0", 0, 1000000, NULL,
		"thread i's interval grows by (i + 1) x this many microseconds "
		"(cyclictest -d)" },
	[CT_PARAM_LOOPS] = { "loops", PARAM_INT, "0", 0, 1000000000, NULL,
		"wake-ups per thread; 0: run for runtime (cyclictest -l)" },
	[CT_PARAM_RUNTIME] = { "runtime", PARAM_INT, "10", 1, 86400, NULL,
		"seconds to run when loops is 0 (cyclictest -D)" },
	[CT_PARAM_POLICY] = { "policy", PARAM_CHOICE, "fifo", 0, 0, policy_choices,
		"scheduling policy of the threads (cyclictest --policy)" },
	[CT_PARAM_PRIORITY] = { "priority", PARAM_INT, "0", 0, 99, NULL,
		"real-time priority for fifo and rr; 0: threads + 1, as cyclictest "
		"(cyclictest -p)" },
	[CT_PARAM_HIST_US] = { "hist_us", PARAM_INT, "100", 1, 10000000, NULL,
		"wake-ups this many microseconds late or more are overflows "
		"(cyclictest -h)" },
	[CT_PARAM_MLOCK] = { "mlock", PARAM_INT, "0", 0, 1, NULL,
		"1: lock all memory first (cyclictest -m)" },
	[CT_PARAM_LOAD] = { "load", PARAM_CHOICE, "none", 0, 0, load_choices,
		"a schedperf workload run over and over beside the threads" },
	[CT_PARAM_LOAD_PARAMS] = { "load_params", PARAM_STRING, "", 0, 256, NULL,
		"the load's parameters, space-separated KEY=VALUE" },
};

static const struct metric_spec ct_metrics[NR_CT_METRICS] = {
	[CT_MIN] = { "latency_min", "usec", BETTER_LOWER, "shortest wake-up latency" },
	[CT_AVG] = { "latency_avg", "usec", BETTER_LOWER, "mean wake-up latency" },
	[CT_P50] = { "latency_p50", "usec", BETTER_LOWER, "median wake-up latency" },
	[CT_P90] = { "latency_p90", "usec", BETTER_LOWER, "90th percentile wake-up latency" },
	[CT_P99] = { "latency_p99", "usec", BETTER_LOWER, "99th percentile wake-up latency" },
	[CT_P999] = { "latency_p999", "usec", BETTER_LOWER,
		"99.9th percentile wake-up latency" },
	[CT_MAX] = { "latency_max", "usec", BETTER_LOWER, "longest wake-up latency" },
	[CT_OVERFLOWS] = { "overflows", "wake-ups", BETTER_LOWER,
		"wake-ups at least hist_us late" },
};

/* The most load parameters load_params may hold. */
#define CT_MAX_LOAD_PARAMS	16

struct ct_thread {
	struct start_gate *gate;
	int index;
	int policy;
	int priority;
	uint64_t interval_ns;
	uint64_t loops;			/* 0: until stop_ns */
	uint64_t stop_ns;
	uint64_t hist_ns;
	int setup_errno;		/* sched_setscheduler's error, or 0 */
	int policy_seen;		/* sched_getscheduler() once running */
	uint64_t wakeups;
	uint64_t overflows;
	double sum_ns;
	struct histogram hist;
} __attribute__((aligned(64)));

/* What the last run saw, for the unit tests: policies and wake-ups. */
static int ct_last_policy = -1;
static long ct_last_wakeups;

void cyclictest_test_last(int *policy, long *wakeups)
{
	*policy = ct_last_policy;
	*wakeups = ct_last_wakeups;
}

static long ct_threads(const struct param_value *values)
{
	long n = values[CT_PARAM_THREADS].num;

	return n ? n : workload_cpus_allowed();
}

static bool ct_realtime(const struct param_value *values)
{
	long policy = values[CT_PARAM_POLICY].num;

	return policy == CT_FIFO || policy == CT_RR;
}

/* cyclictest: fifo or rr at priority 0 runs at threads + 1, at most 99. */
static int ct_priority(const struct param_value *values)
{
	long prio = values[CT_PARAM_PRIORITY].num;

	if (!ct_realtime(values))
		return 0;
	if (!prio)
		prio = ct_threads(values) + 1 > 99 ? 99 : ct_threads(values) + 1;
	return (int)prio;
}

static const struct workload *ct_load_workload(const struct param_value *values)
{
	switch (values[CT_PARAM_LOAD].num) {
	case CT_LOAD_MESSAGING:
		return workload_find("messaging");
	case CT_LOAD_PIPE:
		return workload_find("pipe");
	default:
		return NULL;
	}
}

/*
 * Split load_params at spaces into @words (pointers into @copy, which the
 * caller frees); returns how many, or -1 with @err when there are too many.
 */
static int split_load_params(const struct param_value *values, char **copy,
			     char **words, struct error *err)
{
	char *save = NULL, *word;
	int n = 0;

	*copy = xstrdup(param_text(&values[CT_PARAM_LOAD_PARAMS]));
	for (word = strtok_r(*copy, " \t", &save); word; word = strtok_r(NULL, " \t", &save)) {
		if (n == CT_MAX_LOAD_PARAMS)
			return error_set(err, EXIT_USAGE,
				"bad value for parameter 'load_params': more than %d "
				"assignments (give fewer)", CT_MAX_LOAD_PARAMS);
		words[n++] = word;
	}
	return n;
}

/* Parse the load's parameters into @load_values; -1 with @err when bad. */
static int parse_load(const struct param_value *values, struct param_value *load_values,
		      struct workload_needs *needs, struct error *err)
{
	const struct workload *w = ct_load_workload(values);
	char *words[CT_MAX_LOAD_PARAMS], *copy = NULL;
	int n, ret;

	if (!w) {
		if (param_text(&values[CT_PARAM_LOAD_PARAMS])[0])
			return error_set(err, EXIT_USAGE,
				"bad value for parameter 'load_params': there is no load to "
				"give them to (give load=messaging or load=pipe)");
		return 0;
	}
	n = split_load_params(values, &copy, words, err);
	if (n < 0) {
		free(copy);
		return -1;
	}
	ret = workload_parse_params(w, words, (size_t)n, load_values, needs, err);
	free(copy);
	if (ret) {
		char why[sizeof(err->msg)];

		snprintf(why, sizeof(why), "%s", err->msg);
		return error_set(err, EXIT_USAGE, "bad value for parameter 'load_params': "
				 "the %s load: %s", w->name, why);
	}
	return 0;
}

static int ct_check(const struct param_value *values,
		    struct workload_needs *needs, struct error *err)
{
	struct param_value load_values[WORKLOAD_MAX_PARAMS];
	struct workload_needs load = { 0, 0 };
	const struct workload *w = ct_load_workload(values);

	if (!ct_realtime(values) && values[CT_PARAM_PRIORITY].num)
		return error_set(err, EXIT_USAGE,
			"bad value for parameter 'priority': %ld is a real-time priority but "
			"policy=%s has none (give priority=0, or policy=fifo or rr)",
			values[CT_PARAM_PRIORITY].num, param_text(&values[CT_PARAM_POLICY]));
	if (parse_load(values, load_values, &load, err))
		return -1;
	if (w)
		workload_release_params(w, load_values);
	/* The threads, this process, the load's guardian, its process and tasks. */
	needs->tasks = ct_threads(values) + 1 + (w ? 2 + load.tasks : 0);
	needs->fds = 4 + load.fds;
	return 0;
}

static uint64_t ts_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000u + (uint64_t)ts->tv_nsec;
}

static struct timespec ns_ts(uint64_t ns)
{
	return (struct timespec){ (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };
}

static uint64_t monotonic_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return ts_ns(&now);
}

static void record(struct ct_thread *t, uint64_t latency)
{
	histogram_add(&t->hist, latency);
	t->sum_ns += (double)latency;
	if (latency >= t->hist_ns)
		t->overflows++;
	t->wakeups++;
}

static void *ct_thread_fn(void *arg)
{
	struct ct_thread *t = arg;
	struct sched_param sp = { .sched_priority = t->priority };
	uint64_t next;

	if (sched_setscheduler(0, t->policy, &sp))
		t->setup_errno = errno;
	t->policy_seen = sched_getscheduler(0);
	if (!start_gate_arrive(t->gate))
		return NULL;
	next = monotonic_ns() + t->interval_ns;
	for (;;) {
		struct timespec when = ns_ts(next);
		uint64_t now;
		int ret;

		ret = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &when, NULL);
		if (ret == EINTR)
			continue;
		now = monotonic_ns();
		record(t, now > next ? now - next : 0);
		/* Periods missed while late are skipped, not measured as due at once. */
		do
			next += t->interval_ns;
		while (next <= now);
		if (t->loops ? t->wakeups >= t->loops : now >= t->stop_ns)
			break;
	}
	return NULL;
}

/* In the load's process: run the load until killed; exit only if it fails. */
static void __attribute__((noreturn))
run_load(const struct workload *w, const struct param_value *values, int ready_fd)
{
	size_t n = workload_nr_values(w, values);
	double *metrics = xcalloc(n, sizeof(double));
	struct error err;

	if (write(ready_fd, "r", 1) != 1)
		_exit(2);
	close(ready_fd);
	for (;;) {
		memset(&err, 0, sizeof(err));
		if (w->run(values, metrics, &err))
			_exit(1);
	}
}

struct ct_load_group {
	struct guardian guardian;
	pid_t pid;
};

/* Start the load in a group of its own; returns once its first run began. */
static int start_load(struct ct_load_group *load, const struct workload *w,
		      const struct param_value *values, struct error *err)
{
	int fds[2];
	char byte;

	load->pid = 0;
	if (guardian_start(&load->guardian, err))
		return -1;
	if (pipe(fds)) {
		guardian_stop(&load->guardian);
		return error_set(err, EXIT_ENV, "cyclictest: cannot create a pipe for the "
				 "load: %s (raise the open-file limit, ulimit -n)", strerror(errno));
	}
	load->pid = fork();
	if (load->pid == 0) {
		close(fds[0]);
		if (guardian_join(&load->guardian))
			_exit(2);
		run_load(w, values, fds[1]);
	}
	close(fds[1]);
	if (load->pid > 0)
		setpgid(load->pid, load->guardian.pgid);
	if (load->pid < 0 || read(fds[0], &byte, 1) != 1) {
		close(fds[0]);
		guardian_stop(&load->guardian);
		if (load->pid > 0)
			waitpid(load->pid, NULL, 0);
		return error_set(err, EXIT_ENV, "cyclictest: cannot start the %s load: %s "
				 "(raise the process limit, ulimit -u)", w->name,
				 load->pid < 0 ? strerror(errno) : "it exited at once");
	}
	close(fds[0]);
	return 0;
}

/*
 * Kill the load whole; false when it had stopped by itself before. Its
 * tasks are the iteration's own though not of its process group: the
 * iteration's process, which runs this, is their subreaper (orphans_adopt()
 * in runner/iteration.c) and reaps every one of them here, so that their
 * CPU time is the iteration's (its rusage) and none is left for the runner
 * to see as another's, a culprit of interference.
 */
static bool stop_load(struct ct_load_group *load)
{
	pid_t group = load->guardian.pgid;
	int status;
	bool alive = waitpid(load->pid, &status, WNOHANG) == 0;

	guardian_stop(&load->guardian);
	while (waitpid(-group, &status, 0) > 0 || errno == EINTR)
		;
	return alive;
}

static void fill_metrics(struct ct_thread *threads, long n, double *metrics)
{
	static const double pcts[] = { 50, 90, 99, 99.9 };
	struct histogram *all = xmalloc(sizeof(*all));
	double sum = 0, overflows = 0;

	histogram_init(all);
	for (long i = 0; i < n; i++) {
		histogram_merge(all, &threads[i].hist);
		sum += threads[i].sum_ns;
		overflows += (double)threads[i].overflows;
	}
	ct_last_wakeups = (long)all->count;
	if (all->count) {
		metrics[CT_MIN] = (double)all->min / 1000;
		metrics[CT_AVG] = sum / (double)all->count / 1000;
		for (size_t p = 0; p < ARRAY_SIZE(pcts); p++)
			metrics[CT_P50 + p] = histogram_percentile(all, pcts[p]) / 1000;
		metrics[CT_MAX] = (double)all->max / 1000;
		metrics[CT_OVERFLOWS] = overflows;
	}
	free(all);
}

static void init_threads(struct ct_thread *threads, long n, struct start_gate *gate,
			 const struct param_value *values)
{
	uint64_t interval = (uint64_t)values[CT_PARAM_INTERVAL].num * 1000;
	uint64_t distance = (uint64_t)values[CT_PARAM_DISTANCE].num * 1000;
	uint64_t stop = monotonic_ns() + (uint64_t)values[CT_PARAM_RUNTIME].num * 1000000000u;

	for (long i = 0; i < n; i++) {
		struct ct_thread *t = &threads[i];

		memset(t, 0, sizeof(*t));
		t->gate = gate;
		t->index = (int)i;
		t->policy = policy_values[values[CT_PARAM_POLICY].num];
		t->priority = ct_priority(values);
		t->interval_ns = interval + (uint64_t)(i + 1) * distance;
		t->loops = (uint64_t)values[CT_PARAM_LOOPS].num;
		t->stop_ns = stop;
		t->hist_ns = (uint64_t)values[CT_PARAM_HIST_US].num * 1000;
		histogram_init(&t->hist);
	}
}

/* The first thread that could not take its policy, or NULL. */
static const struct ct_thread *refused(const struct ct_thread *threads, long n)
{
	for (long i = 0; i < n; i++)
		if (threads[i].setup_errno)
			return &threads[i];
	return NULL;
}

static int measure(const struct param_value *values, double *metrics, struct error *err)
{
	long n = ct_threads(values);
	struct ct_thread *threads = aligned_alloc(64, (size_t)n * sizeof(*threads));
	pthread_t *tids = xcalloc((size_t)n, sizeof(*tids));
	const struct ct_thread *bad;
	struct start_gate gate;
	int ret = 0;

	if (!threads) {
		free(tids);
		return error_set(err, EXIT_ENV, "cyclictest: out of memory for %ld threads' "
				 "histograms (give fewer threads)", n);
	}
	start_gate_init(&gate);
	init_threads(threads, n, &gate, values);
	if (start_gate_spawn(&gate, "cyclictest", n, ct_thread_fn, threads,
			     sizeof(*threads), 0, true, tids, err)) {
		ret = -1;
		goto out;
	}
	start_gate_wait(&gate, n);
	bad = refused(threads, n);
	start_gate_open(&gate, n, bad != NULL, NULL);
	for (long i = 0; i < n; i++)
		pthread_join(tids[i], NULL);
	ct_last_policy = threads[0].policy_seen;
	if (bad) {
		ret = error_set(err, EXIT_ENV, "cyclictest: cannot run a thread under "
			"policy=%s priority %d: %s (run as root, or give policy=other)",
			param_text(&values[CT_PARAM_POLICY]), bad->priority,
			strerror(bad->setup_errno));
		goto out;
	}
	fill_metrics(threads, n, metrics);
out:
	start_gate_destroy(&gate);
	free(threads);
	free(tids);
	return ret;
}

/*
 * What an iteration's child does first, tried in a child of our own:
 * mlockall() when mlock=1 (exit errno), then the threads' policy and
 * priority (exit 128 + errno). Both are privileges the parameters cannot
 * show, and their effect must not stay on the runner.
 */
static int ct_probe(const struct param_value *values)
{
	struct sched_param sp = { .sched_priority = ct_priority(values) };
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return 0;	/* the iteration's own fork will say why */
	if (!pid) {
		if (values[CT_PARAM_MLOCK].num && mlockall(MCL_CURRENT | MCL_FUTURE))
			_exit(errno > 0 && errno < 128 ? errno : EPERM);
		if (ct_realtime(values) &&
		    sched_setscheduler(0, policy_values[values[CT_PARAM_POLICY].num], &sp))
			_exit(128 + (errno > 0 && errno < 128 ? errno : EPERM));
		_exit(0);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 0;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 0;
}

/* Refuse, before a store is touched, what ct_run() would be refused at once. */
static int ct_ready(const struct param_value *values, struct error *err)
{
	int refused;

	if (!values[CT_PARAM_MLOCK].num && !ct_realtime(values))
		return 0;
	refused = ct_probe(values);
	if (refused && refused < 128)
		return error_set(err, EXIT_ENV, "cyclictest: cannot lock memory (mlock=1): %s "
				 "(run as root, raise 'ulimit -l', or give mlock=0)",
				 strerror(refused));
	if (refused)
		return error_set(err, EXIT_ENV, "cyclictest: cannot run a thread under "
				 "policy=%s priority %d: %s (run as root, or give policy=other)",
				 param_text(&values[CT_PARAM_POLICY]), ct_priority(values),
				 strerror(refused - 128));
	return 0;
}

static int ct_run(const struct param_value *values, double *metrics, struct error *err)
{
	struct param_value load_values[WORKLOAD_MAX_PARAMS];
	const struct workload *w = ct_load_workload(values);
	struct ct_load_group load;
	int ret;

	for (int i = 0; i < NR_CT_METRICS; i++)
		metrics[i] = NAN;
	ct_last_policy = -1;
	ct_last_wakeups = 0;
	if (values[CT_PARAM_MLOCK].num && mlockall(MCL_CURRENT | MCL_FUTURE))
		return error_set(err, EXIT_ENV, "cyclictest: cannot lock memory (mlock=1): %s "
				 "(run as root, raise 'ulimit -l', or give mlock=0)", strerror(errno));
	if (parse_load(values, load_values, NULL, err))
		return -1;
	if (w && start_load(&load, w, load_values, err)) {
		workload_release_params(w, load_values);
		return -1;
	}
	ret = measure(values, metrics, err);
	if (w) {
		bool alive = stop_load(&load);

		workload_release_params(w, load_values);
		if (!ret && !alive) {
			for (int i = 0; i < NR_CT_METRICS; i++)
				metrics[i] = NAN;
			error_set(err, EXIT_ENV, "cyclictest: the %s load stopped before the "
				  "measurement ended, so it was not measured under load "
				  "(run the load alone to see why: schedperf run %s)",
				  w->name, w->name);
			ret = 1;
		}
	}
	if (values[CT_PARAM_MLOCK].num)
		munlockall();
	return ret;
}

const struct workload workload_cyclictest = {
	.name = "cyclictest",
	.summary = "periodic timer wake-ups on every CPU allowed: wake-up latency "
		   "(rt-tests' cyclictest), optionally beside a load",
	.params = ct_params,
	.nr_params = NR_CT_PARAMS,
	.metrics = ct_metrics,
	.nr_metrics = NR_CT_METRICS,
	.check = ct_check,
	.ready = ct_ready,
	.run = ct_run,
};
