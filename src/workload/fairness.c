// SPDX-License-Identifier: GPL-2.0
/*
 * fairness: does each group of tasks get the CPU its weight says, and how
 * long does the worst-treated task wait? K groups of equal tasks compete
 * for the CPUs this process may use, each group with a weight, for a
 * time; as LKP's cgroup fairness jobs do, we compare each group's share of
 * the CPU time with what its weight entitles it to.
 *
 * Groups are cgroups (mode=cgroup: one scratch cgroup per group, made
 * under a scratch parent of their own so that they compete with each
 * other and not with the machine's other cgroups; cpu.weight = the weight
 * on cgroup v2, cpu.shares = weight x 1024 / 100 on v1, the kernel's own
 * conversion between the two) or nice levels (mode=nice: the heaviest
 * group runs at nice 0, each other at the nice level whose load weight is
 * nearest below in proportion, from the kernel's sched_prio_to_weight
 * table, so that no privilege is needed). mode=cgroup where no hierarchy
 * offers the cpu controller is refused (exit 3, util/cgroup.h says why),
 * never measured some other way. The scratch cgroups are removed at the
 * end, and by a reaper process should schedperf be killed.
 *
 * Each group has `tasks` processes (0: as many as CPUs allowed, so that
 * each group alone could fill the machine), busy loops (duty_pct=100) or
 * periodic tasks that need duty_pct % of each period_us of CPU and sleep
 * for the rest of the period. After a start barrier and `warmup` seconds,
 * each task reads its own CPU clock (CLOCK_THREAD_CPUTIME_ID) when it sees
 * the measurement start and again when it sees its end: a task that is not
 * running when the phase changes sees it when it next runs, and its clock
 * has not moved meanwhile, so the reading is exact either way.
 *
 * Metrics: share_N, group N's percent of the CPU time the workload's tasks
 * got (so other tasks on the machine do not enter it); max_rel_error, the
 * largest |share / expected - 1| over the groups, in percent; jain, Jain's
 * index of share / expected (1: as the weights say); worst_wait_ms, the
 * longest any task was kept from running while it could run: a busy task
 * reads the clock in its loop and the longest gap between two reads is
 * such a wait, a periodic task counts its gaps while it works and how late
 * it woke at each period. Expected shares are the weighted max-min fair
 * split of the CPUs (stats/fairness.h): by weight, except that a group
 * never gets more than its tasks can use (tasks x duty, and no more than
 * the CPUs), the rest going to the others by weight.
 *
 * Measured against stress-ng's cpu stressor set up the same way by hand
 * (bench/fidelity-fairness.sh: two groups of 2 busy tasks on 2 CPUs,
 * weights 100:400, each group's share from the kernel's sum_exec_runtime
 * of every stressor over the same window; interleaved, 20 pairs, a shared
 * machine at load 12 to 43): group 1's share, ours against stress-ng's,
 * 0.985 [0.909, 1.070] in cgroups (v1 cpu.shares) and 1.015 [0.973,
 * 1.138] at nice 6 and 0; 20.4 % and 23.6 % for us where the weights say
 * 20.0 % and 21.0 %. ab of weights 100:400 against 100:100 (metric
 * share_1, 3 s runs) decided group 1's share -59.8 % [-73.6, -57.6] in 7
 * blocks: 50 % to 20 %, as the weights say.
 */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "stats/fairness.h"
#include "util/array.h"
#include "util/cgroup.h"
#include "util/parse.h"
#include "util/timeutil.h"
#include "util/xalloc.h"
#include "workload/task_end.h"
#include "workload/task_gate.h"
#include "workload/workload.h"

enum {
	FAIR_PARAM_WEIGHTS,
	FAIR_PARAM_MODE,
	FAIR_PARAM_TASKS,
	FAIR_PARAM_DUTY_PCT,
	FAIR_PARAM_PERIOD_US,
	FAIR_PARAM_RUNTIME,
	FAIR_PARAM_WARMUP,
	NR_FAIR_PARAMS,
};

#define FAIR_MAX_GROUPS	16
/* The longest weights text, in bytes: 16 of "10000" and their colons take 95. */
#define FAIR_WEIGHTS_MAX	128

enum {
	FAIR_MAX_REL_ERROR,
	FAIR_JAIN,
	FAIR_WORST_WAIT,
	FAIR_SHARE_1,
	NR_FAIR_METRICS = FAIR_SHARE_1 + FAIR_MAX_GROUPS,
};

