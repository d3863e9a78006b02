// SPDX-License-Identifier: GPL-2.0
/*
 * The start barrier over pipes of the process workloads (task_gate.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "workload/task_gate.h"

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

int task_gate_init(struct task_gate *g, bool threads, const char *workload,
		   struct error *err)
{
	g->threads = threads;
	g->ready[0] = g->ready[1] = g->go[0] = g->go[1] = -1;
	if (!pipe2(g->ready, O_CLOEXEC) && !pipe2(g->go, O_CLOEXEC))
		return 0;
	task_gate_destroy(g);
	return error_set(err, EXIT_ENV, "%s: cannot create a pipe: %s (raise the open-file "
			 "limit, ulimit -n)", workload, strerror(errno));
}

void task_gate_child(struct task_gate *g)
{
	close_fd(&g->ready[0]);
	close_fd(&g->go[1]);
}

void task_gate_pass(struct task_gate *g)
{
	char byte;
	ssize_t n;

	do
		n = write(g->ready[1], "r", 1);
	while (n < 0 && errno == EINTR);
	if (!g->threads)
		close_fd(&g->ready[1]);
	while (read(g->go[0], &byte, 1) < 0 && errno == EINTR)
		;
}

void task_gate_forked(struct task_gate *g)
{
	if (g->threads)
		return;
	close_fd(&g->ready[1]);
	close_fd(&g->go[0]);
}

bool task_gate_wait(struct task_gate *g, long n)
{
	char buf[256];

	while (n > 0) {
		ssize_t got = read(g->ready[0], buf, n < (long)sizeof(buf) ? (size_t)n : sizeof(buf));

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return false;
		n -= got;
	}
	return true;
}

void task_gate_open(struct task_gate *g)
{
	close_fd(&g->go[1]);
}

void task_gate_destroy(struct task_gate *g)
{
	close_fd(&g->ready[0]);
	close_fd(&g->ready[1]);
	close_fd(&g->go[0]);
	close_fd(&g->go[1]);
}
