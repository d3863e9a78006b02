// SPDX-License-Identifier: GPL-2.0
/*
 * forkspread: where the scheduler puts tasks that are created in a tight
 * loop and block at once: the fork-then-wait-then-wake pattern behind the
 * regressions of sched/fair's update_pick_idlest() change, for which no
 * stock benchmark exists.
 *
 * The parent creates `tasks` threads or processes back to back. Each one,
 * when it first runs, notes its CPU (sched_getcpu) and the time, tells the
 * parent it exists and blocks on a futex. When all exist, the parent takes
 * the time and wakes them all with one FUTEX_WAKE of INT_MAX; each notes
 * the CPU it runs on after the wake and when it started running, burns
 * `burn_us` of CPU time in a loop and notes when it finished.
 *
 * Metrics: microseconds from the wake to the last task running and to the
 * last task finished (lower: the wakeups were spread over idle CPUs);
 * distinct CPUs at first run and after the wake (higher, at most the CPUs
 * allowed); the most new tasks that first ran on one CPU (lower: the
 * "all wakeup_new on CPU 7" symptom of the seed).
 * Processes share one anonymous MAP_SHARED page range and use shared
 * futex operations; threads use private ones. Thread stacks are 256 KiB
 * so that thousands of tasks fit a small machine.
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/timeutil.h"
#include "workload/task_end.h"
#include "workload/workload.h"

enum {
	FS_PARAM_TASKS,
	FS_PARAM_MODE,
	FS_PARAM_BURN,
	NR_FS_PARAMS,
};

enum fs_mode { FS_MODE_THREAD, FS_MODE_PROCESS };

enum {
	FS_WAKE_TO_RUNNING,
	FS_WAKE_TO_DONE,
	FS_CPUS_FIRST_RUN,
	FS_CPUS_AFTER_WAKE,
	FS_MAX_FIRST_RUN_PER_CPU,
	NR_FS_METRICS,
};

#define FS_THREAD_STACK	(256 * 1024)

static const char *const mode_choices[] = { "thread", "process", NULL };

static const struct param_spec fs_params[NR_FS_PARAMS] = {
	[FS_PARAM_TASKS] = { "tasks", PARAM_INT, "0", 0, 32768, NULL,
		"tasks to create (0: twice the CPUs allowed)" },
	[FS_PARAM_MODE] = { "mode", PARAM_CHOICE, "thread", 0, 0, mode_choices,
		"the tasks are threads or processes" },
	[FS_PARAM_BURN] = { "burn_us", PARAM_INT, "50", 0, 1000000, NULL,
		"microseconds of CPU each task burns after the wake" },
};

static const struct metric_spec fs_metrics[NR_FS_METRICS] = {
	[FS_WAKE_TO_RUNNING] = { "wake_to_all_running_us", "usec", BETTER_LOWER,
		"from the wake to the last task running" },
	[FS_WAKE_TO_DONE] = { "wake_to_all_done_us", "usec", BETTER_LOWER,
		"from the wake to the last task done with its burn" },
	[FS_CPUS_FIRST_RUN] = { "cpus_first_run", "cpus", BETTER_HIGHER,
		"distinct CPUs the new tasks first ran on" },
	[FS_CPUS_AFTER_WAKE] = { "cpus_after_wake", "cpus", BETTER_HIGHER,
		"distinct CPUs the tasks ran on after the wake" },
	[FS_MAX_FIRST_RUN_PER_CPU] = { "max_first_run_per_cpu", "tasks", BETTER_LOWER,
		"most new tasks that first ran on one CPU" },
};

/* What one task notes; written by the task, read after it is reaped. */
struct fs_record {
	int first_cpu;
	int wake_cpu;
	uint64_t first_ns;
	uint64_t running_ns;
	uint64_t done_ns;
};

/* Shared by the parent and every task (one MAP_SHARED mapping). */
struct fs_shared {
	int go;			/* 0 while the tasks must wait; the wake futex */
	int abort;		/* set with go when creation failed: do nothing */
	int ready;		/* tasks that have first run; the parent's futex */
	int nr_tasks;
	int futex_private;	/* FUTEX_PRIVATE_FLAG for threads, 0 for processes */
	long burn_ns;
	uint64_t wake_ns;
	struct fs_record records[];
};