enum fair_mode { FAIR_CGROUP, FAIR_NICE };

static const char *const mode_choices[] = { "cgroup", "nice", NULL };

static const struct param_spec fair_params[NR_FAIR_PARAMS] = {
	[FAIR_PARAM_WEIGHTS] = { "weights", PARAM_STRING, "100:100", 0, FAIR_WEIGHTS_MAX, NULL,
		"one weight per group, colon-separated, each 1..10000 in cgroup v2's "
		"cpu.weight units (100: a nice-0 task's weight)" },
	[FAIR_PARAM_MODE] = { "mode", PARAM_CHOICE, "cgroup", 0, 0, mode_choices,
		"groups are scratch cgroups, or nice levels" },
	[FAIR_PARAM_TASKS] = { "tasks", PARAM_INT, "0", 0, 256, NULL,
		"processes per group; 0: one per CPU allowed" },
	[FAIR_PARAM_DUTY_PCT] = { "duty_pct", PARAM_INT, "100", 1, 100, NULL,
		"percent of each period a task needs the CPU; 100: busy loop" },
	[FAIR_PARAM_PERIOD_US] = { "period_us", PARAM_INT, "10000", 100, 10000000, NULL,
		"microseconds per period of a periodic task" },
	[FAIR_PARAM_RUNTIME] = { "runtime", PARAM_INT, "10", 1, 86400, NULL,
		"seconds to run, the warm-up included" },
	[FAIR_PARAM_WARMUP] = { "warmup", PARAM_INT, "1", 0, 86399, NULL,
		"first seconds not measured" },
};

#define SHARE(n) { "share_" #n, "%", BETTER_HIGHER, \
		   "group " #n "'s percent of the workload's CPU time (higher: more for it)" }

static const struct metric_spec fair_metrics[NR_FAIR_METRICS] = {
	[FAIR_MAX_REL_ERROR] = { "max_rel_error", "%", BETTER_LOWER,
		"largest relative error of a group's share against its weight's" },
	[FAIR_JAIN] = { "jain", "index", BETTER_HIGHER,
		"Jain's fairness index of share over expected share (1: exact)" },
	[FAIR_WORST_WAIT] = { "worst_wait_ms", "ms", BETTER_LOWER,
		"longest time a task that could run was kept waiting" },
	SHARE(1), SHARE(2), SHARE(3), SHARE(4), SHARE(5), SHARE(6), SHARE(7), SHARE(8),
	SHARE(9), SHARE(10), SHARE(11), SHARE(12), SHARE(13), SHARE(14), SHARE(15), SHARE(16),
};

/* The kernel's load weight of nice -20 .. 19 (sched_prio_to_weight). */
static const int nice_weights[40] = {
	88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
	9548, 7620, 6100, 4904, 3906, 3121, 2501, 1991, 1586, 1277,
	1024, 820, 655, 526, 423, 335, 272, 215, 172, 137,
	110, 87, 70, 56, 45, 36, 29, 23, 18, 15,
};

enum { PHASE_WARMUP, PHASE_MEASURE, PHASE_STOP };

struct fair_task {
	int group;
	uint64_t cpu_begin, cpu_end;	/* its CPU clock at the phase changes, ns */
	uint64_t max_wait;		/* ns */
} __attribute__((aligned(64)));

/* Shared by the tasks (processes): MAP_SHARED. */
struct fair_run {
	int phase;
	uint64_t start_ns;		/* the go, CLOCK_MONOTONIC */
	uint64_t period_ns, demand_ns;	/* periodic tasks */
	bool busy;
	long nr_tasks;
	struct fair_task tasks[];
};

struct fair_groups {
	int n;
	long weights[FAIR_MAX_GROUPS];
	int nice[FAIR_MAX_GROUPS];
};

/*
 * Parse "100:400" into @g; -1 with @err when malformed, which quotes the
 * value whole (at most FAIR_WEIGHTS_MAX bytes, as the parameter takes) and
 * names the weight at fault.
 */
