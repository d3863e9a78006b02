// SPDX-License-Identifier: GPL-2.0
/*
 * The environment recorded with each batch: kernel, CPU, frequency
 * scaling, scheduler settings, mitigations, memory and load, each key
 * absent when this machine does not have it.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "monitor/environment.h"
#include "monitor/topology.h"
#include "util/array.h"
#include "util/machine.h"
#include "util/strbuf.h"

/* Files whose whole (trimmed) contents are one environment value. */
static const struct {
	const char *key;
	const char *path;
} env_files[] = {
	{ "kernel.cmdline", "/proc/cmdline" },
	{ "cpufreq.driver", "/sys/devices/system/cpu/cpu0/cpufreq/scaling_driver" },
	{ "cpufreq.governor", "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor" },
	{ "cpufreq.boost", "/sys/devices/system/cpu/cpufreq/boost" },
	{ "intel_pstate.no_turbo", "/sys/devices/system/cpu/intel_pstate/no_turbo" },
	{ "cpuidle.driver", "/sys/devices/system/cpu/cpuidle/current_driver" },
	{ "smt.active", "/sys/devices/system/cpu/smt/active" },
	{ "smt.control", "/sys/devices/system/cpu/smt/control" },
	{ "cpus.online", "/sys/devices/system/cpu/online" },
	{ "thp.enabled", "/sys/kernel/mm/transparent_hugepage/enabled" },
	{ "thp.defrag", "/sys/kernel/mm/transparent_hugepage/defrag" },
	{ "sysctl.kernel.randomize_va_space", "/proc/sys/kernel/randomize_va_space" },
	{ "sysctl.kernel.sched_autogroup_enabled", "/proc/sys/kernel/sched_autogroup_enabled" },
	{ "sysctl.kernel.sched_schedstats", "/proc/sys/kernel/sched_schedstats" },
	{ "sysctl.kernel.sched_rt_runtime_us", "/proc/sys/kernel/sched_rt_runtime_us" },
	{ "sysctl.kernel.latencytop", "/proc/sys/kernel/latencytop" },
	{ "sysctl.kernel.numa_balancing", "/proc/sys/kernel/numa_balancing" },
	{ "sysctl.kernel.threads-max", "/proc/sys/kernel/threads-max" },
	{ "sched.preempt", "/sys/kernel/debug/sched/preempt" },
	{ "sched.features", "/sys/kernel/debug/sched/features" },
	{ "loadavg", "/proc/loadavg" },
	/* which machine, beside its host name: names are reused, ids are not */
	{ "machine.id", "/etc/machine-id" },
};

/* Read a small file, trimmed of trailing white space; NULL when unreadable. */
static char *read_value(const char *path)
{
	FILE *f = fopen(path, "re");
	struct strbuf sb = STRBUF_INIT;
	char chunk[512];
	size_t n;

	if (!f)
		return NULL;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0 && sb.len < 16384)
		strbuf_add(&sb, chunk, n);
	fclose(f);
	if (!sb.buf)
		return NULL;
	while (sb.len && isspace((unsigned char)sb.buf[sb.len - 1]))
		sb.buf[--sb.len] = '\0';
	for (size_t i = 0; i < sb.len; i++)
		if (sb.buf[i] == '\n')
			sb.buf[i] = ' ';
	return strbuf_detach(&sb);
}

/* The first "key : value" line of /proc/cpuinfo or /proc/meminfo with @field. */
static char *proc_field(const char *path, const char *field)
{
	FILE *f = fopen(path, "re");
	char line[1024], *value = NULL;
	size_t len = strlen(field);

	if (!f)
		return NULL;
	while (!value && fgets(line, sizeof(line), f)) {
		char *p;

		if (strncmp(line, field, len) || !(p = strchr(line, ':')))
			continue;
		for (p++; isspace((unsigned char)*p); p++)
			;
		p[strcspn(p, "\n")] = '\0';
		value = strdup(p);
	}
	fclose(f);
	return value;
}

