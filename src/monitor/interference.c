// SPDX-License-Identifier: GPL-2.0
/*
 * Interference around an iteration: the CPU time that other tasks and the
 * hypervisor took on the CPUs the iteration could use, and who took it.
 *
 * Before the child is told to start, /proc/stat is copied; after it was
 * reaped, copied again. On each watched CPU, the time that was not idle
 * (idle and iowait: under NO_HZ the kernel keeps them exactly, while user
 * and system are sampled at each tick) is the time someone ran there; less
 * the iteration's own CPU time from wait4(), it is what others took. Steal
 * is not idle either, so it counts as taken, and is kept apart as well.
 *
 * /proc/stat prints whole USER_HZ ticks (10 ms), so each delta may be off
 * by up to a tick per counter and CPU: an iteration is disturbed only when
 * others took more than the share *and* more than that floor.
 *
 * Naming culprits needs every task's CPU time before and after. A scan of
 * /proc costs a millisecond or more (bench/interference-cost.sh), too much
 * to spend before every iteration on a quiet machine, so the snapshot is
 * refreshed before an iteration only when it may be needed: when tasks
 * other than the runner are runnable now, when the last iteration was
 * disturbed, or when the snapshot is older than a second. After a
 * disturbed iteration the tasks are read again: a task that started since
 * the snapshot counts whole; the others by their difference.
 */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "monitor/interference.h"
#include "util/io.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

/* A snapshot older than this is refreshed before the next iteration. */
#define SNAPSHOT_MAX_AGE	1.0
/* The window over which --quiet-wait judges the CPUs. */
#define QUIET_WINDOW		0.2

struct task {
	long pid, pgrp;
	unsigned long long start;	/* ticks after boot */
	unsigned long long cpu;		/* utime + stime of all its threads, in ticks */
	char comm[64];
};

struct task_table {
	struct task *tasks;
	size_t nr, alloc;
	double taken_at;		/* time_now() of the scan; 0 = none */
	unsigned long long uptime_ticks;
};

struct interference_monitor {
	cpu_set_t cpus;
	size_t nr_cpus;
	double max_share;
	double user_hz;
	int stat_fd;
	char *text;
	size_t cap;
	struct cpu_times *before, *after;
	double before_time;
	bool have_before;
	bool last_disturbed;
	pid_t group;		/* the iteration's process group */
	struct task_table snapshot;
};

/* ---- /proc/stat ---- */

size_t interference_parse_stat(const char *text, const cpu_set_t *cpus, double user_hz,
			       struct cpu_times *times, size_t nr)
{
	size_t found = 0;
	const char *line = text;

	for (; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		unsigned long long v[8] = { 0 };
		size_t slot = 0;
		int cpu, n;

		if (strncmp(line, "cpu", 3) || !isdigit((unsigned char)line[3]))
			continue;
		/* user nice system idle iowait irq softirq steal */
		n = sscanf(line + 3, "%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu,
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
		if (n < 5 || cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, cpus))
			continue;
		for (int c = 0; c < cpu; c++)
			slot += CPU_ISSET(c, cpus) ? 1 : 0;
		if (slot >= nr)
			continue;
		times[slot].idle = (double)v[3] / user_hz;
		times[slot].iowait = n >= 6 ? (double)v[4] / user_hz : 0;
		times[slot].steal = n >= 9 ? (double)v[7] / user_hz : 0;
		found++;
	}
	return found;
}

double interference_floor(size_t nr, double user_hz)
{
	/* idle and iowait may each read up to one tick short, on every CPU */
	return 2.0 * (double)nr / user_hz;
}

void interference_compute(const struct cpu_times *before, const struct cpu_times *after,
			  size_t nr, double wall, double own_cpu, double max_share,
			  double user_hz, struct interference *out)
{
	double not_idle = 0, steal = 0;

	for (size_t i = 0; i < nr; i++) {
		double idle = (after[i].idle - before[i].idle) +
			      (after[i].iowait - before[i].iowait);

		not_idle += wall - idle;
		steal += after[i].steal - before[i].steal;
	}
	out->available = wall * (double)nr;
	out->taken = not_idle - own_cpu;
	if (out->taken < 0)
		out->taken = 0;
	if (out->taken > out->available)
		out->taken = out->available;
	out->steal = steal < 0 ? 0 : steal > out->taken ? out->taken : steal;
	out->disturbed = out->taken > max_share * out->available &&
			 out->taken > interference_floor(nr, user_hz);
}

static int read_cpus(struct interference_monitor *im, struct cpu_times *times)
{
	if (pread_text(im->stat_fd, &im->text, &im->cap, NULL))
		return -1;
	return interference_parse_stat(im->text, &im->cpus, im->user_hz, times,
				       im->nr_cpus) == im->nr_cpus ? 0 : -1;
}

/* ---- tasks ---- */