static int parse_weights(const char *text, struct fair_groups *g, struct error *err)
{
	char *copy = xstrdup(text), *rest = copy, *w;
	int ret = 0;

	g->n = 0;
	while ((w = strsep(&rest, ":"))) {
		long v;

		if (g->n == FAIR_MAX_GROUPS) {
			ret = error_set(err, EXIT_USAGE,
					"bad value for parameter 'weights': '%.*s' has more "
					"than %d weights (give 1 to %d whole numbers in 1..10000 "
					"separated by colons, such as -p weights=100:400)",
					FAIR_WEIGHTS_MAX, text, FAIR_MAX_GROUPS, FAIR_MAX_GROUPS);
			break;
		}
		if (parse_long(w, &v) || v < 1 || v > 10000) {
			ret = error_set(err, EXIT_USAGE,
					"bad value for parameter 'weights': '%.*s': weight "
					"%d, '%.*s', is not a whole number in 1..10000 (give 1 "
					"to %d such numbers separated by colons, such as -p "
					"weights=100:400)", FAIR_WEIGHTS_MAX, text, g->n + 1,
					FAIR_WEIGHTS_MAX, w, FAIR_MAX_GROUPS);
			break;
		}
		g->weights[g->n++] = v;
	}
	free(copy);
	return ret;
}

/* Nice levels: the heaviest group at 0, the others at their weight's nearest. */
static void choose_nice(struct fair_groups *g)
{
	long heaviest = 0;

	for (int i = 0; i < g->n; i++)
		if (g->weights[i] > heaviest)
			heaviest = g->weights[i];
	for (int i = 0; i < g->n; i++) {
		double want = 1024.0 * (double)g->weights[i] / (double)heaviest;
		int best = 0;

		for (int nice = 0; nice < 20; nice++)
			if (fabs(log(nice_weights[nice + 20] / want)) <
			    fabs(log(nice_weights[best + 20] / want)))
				best = nice;
		g->nice[i] = best;
	}
}

static long fair_tasks(const struct param_value *values)
{
	long n = values[FAIR_PARAM_TASKS].num;

	return n ? n : workload_cpus_allowed();
}

static int fair_check(const struct param_value *values,
		      struct workload_needs *needs, struct error *err)
{
	struct fair_groups g;

	if (parse_weights(param_text(&values[FAIR_PARAM_WEIGHTS]), &g, err))
		return -1;
	if (values[FAIR_PARAM_WARMUP].num >= values[FAIR_PARAM_RUNTIME].num)
		return error_set(err, EXIT_USAGE,
			"bad value for parameter 'warmup': warmup=%ld is not shorter than "
			"runtime=%ld, which includes it (give a shorter warmup or a longer "
			"runtime)", values[FAIR_PARAM_WARMUP].num, values[FAIR_PARAM_RUNTIME].num);
	/* The tasks, this process and the cgroup reaper's two. */
	needs->tasks = g.n * fair_tasks(values) + 3;
	needs->fds = 8;
	return 0;
}

static size_t fair_describe_metrics(const struct param_value *values,
				    struct metric_spec *metrics)
{
	struct fair_groups g;

	if (parse_weights(param_text(&values[FAIR_PARAM_WEIGHTS]), &g, NULL))
		return FAIR_SHARE_1;
	return FAIR_SHARE_1 + (size_t)g.n;
}

static uint64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int phase_of(const struct fair_run *run)
{
	return __atomic_load_n(&run->phase, __ATOMIC_RELAXED);
}

/*
 * Note a phase change the task sees: its CPU clock when measuring starts
 * and when it stops. Returns the phase.
 */
static int follow_phase(const struct fair_run *run, struct fair_task *t, int *seen)
{
	int phase = phase_of(run);

	if (phase == *seen)
		return phase;
	if (phase >= PHASE_MEASURE && *seen < PHASE_MEASURE)
		t->cpu_begin = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	if (phase == PHASE_STOP)
		t->cpu_end = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	*seen = phase;
	return phase;
}

static void note_wait(int phase, uint64_t wait, uint64_t *max)
{
	if (phase == PHASE_MEASURE && wait > *max)
		*max = wait;
}

static void busy_task(const struct fair_run *run, struct fair_task *t)
{
	int seen = PHASE_WARMUP, phase;
	uint64_t last = clock_ns(CLOCK_MONOTONIC), max = 0;

	while ((phase = follow_phase(run, t, &seen)) != PHASE_STOP) {
		uint64_t now = clock_ns(CLOCK_MONOTONIC);

		note_wait(phase, now - last, &max);
		last = now;
	}
	t->max_wait = max;
}