struct fs_task {
	struct fs_shared *shared;
	int index;
};

static long futex_op(int *uaddr, int op, int val)
{
	return syscall(SYS_futex, uaddr, op, val, NULL, NULL, 0);
}

static int fs_tasks(const struct param_value *values)
{
	long tasks = values[FS_PARAM_TASKS].num;

	return tasks ? (int)tasks : 2 * workload_cpus_allowed();
}

static int fs_check(const struct param_value *values,
		    struct workload_needs *needs, struct error *err)
{
	needs->tasks = fs_tasks(values) + 1L;
	needs->fds = 0;
	return 0;
}

static void burn(long ns)
{
	uint64_t end = time_now_ns() + (uint64_t)ns;

	while (time_now_ns() < end)
		;
}

static void task_body(struct fs_shared *shared, int index)
{
	struct fs_record *r = &shared->records[index];
	int pflag = shared->futex_private;

	r->first_cpu = sched_getcpu();
	r->first_ns = time_now_ns();
	if (__atomic_add_fetch(&shared->ready, 1, __ATOMIC_SEQ_CST) == shared->nr_tasks)
		futex_op(&shared->ready, FUTEX_WAKE | pflag, 1);
	while (!__atomic_load_n(&shared->go, __ATOMIC_ACQUIRE))
		futex_op(&shared->go, FUTEX_WAIT | pflag, 0);
	if (__atomic_load_n(&shared->abort, __ATOMIC_ACQUIRE))
		return;
	r->running_ns = time_now_ns();
	r->wake_cpu = sched_getcpu();
	burn(shared->burn_ns);
	r->done_ns = time_now_ns();
}

static void *task_thread(void *arg)
{
	struct fs_task *task = arg;

	task_body(task->shared, task->index);
	return NULL;
}

/* Wait until every created task has noted its first run. */
static void wait_ready(struct fs_shared *shared)
{
	int ready;

	while ((ready = __atomic_load_n(&shared->ready, __ATOMIC_ACQUIRE)) < shared->nr_tasks)
		futex_op(&shared->ready, FUTEX_WAIT | shared->futex_private, ready);
}

static void wake_all(struct fs_shared *shared, int abort)
{
	__atomic_store_n(&shared->abort, abort, __ATOMIC_RELEASE);
	shared->wake_ns = time_now_ns();
	__atomic_store_n(&shared->go, 1, __ATOMIC_RELEASE);
	futex_op(&shared->go, FUTEX_WAKE | shared->futex_private, INT_MAX);
}

static int create_error(struct error *err, const char *what, int created,
			int total, int why)
{
	return error_set(err, EXIT_ENV,
		"forkspread: cannot create %s %d of %d: %s (raise the task limit, "
		"ulimit -u, or kernel.threads-max)", what, created + 1, total, strerror(why));
}

static int run_threads(struct fs_shared *shared, struct error *err)
{
	int n = shared->nr_tasks, created = 0, ret = 0;
	struct fs_task *tasks = calloc((size_t)n, sizeof(*tasks));
	pthread_t *threads = calloc((size_t)n, sizeof(*threads));
	pthread_attr_t attr;

	if (!tasks || !threads) {
		free(tasks);
		free(threads);
		return error_set(err, EXIT_ENV, "forkspread: out of memory for %d tasks", n);
	}
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, FS_THREAD_STACK);
	for (; created < n; created++) {
		tasks[created] = (struct fs_task){ shared, created };
		ret = pthread_create(&threads[created], &attr, task_thread, &tasks[created]);
		if (ret)
			break;
	}
	pthread_attr_destroy(&attr);
	if (!ret)
		wait_ready(shared);
	wake_all(shared, ret != 0);
	for (int i = 0; i < created; i++)
		pthread_join(threads[i], NULL);
	free(tasks);
	free(threads);
	return ret ? create_error(err, "thread", created, n, ret) : 0;
}

