// SPDX-License-Identifier: GPL-2.0
/*
 * pipe: our implementation of `perf bench sched pipe` (Ingo Molnar's
 * pipe-test-1m).
 *
 * It measures the cost of one synchronous wakeup round trip: two tasks
 * ping-pong a 4-byte int over two pipes, one side read then write, the
 * other write then read, `loops` times. Nearly all the time goes into
 * sleeping, waking the other side and switching to it, so it tracks the
 * scheduler's wakeup and context-switch path (and, with cpus=cross, the
 * cross-CPU wakeup IPI and idle exit).
 *
 * What follows perf (tools/perf/bench/sched-pipe.c), so that the numbers
 * compare with it on one machine: the clock starts before the tasks are
 * created and stops once both are reaped or joined; in process mode one
 * child is forked and the calling process is the other side; in thread
 * mode two threads with default attributes are created and joined.
 * Where we differ: in process mode each side closes the pipe ends it does
 * not use, so that a dead peer shows as EOF instead of a hang (two close()
 * calls inside the timed section); EINTR is retried; cpus=same|cross pins
 * the tasks (perf has no such option; newer perf uses cgroups instead).
 *
 * Measured against perf on this project's 2-CPU virtual machines
 * (bench/fidelity.sh, interleaved pairs): with both tasks on one CPU the
 * round trip costs what perf's does, 0.985 [0.951, 1.026] at 6 us; across
 * two CPUs it is the wake-up latency of an idle virtual CPU, which moved
 * from 7 to 130 us between runs of either tool in one hour, so medians of
 * 10-20 pairs fell between 0.98 and 1.10 with intervals of +-10-14 %. A
 * CPU profile (--monitors profile) then spends 84 % of the samples in
 * _raw_spin_unlock_irqrestore, against 18 % on one CPU, and its sampling
 * interrupts, by keeping the CPUs from idling, halve the time.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/array.h"
#include "util/timeutil.h"
#include "workload/task_end.h"
#include "workload/workload.h"

enum {
	PIPE_PARAM_LOOPS,
	PIPE_PARAM_MODE,
	PIPE_PARAM_CPUS,
	NR_PIPE_PARAMS,
};

enum pipe_mode { PIPE_MODE_PROCESS, PIPE_MODE_THREAD };
enum pipe_cpus { PIPE_CPUS_ANY, PIPE_CPUS_SAME, PIPE_CPUS_CROSS };

static const char *const mode_choices[] = { "process", "thread", NULL };
static const char *const cpus_choices[] = { "any", "same", "cross", NULL };

static const struct param_spec pipe_params[NR_PIPE_PARAMS] = {
	[PIPE_PARAM_LOOPS] = { "loops", PARAM_INT, "1000000", 1, 1000000000, NULL,
		"round trips (perf -l)" },
	[PIPE_PARAM_MODE] = { "mode", PARAM_CHOICE, "process", 0, 0, mode_choices,
		"the two tasks are processes or threads (perf -T)" },
	[PIPE_PARAM_CPUS] = { "cpus", PARAM_CHOICE, "any", 0, 0, cpus_choices,
		"any: not pinned; same: both on the first allowed CPU; "
		"cross: on the first two allowed CPUs" },
};

static const struct metric_spec pipe_metrics[] = {
	{ "usec_per_op", "usec", BETTER_LOWER, "microseconds per round trip" },
	{ "ops_per_sec", "ops/s", BETTER_HIGHER, "round trips per second" },
};

/* One side of the ping-pong. */
struct pipe_side {
	bool writes_first;
	int read_fd;
	int write_fd;
	long loops;
	int cpu;			/* pinned to this CPU, or -1 */
	pthread_t thread;
};

static int pipe_check(const struct param_value *values,
		      struct workload_needs *needs, struct error *err)
{
	needs->tasks = 2;
	needs->fds = 4;
	/* A job's check runs elsewhere: its worker may have the CPUs (cpulist.h). */
	if (values[PIPE_PARAM_CPUS].num == PIPE_CPUS_CROSS && !workload_checking_for_job() &&
	    workload_cpus_allowed() < 2)
		return error_set(err, EXIT_USAGE,
			"bad value for parameter 'cpus': 'cross' needs two CPUs but its tasks "
			"may run on only one (use cpus=same or cpus=any, or widen "
			"the CPU affinity, --cpus or an ab side's cpus:)");
	return 0;
}

