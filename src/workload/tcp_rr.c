// SPDX-License-Identifier: GPL-2.0
/*
 * tcp-rr: request/response over loopback, netperf's TCP_RR and the
 * transactions of dbench's tbench, and the stream case of iperf3.
 *
 * What it measures: `pairs` clients each talk to their own server over a
 * connected socket (TCP over 127.0.0.1, or an AF_UNIX stream socketpair with
 * transport=unix). In mode=rr a transaction is one request of req_size
 * bytes and one response of resp_size bytes, strictly in turn: each side
 * sleeps in read until the other has written, so every transaction is two
 * wake-ups across the loopback (softirq, socket wake-up with WF_SYNC, the
 * choice of CPU for the woken side). That is the path database, RPC and
 * SMB servers stress, and where the scheduler's wake-affine and
 * idle-selection decisions show (MMTests runs netperf TCP_RR and tbench for
 * them; NEXT_BUDDY's 2025 rework was measured with dbench4).
 * transactions_per_sec counts all pairs' transactions over the time from
 * the start barrier to the last client's last transaction; each client
 * times each of its transactions (send to whole response) into a
 * log-linear histogram (stats/histogram.h) for the latency percentiles.
 *
 * framing=fixed is netperf's TCP_RR: both sides know the sizes, the client
 * writes its request and reads until the response is whole, the server
 * the reverse. framing=length is tbench's protocol (dbench sockio.c and
 * tbench_srv.c, Debian's dbench 4.0): a request carries its length and
 * the response's length in two 4-byte words; the server reads the first
 * word, then the rest, and answers with a word holding the length that
 * follows; the client reads that word, then the rest with
 * recv(MSG_WAITALL | MSG_TRUNC), which discards it. tbench replays a load
 * file of SMB calls with a size each; with a load file of one call
 * (bench/fidelity-net.sh writes one of ReadX lines, a 59-byte request and
 * a 59 + N byte response) it is this workload with those sizes. Two reads
 * a side instead of one: compare framing=length only with tbench.
 *
 * mode=stream is iperf3's TCP test (iperf3 -c 127.0.0.1): each client
 * writes req_size bytes at a time (iperf3 -l, 128 KiB by default) for the
 * runtime, its server reads as much as comes in req_size reads, and
 * mbytes_per_sec is what the servers received over the time from the
 * start barrier to the last server seeing the end of its stream.
 *
 * What follows the references: the connections are made before anything
 * is timed (netperf and tbench connect first too); each client and server
 * is a process of its own (tasks=process, as tbench forks a client per
 * NPROCS and tbench_srv a server per connection; tasks=thread puts them
 * all in one process, as iperf3 3.12 keeps its streams in one thread);
 * TCP_NODELAY on both ends (tbench sets it on its client, netperf with -D;
 * on a request/response exchange Nagle's algorithm never waits, since
 * each side's earlier data is acknowledged by the other's answer).
 * Where we differ: tbench also sets SO_REUSEADDR (no effect on a
 * connected socket); tbench counts throughput in MB/s of the ReadX and
 * WriteX payload only, netperf and we in transactions; iperf3 counts
 * every second and prints sender and receiver sums, we the receivers'.
 *
 * Measured against tbench and iperf3 on this project's 2-CPU virtual
 * machines (bench/fidelity-net.sh, 5 s runs, interleaved), the cost ratio
 * ours/reference (1/throughput). On a shared machine at load 12 to 43:
 * one client on one CPU 0.948 [0.845, 1.081] (25 pairs); one client on
 * both CPUs 0.850 [0.772, 0.927] (25); two clients 0.960 [0.867, 1.077]
 * (25); the stream against iperf3 -l 128K 1.071 [0.929, 1.369] (26).
 * Again at load 1 to 5: one client on both CPUs 1.001 [0.893, 1.052],
 * on one CPU 0.931 [0.903, 1.010] (20 pairs each). tbench's client does
 * more per call than send and receive it: it reads and parses its load
 * file's next line and keeps per-call statistics, 1.2-1.4 us of user
 * time a call on the client alone (0.60-0.73 s for some 480,000 calls,
 * /usr/bin/time), where our client and server together take 1.1 us
 * (0.54 s for 495,000); on a busy machine that work, on the round trip's
 * path, is what a preemption lands on.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stats/histogram.h"
#include "util/array.h"
#include "util/io.h"
#include "util/timeutil.h"
#include "util/xalloc.h"
#include "workload/task_end.h"
#include "workload/task_gate.h"
#include "workload/workload.h"
#include "workload/testing.h"

enum {
	RR_PARAM_PAIRS,
	RR_PARAM_MODE,
	RR_PARAM_TRANSPORT,
	RR_PARAM_REQ_SIZE,
	RR_PARAM_RESP_SIZE,
	RR_PARAM_FRAMING,
	RR_PARAM_RUNTIME,
	RR_PARAM_TRANSACTIONS,
	RR_PARAM_TASKS,
	NR_RR_PARAMS,
};

enum {
	RR_TPS, RR_P50, RR_P90, RR_P99, RR_P999,
	NR_RR_METRICS,
	/* mode=stream's one metric, after rr's: list shows every metric */
	RR_STREAM_MBPS = NR_RR_METRICS,
	NR_RR_ALL_METRICS,
};

