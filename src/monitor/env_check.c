// SPDX-License-Identifier: GPL-2.0
/*
 * `schedperf env --check`: each setup that makes numbers noisy or
 * misleading, with why it matters and how to fix it. Reads /proc and /sys
 * under a root that tests can point at a fake tree.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "monitor/env_check.h"
#include "monitor/interference.h"

/* A task busier than this share of one CPU over this many seconds is reported. */
#define BUSY_SAMPLE	0.5
#define BUSY_SHARE	0.2

struct checker {
	const char *root;
	struct env_finding *out;
	size_t max, nr;
};

static void finding(struct checker *c, const char *what, const char *why, const char *fix, ...)
	__attribute__((format(printf, 4, 5)));

static void finding(struct checker *c, const char *what, const char *why, const char *fix, ...)
{
	struct env_finding *f;
	va_list ap;

	if (c->nr++ >= c->max)
		return;
	f = &c->out[c->nr - 1];
	snprintf(f->what, sizeof(f->what), "%s", what);
	snprintf(f->why, sizeof(f->why), "%s", why);
	va_start(ap, fix);
	vsnprintf(f->fix, sizeof(f->fix), fix, ap);
	va_end(ap);
}

/* The first line of root/path, trimmed; "" when unreadable. */
static const char *read_line(const struct checker *c, const char *path, char *buf, size_t len)
{
	char full[512];
	FILE *f;

	snprintf(full, sizeof(full), "%s/%s", c->root, path);
	buf[0] = '\0';
	f = fopen(full, "re");
	if (!f)
		return buf;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static bool exists(const struct checker *c, const char *path)
{
	char full[512];

	snprintf(full, sizeof(full), "%s/%s", c->root, path);
	return access(full, F_OK) == 0;
}

/* Does root/path contain a line with @needle? */
static bool file_has(const struct checker *c, const char *path, const char *needle)
{
	char full[512], line[4096];
	bool found = false;
	FILE *f;

	snprintf(full, sizeof(full), "%s/%s", c->root, path);
	f = fopen(full, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, needle) != NULL;
	fclose(f);
	return found;
}

static void check_cpufreq(struct checker *c)
{
	char gov[64], boost[16], no_turbo[16];

	read_line(c, "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", gov, sizeof(gov));
	if (gov[0] && strcmp(gov, "performance"))
		finding(c, "cpufreq governor is not performance",
			"the frequency follows the load, so the same work takes different time "
			"from run to run and kernel to kernel (it can turn a verdict around)",
			"cpupower frequency-set -g performance, or echo performance > "
			"/sys/devices/system/cpu/cpu*/cpufreq/scaling_governor; now '%s'", gov);
	read_line(c, "sys/devices/system/cpu/cpufreq/boost", boost, sizeof(boost));
	if (!strcmp(boost, "1"))
		finding(c, "frequency boost is on",
			"boost depends on temperature and how many cores are busy, which "
			"adds noise", "echo 0 > /sys/devices/system/cpu/cpufreq/boost");
	read_line(c, "sys/devices/system/cpu/intel_pstate/no_turbo", no_turbo, sizeof(no_turbo));
	if (!strcmp(no_turbo, "0"))
		finding(c, "turbo is on",
			"turbo depends on temperature and how many cores are busy, which adds noise",
			"echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo");
}

static double load_average(const struct checker *c)
{
	char line[128];

	read_line(c, "proc/loadavg", line, sizeof(line));
	return line[0] ? atof(line) : 0;
}

static void check_load(struct checker *c)
{
	double load = load_average(c);
	char smt[16];

	if (load > 0.5)
		finding(c, "the machine is busy",
			"other load competes with the workload for CPUs and caches",
			"wait until the 1-minute load average (now %.2f) is below 0.5", load);
	read_line(c, "sys/devices/system/cpu/smt/active", smt, sizeof(smt));
	if (!strcmp(smt, "1") && load > 0.1)
		finding(c, "SMT siblings are shared with other load",
			"a busy hyperthread sibling slows the workload's thread on the same core",
			"stop other work, or run with --cpus on cores whose siblings are idle "
			"(see thread_siblings_list in /sys/devices/system/cpu/cpu*/topology)");
}

static long cpu_count(const struct checker *c)
{
	char full[512], line[256];
	long cpus = 0;
	FILE *f;

	snprintf(full, sizeof(full), "%s/proc/cpuinfo", c->root);
	f = fopen(full, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		cpus += !strncmp(line, "processor", 9) && isspace((unsigned char)line[9]);
	fclose(f);
	return cpus;
}

/* What interferes with iterations: a load beyond the CPUs, steal, busy tasks now. */
static void check_interference(struct checker *c)
{
	unsigned long long v[8] = { 0 }, total = 0;
	struct interference_culprit busy[3];
	double load = load_average(c), window;
	long cpus = cpu_count(c);
	char line[512];
	size_t n;

	if (cpus > 0 && load > (double)cpus)
		finding(c, "the load average is above the CPU count",
			"tasks wait for a CPU, so iterations are disturbed and their times "
			"include waiting", "wait until the 1-minute load average (now %.2f) is "
			"below %ld, or find what runs (top)", load, cpus);
	read_line(c, "proc/stat", line, sizeof(line));
	if (sscanf(line, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		   &v[3], &v[4], &v[5], &v[6], &v[7]) == 8) {
		for (int i = 0; i < 8; i++)
			total += v[i];
		if (total && (double)v[7] / (double)total > 0.01)
			finding(c, "the hypervisor steals CPU time",
				"other guests run on this machine's CPUs: iterations lose time "
				"they cannot account for",
				"run on dedicated vCPUs or bare metal; %.1f %% stolen since boot",
				100.0 * (double)v[7] / (double)total);
	}
	/* Busy tasks need two real samples: not under a test's fake root. */
	if (*c->root)
		return;
	n = interference_busy_tasks(BUSY_SAMPLE, BUSY_SHARE, busy, 3, &window);
	for (size_t i = 0; i < n; i++)
		finding(c, "another task is busy",
			"it takes CPU time that iterations would have, and disturbs them",
			"stop it or wait for it: %s (pid %ld) used %.0f %% of a CPU over %.1f s",
			busy[i].name, busy[i].pid, 100 * busy[i].cpu / window, window);
}

static void check_thp(struct checker *c)
{
	char thp[128];

	read_line(c, "sys/kernel/mm/transparent_hugepage/enabled", thp, sizeof(thp));
	if (strstr(thp, "[always]"))
		finding(c, "transparent huge pages are set to always",
			"khugepaged collapses pages in the background, so memory layout and TLB "
			"behaviour change between iterations and runs",
			"echo madvise > /sys/kernel/mm/transparent_hugepage/enabled (and keep it "
			"the same on every kernel you compare)");
}

static bool kernel_config_has(struct checker *c, const char *option)
{
	char release[128], path[256];

	read_line(c, "proc/sys/kernel/osrelease", release, sizeof(release));
	snprintf(path, sizeof(path), "boot/config-%s", release);
	return release[0] && file_has(c, path, option);
}

static void check_debugging(struct checker *c)
{
	char v[32];

	read_line(c, "proc/sys/kernel/latencytop", v, sizeof(v));
	if (!strcmp(v, "1"))
		finding(c, "latencytop is collecting",
			"its global lock serialises wakeups (a 51 % hackbench drop has been "
			"latencytop's, not the patch's)", "sysctl kernel.latencytop=0");
	read_line(c, "proc/sys/kernel/sched_schedstats", v, sizeof(v));
	if (!strcmp(v, "1"))
		finding(c, "schedstats are enabled",
			"scheduler statistics add work to every enqueue and wakeup",
			"sysctl kernel.sched_schedstats=0");
	if (exists(c, "proc/lockdep") || kernel_config_has(c, "CONFIG_PROVE_LOCKING=y"))
		finding(c, "lockdep is built in",
			"lock validation adds work to every lock operation",
			"test a kernel built without CONFIG_PROVE_LOCKING");
	if (exists(c, "sys/kernel/debug/kasan") || kernel_config_has(c, "CONFIG_KASAN=y"))
		finding(c, "KASAN is built in",
			"address sanitising slows every memory access several times",
			"test a kernel built without CONFIG_KASAN");
}

static void check_machine(struct checker *c)
{
	char hv[64];

	read_line(c, "sys/hypervisor/type", hv, sizeof(hv));
	if (hv[0] || file_has(c, "proc/cpuinfo", " hypervisor"))
		finding(c, "running inside a virtual machine",
			"steal time, vCPU scheduling by the host and emulated timers add "
			"noise the guest cannot see",
			"confirm results on bare metal, or pin the vCPUs on the host%s%s",
			hv[0] ? "; hypervisor: " : "", hv);
	if (cpu_count(c) == 1)
		finding(c, "fewer than 2 CPUs",
			"wakeup placement, migration and cross-CPU wakeups cannot happen, so "
			"most scheduler changes cannot show", "run on a machine with 2 or more CPUs");
}

size_t env_check(const char *root, struct env_finding *out, size_t max)
{
	struct checker c = { root ? root : "", out, max, 0 };

	check_cpufreq(&c);
	check_load(&c);
	check_interference(&c);
	check_thp(&c);
	check_debugging(&c);
	check_machine(&c);
	return c.nr;
}
