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
#include <sys/stat.h>
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

/*
 * Whether @pid called orphans_spare(), or was forked by one that had: its
 * name, and this program (the same file as ours), as a workload's task
 * may take the name (a copy of any program so named) but not the file.
 */
static bool spared(pid_t pid)
{
	char path[64], comm[32];
	struct stat its, ours;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	if (read_small(path, comm, sizeof(comm)) <= 0 ||
	    strcmp(comm, ORPHANS_SPARED_NAME "\n"))
		return false;
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	return !stat(path, &its) && !stat("/proc/self/exe", &ours) &&
	       its.st_dev == ours.st_dev && its.st_ino == ours.st_ino;
}

/*
 * SIGKILL the descendants of this process, each before its children are
 * listed, so that they fork no more, but for the spared ones when @spare
 * says so; whether one of its own children was killed (and so a waitpid()
 * for it ends).
 */
static bool kill_descendants(bool spare)
{
	struct pids found = { NULL, 0, 0 };
	bool killed_child = false;
	size_t direct;

	children_of(getpid(), &found);
	direct = found.nr;
	for (size_t i = 0; i < found.nr; i++) {
		if (spare && spared(found.pid[i]))
			continue;
		if (kill(found.pid[i], SIGKILL))
			continue;
		if (i < direct)
			killed_child = true;
		children_of(found.pid[i], &found);
	}
	free(found.pid);
	return killed_child;
}

int orphans_adopt(void)
{
	return prctl(PR_SET_CHILD_SUBREAPER, 1UL, 0UL, 0UL, 0UL);
}

void orphans_spare(void)
{
	prctl(PR_SET_NAME, (unsigned long)ORPHANS_SPARED_NAME, 0UL, 0UL, 0UL);
}

static void end_descendants(bool spare)
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
		if (!kill_descendants(spare))
			return;		/* none that can be killed: leave them */
		while (waitpid(-1, NULL, 0) < 0 && errno == EINTR)
			;
	}
}

void orphans_end(void)
{
	end_descendants(false);
}

void orphans_end_sparing(void)
{
	end_descendants(true);
}
