// SPDX-License-Identifier: GPL-2.0
/*
 * messaging: our implementation of `perf bench sched messaging` (hackbench).
 *
 * It measures how fast the scheduler moves many short-lived wakeups between
 * tasks that talk over sockets or pipes. Each of `groups` groups has `fds`
 * receivers and `fds` senders; every sender writes `loops` messages of
 * `datasize` bytes to every receiver of its group, so each receiver reads
 * fds * loops messages. Reads and writes loop over short transfers.
 *
 * What follows perf (tools/perf/bench/sched-messaging.c), so that the
 * numbers compare with it on one machine:
 *  - one AF_UNIX SOCK_STREAM socketpair (or pipe) per receiver, created
 *    group by group; receivers are started before the senders of a group;
 *  - tasks are fork()ed processes or threads with stacks of PTHREAD_STACK_MIN (below);
 *  - in process mode the parent closes each receiver's read end after
 *    starting it and the write ends after starting the senders, and a
 *    receiver closes its own write end; nothing else is closed;
 *  - the barrier: every task writes one byte to a "ready" channel, then
 *    polls a "wake" fd; the parent reads all ready bytes, starts the clock
 *    and writes one byte to wake (never consumed, so all see POLLIN);
 *  - the clock stops once every task is reaped or joined.
 * Where we differ: each receiver's buffer is allocated before the barrier
 * (cache-line aligned, touched by its task before signalling ready) and
 * senders write from one shared read-only buffer, where perf uses stack
 * buffers; the clock is CLOCK_MONOTONIC; EINTR is retried; a failure during
 * setup stops and reaps every task already started instead of exiting; and
 * workers end with _exit(), not exit(). The last one matters for process
 * mode: the reference tools' children run exit() and so the atexit
 * handlers and the destructors of every library their binary links,
 * page-faulting copy-on-write pages inside the timed section. Counted with
 * perf record -e page-faults over -g 10 -l 100 (400 workers): hackbench's
 * exit path takes 11 faults per worker (_dl_fini, __do_global_dtors_aux,
 * _IO_cleanup, __run_exit_handlers, __unregister_atfork, and the free() of
 * each receiver's context: 4,400 in all), perf's several times more
 * (_dl_fini alone 3,907, then the destructors of libstdc++, babeltrace and
 * the rest, bound lazily on the way); ours none. That overhead belongs to
 * the tools' binaries, not to the scheduler, so we do not reproduce it.
 * What a worker's exit does cost is the teardown of its mappings: a
 * worker of schedperf with libpq linked had 177 and took 100 us longer to
 * exit than hackbench's, with 29; without it (doc/design.md, "Lean
 * workers") ours have 62 and -g 10 -l 1, almost only exits, takes what
 * hackbench's does (0.046-0.057 s against 0.044-0.054 s). In thread mode
 * no process exits and the work is the same: strace -c -f of -g 10 -l 100
 * -p -t counts, on both sides,
 * 400,405 writes, about 400,440 reads (ours' extra are the runner's), 400
 * polls, 400 clone3, 431-433 mprotect and no madvise (the stack size,
 * below), and the CPU time of -g 10 -l 300 -p -t was 3.87-3.97 s for ours
 * and 3.90-3.93 s for perf (three runs each, pinned to the same 2 CPUs).
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/array.h"
#include "util/io.h"
#include "util/timeutil.h"
#include "util/xalloc.h"
#include "workload/task_end.h"
#include "workload/workload.h"

enum {
	MSG_PARAM_GROUPS,
	MSG_PARAM_FDS,
	MSG_PARAM_LOOPS,
	MSG_PARAM_DATASIZE,
	MSG_PARAM_IPC,
	MSG_PARAM_MODE,
	NR_MSG_PARAMS,
};

enum msg_ipc { MSG_IPC_SOCKET, MSG_IPC_PIPE };
enum msg_mode { MSG_MODE_PROCESS, MSG_MODE_THREAD };

static const char *const ipc_choices[] = { "socket", "pipe", NULL };
static const char *const mode_choices[] = { "process", "thread", NULL };

static const struct param_spec messaging_params[NR_MSG_PARAMS] = {
	[MSG_PARAM_GROUPS] = { "groups", PARAM_INT, "10", 1, 10000, NULL,
		"groups of senders and receivers (perf -g)" },
	[MSG_PARAM_FDS] = { "fds", PARAM_INT, "20", 1, 1000, NULL,
		"senders and receivers per group" },
	[MSG_PARAM_LOOPS] = { "loops", PARAM_INT, "100", 1, 10000000, NULL,
		"messages each sender writes to each receiver (perf -l)" },
	[MSG_PARAM_DATASIZE] = { "datasize", PARAM_INT, "100", 1, 65536, NULL,
		"bytes per message" },
	[MSG_PARAM_IPC] = { "ipc", PARAM_CHOICE, "socket", 0, 0, ipc_choices,
		"AF_UNIX socketpair or pipe (perf -p)" },
	[MSG_PARAM_MODE] = { "mode", PARAM_CHOICE, "process", 0, 0, mode_choices,
		"tasks are processes or threads (perf -t)" },
};

static const struct metric_spec messaging_metrics[] = {
	{ "seconds", "s", BETTER_LOWER,
	  "time from waking all tasks until all are reaped" },
};

/*
 * Thread stacks are PTHREAD_STACK_MIN, as perf's and hackbench's, and not
 * only so that thousands fit: glibc gives back the unused part of a larger
 * stack with madvise(MADV_DONTNEED) when its thread exits, inside the timed
 * section, and each such call flushes the TLBs of the CPUs that run the
 * other threads. With 64 KiB stacks that was 400 madvise() calls per
 * default run, and the thread mode measured about 15 % more than perf's.
 * Sanitizer builds need more room than that (their frames carry redzones).
 */