static void periodic_task(const struct fair_run *run, struct fair_task *t)
{
	int seen = PHASE_WARMUP, phase = PHASE_WARMUP;
	uint64_t next = run->start_ns, max = 0;

	while (phase != PHASE_STOP) {
		uint64_t cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		uint64_t last = clock_ns(CLOCK_MONOTONIC), now = last;
		struct timespec when;

		/* Work: this period's CPU time, however long it takes to get it. */
		while ((phase = follow_phase(run, t, &seen)) != PHASE_STOP &&
		       clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu < run->demand_ns) {
			now = clock_ns(CLOCK_MONOTONIC);
			note_wait(phase, now - last, &max);
			last = now;
		}
		next += run->period_ns;
		if (phase == PHASE_STOP || now >= next)
			continue;
		when = (struct timespec){ (time_t)(next / 1000000000u),
					  (long)(next % 1000000000u) };
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &when, NULL) == EINTR)
			;
		/* How late it runs after its wake-up is a wait too. */
		phase = follow_phase(run, t, &seen);
		note_wait(phase, clock_ns(CLOCK_MONOTONIC) - next, &max);
	}
	t->max_wait = max;
}

/* Say ready, wait for the go, run until stopped. */
static void __attribute__((noreturn))
task_main(struct fair_run *run, struct fair_task *t, struct task_gate *gate)
{
	task_gate_child(gate);
	task_gate_pass(gate);
	if (phase_of(run) != PHASE_STOP) {
		if (run->busy)
			busy_task(run, t);
		else
			periodic_task(run, t);
	}
	_exit(0);
}

/* The scratch cgroups of one iteration: a parent and one per group. */
struct fair_cgroups {
	struct cgroup parent;
	struct cgroup groups[FAIR_MAX_GROUPS];
	int made;			/* groups created */
	bool have_parent;
	int hold;			/* the reaper's fd, or -1 */
	long shares[FAIR_MAX_GROUPS];	/* the weight written, in the file's units */
};

static void remove_cgroups(struct fair_cgroups *c)
{
	for (int i = c->made - 1; i >= 0; i--)
		cgroup_remove(c->groups[i].dir, NULL);
	if (c->have_parent)
		cgroup_remove(c->parent.dir, NULL);
	if (c->hold >= 0)
		close(c->hold);
	c->made = 0;
	c->have_parent = false;
	c->hold = -1;
}

static int start_reaper(struct fair_cgroups *c, int n, struct error *err)
{
	char *dirs[FAIR_MAX_GROUPS + 1];

	for (int i = 0; i < n; i++)
		dirs[i] = c->groups[i].dir;
	dirs[n] = c->parent.dir;
	return cgroup_reaper_start(dirs, (size_t)n + 1, &c->hold, err);
}

/* Make the parent and the groups' cgroups, each with its weight. */
static int make_cgroups(struct fair_cgroups *c, const struct fair_groups *g,
			struct error *err)
{
	struct cgroup_place place;
	char name[128];

	c->made = 0;
	c->have_parent = false;
	c->hold = -1;
	if (cgroup_place_find("cpu", &place, err))
		return -1;
	cgroup_scratch_name(name, sizeof(name), "fairness");
	snprintf(c->parent.dir, sizeof(c->parent.dir), "%s/%s", place.dir, name);
	for (int i = 0; i < g->n; i++)
		snprintf(c->groups[i].dir, sizeof(c->groups[i].dir), "%s/g%d", c->parent.dir, i + 1);
	/* Before any of them exists, so that a kill at any point leaves none. */
	if (start_reaper(c, g->n, err))
		return -1;
	if (cgroup_create(&place, place.dir, name, false, &c->parent, err))
		goto fail;
	c->have_parent = true;
	for (int i = 0; i < g->n; i++) {
		char value[32];

		snprintf(name, sizeof(name), "g%d", i + 1);
		if (cgroup_create(&place, c->parent.dir, name, true, &c->groups[i], err))
			goto fail;
		c->made++;
		/* v1's cpu.shares is cpu.weight x 1024 / 100, at least 2, as the kernel converts. */
		c->shares[i] = place.version == CGROUP_V2 ? g->weights[i]
				: (g->weights[i] * 1024 / 100 > 2 ? g->weights[i] * 1024 / 100 : 2);
		snprintf(value, sizeof(value), "%ld", c->shares[i]);
		if (cgroup_set(&c->groups[i], place.version == CGROUP_V2 ? "cpu.weight"
					      : "cpu.shares", value, err))
			goto fail;
	}
	return 0;
fail:
	remove_cgroups(c);
	return -1;
}