static void add_owned(struct result_batch *batch, const char *key, char *value)
{
	if (value)
		result_batch_add_env(batch, key, value);
	free(value);
}

/* "Mitigation: ..." lines of every vulnerability, as one value. */
static void add_mitigations(struct result_batch *batch)
{
	static const char *const names[] = {
		"meltdown", "spectre_v1", "spectre_v2", "spec_store_bypass", "l1tf", "mds",
		"retbleed", "srbds", "mmio_stale_data", "gather_data_sampling",
		"spec_rstack_overflow", "reg_file_data_sampling", NULL,
	};
	struct strbuf sb = STRBUF_INIT;

	for (const char *const *n = names; *n; n++) {
		char path[256], *v;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/vulnerabilities/%s", *n);
		v = read_value(path);
		if (!v)
			continue;
		strbuf_addf(&sb, "%s%s=%s", sb.len ? "; " : "", *n, v);
		free(v);
	}
	if (sb.len)
		result_batch_add_env(batch, "mitigations", sb.buf);
	strbuf_release(&sb);
}

static void add_preempt_from_version(struct result_batch *batch, const char *version)
{
	const char *mode = strstr(version, "PREEMPT_RT") ? "rt" :
			   strstr(version, "PREEMPT_DYNAMIC") ? "dynamic" :
			   strstr(version, "PREEMPT") ? "full" : "none";

	result_batch_add_env(batch, "kernel.preempt_build", mode);
}

/* "POLL C1 C1E C6": the idle states a CPU may enter, as cpuidle names them. */
static void add_cpuidle_states(struct result_batch *batch)
{
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < 32; i++) {
		char path[128], *name;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cpuidle/state%d/name", i);
		name = read_value(path);
		if (!name)
			break;
		strbuf_addf(&sb, "%s%s", sb.len ? " " : "", name);
		free(name);
	}
	if (sb.len)
		result_batch_add_env(batch, "cpuidle.states", sb.buf);
	strbuf_release(&sb);
}

static void add_topology(struct result_batch *batch)
{
	struct topology topo;
	char buf[160];

	if (topology_read(&topo, NULL, NULL))
		return;
	snprintf(buf, sizeof(buf), "%d CPUs, %d per core, %d per LLC, %d per node; "
		 "%d cores, %d LLCs, %d nodes", topo.cpus, topo.smt, topo.llc, topo.node,
		 topo.nr_cores, topo.nr_llcs, topo.nr_nodes);
	result_batch_add_env(batch, "cpu.topology", buf);
}

void environment_collect(struct result_batch *batch)
{
	struct utsname uts;
	char buf[64];
	char name[256];

	if (!uname(&uts)) {
		result_batch_add_env(batch, "kernel.version", uts.version);
		result_batch_add_env(batch, "machine.arch", uts.machine);
		add_preempt_from_version(batch, uts.version);
	}
	/* what a simulated machine of the tests says of itself (util/machine.h) */
	machine_release(name, sizeof(name));
	if (*name)
		result_batch_add_env(batch, "kernel.release", name);
	machine_host_name(name, sizeof(name));
	if (*name)
		result_batch_add_env(batch, "machine.hostname", name);
	if (machine_simulated()) {
		machine_identity(name, sizeof(name));
		result_batch_add_env(batch, "machine.id", name);
	}
	for (size_t i = 0; i < ARRAY_SIZE(env_files); i++)
		if (!machine_simulated() || strcmp(env_files[i].key, "machine.id"))
			add_owned(batch, env_files[i].key, read_value(env_files[i].path));
	add_owned(batch, "cpu.model", proc_field("/proc/cpuinfo", "model name"));
	add_owned(batch, "memory.total", proc_field("/proc/meminfo", "MemTotal"));
	snprintf(buf, sizeof(buf), "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	result_batch_add_env(batch, "cpus.count", buf);
	add_mitigations(batch);
	add_cpuidle_states(batch);
	add_topology(batch);
	result_batch_add_env(batch, "schedperf.version", SCHEDPERF_VERSION);
	result_batch_sort_env(batch);
}