enum rr_mode { RR_MODE_RR, RR_MODE_STREAM };
enum rr_transport { RR_TCP, RR_UNIX };
enum rr_framing { RR_FIXED, RR_LENGTH };
enum rr_tasks { RR_PROCESS, RR_THREAD };

static const char *const mode_choices[] = { "rr", "stream", NULL };
static const char *const transport_choices[] = { "tcp", "unix", NULL };
static const char *const framing_choices[] = { "fixed", "length", NULL };
static const char *const tasks_choices[] = { "process", "thread", NULL };

/* The largest message: tbench's buffer is 70000 bytes, iperf3's -l up to 1 MB. */
#define RR_MAX_SIZE	(1L << 20)

static const struct param_spec rr_params[NR_RR_PARAMS] = {
	[RR_PARAM_PAIRS] = { "pairs", PARAM_INT, "1", 1, 1024, NULL,
		"client/server pairs, each on its own connection (tbench NPROCS, "
		"iperf3 -P)" },
	[RR_PARAM_MODE] = { "mode", PARAM_CHOICE, "rr", 0, 0, mode_choices,
		"rr: request then response, in turn; stream: the client only writes" },
	[RR_PARAM_TRANSPORT] = { "transport", PARAM_CHOICE, "tcp", 0, 0, transport_choices,
		"TCP over 127.0.0.1, or an AF_UNIX stream socketpair" },
	[RR_PARAM_REQ_SIZE] = { "req_size", PARAM_INT, "1", 1, RR_MAX_SIZE, NULL,
		"bytes per request (netperf -r REQ,RESP); in stream mode, per write "
		"(iperf3 -l)" },
	[RR_PARAM_RESP_SIZE] = { "resp_size", PARAM_INT, "1", 1, RR_MAX_SIZE, NULL,
		"bytes per response" },
	[RR_PARAM_FRAMING] = { "framing", PARAM_CHOICE, "fixed", 0, 0, framing_choices,
		"fixed: sizes known to both sides (netperf); length: tbench's "
		"length words, read apart from the rest" },
	[RR_PARAM_RUNTIME] = { "runtime", PARAM_INT, "10", 1, 86400, NULL,
		"seconds to run when transactions is 0 (netperf -l, tbench -t)" },
	[RR_PARAM_TRANSACTIONS] = { "transactions", PARAM_INT, "0", 0, 1000000000, NULL,
		"transactions (stream: writes) per client; 0: run for runtime" },
	[RR_PARAM_TASKS] = { "tasks", PARAM_CHOICE, "process", 0, 0, tasks_choices,
		"each client and server a process, or all threads of one" },
};

static const struct metric_spec rr_metrics[NR_RR_ALL_METRICS] = {
	[RR_TPS] = { "transactions_per_sec", "transactions/s", BETTER_HIGHER,
		"transactions of all pairs per second" },
	[RR_P50] = { "latency_p50", "usec", BETTER_LOWER, "median transaction latency" },
	[RR_P90] = { "latency_p90", "usec", BETTER_LOWER,
		"90th percentile transaction latency" },
	[RR_P99] = { "latency_p99", "usec", BETTER_LOWER,
		"99th percentile transaction latency" },
	[RR_P999] = { "latency_p999", "usec", BETTER_LOWER,
		"99.9th percentile transaction latency" },
	[RR_STREAM_MBPS] = { "mbytes_per_sec", "MB/s", BETTER_HIGHER,
		"mode=stream's only metric: bytes the servers received per second, in "
		"millions (iperf3 receiver)" },
};

