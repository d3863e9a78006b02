// SPDX-License-Identifier: GPL-2.0
/*
 * The workload's own tasks' knobs (task_knobs.h): checking their values,
 * and taking them with one sched_setattr() on the iteration's process.
 */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/sched.h>

#include "runner/task_knobs.h"
#include "util/cgroup.h"
#include "util/io.h"
#include "util/parse.h"
#include "util/strbuf.h"
#include "util/sysfile.h"

/*
 * sched_setattr()'s argument (include/uapi/linux/sched/types.h, whose
 * sched_param clashes with <sched.h>'s), up to the clamps (version 1).
 */
struct task_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
	uint32_t sched_util_min;
	uint32_t sched_util_max;
};

/* The kernel clamps a custom slice to 0.1 .. 100 ms (kernel/sched/syscalls.c). */
#define SLICE_MIN_US	100
#define SLICE_MAX_US	100000

static const struct {
	const char *name;
	int policy;
	bool realtime;
} policies[] = {
	{ "other", SCHED_OTHER, false },
	{ "batch", SCHED_BATCH, false },
	{ "idle", SCHED_IDLE, false },
	{ "fifo", SCHED_FIFO, true },
	{ "rr", SCHED_RR, true },
};

bool task_knob_kind(enum knob_kind kind)
{
	return kind == KNOB_POLICY || kind == KNOB_NICE || kind == KNOB_SLICE ||
	       kind == KNOB_UCLAMP;
}

static bool realtime(int policy)
{
	return policy == SCHED_FIFO || policy == SCHED_RR;
}

static const char *policy_name(int policy)
{
	for (size_t i = 0; i < sizeof(policies) / sizeof(policies[0]); i++)
		if (policies[i].policy == policy)
			return policies[i].name;
	return "?";
}

static int parse_policy(const char *value, int *policy, int *priority, struct error *err)
{
	const char *colon = strchr(value, ':');
	size_t len = colon ? (size_t)(colon - value) : strlen(value);
	long prio = 0;

	for (size_t i = 0; i < sizeof(policies) / sizeof(policies[0]); i++) {
		if (strlen(policies[i].name) != len || strncmp(policies[i].name, value, len))
			continue;
		if (policies[i].realtime &&
		    (!colon || parse_long(colon + 1, &prio) || prio < 1 || prio > 99))
			return error_set(err, EXIT_USAGE, "%s needs a priority from 1 to 99 "
					 "(give policy:%s:50)", policies[i].name, policies[i].name);
		if (policies[i].policy == SCHED_IDLE && colon)
			return error_set(err, EXIT_USAGE, "idle has no priority, and its tasks the "
					 "lowest weight whatever their nice level (give "
					 "policy:idle)");
		if (!policies[i].realtime && colon)
			return error_set(err, EXIT_USAGE, "%s has no priority (give "
					 "policy:%s, and nice: for its weight)",
					 policies[i].name, policies[i].name);
		*policy = policies[i].policy;
		*priority = (int)prio;
		return 0;
	}
	return error_set(err, EXIT_USAGE, "'%.32s' is no policy (give other, batch, idle, "
			 "fifo:PRIO or rr:PRIO)", value);
}

static int parse_uclamp(const char *value, int *min, int *max, struct error *err)
{
	const char *dash = strchr(value, '-');
	char first[32];
	long lo, hi;

	if (!dash || (size_t)(dash - value) >= sizeof(first))
		goto bad;
	snprintf(first, sizeof(first), "%.*s", (int)(dash - value), value);
	if (parse_long(first, &lo) || parse_long(dash + 1, &hi) || lo < 0 || hi > 1024 ||
	    lo > hi)
		goto bad;
	*min = (int)lo;
	*max = (int)hi;
	return 0;
bad:
	return error_set(err, EXIT_USAGE, "'%.32s' is not MIN-MAX with 0 <= MIN <= MAX <= "
			 "1024 (give uclamp:0-512)", value);
}

static int add_one(struct task_knobs *t, const struct knob *k, struct error *err)
{
	long n;

	switch (k->kind) {
	case KNOB_POLICY:
		t->policy_set = true;
		return parse_policy(k->value, &t->policy, &t->priority, err);
	case KNOB_NICE:
		if (parse_long(k->value, &n) || n < -20 || n > 19)
			return error_set(err, EXIT_USAGE, "'%.32s' is not a nice level from -20 "
					 "to 19 (give one of them, e.g. nice:5)", k->value);
		t->nice_set = true;
		t->nice = (int)n;
		return 0;
	case KNOB_SLICE:
		if (parse_long(k->value, &n) || n < SLICE_MIN_US || n > SLICE_MAX_US)
			return error_set(err, EXIT_USAGE, "'%.32s' is not a slice from %d to %d "
					 "microseconds, the kernel's range (give one within it, e.g. "
					 "slice:3000)", k->value,
					 SLICE_MIN_US, SLICE_MAX_US);
		t->slice_us = n;
		return 0;
	case KNOB_UCLAMP:
		t->uclamp_set = true;
		return parse_uclamp(k->value, &t->uclamp_min, &t->uclamp_max, err);
	default:
		return error_set(err, EXIT_INTERNAL, "not a task knob");
	}
}