/* Each group's expected fraction of the CPU time, from the weights in force. */
static void expected_shares(const struct fair_groups *g, const struct fair_cgroups *c,
			    bool cgroups, long tasks, double duty, double *out)
{
	double cpus = workload_cpus_allowed();
	size_t n = cgroups ? (size_t)g->n : (size_t)(g->n * tasks);
	double *w = xcalloc(n, sizeof(double)), *cap = xcalloc(n, sizeof(double));
	double *share = xcalloc(n, sizeof(double));

	for (size_t i = 0; i < n; i++) {
		int group = cgroups ? (int)i : (int)(i / (size_t)tasks);

		w[i] = cgroups ? (double)c->shares[group] : nice_weights[g->nice[group] + 20];
		cap[i] = cgroups ? fmin((double)tasks * duty, cpus) : duty;
	}
	fair_shares(w, cap, n, cpus, share);
	for (int i = 0; i < g->n; i++)
		out[i] = 0;
	for (size_t i = 0; i < n; i++)
		out[cgroups ? (int)i : (int)(i / (size_t)tasks)] += share[i];
	free(w);
	free(cap);
	free(share);
}

static void fill_metrics(const struct fair_run *run, const struct fair_groups *g,
			 const double *expected, double *metrics)
{
	double cpu[FAIR_MAX_GROUPS] = { 0 }, ratio[FAIR_MAX_GROUPS], total = 0, error = 0;
	uint64_t wait = 0;

	for (long i = 0; i < run->nr_tasks; i++) {
		const struct fair_task *t = &run->tasks[i];

		cpu[t->group] += (double)(t->cpu_end - t->cpu_begin);
		total += (double)(t->cpu_end - t->cpu_begin);
		if (t->max_wait > wait)
			wait = t->max_wait;
	}
	for (int i = 0; i < g->n; i++) {
		double share = total > 0 ? cpu[i] / total : NAN;

		metrics[FAIR_SHARE_1 + i] = 100 * share;
		ratio[i] = share / expected[i];
		if (fabs(ratio[i] - 1) > error)
			error = fabs(ratio[i] - 1);
	}
	metrics[FAIR_MAX_REL_ERROR] = total > 0 ? 100 * error : NAN;
	metrics[FAIR_JAIN] = total > 0 ? jain_index(ratio, (size_t)g->n) : NAN;
	metrics[FAIR_WORST_WAIT] = (double)wait / 1e6;
}

/*
 * Fork every task and put it in its group (a cgroup, or a nice level)
 * before it may start; returns how many were started, with @err filled
 * when not all.
 */
static long start_tasks(struct fair_run *run, const struct fair_groups *g,
			const struct fair_cgroups *c, bool cgroups, pid_t *pids,
			struct task_gate *gate, struct error *err)
{
	long started = 0;

	for (; started < run->nr_tasks; started++) {
		int group = run->tasks[started].group;
		pid_t pid = fork();

		if (pid < 0) {
			error_set(err, EXIT_ENV, "fairness: cannot start task %ld of %ld: %s "
				  "(raise the task limit, ulimit -u)", started + 1, run->nr_tasks,
				  strerror(errno));
			break;
		}
		if (pid == 0) {
			task_main(run, &run->tasks[started], gate);
		}
		pids[started] = pid;
		if (cgroups ? cgroup_attach(&c->groups[group], pid, err) != 0
			    : setpriority(PRIO_PROCESS, (id_t)pid, g->nice[group]) != 0) {
			if (!cgroups)
				error_set(err, EXIT_ENV, "fairness: cannot set nice %d: %s",
					  g->nice[group], strerror(errno));
			started++;
			break;
		}
	}
	return started;
}

/*
 * Let the tasks go (all of them, or none when @ok is false), pace the
 * phases, reap; the first task that ended abnormally counts in @failed,
 * its status in @first.
 */