extern const struct workload workload_tcp_rr;

/* One pair's results, written by its client and server; shared memory. */
struct rr_pair {
	int client_fd, server_fd;
	uint64_t transactions;		/* client: completed */
	uint64_t bytes;			/* server: received */
	uint64_t client_end_ns, server_end_ns;
	int client_errno, server_errno;	/* an I/O error, or -1 for early EOF */
	struct histogram latency;	/* client, in ns */
	pthread_t client_thread, server_thread;
} __attribute__((aligned(64)));

/* One iteration's state; in shared memory in process mode. */
struct rr_run {
	int stop;			/* set when the runtime is up */
	enum rr_mode mode;
	enum rr_framing framing;
	size_t req_size, resp_size;
	uint64_t transactions;		/* per client; 0: until stop */
	struct task_gate *gate;		/* on the parent's stack: each process has its copy */
	long nr_pairs;
	struct rr_pair pairs[];
};

/* What the last run counted, for the unit tests: transactions and bytes. */
static uint64_t rr_last_transactions, rr_last_bytes;

void tcp_rr_test_last(uint64_t *transactions, uint64_t *bytes)
{
	*transactions = rr_last_transactions;
	*bytes = rr_last_bytes;
}

static int rr_check(const struct param_value *values,
		    struct workload_needs *needs, struct error *err)
{
	long pairs = values[RR_PARAM_PAIRS].num;

	if (values[RR_PARAM_FRAMING].num == RR_LENGTH) {
		if (values[RR_PARAM_MODE].num == RR_MODE_STREAM)
			return error_set(err, EXIT_USAGE,
				"bad value for parameter 'framing': 'length' frames requests "
				"and responses, and mode=stream has no responses (give "
				"framing=fixed with mode=stream)");
		if (values[RR_PARAM_REQ_SIZE].num < 8 || values[RR_PARAM_RESP_SIZE].num < 4)
			return error_set(err, EXIT_USAGE,
				"bad value for parameter 'req_size': framing=length needs "
				"req_size >= 8 and resp_size >= 4 for tbench's length words, "
				"not %ld and %ld (give larger sizes)",
				values[RR_PARAM_REQ_SIZE].num, values[RR_PARAM_RESP_SIZE].num);
		if (values[RR_PARAM_TRANSPORT].num == RR_UNIX)
			return error_set(err, EXIT_USAGE,
				"bad value for parameter 'framing': 'length' discards the response "
				"with MSG_TRUNC, which only TCP does (give transport=tcp)");
	}
	needs->tasks = 2 * pairs + 1;
	/* In thread mode one process holds both ends of every pair and the barrier. */
	needs->fds = 2 * pairs + 5;
	return 0;
}

static size_t rr_run_bytes(long pairs)
{
	return sizeof(struct rr_run) + (size_t)pairs * sizeof(struct rr_pair);
}

static long rr_memory_kb(const struct param_value *values)
{
	size_t buf = (size_t)(values[RR_PARAM_REQ_SIZE].num > values[RR_PARAM_RESP_SIZE].num ?
			      values[RR_PARAM_REQ_SIZE].num : values[RR_PARAM_RESP_SIZE].num);

	return (long)((rr_run_bytes(values[RR_PARAM_PAIRS].num) +
		       2 * (size_t)values[RR_PARAM_PAIRS].num * buf) / 1024);
}

static size_t rr_describe_metrics(const struct param_value *values,
				  struct metric_spec *metrics)
{
	if (values[RR_PARAM_MODE].num != RR_MODE_STREAM)
		return NR_RR_METRICS;
	metrics[0] = rr_metrics[RR_STREAM_MBPS];
	return 1;
}

static bool stopped(const struct rr_run *run)
{
	return __atomic_load_n(&run->stop, __ATOMIC_RELAXED);
}

static uint32_t be32_at(const char *buf)
{
	uint32_t v;

	memcpy(&v, buf, sizeof(v));
	return ntohl(v);
}

static void put_be32(char *buf, uint32_t v)
{
	v = htonl(v);
	memcpy(buf, &v, sizeof(v));
}

/* A whole recv() into nowhere: tbench's client discards the response body. */
static int recv_discard(int fd, char *buf, size_t len)
{
	while (len) {
		ssize_t n = recv(fd, buf, len, MSG_WAITALL | MSG_TRUNC);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		len -= (size_t)n;
	}
	return 0;
}