/* Whether @one's value of @kind differs from @t's, which has one. */
static bool differs(const struct task_knobs *t, const struct task_knobs *one, enum knob_kind kind)
{
	switch (kind) {
	case KNOB_POLICY:
		return t->policy_set && (t->policy != one->policy || t->priority != one->priority);
	case KNOB_NICE:
		return t->nice_set && t->nice != one->nice;
	case KNOB_SLICE:
		return t->slice_us && t->slice_us != one->slice_us;
	default:
		return t->uclamp_set && (t->uclamp_min != one->uclamp_min ||
					 t->uclamp_max != one->uclamp_max);
	}
}

int task_knobs_add(struct task_knobs *t, const struct knob *k, struct error *err)
{
	struct task_knobs one = { 0 };

	if (add_one(&one, k, err))
		return -1;
	if (differs(t, &one, k->kind))
		return error_set(err, EXIT_USAGE, "two values of one knob (give it once)");
	add_one(t, k, err);
	if (t->slice_us && t->policy_set && realtime(t->policy))
		return error_set(err, EXIT_USAGE, "slice: is the fair class's and policy %s has "
				 "none (give policy:other or batch, or no slice:)",
				 policy_name(t->policy));
	/* the kernel takes sched_runtime for other and batch only (fair_policy()) */
	if (t->slice_us && t->policy_set && t->policy == SCHED_IDLE)
		return error_set(err, EXIT_USAGE, "slice: is not taken by policy idle, whose "
				 "tasks keep the default slice (give policy:other or batch, or "
				 "no slice:)");
	/* the kernel weighs SCHED_IDLE's tasks WEIGHT_IDLEPRIO, whatever their nice */
	if (t->nice_set && t->policy_set && t->policy == SCHED_IDLE)
		return error_set(err, EXIT_USAGE, "nice: weighs the fair class's tasks and policy "
				 "idle's have the lowest weight whatever their nice level (give "
				 "policy:other or batch, or no nice:)");
	if (t->nice_set && t->policy_set && realtime(t->policy))
		return error_set(err, EXIT_USAGE, "nice: weighs the fair class's tasks and "
				 "policy %s has none (give its priority instead)",
				 policy_name(t->policy));
	return 0;
}

bool task_knobs_same(const struct task_knobs *a, const struct task_knobs *b)
{
	return a->policy_set == b->policy_set &&
	       (!a->policy_set || (a->policy == b->policy && a->priority == b->priority)) &&
	       a->nice_set == b->nice_set && (!a->nice_set || a->nice == b->nice) &&
	       a->slice_us == b->slice_us && a->uclamp_set == b->uclamp_set &&
	       (!a->uclamp_set || (a->uclamp_min == b->uclamp_min &&
				   a->uclamp_max == b->uclamp_max));
}

void task_knobs_describe(const struct task_knobs *t, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	if (t->policy_set && realtime(t->policy))
		used += (size_t)snprintf(buf + used, len - used, "policy=%s:%d\n",
					 policy_name(t->policy), t->priority);
	else if (t->policy_set)
		used += (size_t)snprintf(buf + used, len - used, "policy=%s\n",
					 policy_name(t->policy));
	if (t->nice_set && used < len)
		used += (size_t)snprintf(buf + used, len - used, "nice=%d\n", t->nice);
	if (t->slice_us && used < len)
		used += (size_t)snprintf(buf + used, len - used, "slice=%ld\n", t->slice_us);
	if (t->uclamp_set && used < len)
		snprintf(buf + used, len - used, "uclamp=%d-%d\n", t->uclamp_min, t->uclamp_max);
}

static bool changes_scheduling(const struct task_knobs *t)
{
	return t->policy_set || t->nice_set || t->slice_us || t->uclamp_set;
}

/* The attributes the tasks get: this process's, with the knobs' changes. */
static int wanted_attr(const struct task_knobs *t, struct task_sched_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	if (syscall(SYS_sched_getattr, 0, attr, sizeof(*attr), 0))
		return -1;
	attr->size = sizeof(*attr);
	attr->sched_flags = 0;
	if (t->policy_set) {
		attr->sched_policy = (unsigned int)t->policy;
		attr->sched_priority = (unsigned int)t->priority;
		if (realtime(t->policy))
			attr->sched_nice = 0;
	}
	if (t->nice_set)
		attr->sched_nice = t->nice;
	if (!realtime((int)attr->sched_policy))
		attr->sched_runtime = (uint64_t)t->slice_us * 1000;
	if (t->uclamp_set) {
		attr->sched_flags |= SCHED_FLAG_UTIL_CLAMP_MIN | SCHED_FLAG_UTIL_CLAMP_MAX;
		attr->sched_util_min = (uint32_t)t->uclamp_min;
		attr->sched_util_max = (uint32_t)t->uclamp_max;
	}
	return 0;
}