/*
 * The CPUs the two sides run on: the first one or two this process may
 * use, or -1 for not pinned.
 */
static int pick_cpus(enum pipe_cpus cpus, int cpu[2], struct error *err)
{
	cpu_set_t allowed;
	int found = 0;

	cpu[0] = cpu[1] = -1;
	if (cpus == PIPE_CPUS_ANY)
		return 0;
	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return error_set(err, EXIT_ENV, "pipe: cannot read the CPU affinity: %s",
				 strerror(errno));
	for (int i = 0; i < CPU_SETSIZE && found < 2; i++)
		if (CPU_ISSET(i, &allowed))
			cpu[found++] = i;
	if (cpus == PIPE_CPUS_SAME) {
		cpu[1] = cpu[0];
		return 0;
	}
	if (found < 2)
		return error_set(err, EXIT_USAGE,
			"bad value for parameter 'cpus': 'cross' needs two CPUs but its tasks "
			"may run on only one (use cpus=same or cpus=any, or widen "
			"the CPU affinity)");
	return 0;
}

static int pin_self(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static int transfer(int fd, int *value, bool is_write)
{
	ssize_t ret;

	do
		ret = is_write ? write(fd, value, sizeof(*value))
			       : read(fd, value, sizeof(*value));
	while (ret < 0 && errno == EINTR);
	/* Pipe writes this small are atomic: anything else is a broken peer. */
	return ret == sizeof(*value) ? 0 : -1;
}

static int ping_pong(const struct pipe_side *side)
{
	int value = 0;

	for (long i = 0; i < side->loops; i++) {
		if (side->writes_first) {
			if (transfer(side->write_fd, &value, true) ||
			    transfer(side->read_fd, &value, false))
				return -1;
		} else {
			if (transfer(side->read_fd, &value, false) ||
			    transfer(side->write_fd, &value, true))
				return -1;
		}
	}
	return 0;
}

static void *side_thread(void *arg)
{
	static char failed;

	return ping_pong(arg) ? &failed : NULL;
}

static int run_threads(struct pipe_side side[2], struct error *err)
{
	int created = 0, ret = 0, failed = 0;

	for (; created < 2; created++) {
		pthread_attr_t attr;
		cpu_set_t set;

		/* Pinned from birth, so that no migration lands on the clock. */
		pthread_attr_init(&attr);
		if (side[created].cpu >= 0) {
			CPU_ZERO(&set);
			CPU_SET(side[created].cpu, &set);
			pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		}
		ret = pthread_create(&side[created].thread, &attr, side_thread, &side[created]);
		pthread_attr_destroy(&attr);
		if (ret)
			break;
	}
	if (ret && created == 1) {
		/* The lone thread waits for a peer that will never come: cancel it. */
		pthread_cancel(side[0].thread);
	}
	for (int i = 0; i < created; i++) {
		void *result = NULL;

		if (pthread_join(side[i].thread, &result) || (result && result != PTHREAD_CANCELED))
			failed++;
	}
	if (ret)
		return error_set(err, EXIT_ENV,
			"pipe: cannot create thread %d of 2: %s "
			"(raise the task limit, ulimit -u)", created + 1, strerror(ret));
	if (failed)
		return error_set(err, EXIT_INTERNAL,
			"pipe: %d of 2 threads failed a pipe read or write", failed);
	return 0;
}

/* The child is side 0; the calling process is side 1, as in perf. */
static int run_processes(struct pipe_side side[2], struct error *err)
{
	int status = 0, failed;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return error_set(err, EXIT_ENV,
			"pipe: cannot fork: %s (raise the process limit, ulimit -u)",
			strerror(errno));
	if (pid == 0) {
		close(side[1].read_fd);
		close(side[1].write_fd);
		if (pin_self(side[0].cpu))
			_exit(2);
		_exit(ping_pong(&side[0]) ? 1 : 0);
	}
	close(side[0].read_fd);
	close(side[0].write_fd);
	side[0].read_fd = side[0].write_fd = -1;
	failed = ping_pong(&side[1]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			break;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 2)
		return error_set(err, EXIT_ENV, "pipe: cannot pin a task to CPU %d (give CPUs "
				 "this process may use)", side[0].cpu);
	/* The parent's failure, if any, is the echo of its partner's end. */
	if (!task_end_clean(status))
		return task_end_fail(err, "pipe", "partner task", status, NULL);
	if (failed)
		return error_set(err, EXIT_INTERNAL, "pipe: a pipe read or write failed while "
				 "the partner task lived on");
	return 0;
}

static void close_sides(struct pipe_side side[2])
{
	for (int i = 0; i < 2; i++) {
		if (side[i].read_fd >= 0)
			close(side[i].read_fd);
		if (side[i].write_fd >= 0)
			close(side[i].write_fd);
	}
}

/*
 * In process mode the calling process is one side: pin it for the run
 * and give its CPU affinity back afterwards.
 */
static int pipe_run_pinned(struct pipe_side side[2], bool threaded, struct error *err)
{
	cpu_set_t saved;
	int ret;

	if (threaded || side[1].cpu < 0)
		return threaded ? run_threads(side, err) : run_processes(side, err);
	if (sched_getaffinity(0, sizeof(saved), &saved) || pin_self(side[1].cpu))
		return error_set(err, EXIT_ENV, "pipe: cannot pin to CPU %d: %s",
				 side[1].cpu, strerror(errno));
	ret = run_processes(side, err);
	if (sched_setaffinity(0, sizeof(saved), &saved) && !ret)
		return error_set(err, EXIT_INTERNAL,
				 "pipe: cannot restore the CPU affinity: %s", strerror(errno));
	return ret;
}

static int pipe_run(const struct param_value *values, double *metrics,
		    struct error *err)
{
	bool threaded = values[PIPE_PARAM_MODE].num == PIPE_MODE_THREAD;
	long loops = values[PIPE_PARAM_LOOPS].num;
	struct sigaction ignore = { .sa_handler = SIG_IGN }, saved_sigpipe;
	struct pipe_side side[2];
	int pipe_1[2], pipe_2[2], cpu[2];
	double start, elapsed;
	int ret;

	if (pick_cpus((enum pipe_cpus)values[PIPE_PARAM_CPUS].num, cpu, err))
		return -1;
	if (pipe(pipe_1))
		goto no_pipe;
	if (pipe(pipe_2)) {
		int saved_errno = errno;

		close(pipe_1[0]);
		close(pipe_1[1]);
		errno = saved_errno;
		goto no_pipe;
	}
	/* Side 0 reads first, side 1 writes first: perf's worker 0 and 1. */
	side[0] = (struct pipe_side){ false, pipe_1[0], pipe_2[1], loops, cpu[0], 0 };
	side[1] = (struct pipe_side){ true, pipe_2[0], pipe_1[1], loops, cpu[1], 0 };

	/*
	 * With unused ends closed, a dead child turns the parent's next write
	 * into SIGPIPE: make it an error return instead of killing the caller.
	 */
	sigaction(SIGPIPE, &ignore, &saved_sigpipe);
	start = time_now();
	ret = pipe_run_pinned(side, threaded, err);
	elapsed = time_now() - start;
	sigaction(SIGPIPE, &saved_sigpipe, NULL);
	close_sides(side);
	if (ret)
		return ret;
	metrics[0] = elapsed * 1e6 / (double)loops;
	metrics[1] = (double)loops / elapsed;
	return 0;

no_pipe:
	return error_set(err, EXIT_ENV, "pipe: cannot create a pipe: %s "
			 "(raise the open-file limit, ulimit -n)", strerror(errno));
}

const struct workload workload_pipe = {
	.name = "pipe",
	.summary = "two tasks ping-pong a 4-byte int over two pipes "
		   "(perf bench sched pipe)",
	.params = pipe_params,
	.nr_params = NR_PIPE_PARAMS,
	.metrics = pipe_metrics,
	.nr_metrics = ARRAY_SIZE(pipe_metrics),
	.check = pipe_check,
	.run = pipe_run,
};