/* One transaction, client side. */
static int client_transaction(const struct rr_run *run, int fd, char *buf)
{
	if (run->framing == RR_FIXED)
		return write_full(fd, buf, run->req_size) ||
		       read_full(fd, buf, run->resp_size) ? -1 : 0;
	put_be32(buf, (uint32_t)(run->req_size - 4));
	put_be32(buf + 4, (uint32_t)(run->resp_size - 4));
	if (write_full(fd, buf, run->req_size) || read_full(fd, buf, 4) ||
	    be32_at(buf) != run->resp_size - 4)
		return -1;
	return recv_discard(fd, buf, run->resp_size - 4);
}

/* One transaction, server side: 0, 1 at the client's end, -1 on an error. */
static int server_transaction(const struct rr_run *run, int fd, char *buf)
{
	uint32_t len;
	ssize_t n;

	if (run->framing == RR_FIXED) {
		do
			n = read(fd, buf, 1);
		while (n < 0 && errno == EINTR);
		if (n == 0)
			return 1;
		if (n < 0 || read_full(fd, buf + 1, run->req_size - 1))
			return -1;
		return write_full(fd, buf, run->resp_size) ? -1 : 0;
	}
	do
		n = read(fd, buf, 4);
	while (n < 0 && errno == EINTR);
	if (n == 0)
		return 1;
	if (n < 4 && (n < 0 || read_full(fd, buf + n, 4 - (size_t)n)))
		return -1;
	len = be32_at(buf);
	if (len + 4 > run->req_size || read_full(fd, buf + 4, len))
		return -1;
	len = be32_at(buf + 4);
	if (len + 4 > run->resp_size)
		return -1;
	put_be32(buf, len);
	return write_full(fd, buf, len + 4) ? -1 : 0;
}

static int io_error(void)
{
	return errno ? errno : -1;
}

/*
 * A client whose server vanished (ECONNRESET, EPIPE, the end of the
 * stream) has failed the iteration: every other pair stops too, rather
 * than running out its transactions for nothing.
 */
static void client_failed(struct rr_run *run, struct rr_pair *p)
{
	p->client_errno = io_error();
	__atomic_store_n(&run->stop, 1, __ATOMIC_RELAXED);
}

/* Whether a client goes on: until the stop, or its transactions are done. */
static bool client_goes_on(const struct rr_run *run, const struct rr_pair *p)
{
	return !stopped(run) && (!run->transactions || p->transactions < run->transactions);
}

static void client_rr(struct rr_run *run, struct rr_pair *p, int fd, char *buf)
{
	while (client_goes_on(run, p)) {
		uint64_t start = time_now_ns();

		if (client_transaction(run, fd, buf)) {
			client_failed(run, p);
			break;
		}
		histogram_add(&p->latency, time_now_ns() - start);
		p->transactions++;
	}
}

static void client_stream(struct rr_run *run, struct rr_pair *p, int fd, char *buf)
{
	while (client_goes_on(run, p)) {
		if (write_full(fd, buf, run->req_size)) {
			client_failed(run, p);
			break;
		}
		p->transactions++;
	}
}

static void server_rr(struct rr_run *run, struct rr_pair *p, int fd, char *buf)
{
	int ret;

	while (!(ret = server_transaction(run, fd, buf)))
		p->bytes += run->req_size;
	if (ret < 0)
		p->server_errno = io_error();
}

static void server_stream(struct rr_run *run, struct rr_pair *p, int fd, char *buf)
{
	for (;;) {
		ssize_t n = read(fd, buf, run->req_size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n < 0)
				p->server_errno = errno;
			break;
		}
		p->bytes += (uint64_t)n;
	}
}

/* Say ready and wait for the go; false when the run stopped before it started. */
static bool pass_barrier(const struct rr_run *run)
{
	task_gate_pass(run->gate);
	return !stopped(run);
}

/*
 * One side of pair @p. Its fd is read before the barrier: in process mode
 * the parent closes its own copies once every task is ready.
 */