static int parse_task(const char *text, struct task *t)
{
	const char *open = strchr(text, '('), *close = strrchr(text, ')');
	unsigned long long utime, stime;
	size_t len;

	if (!open || !close || close < open)
		return -1;
	t->pid = atol(text);
	len = (size_t)(close - open - 1);
	if (len >= sizeof(t->comm))
		len = sizeof(t->comm) - 1;
	memcpy(t->comm, open + 1, len);
	t->comm[len] = '\0';
	/* state ppid pgrp ... (fields 3-22 of proc(5)) */
	if (sscanf(close + 2, "%*c %*d %ld %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %*d "
		   "%*d %*d %*d %*d %*d %llu", &t->pgrp, &utime, &stime, &t->start) != 4)
		return -1;
	/*
	 * Its own threads only: the reaped children's time (cutime) arrives
	 * all at once when they exit, however long ago they ran.
	 */
	t->cpu = utime + stime;
	return 0;
}

/*
 * Now, on the clock of /proc/PID/stat's starttime: /proc/uptime's, which
 * may differ from CLOCK_BOOTTIME by seconds in a guest.
 */
static unsigned long long uptime_ticks(double user_hz)
{
	char buf[64];
	int fd = open("/proc/uptime", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return (unsigned long long)(atof(buf) * user_hz);
}

static int task_cmp(const void *pa, const void *pb)
{
	const struct task *a = pa, *b = pb;

	return a->pid < b->pid ? -1 : a->pid > b->pid;
}

static void task_table_scan(struct task_table *table, double user_hz)
{
	DIR *dir = opendir("/proc");
	struct dirent *entry;
	char path[64], buf[1024];

	table->nr = 0;
	table->taken_at = time_now();
	table->uptime_ticks = uptime_ticks(user_hz);
	if (!dir)
		return;
	while ((entry = readdir(dir))) {
		ssize_t n;
		int fd;

		if (!isdigit((unsigned char)entry->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%.20s/stat", entry->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		if (table->nr == table->alloc) {
			table->alloc = table->alloc ? table->alloc * 2 : 512;
			table->tasks = xreallocarray(table->tasks, table->alloc,
						     sizeof(*table->tasks));
		}
		if (!parse_task(buf, &table->tasks[table->nr]))
			table->nr++;
	}
	closedir(dir);
	/* readdir gives pids in increasing order already; sorting makes sure */
	qsort(table->tasks, table->nr, sizeof(*table->tasks), task_cmp);
}

static const struct task *task_find(const struct task_table *table, long pid)
{
	size_t lo = 0, hi = table->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (table->tasks[mid].pid == pid)
			return &table->tasks[mid];
		if (table->tasks[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static bool may_run_on(long pid, const cpu_set_t *cpus)
{
	cpu_set_t allowed, both;

	if (sched_getaffinity((pid_t)pid, sizeof(allowed), &allowed))
		return true;	/* gone: it did run, somewhere */
	CPU_AND(&both, &allowed, cpus);
	return CPU_COUNT(&both) > 0;
}

/* Keep @t among the top INTERFERENCE_MAX_CULPRITS of @out, by CPU time. */
static void culprit_offer(struct interference *out, const struct task *t, double cpu)
{
	size_t at = out->nr_culprits;

	while (at > 0 && out->culprits[at - 1].cpu < cpu)
		at--;
	if (at >= INTERFERENCE_MAX_CULPRITS)
		return;
	if (out->nr_culprits < INTERFERENCE_MAX_CULPRITS)
		out->nr_culprits++;
	memmove(&out->culprits[at + 1], &out->culprits[at],
		(out->nr_culprits - 1 - at) * sizeof(out->culprits[0]));
	snprintf(out->culprits[at].name, sizeof(out->culprits[at].name), "%s", t->comm);
	out->culprits[at].pid = t->pid;
	out->culprits[at].cpu = cpu;
}

/* Compare @now with @then and name the tasks that took the most CPU time. */
static void find_culprits(struct interference_monitor *im, const struct task_table *then,
			  const struct task_table *now, struct interference *out)
{
	long self = (long)getpid();

	out->nr_culprits = 0;
	for (size_t i = 0; i < now->nr; i++) {
		const struct task *t = &now->tasks[i], *was = task_find(then, t->pid);
		unsigned long long used;

		if (t->pid == self || t->pgrp == (long)im->group)
			continue;
		if (was && was->start == t->start)
			used = t->cpu > was->cpu ? t->cpu - was->cpu : 0;
		else if (t->start >= then->uptime_ticks)
			used = t->cpu;		/* started since: all of it is new */
		else
			continue;		/* missed by the first scan: unknown */
		if (!used || !may_run_on(t->pid, &im->cpus))
			continue;
		culprit_offer(out, t, (double)used / im->user_hz);
	}
}

/* Whether a task other than the caller is runnable now (/proc/loadavg). */
static bool others_runnable(void)
{
	char buf[128];
	int fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
	ssize_t n;
	int running = 0;

	if (fd < 0)
		return true;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return true;
	buf[n] = '\0';
	if (sscanf(buf, "%*f %*f %*f %d/", &running) != 1)
		return true;
	return running > 1;
}

/* ---- the monitor ---- */

struct interference_monitor *interference_open(const cpu_set_t *cpus, double max_share)
{
	struct interference_monitor *im = xcalloc(1, sizeof(*im));
	long hz = sysconf(_SC_CLK_TCK);

	im->stat_fd = -1;

	if (cpus)
		im->cpus = *cpus;
	else if (sched_getaffinity(0, sizeof(im->cpus), &im->cpus))
		goto fail;
	im->nr_cpus = (size_t)CPU_COUNT(&im->cpus);
	im->max_share = max_share;
	im->user_hz = hz > 0 ? (double)hz : 100;
	im->stat_fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	if (im->stat_fd < 0 || !im->nr_cpus)
		goto fail;
	im->before = xcalloc(im->nr_cpus, sizeof(*im->before));
	im->after = xcalloc(im->nr_cpus, sizeof(*im->after));
	/* A CPU of the set that /proc/stat does not show (offline) cannot be watched. */
	if (read_cpus(im, im->before))
		goto fail;
	return im;
fail:
	interference_close(im);
	return NULL;
}

void interference_close(struct interference_monitor *im)
{
	if (!im)
		return;
	if (im->stat_fd >= 0)
		close(im->stat_fd);
	free(im->text);
	free(im->before);
	free(im->after);
	free(im->snapshot.tasks);
	free(im);
}

bool interference_wait_quiet(struct interference_monitor *im, double max_seconds)
{
	double deadline = time_now() + max_seconds;

	while (im) {
		struct interference window;
		double self = time_process_cpu(), start = time_now();

		if (read_cpus(im, im->before))
			return false;
		time_sleep_until(start + QUIET_WINDOW);
		if (read_cpus(im, im->after))
			return false;
		interference_compute(im->before, im->after, im->nr_cpus, time_now() - start,
				     time_process_cpu() - self, im->max_share, im->user_hz,
				     &window);
		if (!window.disturbed)
			return true;
		if (time_now() + QUIET_WINDOW > deadline)
			return false;
	}
	return false;
}

void interference_before(struct interference_monitor *im, pid_t group)
{
	if (!im)
		return;
	im->group = group;
	if (im->last_disturbed || !im->snapshot.taken_at ||
	    time_now() - im->snapshot.taken_at > SNAPSHOT_MAX_AGE || others_runnable())
		task_table_scan(&im->snapshot, im->user_hz);
	/* last, so that the window holds the iteration and little else */
	im->before_time = time_now();
	im->have_before = !read_cpus(im, im->before);
}

void interference_after(struct interference_monitor *im, double own_cpu,
			struct interference *out)
{
	struct task_table now = { 0 };
	double wall;

	memset(out, 0, sizeof(*out));
	out->taken = out->steal = out->available = NAN;
	if (!im || !im->have_before)
		return;
	im->have_before = false;
	if (read_cpus(im, im->after))
		return;
	wall = time_now() - im->before_time;
	interference_compute(im->before, im->after, im->nr_cpus, wall, own_cpu,
			     im->max_share, im->user_hz, out);
	im->last_disturbed = out->disturbed;
	if (!out->disturbed)
		return;
	task_table_scan(&now, im->user_hz);
	find_culprits(im, &im->snapshot, &now, out);
	/* the scan just made is the freshest snapshot for the next iteration */
	free(im->snapshot.tasks);
	im->snapshot = now;
}

size_t interference_scan_tasks(struct interference_monitor *im)
{
	task_table_scan(&im->snapshot, im->user_hz);
	return im->snapshot.nr;
}

int interference_read_stat(struct interference_monitor *im)
{
	return read_cpus(im, im->after);
}

size_t interference_busy_tasks(double seconds, double min_share,
			       struct interference_culprit *out, size_t max, double *window)
{
	struct interference_monitor *im = interference_open(NULL, 0);
	struct task_table now = { 0 };
	struct interference found;
	size_t n = 0;
	double start;

	if (!im)
		return 0;
	/* every CPU: a busy task anywhere is worth knowing about */
	CPU_ZERO(&im->cpus);
	for (int c = 0; c < CPU_SETSIZE; c++)
		CPU_SET(c, &im->cpus);
	im->group = -1;
	start = time_now();
	task_table_scan(&im->snapshot, im->user_hz);
	time_sleep_until(start + seconds);
	task_table_scan(&now, im->user_hz);
	/* the scans take time too on a busy machine: the window is all of it */
	*window = time_now() - start;
	find_culprits(im, &im->snapshot, &now, &found);
	for (size_t i = 0; i < found.nr_culprits && n < max; i++)
		if (found.culprits[i].cpu >= min_share * *window)
			out[n++] = found.culprits[i];
	free(now.tasks);
	interference_close(im);
	return n;
}
