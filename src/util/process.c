// SPDX-License-Identifier: GPL-2.0
/*
 * Recognising a process across pid reuse, from /proc: see process.h. This
 * is the one place that decides whether a recorded writer or its tasks are
 * alive; the store's guards ask it.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/process.h"

/* What /proc/PID/stat says of a process that matters here. */
struct proc_stat {
	char state;
	long pgrp;
	uint64_t start;
};

static int read_boot_id(char *buf, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");
	int rc = -1;

	if (!f) {
		buf[0] = '\0';
		return -1;
	}
	if (fgets(buf, (int)len, f)) {
		buf[strcspn(buf, "\n")] = '\0';
		rc = 0;
	} else {
		buf[0] = '\0';
	}
	fclose(f);
	return rc;
}

/*
 * Fields 3 (state), 5 (pgrp) and 22 (starttime). The command name in
 * field 2 may hold spaces and parentheses: the fields start after its
 * last ')'.
 */
static int read_proc_stat(long pid, struct proc_stat *ps)
{
	char path[64], buf[1024], *p;
	unsigned long long start;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %c %*d %ld %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u "
			 "%*d %*d %*d %*d %*d %*d %llu", &ps->state, &ps->pgrp, &start) != 3)
		return -1;
	ps->start = start;
	return 0;
}

/* A SIGKILL pending for the process (any of its threads' or shared): it is dying. */
static bool killed(long pid)
{
	char path[64], line[256];
	bool dying = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/status", pid);
	f = fopen(path, "re");
	if (!f)
		return true;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long mask;

		if ((!strncmp(line, "SigPnd:", 7) || !strncmp(line, "ShdPnd:", 7)) &&
		    sscanf(line + 7, "%llx", &mask) == 1 && (mask & (1ULL << (SIGKILL - 1))))
			dying = true;
	}
	fclose(f);
	return dying;
}

static bool runs(long pid, const struct proc_stat *ps)
{
	return ps->state != 'Z' && ps->state != 'X' && ps->state != 'x' && !killed(pid);
}

static bool this_boot(const struct process_id *id)
{
	char boot[sizeof(id->boot)];

	read_boot_id(boot, sizeof(boot));
	return !strcmp(boot, id->boot);
}

int process_id_of(pid_t pid, struct process_id *out)
{
	struct proc_stat ps;

	memset(out, 0, sizeof(*out));
	if (read_proc_stat(pid, &ps))
		return -1;
	read_boot_id(out->boot, sizeof(out->boot));
	out->pid = pid;
	out->start = ps.start;
	return 0;
}

bool process_is_self(const struct process_id *id)
{
	struct process_id self;

	return !process_id_of(getpid(), &self) && self.pid == id->pid &&
	       self.start == id->start && !strcmp(self.boot, id->boot);
}

bool process_alive(const struct process_id *id)
{
	struct proc_stat ps;

	if (id->pid <= 0 || !this_boot(id) || read_proc_stat(id->pid, &ps))
		return false;
	return ps.start == id->start && runs(id->pid, &ps);
}

/* Any member of group @pgrp that runs, found by reading every /proc/PID/stat. */
static bool group_has_member(long pgrp)
{
	DIR *proc = opendir("/proc");
	struct dirent *entry;
	bool found = false;

	if (!proc)
		return true;	/* cannot tell: say alive, the safe answer */
	while (!found && (entry = readdir(proc))) {
		struct proc_stat ps;
		long pid;

		if (!isdigit((unsigned char)entry->d_name[0]))
			continue;
		pid = strtol(entry->d_name, NULL, 10);
		found = !read_proc_stat(pid, &ps) && ps.pgrp == pgrp && runs(pid, &ps);
	}
	closedir(proc);
	return found;
}

bool process_group_alive(const struct process_id *leader)
{
	struct proc_stat ps;

	if (leader->pid <= 0 || !this_boot(leader))
		return false;
	if (!read_proc_stat(leader->pid, &ps) && ps.start != leader->start)
		return false;	/* the pid is another process's now: the group emptied */
	/* kill(-pgrp, 0) answers ESRCH at once for an empty group. */
	if (kill(-(pid_t)leader->pid, 0) && errno == ESRCH)
		return false;
	return group_has_member(leader->pid);
}