static void run_side(struct rr_run *run, struct rr_pair *p, bool client)
{
	size_t len = run->req_size > run->resp_size ? run->req_size : run->resp_size;
	char *buf = aligned_alloc(64, (len + 63) / 64 * 64);
	int fd = client ? p->client_fd : p->server_fd;

	if (!buf) {
		*(client ? &p->client_errno : &p->server_errno) = ENOMEM;
		return;
	}
	memset(buf, 'r', len);
	if (pass_barrier(run)) {
		if (client && run->mode == RR_MODE_RR)
			client_rr(run, p, fd, buf);
		else if (client)
			client_stream(run, p, fd, buf);
		else if (run->mode == RR_MODE_RR)
			server_rr(run, p, fd, buf);
		else
			server_stream(run, p, fd, buf);
	}
	if (client) {
		p->client_end_ns = time_now_ns();
		/* The server sees the end of the stream: both directions are done. */
		shutdown(fd, SHUT_WR);
	} else {
		p->server_end_ns = time_now_ns();
	}
	free(buf);
}

struct rr_task {
	struct rr_run *run;
	struct rr_pair *pair;
	bool client;
};

static void *side_thread(void *arg)
{
	struct rr_task *t = arg;

	run_side(t->run, t->pair, t->client);
	return NULL;
}

static void close_pair(struct rr_pair *p)
{
	if (p->client_fd >= 0)
		close(p->client_fd);
	if (p->server_fd >= 0)
		close(p->server_fd);
	p->client_fd = p->server_fd = -1;
}

static int nodelay(int fd)
{
	int one = 1;

	return setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

/* A listening socket on 127.0.0.1, any port. */
static int listen_loopback(struct sockaddr_in *addr)
{
	socklen_t len = sizeof(*addr);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	memset(addr, 0, sizeof(*addr));
	addr->sin_family = AF_INET;
	addr->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)addr, sizeof(*addr)) || listen(fd, 16) ||
	    getsockname(fd, (struct sockaddr *)addr, &len)) {
		close(fd);
		return -1;
	}
	return fd;
}

static int connect_tcp(struct rr_pair *p, int listen_fd, const struct sockaddr_in *addr)
{
	p->client_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (p->client_fd < 0 || connect(p->client_fd, (const struct sockaddr *)addr, sizeof(*addr)))
		return -1;
	p->server_fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);
	if (p->server_fd < 0 || nodelay(p->client_fd) || nodelay(p->server_fd))
		return -1;
	return 0;
}

/* Connect every pair before anything is timed. */
static int connect_pairs(struct rr_run *run, enum rr_transport transport, struct error *err)
{
	struct sockaddr_in addr;
	int listen_fd = -1;

	for (long i = 0; i < run->nr_pairs; i++)
		run->pairs[i].client_fd = run->pairs[i].server_fd = -1;
	if (transport == RR_TCP && (listen_fd = listen_loopback(&addr)) < 0)
		goto fail;
	for (long i = 0; i < run->nr_pairs; i++) {
		struct rr_pair *p = &run->pairs[i];
		int sv[2];

		histogram_init(&p->latency);
		if (transport == RR_TCP) {
			if (connect_tcp(p, listen_fd, &addr))
				goto fail;
			continue;
		}
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
			goto fail;
		p->client_fd = sv[0];
		p->server_fd = sv[1];
	}
	if (listen_fd >= 0)
		close(listen_fd);
	return 0;
fail:
	error_set(err, EXIT_ENV, "tcp-rr: cannot connect %ld pairs over %s: %s (raise the "
		  "open-file limit, ulimit -n, or check that the loopback interface is up)",
		  run->nr_pairs, transport == RR_TCP ? "127.0.0.1" : "AF_UNIX", strerror(errno));
	if (listen_fd >= 0)
		close(listen_fd);
	for (long i = 0; i < run->nr_pairs; i++)
		close_pair(&run->pairs[i]);
	return -1;
}

/* Start the 2 x pairs tasks; on failure, those started are let go to the stop. */
static long start_processes(struct rr_run *run, pid_t *pids)
{
	long started = 0;

	for (long i = 0; i < 2 * run->nr_pairs; i++) {
		pid_t pid = fork();

		if (pid < 0)
			break;
		if (pid == 0) {
			struct rr_pair *p = &run->pairs[i / 2];
			bool client = i % 2 == 0;

			task_gate_child(run->gate);
			/* Hold only its own end, so that the peer sees EOF when it ends. */
			for (long j = 0; j < run->nr_pairs; j++) {
				if (j != i / 2 || client)
					close(run->pairs[j].server_fd);
				if (j != i / 2 || !client)
					close(run->pairs[j].client_fd);
			}
			run_side(run, p, client);
			_exit(0);
		}
		pids[started++] = pid;
	}
	return started;
}