static int refusal(const struct task_knobs *t, int e, struct error *err)
{
	if (e == EOPNOTSUPP && t->uclamp_set)
		return error_set(err, EXIT_ENV, "uclamp: this kernel has no utilization clamping "
				 "(it is built without CONFIG_UCLAMP_TASK)");
	/*
	 * The trial, outside the cgroups, was permitted: it is the cgroup that
	 * is not (CONFIG_RT_GROUP_SCHED, a new v1 cpu cgroup's cpu.rt_runtime_us is 0).
	 */
	if (e == EPERM && t->policy_set && realtime(t->policy) && t->nr_cgroups)
		return error_set(err, EXIT_USAGE, "policy %s: not permitted in a cgroup without "
				 "real-time runtime, as a new cpu cgroup is (give its cgroup "
				 "some, e.g. cgroup:cpu.rt_runtime_us=10000, or no cgroup:)",
				 policy_name(t->policy));
	if (e == EPERM)
		return error_set(err, EXIT_ENV, "policy, nice, slice or uclamp: not permitted "
				 "here: %s (run as root, or with CAP_SYS_NICE)", strerror(e));
	return error_set(err, EXIT_ENV, "policy, nice, slice or uclamp: this kernel refuses "
			 "them: %s (leave them out on this kernel)", strerror(e));
}

int task_knobs_apply(const struct task_knobs *t, struct error *err)
{
	struct task_sched_attr attr;

	for (size_t i = 0; i < t->nr_cgroups; i++) {
		struct cgroup cg = { .version = CGROUP_V1 };

		snprintf(cg.dir, sizeof(cg.dir), "%s", t->cgroups[i]);
		if (cgroup_attach(&cg, 0, err))
			return -1;
	}
	if (!changes_scheduling(t))
		return 0;
	if (wanted_attr(t, &attr) || syscall(SYS_sched_setattr, 0, &attr, 0))
		return refusal(t, errno, err);
	return 0;
}

/*
 * In the trial child: take them and read the slice back; exit with the
 * errno, 255 ignored, 254 not taken under SCHED_IDLE.
 */
static void __attribute__((noreturn)) trial(const struct task_knobs *t)
{
	struct task_sched_attr attr, back;

	if (wanted_attr(t, &attr))
		_exit(errno > 0 && errno < 254 ? errno : EINVAL);
	/* inherited, not given (task_knobs_add() refuses policy:idle with slice:) */
	if (t->slice_us && attr.sched_policy == SCHED_IDLE)
		_exit(254);
	if (syscall(SYS_sched_setattr, 0, &attr, 0))
		_exit(errno > 0 && errno < 254 ? errno : EINVAL);
	memset(&back, 0, sizeof(back));
	if (t->slice_us && (syscall(SYS_sched_getattr, 0, &back, sizeof(back), 0) ||
			    back.sched_runtime != attr.sched_runtime))
		_exit(255);
	_exit(0);
}

int task_knobs_check(const struct task_knobs *t, struct error *err)
{
	int status = 0;
	pid_t pid;

	if (!changes_scheduling(t))
		return 0;
	pid = fork();
	if (pid < 0)
		return error_set(err, EXIT_ENV, "cannot fork to try the task knobs: %s "
				 "(free some memory, or raise the process limit, 'ulimit -u')",
				 strerror(errno));
	if (pid == 0)
		trial(t);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status))
		return error_set(err, EXIT_INTERNAL, "the trial of the task knobs died");
	if (WEXITSTATUS(status) == 254)
		return error_set(err, EXIT_USAGE, "slice: the tasks would run under SCHED_IDLE, "
				 "this process's policy, whose tasks keep the default slice (give "
				 "policy:other or batch beside it, or no slice:)");
	if (WEXITSTATUS(status) == 255)
		return error_set(err, EXIT_ENV, "slice: this kernel takes no custom slice for "
				 "the fair class (sched_runtime of SCHED_NORMAL came with Linux "
				 "6.12)");
	if (WEXITSTATUS(status))
		return refusal(t, WEXITSTATUS(status), err);
	return 0;
}

/* The "oom_kill N" line of a memory controller's file in @dir, or 0. */
static long oom_kill_count(const char *dir, const char *file)
{
	struct strbuf sb = STRBUF_INIT;
	char path[PATH_MAX + 32];
	const char *line;
	long n = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (!sysfile_read(path, &sb) && sb.buf) {
		for (line = sb.buf; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
			if (!strncmp(line, "oom_kill ", 9)) {
				n = strtol(line + 9, NULL, 10);
				break;
			}
	}
	strbuf_release(&sb);
	return n;
}

long task_knobs_oom_kills(const struct task_knobs *t)
{
	long n = 0;

	for (size_t i = 0; t && i < t->nr_cgroups; i++)
		n += oom_kill_count(t->cgroups[i], "memory.events") +
		     oom_kill_count(t->cgroups[i], "memory.oom_control");
	return n;
}