#if defined(__SANITIZE_ADDRESS__)
#define WORKER_STACK_SIZE	(64 * 1024)
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WORKER_STACK_SIZE	(64 * 1024)
#endif
#endif
#ifndef WORKER_STACK_SIZE
#define WORKER_STACK_SIZE	PTHREAD_STACK_MIN
#endif
/* Receiver buffers are padded to a cache line so that threads never share one. */
#define CACHE_LINE		64

/* One iteration's shared state. */
/* A worker process's pid and its index in start order. */
struct worker_pid {
	pid_t pid;
	size_t index;
};

struct messaging {
	bool use_pipes;
	bool thread_mode;
	unsigned int nr_groups;
	unsigned int nr_fds;
	unsigned long nr_loops;
	size_t datasize;
	int ready[2];			/* workers write, the parent reads */
	int wake[2];			/* the parent writes, workers poll */
	atomic_bool abort;		/* setup failed: workers return at once */
	char *message;			/* what senders write; contents do not matter */
	pthread_attr_t attr;
	size_t nr_started;		/* workers running, in start order */
	size_t nr_ready;		/* ready bytes the parent has read */
	pid_t *pids;
	pthread_t *threads;
	struct receiver **receivers;	/* nr_groups * nr_fds, NULL until created */
	struct sender **senders;	/* nr_groups, NULL until created */
	struct worker_pid *by_pid;	/* process mode: pids sorted, once all started */
	size_t cause;			/* the worker whose end failed the iteration */
	int cause_status;		/* its wait status */
};

/* One receiver: reads fds * loops messages from its own channel. */
struct receiver {
	struct messaging *msg;
	int in_fd;
	int out_fd;			/* the senders' end; -1 once closed here */
	char buf[];
};

/* Shared by all senders of a group, as in perf: the write ends of its receivers. */
struct sender {
	struct messaging *msg;
	int out_fds[];
};

/* Returned by a thread that failed; processes exit with status 1 instead. */
static char worker_failed;