static long start_threads(struct rr_run *run, struct rr_task *tasks)
{
	long started = 0;

	for (long i = 0; i < 2 * run->nr_pairs; i++) {
		tasks[i] = (struct rr_task){ run, &run->pairs[i / 2], i % 2 == 0 };
		if (pthread_create(i % 2 ? &run->pairs[i / 2].server_thread
					 : &run->pairs[i / 2].client_thread,
				   NULL, side_thread, &tasks[i]))
			break;
		started++;
	}
	return started;
}

/*
 * Reap the tasks; in process mode the first that ended abnormally, the
 * cause of its peer's error, goes to @ended (its index, -1 if none) and
 * @status.
 */
static void reap(struct rr_run *run, bool threaded, pid_t *pids, long started,
		 long *ended, int *status)
{
	*ended = -1;
	for (long i = 0; i < started; i++) {
		int st = 0;

		if (threaded) {
			struct rr_pair *p = &run->pairs[i / 2];

			pthread_join(i % 2 ? p->server_thread : p->client_thread, NULL);
			continue;
		}
		while (waitpid(pids[i], &st, 0) < 0 && errno == EINTR)
			;
		if (!task_end_clean(st) && *ended < 0) {
			*ended = i;
			*status = st;
		}
	}
}

static void fill_metrics(const struct rr_run *run, uint64_t start, double *metrics)
{
	static const double pcts[] = { 50, 90, 99, 99.9 };
	struct histogram *all = xmalloc(sizeof(*all));
	uint64_t end = start, total = 0;

	histogram_init(all);
	rr_last_transactions = rr_last_bytes = 0;
	for (long i = 0; i < run->nr_pairs; i++) {
		const struct rr_pair *p = &run->pairs[i];
		uint64_t pair_end = run->mode == RR_MODE_RR ? p->client_end_ns : p->server_end_ns;

		if (pair_end > end)
			end = pair_end;
		total += run->mode == RR_MODE_RR ? p->transactions : p->bytes;
		rr_last_transactions += p->transactions;
		rr_last_bytes += p->bytes;
		histogram_merge(all, &p->latency);
	}
	if (run->mode == RR_MODE_STREAM) {
		metrics[0] = end > start ? (double)total / ((double)(end - start) / 1e9) / 1e6 : NAN;
	} else {
		metrics[RR_TPS] = end > start ? (double)total / ((double)(end - start) / 1e9) : NAN;
		for (size_t p = 0; p < ARRAY_SIZE(pcts); p++)
			metrics[RR_P50 + p] = histogram_percentile(all, pcts[p]) / 1000;
	}
	free(all);
}

/* The first pair whose client or server failed, or NULL. */
static const struct rr_pair *failed_pair(const struct rr_run *run)
{
	for (long i = 0; i < run->nr_pairs; i++)
		if (run->pairs[i].client_errno || run->pairs[i].server_errno)
			return &run->pairs[i];
	return NULL;
}

/*
 * A side that stopped early: its peer vanished (ECONNRESET, EPIPE, an
 * early end of the stream), which fails this iteration; out of memory for
 * its buffer is the machine's, which stops the run.
 */
static int pair_error(const struct rr_pair *p, struct error *err)
{
	int e = p->client_errno ? p->client_errno : p->server_errno;
	const char *side = p->client_errno ? "client" : "server";

	if (e == ENOMEM)
		return error_set(err, EXIT_ENV, "tcp-rr: out of memory for a %s's buffer "
				 "(free memory, or give smaller sizes)", side);
	error_set(err, EXIT_ENV, "tcp-rr: a %s stopped early: %s", side,
		  e > 0 ? strerror(e) : "its peer closed the connection");
	return 1;
}

/*
 * Run the tasks from the go to the stop; returns the go's time, 0 if none.
 * A task that ended abnormally goes to @ended and @status (see reap()).
 */