static bool drive(struct fair_run *run, const struct param_value *values, pid_t *pids,
		  long started, bool ok, struct task_gate *gate, long *failed, int *first)
{
	long warmup = values[FAIR_PARAM_WARMUP].num, runtime = values[FAIR_PARAM_RUNTIME].num;
	bool ready = ok && task_gate_wait(gate, started);
	double start;

	run->start_ns = clock_ns(CLOCK_MONOTONIC);
	__atomic_store_n(&run->phase, !ready ? PHASE_STOP : warmup ? PHASE_WARMUP : PHASE_MEASURE,
			 __ATOMIC_RELAXED);
	start = time_now();
	task_gate_open(gate);
	if (ready) {
		time_sleep_until(start + (double)warmup);
		__atomic_store_n(&run->phase, PHASE_MEASURE, __ATOMIC_RELAXED);
		time_sleep_until(start + (double)runtime);
		__atomic_store_n(&run->phase, PHASE_STOP, __ATOMIC_RELAXED);
	}
	for (long i = 0; i < started; i++) {
		int status = 0;

		while (waitpid(pids[i], &status, 0) < 0 && errno == EINTR)
			;
		if (!task_end_clean(status) && !(*failed)++)
			*first = status;
	}
	return ready;
}

static int measure(struct fair_run *run, const struct param_value *values,
		   const struct fair_groups *g, const struct fair_cgroups *c, bool cgroups,
		   struct error *err)
{
	pid_t *pids = xcalloc((size_t)run->nr_tasks, sizeof(*pids));
	struct task_gate gate;
	long started, failed = 0;
	int first = 0;
	bool ok;

	if (task_gate_init(&gate, false, "fairness", err)) {
		free(pids);
		return -1;
	}
	memset(err, 0, sizeof(*err));
	started = start_tasks(run, g, c, cgroups, pids, &gate, err);
	task_gate_forked(&gate);
	ok = !err->code;
	if (!drive(run, values, pids, started, ok, &gate, &failed, &first) && ok && !failed)
		error_set(err, EXIT_ENV, "fairness: a task ended before the start (raise the "
			  "task or memory limits)");
	task_gate_destroy(&gate);
	free(pids);
	if (err->code)
		return -1;
	/* Killed from outside, its CPU time unknown: this iteration fails. */
	if (failed) {
		char more[64];

		snprintf(more, sizeof(more), "; %ld of %ld tasks failed", failed, run->nr_tasks);
		return task_end_fail(err, "fairness", "task", first, more);
	}
	return 0;
}

static int fair_run(const struct param_value *values, double *metrics, struct error *err)
{
	bool cgroups = values[FAIR_PARAM_MODE].num == FAIR_CGROUP;
	long tasks = fair_tasks(values);
	double duty = (double)values[FAIR_PARAM_DUTY_PCT].num / 100;
	double expected[FAIR_MAX_GROUPS];
	struct fair_cgroups c = { .hold = -1 };
	struct fair_groups g;
	struct fair_run *run;
	size_t bytes;
	int ret;

	if (parse_weights(param_text(&values[FAIR_PARAM_WEIGHTS]), &g, err))
		return -1;
	for (int i = 0; i < FAIR_SHARE_1 + g.n; i++)
		metrics[i] = NAN;
	choose_nice(&g);
	bytes = sizeof(*run) + (size_t)(g.n * tasks) * sizeof(struct fair_task);
	run = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (run == MAP_FAILED)
		return error_set(err, EXIT_ENV, "fairness: out of memory for %ld tasks",
				 g.n * tasks);
	run->nr_tasks = g.n * tasks;
	run->busy = values[FAIR_PARAM_DUTY_PCT].num == 100;
	run->period_ns = (uint64_t)values[FAIR_PARAM_PERIOD_US].num * 1000;
	run->demand_ns = run->period_ns * (uint64_t)values[FAIR_PARAM_DUTY_PCT].num / 100;
	for (long i = 0; i < run->nr_tasks; i++)
		run->tasks[i].group = (int)(i / tasks);
	if (cgroups && make_cgroups(&c, &g, err)) {
		munmap(run, bytes);
		return -1;
	}
	ret = measure(run, values, &g, &c, cgroups, err);
	if (!ret) {
		expected_shares(&g, &c, cgroups, tasks, duty, expected);
		fill_metrics(run, &g, expected, metrics);
	}
	remove_cgroups(&c);
	munmap(run, bytes);
	return ret;
}

const struct workload workload_fairness = {
	.name = "fairness",
	.summary = "groups of busy or periodic tasks with weights (cgroups or nice): "
		   "each group's CPU share against its weight, the longest wait",
	.params = fair_params,
	.nr_params = NR_FAIR_PARAMS,
	.metrics = fair_metrics,
	.nr_metrics = NR_FAIR_METRICS,
	.check = fair_check,
	.describe_metrics = fair_describe_metrics,
	.run = fair_run,
};
