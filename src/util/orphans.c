// SPDX-License-Identifier: GPL-2.0
/*
 * orphans.h: a child subreaper, and the end of every descendant it has.
 * Descendants are found through /proc/PID/task/TID/children (every
 * thread's: a child is listed under the thread that forked it, or that it
 * was reparented to), or, on a kernel without CONFIG_PROC_CHILDREN, by
 * the parent field of every /proc/PID/stat.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/orphans.h"
#include "util/xalloc.h"

struct pids {
	pid_t *pid;
	size_t nr, alloc;
};

static void pids_add(struct pids *p, pid_t pid)
{
	if (p->nr == p->alloc) {
		p->alloc = p->alloc ? 2 * p->alloc : 64;
		p->pid = xrealloc(p->pid, p->alloc * sizeof(*p->pid));
	}
	p->pid[p->nr++] = pid;
}

/* The whole of the small file at @path into @buf; its length, or -1. */
static ssize_t read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t done = 0;
	ssize_t n = 0;

	if (fd < 0)
		return -1;
	while (done + 1 < len && (n = read(fd, buf + done, len - 1 - done)) > 0)
		done += (size_t)n;
	close(fd);
	buf[done] = '\0';
	return n < 0 ? -1 : (ssize_t)done;
}

/* The children of @pid by the parent field of every process: the slow way. */
static void children_by_scan(pid_t pid, struct pids *out)
{
	DIR *proc = opendir("/proc");
	struct dirent *d;

	if (!proc)
		return;
	while ((d = readdir(proc))) {
		char path[64], stat[512], *end;
		long child = strtol(d->d_name, &end, 10);
		long parent;

		if (*end || child <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/stat", child);
		/* "PID (COMM) STATE PPID ...": COMM may hold anything but ends at the last ')' */
		if (read_small(path, stat, sizeof(stat)) < 0 || !(end = strrchr(stat, ')')))
			continue;
		if (sscanf(end + 1, " %*c %ld", &parent) == 1 && parent == pid)
			pids_add(out, (pid_t)child);
	}
	closedir(proc);
}

/* The children of @pid, every thread's, by the kernel's lists. */
static void children_listed(pid_t pid, struct pids *out)
{
	char path[64];
	struct dirent *d;
	DIR *tasks;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if (!(tasks = opendir(path)))
		return;		/* gone: its children are someone else's now */
	while ((d = readdir(tasks))) {
		char list[4096], *p, *end;
		ssize_t len;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%.16s/children", (int)pid, d->d_name);
		if ((len = read_small(path, list, sizeof(list))) < 0)
			continue;
		/* a full buffer may end in half a pid: the rest is found in the next round */
		if ((size_t)len == sizeof(list) - 1 && (p = strrchr(list, ' ')))
			*p = '\0';
		for (p = list; *p; p = end) {
			long child = strtol(p, &end, 10);

			if (end == p)
				break;
			if (child > 0)
				pids_add(out, (pid_t)child);
		}
	}
	closedir(tasks);
}

static void children_of(pid_t pid, struct pids *out)
{
	static int listed = -1;

	if (listed < 0)
		listed = !access("/proc/thread-self/children", F_OK);
	if (listed)
		children_listed(pid, out);
	else
		children_by_scan(pid, out);
}

/* Whether @pid is a child this process had when it began to hold (orphans_hold()). */
static bool held_before(const struct orphans_hold *h, pid_t pid)
{
	for (size_t i = 0; i < h->nr; i++)
		if (h->had[i] == pid)
			return true;
	return false;
}

/* Whether @pid called orphans_spare(). */
static bool spared(pid_t pid)
{
	char path[64], comm[32];

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	return read_small(path, comm, sizeof(comm)) > 0 &&
	       !strcmp(comm, ORPHANS_SPARED_NAME "\n");
}

/*
 * SIGKILL the processes of @found, which begins with children of this
 * process, and all below them: each before its children are listed (and
 * appended), so that it forks no more. With @h, the children it had
 * before orphans_hold() are left, and so are the spared, whatever their
 * depth; the children killed go to @killed, the spared ones to @kept
 * (both may be NULL). Whether one of its own children was killed.
 */
static bool kill_trees(struct pids *found, const struct orphans_hold *h,
		       struct pids *killed, struct pids *kept)
{
	size_t direct = found->nr;
	bool killed_child = false;

	for (size_t i = 0; i < found->nr; i++) {
		pid_t pid = found->pid[i];

		if (h && i < direct && held_before(h, pid))
			continue;
		if (h && spared(pid)) {
			if (i < direct && kept)
				pids_add(kept, pid);
			continue;
		}
		if (kill(pid, SIGKILL))
			continue;
		if (i < direct) {
			killed_child = true;
			if (killed)
				pids_add(killed, pid);
		}
		children_of(pid, found);
	}
	return killed_child;
}

/* SIGKILL every descendant of this process; whether one of its own children was killed. */
static bool kill_descendants(void)
{
	struct pids found = { NULL, 0, 0 };
	bool killed_child;

	children_of(getpid(), &found);
	killed_child = kill_trees(&found, NULL, NULL, NULL);
	free(found.pid);
	return killed_child;
}

static void reap(pid_t pid)
{
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

int orphans_adopt(void)
{
	return prctl(PR_SET_CHILD_SUBREAPER, 1UL, 0UL, 0UL, 0UL);
}

void orphans_end(void)
{
	for (;;) {
		pid_t got = waitpid(-1, NULL, WNOHANG);

		if (got > 0 || (got < 0 && errno == EINTR))
			continue;	/* one reaped */
		if (got < 0)
			return;		/* ECHILD: no child left */
		/*
		 * Children alive: end them all. What a dying one leaves is
		 * reparented here, and found in the next round.
		 */
		if (!kill_descendants())
			return;		/* none that can be killed: leave them */
		reap(-1);
	}
}

void orphans_spare(void)
{
	prctl(PR_SET_NAME, (unsigned long)ORPHANS_SPARED_NAME, 0UL, 0UL, 0UL);
}

int orphans_hold(struct orphans_hold *h)
{
	struct pids had = { NULL, 0, 0 };
	int was = 0;

	h->had = NULL;
	h->nr = 0;
	h->on = false;
	if (prctl(PR_GET_CHILD_SUBREAPER, (unsigned long)&was, 0UL, 0UL, 0UL) ||
	    (!was && orphans_adopt()))
		return -1;
	h->was = was;
	children_of(getpid(), &had);
	h->had = had.pid;
	h->nr = had.nr;
	h->on = true;
	return 0;
}

void orphans_release(struct orphans_hold *h)
{
	if (h->on && !h->was)
		prctl(PR_SET_CHILD_SUBREAPER, 0UL, 0UL, 0UL, 0UL);
	free(h->had);
	h->had = NULL;
	h->nr = 0;
	h->on = false;
}

void orphans_end_held(struct orphans_hold *h)
{
	while (h->on) {
		struct pids found = { NULL, 0, 0 }, killed = { NULL, 0, 0 };
		struct pids kept = { NULL, 0, 0 };

		children_of(getpid(), &found);
		kill_trees(&found, h, &killed, &kept);
		/*
		 * Only those: a child it had before is someone else's to
		 * wait for. What a killed one leaves comes here, and is
		 * found in the next round.
		 */
		for (size_t i = 0; i < killed.nr; i++)
			reap(killed.pid[i]);
		/* The spared end by themselves once the rest, what they wait for, is gone. */
		if (!killed.nr)
			for (size_t i = 0; i < kept.nr; i++)
				reap(kept.pid[i]);
		free(found.pid);
		free(killed.pid);
		free(kept.pid);
		if (!killed.nr && !kept.nr)
			break;	/* none left, or none that can be killed */
	}
	orphans_release(h);
}