static int messaging_check(const struct param_value *values,
			   struct workload_needs *needs, struct error *err)
{
	long groups = values[MSG_PARAM_GROUPS].num;
	long fds = values[MSG_PARAM_FDS].num;

	needs->tasks = groups * fds * 2;
	/*
	 * fds this iteration opens in the calling process, on top of what is
	 * already open there: the two barrier channels, then either every
	 * channel at once (threads share one table), or one group's write ends
	 * plus the pair being created (the parent closes them group by group).
	 */
	if (values[MSG_PARAM_MODE].num == MSG_MODE_THREAD)
		needs->fds = 4 + groups * fds * 2;
	else
		needs->fds = 4 + fds + 1;
	return 0;
}

static int fd_pair(bool use_pipes, int fds[2])
{
	if (use_pipes)
		return pipe(fds);
	return socketpair(AF_UNIX, SOCK_STREAM, 0, fds);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/*
 * Tell the parent we are ready, then block until it wakes everyone. A
 * process closes its end of the ready channel then, as the parent does
 * once all are started: a task that dies before it is ready (killed) ends
 * the channel early instead of leaving the parent waiting for ever.
 */
static int ready(struct messaging *msg)
{
	struct pollfd pfd = { .fd = msg->wake[0], .events = POLLIN };
	char byte = 0;
	int ret;

	if (write_full(msg->ready[1], &byte, 1))
		return -1;
	if (!msg->thread_mode)
		close_fd(&msg->ready[1]);
	do
		ret = poll(&pfd, 1, -1);
	while (ret < 0 && errno == EINTR);
	return ret == 1 ? 0 : -1;
}

static int receive_all(struct receiver *r)
{
	struct messaging *msg = r->msg;
	unsigned long packets = msg->nr_fds * msg->nr_loops;

	if (!msg->thread_mode)
		close(r->out_fd);
	/* Fault the buffer in now, as perf's stack buffer is, not on the clock. */
	memset(r->buf, 0, msg->datasize);
	if (ready(msg))
		return -1;
	if (atomic_load(&msg->abort))
		return 0;
	for (unsigned long i = 0; i < packets; i++)
		if (read_full(r->in_fd, r->buf, msg->datasize))
			return -1;
	return 0;
}

static int send_all(struct sender *s)
{
	struct messaging *msg = s->msg;

	if (ready(msg))
		return -1;
	if (atomic_load(&msg->abort))
		return 0;
	for (unsigned long i = 0; i < msg->nr_loops; i++)
		for (unsigned int j = 0; j < msg->nr_fds; j++)
			if (write_full(s->out_fds[j], msg->message, msg->datasize))
				return -1;
	return 0;
}

static void *receiver_thread(void *arg)
{
	return receive_all(arg) ? &worker_failed : NULL;
}

static void *sender_thread(void *arg)
{
	return send_all(arg) ? &worker_failed : NULL;
}

static int start_worker(struct messaging *msg, void *(*fn)(void *), void *ctx,
			struct error *err)
{
	size_t total = (size_t)msg->nr_groups * msg->nr_fds * 2;
	pid_t pid;
	int ret;

	if (msg->thread_mode) {
		ret = pthread_create(&msg->threads[msg->nr_started], &msg->attr, fn, ctx);
		if (ret)
			return error_set(err, EXIT_ENV,
				"messaging: cannot create thread %zu of %zu: %s "
				"(raise the task limit, ulimit -u or kernel.threads-max, "
				"or use fewer groups or fds)",
				msg->nr_started + 1, total, strerror(ret));
		msg->nr_started++;
		return 0;
	}
	pid = fork();
	if (pid < 0)
		return error_set(err, EXIT_ENV,
			"messaging: cannot fork process %zu of %zu: %s "
			"(raise the process limit, ulimit -u or kernel.pid_max, "
			"or use fewer groups or fds)",
			msg->nr_started + 1, total, strerror(errno));
	if (pid == 0)
		_exit(fn(ctx) ? 1 : 0);	/* _exit: never flush the parent's stdio twice */
	msg->pids[msg->nr_started++] = pid;
	return 0;
}

static struct receiver *new_receiver(struct messaging *msg)
{
	size_t size = sizeof(struct receiver) + msg->datasize;
	struct receiver *r;

	size = (size + CACHE_LINE - 1) / CACHE_LINE * CACHE_LINE;
	r = aligned_alloc(CACHE_LINE, size);
	if (!r)
		r = xmalloc(size);	/* out of memory: xmalloc says so and exits */
	r->msg = msg;
	r->in_fd = -1;
	r->out_fd = -1;
	return r;
}

/* Start one group: its receivers first, then its senders, as perf does. */
static int start_group(struct messaging *msg, unsigned int g, struct error *err)
{
	struct receiver **receivers = msg->receivers + (size_t)g * msg->nr_fds;
	struct sender *s;
	int fds[2];

	s = xmalloc(sizeof(*s) + msg->nr_fds * sizeof(int));
	s->msg = msg;
	msg->senders[g] = s;
	for (unsigned int i = 0; i < msg->nr_fds; i++) {
		struct receiver *r = new_receiver(msg);

		receivers[i] = r;
		if (fd_pair(msg->use_pipes, fds))
			return error_set(err, EXIT_ENV,
				"messaging: cannot create %s %u of group %u: %s "
				"(raise the open-file limit, ulimit -n, or use fewer groups or fds)",
				msg->use_pipes ? "pipe" : "socketpair", i + 1, g + 1,
				strerror(errno));
		r->in_fd = fds[0];
		r->out_fd = fds[1];
		s->out_fds[i] = fds[1];
		if (start_worker(msg, receiver_thread, r, err))
			return -1;
		if (!msg->thread_mode)
			close_fd(&r->in_fd);
	}
	for (unsigned int i = 0; i < msg->nr_fds; i++)
		if (start_worker(msg, sender_thread, s, err))
			return -1;
	if (!msg->thread_mode)
		for (unsigned int i = 0; i < msg->nr_fds; i++)
			close_fd(&receivers[i]->out_fd);
	return 0;
}

/* Reap worker @i; returns -1 when it failed. */
static int reap_worker(struct messaging *msg, size_t i)
{
	void *result = NULL;
	int status;

	if (msg->thread_mode)
		return (pthread_join(msg->threads[i], &result) || result) ? -1 : 0;
	while (waitpid(msg->pids[i], &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return task_end_clean(status) ? 0 : -1;
}

/* Reap every worker started, in start order; returns how many failed. */
static size_t reap_all(struct messaging *msg)
{
	size_t failed = 0;

	for (size_t i = 0; i < msg->nr_started; i++)
		if (reap_worker(msg, i))
			failed++;
	msg->nr_started = 0;
	return failed;
}

static int by_pid_cmp(const void *a, const void *b)
{
	const struct worker_pid *x = a, *y = b;

	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* Index the started processes by pid, off the clock, for reap_processes(). */
static void index_pids(struct messaging *msg)
{
	msg->by_pid = xcalloc(msg->nr_started, sizeof(*msg->by_pid));
	for (size_t i = 0; i < msg->nr_started; i++)
		msg->by_pid[i] = (struct worker_pid){ msg->pids[i], i };
	qsort(msg->by_pid, msg->nr_started, sizeof(*msg->by_pid), by_pid_cmp);
}

/*
 * Reap the processes as they end, in any order, as perf's wait() does
 * (every child of this process is a worker). The first that ends
 * abnormally (killed, say) is the cause kept in msg->cause, and the
 * others are killed then: the iteration has failed, and a receiver would
 * wait for a dead sender's messages until every other sender is done.
 * Returns how many failed.
 */
static size_t reap_processes(struct messaging *msg)
{
	size_t left = msg->nr_started, failed = 0;

	while (left) {
		struct worker_pid key = { 0, 0 }, *w;
		int status;

		key.pid = waitpid(-1, &status, 0);
		if (key.pid < 0 && errno == EINTR)
			continue;
		if (key.pid < 0)
			break;
		w = bsearch(&key, msg->by_pid, msg->nr_started, sizeof(key), by_pid_cmp);
		if (!w || !msg->pids[w->index])
			continue;
		left--;
		msg->pids[w->index] = 0;	/* reaped: its pid may be reused */
		if (task_end_clean(status) || failed++)
			continue;
		msg->cause = w->index;
		msg->cause_status = status;
		for (size_t i = 0; i < msg->nr_started; i++)
			if (msg->pids[i])
				kill(msg->pids[i], SIGKILL);
	}
	msg->nr_started = 0;
	return failed;
}

/* What worker @i is: each group starts its receivers, then its senders. */
static const char *worker_role(const struct messaging *msg, size_t i)
{
	return i % (2 * (size_t)msg->nr_fds) < msg->nr_fds ? "receiver" : "sender";
}

/*
 * Setup failed part way: processes are killed; threads are told to return
 * and woken, since a thread blocked in poll() cannot be killed alone. Their
 * ready bytes are drained first: once the channel's buffer is full (a few
 * hundred bytes' worth of skbs on a socket) a thread blocks writing its own.
 */
static void abort_workers(struct messaging *msg)
{
	char byte = 0;

	if (!msg->nr_started)
		return;
	if (msg->thread_mode) {
		atomic_store(&msg->abort, true);
		if (write_full(msg->wake[1], &byte, 1))
			return;	/* cannot happen: the channel is empty */
		for (; msg->nr_ready < msg->nr_started; msg->nr_ready++)
			if (read_full(msg->ready[0], &byte, 1))
				return;	/* cannot happen: every thread writes one */
	} else {
		for (size_t i = 0; i < msg->nr_started; i++)
			kill(msg->pids[i], SIGKILL);
	}
	reap_all(msg);
}

static void messaging_free(struct messaging *msg)
{
	size_t nr_receivers = (size_t)msg->nr_groups * msg->nr_fds;

	for (size_t i = 0; i < nr_receivers; i++) {
		if (!msg->receivers[i])
			continue;
		close_fd(&msg->receivers[i]->in_fd);
		close_fd(&msg->receivers[i]->out_fd);
		free(msg->receivers[i]);
	}
	for (unsigned int g = 0; g < msg->nr_groups; g++)
		free(msg->senders[g]);
	for (int i = 0; i < 2; i++) {
		close_fd(&msg->ready[i]);
		close_fd(&msg->wake[i]);
	}
	pthread_attr_destroy(&msg->attr);
	free(msg->receivers);
	free(msg->senders);
	free(msg->pids);
	free(msg->by_pid);
	free(msg->threads);
	free(msg->message);
}

static int messaging_init(struct messaging *msg, const struct param_value *values,
			  struct error *err)
{
	size_t total;
	size_t stack = WORKER_STACK_SIZE;

	msg->use_pipes = values[MSG_PARAM_IPC].num == MSG_IPC_PIPE;
	msg->thread_mode = values[MSG_PARAM_MODE].num == MSG_MODE_THREAD;
	msg->nr_groups = (unsigned int)values[MSG_PARAM_GROUPS].num;
	msg->nr_fds = (unsigned int)values[MSG_PARAM_FDS].num;
	msg->nr_loops = (unsigned long)values[MSG_PARAM_LOOPS].num;
	msg->datasize = (size_t)values[MSG_PARAM_DATASIZE].num;
	msg->ready[0] = msg->ready[1] = msg->wake[0] = msg->wake[1] = -1;
	atomic_init(&msg->abort, false);

	total = (size_t)msg->nr_groups * msg->nr_fds * 2;
	if (msg->thread_mode)
		msg->threads = xcalloc(total, sizeof(*msg->threads));
	else
		msg->pids = xcalloc(total, sizeof(*msg->pids));
	msg->receivers = xcalloc(total / 2, sizeof(*msg->receivers));
	msg->senders = xcalloc(msg->nr_groups, sizeof(*msg->senders));
	msg->message = xmalloc(msg->datasize);
	memset(msg->message, 'm', msg->datasize);

	pthread_attr_init(&msg->attr);
	if ((long)stack < PTHREAD_STACK_MIN)
		stack = PTHREAD_STACK_MIN;
	pthread_attr_setstacksize(&msg->attr, stack);

	/* The barrier uses the same kind of channel as the messages, as perf. */
	if (fd_pair(msg->use_pipes, msg->ready) || fd_pair(msg->use_pipes, msg->wake))
		return error_set(err, EXIT_ENV,
			"messaging: cannot create the start barrier: %s "
			"(raise the open-file limit, ulimit -n)", strerror(errno));
	return 0;
}

/* Wait until every task is ready; 1 when a process ended before it was. */
static int wait_ready(struct messaging *msg, struct error *err)
{
	char byte;

	if (!msg->thread_mode)
		close_fd(&msg->ready[1]);
	while (msg->nr_ready < msg->nr_started) {
		if (read_full(msg->ready[0], &byte, 1)) {
			if (msg->thread_mode)	/* a thread cannot end alone */
				return error_set(err, EXIT_INTERNAL, "messaging: start barrier "
						 "broken after %zu of %zu threads: %s",
						 msg->nr_ready, msg->nr_started, strerror(errno));
			error_set(err, EXIT_ENV, "messaging: a task ended before the start, %zu "
				  "of %zu being ready (killed, or out of memory)",
				  msg->nr_ready, msg->nr_started);
			return 1;
		}
		msg->nr_ready++;
	}
	return 0;
}

static int messaging_run(const struct param_value *values, double *metrics,
			 struct error *err)
{
	struct messaging msg = { 0 };
	double start, stop;
	size_t failed, started;
	char byte = 0;
	int ret = -1;

	if (messaging_init(&msg, values, err))
		goto fail;
	for (unsigned int g = 0; g < msg.nr_groups; g++)
		if (start_group(&msg, g, err))
			goto fail;
	if (!msg.thread_mode)
		index_pids(&msg);
	ret = wait_ready(&msg, err);
	if (ret)
		goto fail;
	ret = -1;

	start = time_now();
	if (write_full(msg.wake[1], &byte, 1)) {
		error_set(err, EXIT_INTERNAL, "messaging: cannot wake tasks: %s",
			  strerror(errno));
		goto fail;
	}
	started = msg.nr_started;
	failed = msg.thread_mode ? reap_all(&msg) : reap_processes(&msg);
	stop = time_now();

	messaging_free(&msg);
	if (failed && !msg.thread_mode)
		return task_end_fail(err, "messaging", worker_role(&msg, msg.cause),
				     msg.cause_status, NULL);
	/* Threads share their fds: none can see another's vanish. */
	if (failed)
		return error_set(err, EXIT_INTERNAL,
			"messaging: %zu of %zu threads failed a read or write on a %s",
			failed, started, msg.use_pipes ? "pipe" : "socket");
	metrics[0] = stop - start;
	return 0;

fail:
	abort_workers(&msg);
	messaging_free(&msg);
	return ret;
}

const struct workload workload_messaging = {
	.name = "messaging",
	.summary = "hackbench: groups of senders spray messages to receivers "
		   "over sockets or pipes (perf bench sched messaging)",
	.params = messaging_params,
	.nr_params = NR_MSG_PARAMS,
	.metrics = messaging_metrics,
	.nr_metrics = ARRAY_SIZE(messaging_metrics),
	.check = messaging_check,
	.run = messaging_run,
};