static uint64_t drive(struct rr_run *run, bool threaded, double runtime, long *ended,
		      int *status, struct error *err)
{
	long n = 2 * run->nr_pairs, started;
	pid_t *pids = threaded ? NULL : xcalloc((size_t)n, sizeof(*pids));
	struct rr_task *tasks = threaded ? xcalloc((size_t)n, sizeof(*tasks)) : NULL;
	uint64_t start = 0;
	int saved;

	started = threaded ? start_threads(run, tasks) : start_processes(run, pids);
	saved = errno;
	task_gate_forked(run->gate);
	if (started == n && task_gate_wait(run->gate, n)) {
		start = time_now_ns();
		task_gate_open(run->gate);
		if (!run->transactions) {
			time_sleep_until(time_now() + runtime);
			__atomic_store_n(&run->stop, 1, __ATOMIC_RELAXED);
		}
	} else {
		__atomic_store_n(&run->stop, 1, __ATOMIC_RELAXED);
		task_gate_open(run->gate);
		error_set(err, EXIT_ENV, "tcp-rr: cannot start task %ld of %ld: %s (raise the "
			  "task limit, ulimit -u)", started + 1, n,
			  started < n ? strerror(saved) : "a task ended before the start");
	}
	/* The parent's ends: in process mode only the tasks may hold them. */
	if (!threaded)
		for (long i = 0; i < run->nr_pairs; i++)
			close_pair(&run->pairs[i]);
	reap(run, threaded, pids, started, ended, status);
	free(pids);
	free(tasks);
	return start;
}

static int rr_run(const struct param_value *values, double *metrics, struct error *err)
{
	long pairs = values[RR_PARAM_PAIRS].num;
	bool threaded = values[RR_PARAM_TASKS].num == RR_THREAD;
	size_t bytes = rr_run_bytes(pairs);
	struct sigaction ignore = { .sa_handler = SIG_IGN }, saved_sigpipe;
	struct task_gate gate;
	struct rr_run *run;
	uint64_t start;
	int ret = 0, status = 0;
	long ended;

	for (size_t i = 0; i < workload_nr_values(&workload_tcp_rr, values); i++)
		metrics[i] = NAN;
	run = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (run == MAP_FAILED)
		return error_set(err, EXIT_ENV, "tcp-rr: out of memory for %ld pairs' histograms "
				 "(give fewer pairs)", pairs);
	run->mode = (enum rr_mode)values[RR_PARAM_MODE].num;
	run->framing = (enum rr_framing)values[RR_PARAM_FRAMING].num;
	run->req_size = (size_t)values[RR_PARAM_REQ_SIZE].num;
	run->resp_size = (size_t)values[RR_PARAM_RESP_SIZE].num;
	run->transactions = (uint64_t)values[RR_PARAM_TRANSACTIONS].num;
	run->nr_pairs = pairs;
	if (task_gate_init(&gate, threaded, "tcp-rr", err)) {
		munmap(run, bytes);
		return -1;
	}
	run->gate = &gate;
	if (connect_pairs(run, (enum rr_transport)values[RR_PARAM_TRANSPORT].num, err)) {
		ret = -1;
		goto out;
	}
	/* A client whose server died must see an error, not die of SIGPIPE. */
	sigaction(SIGPIPE, &ignore, &saved_sigpipe);
	start = drive(run, threaded, (double)values[RR_PARAM_RUNTIME].num, &ended, &status,
		      err);
	sigaction(SIGPIPE, &saved_sigpipe, NULL);
	for (long i = 0; i < pairs; i++)
		close_pair(&run->pairs[i]);
	/* Killed, even before the start: a pair's error, if any, is its echo. */
	if (ended >= 0)
		ret = task_end_fail(err, "tcp-rr", ended % 2 ? "server" : "client", status,
				    NULL);
	else if (!start)
		ret = -1;
	else if (failed_pair(run))
		ret = pair_error(failed_pair(run), err);
	else
		fill_metrics(run, start, metrics);
out:
	task_gate_destroy(&gate);
	munmap(run, bytes);
	return ret;
}

const struct workload workload_tcp_rr = {
	.name = "tcp-rr",
	.summary = "request/response (or a stream) between client/server pairs over "
		   "loopback TCP or AF_UNIX (netperf TCP_RR, tbench, iperf3)",
	.params = rr_params,
	.nr_params = NR_RR_PARAMS,
	.metrics = rr_metrics,
	.nr_metrics = NR_RR_ALL_METRICS,
	.check = rr_check,
	.memory_kb = rr_memory_kb,
	.describe_metrics = rr_describe_metrics,
	.run = rr_run,
};