static int run_processes(struct fs_shared *shared, struct error *err)
{
	int n = shared->nr_tasks, created = 0, why = 0, failed = 0, first = 0;
	pid_t *pids = calloc((size_t)n, sizeof(*pids));

	if (!pids)
		return error_set(err, EXIT_ENV, "forkspread: out of memory for %d tasks", n);
	for (; created < n; created++) {
		pids[created] = fork();
		if (pids[created] < 0) {
			why = errno;
			break;
		}
		if (pids[created] == 0) {
			task_body(shared, created);
			_exit(0);
		}
	}
	if (!why)
		wait_ready(shared);
	wake_all(shared, why != 0);
	for (int i = 0; i < created; i++) {
		int status = 0;

		while (waitpid(pids[i], &status, 0) < 0 && errno == EINTR)
			;
		if (!task_end_clean(status) && !failed++)
			first = status;
	}
	free(pids);
	if (why)
		return create_error(err, "process", created, n, why);
	if (failed) {
		char more[48];

		/* Killed from outside: this iteration fails, the run goes on. */
		snprintf(more, sizeof(more), "; %d of %d tasks failed", failed, n);
		return task_end_fail(err, "forkspread", "task", first, more);
	}
	return 0;
}

/* Distinct CPUs in @cpu_of(records), and the most records on one CPU. */
static void count_cpus(const struct fs_shared *shared, int after_wake,
		       int *distinct, int *most)
{
	static int per_cpu[CPU_SETSIZE];

	memset(per_cpu, 0, sizeof(per_cpu));
	*distinct = *most = 0;
	for (int i = 0; i < shared->nr_tasks; i++) {
		const struct fs_record *r = &shared->records[i];
		int cpu = after_wake ? r->wake_cpu : r->first_cpu;

		if (cpu < 0 || cpu >= CPU_SETSIZE)
			continue;
		if (!per_cpu[cpu]++)
			(*distinct)++;
		if (per_cpu[cpu] > *most)
			*most = per_cpu[cpu];
	}
}

static void fill_metrics(const struct fs_shared *shared, double *metrics)
{
	uint64_t last_running = shared->wake_ns, last_done = shared->wake_ns;
	int distinct, most;

	for (int i = 0; i < shared->nr_tasks; i++) {
		if (shared->records[i].running_ns > last_running)
			last_running = shared->records[i].running_ns;
		if (shared->records[i].done_ns > last_done)
			last_done = shared->records[i].done_ns;
	}
	metrics[FS_WAKE_TO_RUNNING] = (double)(last_running - shared->wake_ns) / 1e3;
	metrics[FS_WAKE_TO_DONE] = (double)(last_done - shared->wake_ns) / 1e3;
	count_cpus(shared, 0, &distinct, &most);
	metrics[FS_CPUS_FIRST_RUN] = distinct;
	metrics[FS_MAX_FIRST_RUN_PER_CPU] = most;
	count_cpus(shared, 1, &distinct, &most);
	metrics[FS_CPUS_AFTER_WAKE] = distinct;
}

static int fs_run(const struct param_value *values, double *metrics,
		  struct error *err)
{
	int n = fs_tasks(values), ret;
	int threaded = values[FS_PARAM_MODE].num == FS_MODE_THREAD;
	size_t size = sizeof(struct fs_shared) + (size_t)n * sizeof(struct fs_record);
	struct fs_shared *shared;

	shared = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		return error_set(err, EXIT_ENV, "forkspread: cannot map %zu bytes: %s",
				 size, strerror(errno));
	shared->nr_tasks = n;
	shared->burn_ns = values[FS_PARAM_BURN].num * 1000L;
	shared->futex_private = threaded ? FUTEX_PRIVATE_FLAG : 0;
	for (int i = 0; i < n; i++)
		shared->records[i].first_cpu = shared->records[i].wake_cpu = -1;
	ret = threaded ? run_threads(shared, err) : run_processes(shared, err);
	if (!ret)
		fill_metrics(shared, metrics);
	munmap(shared, size);
	return ret;
}

const struct workload workload_forkspread = {
	.name = "forkspread",
	.summary = "create tasks that block at once, wake all: where do they run",
	.params = fs_params,
	.nr_params = NR_FS_PARAMS,
	.metrics = fs_metrics,
	.nr_metrics = NR_FS_METRICS,
	.check = fs_check,
	.run = fs_run,
};
