// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for ab's knobs (src/runner/knobs.c, knob_sysctl.c,
 * knob_feature.c, knob_sysfs.c, knob_cgroup.c, task_knobs.c): every
 * spelling of a sysctl or of a file under /sys is one name, what names
 * neither or leaves /sys is refused, cpus: keeps its CPU list whole, the
 * tasks' knobs take only values the kernel can, and the kinds of machine
 * setting are found by name, and a list's hash is its knobs' whatever
 * their order. What the kernel makes of the tasks' knobs is
 * read back inside the workload's tasks by tests/cli/knobs.bats.
 */
#include <glob.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "runner/cpulist.h"
#include "runner/knob_cgroup.h"
#include "runner/knob_session.h"
#include "runner/knobs.h"
#include "runner/task_knobs.h"
#include "util/array.h"
#include "util/hash.h"

/* The one knob of @spec, which must parse: its name and value. */
static void parse_one(const char *spec, enum knob_kind kind, const char *name,
		      const char *value)
{
	struct knob_list list = { NULL, 0 };
	struct error err = { 0 };

	if (knobs_parse(&list, spec, "--a", &err))
		fail_msg("%s: %s", spec, err.msg);
	assert_int_equal(list.nr, 1);
	assert_int_equal(list.knobs[0].kind, kind);
	if (name)
		assert_string_equal(list.knobs[0].name, name);
	else
		assert_null(list.knobs[0].name);
	assert_string_equal(list.knobs[0].value, value);
	knobs_release(&list);
}

static void refused(const char *spec, const char *why)
{
	struct knob_list list = { NULL, 0 };
	struct error err = { 0 };

	assert_int_equal(knobs_parse(&list, spec, "--a", &err), -1);
	assert_int_equal(err.code, EXIT_USAGE);
	if (!strstr(err.msg, why))
		fail_msg("%s: '%s' does not say '%s'", spec, err.msg, why);
	knobs_release(&list);
}

static void test_sysctl_spellings(void **state)
{
	static const char *const same[] = {
		"sysctl:kernel.sched_autogroup_enabled=0",
		"sysctl:.kernel.sched_autogroup_enabled=0",
		"sysctl:kernel.sched_autogroup_enabled.=0",
		"sysctl:kernel..sched_autogroup_enabled=0",
		"sysctl:kernel/sched_autogroup_enabled=0",
		"sysctl:kernel/./sched_autogroup_enabled=0",
		"sysctl:kernel//sched_autogroup_enabled/=0",
		"sysctl:/proc/sys/kernel/sched_autogroup_enabled=0",
		"sysctl:/proc/sys/./kernel/sched_autogroup_enabled=0",
	};

	for (size_t i = 0; i < ARRAY_SIZE(same); i++)
		parse_one(same[i], KNOB_MACHINE, "kernel.sched_autogroup_enabled", "0");
	/* A part that holds a dot keeps the slashes that tell the parts apart. */
	parse_one("sysctl:net/ipv4/conf/eth0.1/forwarding=1", KNOB_MACHINE,
		  "net/ipv4/conf/eth0.1/forwarding", "1");
	parse_one("sysctl:/proc/sys/net/ipv4/conf/eth0.1/./forwarding=1", KNOB_MACHINE,
		  "net/ipv4/conf/eth0.1/forwarding", "1");
	parse_one("sysctl:net.ipv4.tcp_rmem=4096 131072 6291456", KNOB_MACHINE,
		  "net.ipv4.tcp_rmem", "4096 131072 6291456");
}

static void test_sysctl_refusals(void **state)
{
	refused("sysctl:/etc/passwd=1", "a path outside /proc/sys/");
	refused("sysctl:/proc/sysx/kernel/x=1", "a path outside /proc/sys/");
	refused("sysctl:kernel/../kernel/x=1", "is not a sysctl's name");
	refused("sysctl:/proc/sys/../../etc/passwd=1", "is not a sysctl's name");
	refused("sysctl:kernel.x y=1", "is not a sysctl's name");
	refused("sysctl:./.=1", "names no sysctl");
	refused("sysctl:/proc/sys/=1", "names no sysctl");
	refused("sysctl:kernel.x", "needs NAME=VALUE");
	refused("sysctl:=1", "needs NAME=VALUE");
	refused("sysctl:kernel.x=", "the value is empty");
}

/*
 * A well-formed name this kernel lacks is the machine's lack (exit 3, as
 * a sysfs: file's); a directory of sysctls is no sysctl (exit 2).
 */
static void test_sysctl_read(void **state)
{
	struct error err = { 0 };
	char *value = NULL;

	assert_int_equal(knob_sysctl.read("kernel.no_such_sysctl_ever", false, &value, &err), -1);
	assert_int_equal(err.code, EXIT_ENV);
	assert_non_null(strstr(err.msg, "this machine has no sysctl kernel.no_such_sysctl_ever"));
	assert_null(value);
	if (access("/proc/sys/kernel", F_OK))
		skip();
	memset(&err, 0, sizeof(err));
	assert_int_equal(knob_sysctl.read("kernel", false, &value, &err), -1);
	assert_int_equal(err.code, EXIT_USAGE);
	assert_non_null(strstr(err.msg, "is a directory of sysctls"));
}

static void test_features(void **state)
{
	parse_one("feature:TTWU_QUEUE", KNOB_MACHINE, "TTWU_QUEUE", "TTWU_QUEUE");
	parse_one("feature:NO_TTWU_QUEUE", KNOB_MACHINE, "TTWU_QUEUE", "NO_TTWU_QUEUE");
	refused("feature:NO_", "not a feature's name");
	refused("feature:A-B", "not a feature's name");
}

static void test_cpus_list(void **state)
{
	struct knob_list list = { NULL, 0 };
	struct error err = { 0 };

	parse_one("cpus:0,1", KNOB_CPUS, NULL, "0,1");
	parse_one("cpus:0-1,4,6-7", KNOB_CPUS, NULL, "0-1,4,6-7");
	/* A bare number or range after a comma continues the value before it. */
	assert_int_equal(knobs_parse(&list, "cpus:0,1,env:X=2,3", "--a", &err), 0);
	assert_int_equal(list.nr, 2);
	assert_string_equal(list.knobs[1].value, "2,3");
	knobs_release(&list);
	assert_int_equal(knobs_parse(&list, "cgroup:cpuset.cpus=0,1-2,cpus:0", "--a", &err), 0);
	assert_int_equal(list.nr, 2);
	assert_string_equal(list.knobs[0].value, "0,1-2");
	knobs_release(&list);
	/* What is neither a number nor a knob is refused. */
	assert_int_equal(knobs_parse(&list, "cpus:0,1,x", "--a", &err), -1);
	assert_non_null(strstr(err.msg, "'x' is not a knob"));
	knobs_release(&list);
	assert_int_equal(knobs_parse(&list, "cpus:0,1,env:X=2", "--a", &err), 0);
	assert_int_equal(list.nr, 2);
	assert_string_equal(list.knobs[0].value, "0,1");
	assert_int_equal(list.knobs[1].kind, KNOB_ENV);
	knobs_release(&list);
	refused("cpus:0,1-", "'1-' is not a knob");
	refused("cpus:0,-1", "'-1' is not a knob");
	refused("cpus:", "has no value (write it as cpus:LIST");
}

/* A set in the kernel's spelling, and that spelling read back is the set. */
static void formats_as(const char *list, const char *expected)
{
	struct error err = { 0 };
	cpu_set_t set, again;
	char *text;

	assert_int_equal(cpulist_parse_form(list, NULL, &set, &err), 0);
	text = cpulist_format(&set);
	assert_string_equal(text, expected);
	assert_int_equal(cpulist_parse_form(text, NULL, &again, &err), 0);
	assert_true(CPU_EQUAL(&set, &again));
	free(text);
}

static void test_cpulist_format(void **state)
{
	cpu_set_t none;
	char *text;

	formats_as("0", "0");
	formats_as("0,1", "0-1");
	formats_as("1,0", "0-1");
	formats_as("0,2", "0,2");
	formats_as("8,0-3", "0-3,8");
	formats_as("0-1,1-2,5,6,7,9", "0-2,5-7,9");
	formats_as("1023", "1023");
	formats_as("0-1023", "0-1023");
	CPU_ZERO(&none);
	text = cpulist_format(&none);
	assert_string_equal(text, "");
	free(text);
}

/*
 * A CPU at or beyond CPU_SETSIZE is well-formed but beyond the set: said
 * so, with the limit, not as "not a CPU number". So is one no long holds.
 */
static void test_cpulist_beyond(void **state)
{
	static const char *const beyond[] = {
		"1024", "0,1024", "0-2000", "2000", "99999999999999999999",
		"0-999999999999999999999999999",
	};
	struct error err = { 0 };
	cpu_set_t set;

	for (size_t i = 0; i < ARRAY_SIZE(beyond); i++) {
		memset(&err, 0, sizeof(err));
		assert_int_equal(cpulist_parse_form(beyond[i], "--cpus", &set, &err), -1);
		assert_int_equal(err.code, EXIT_USAGE);
		assert_non_null(strstr(err.msg, "it names a CPU beyond the 1024 CPUs schedperf "
				       "can address (give CPUs 0 to 1023)"));
	}
	assert_int_equal(cpulist_parse_form("1023", "--cpus", &set, &err), 0);
	assert_true(CPU_ISSET(1023, &set));
	/* still malformed, and still downwards, whatever the numbers */
	assert_int_equal(cpulist_parse_form("1024x", NULL, &set, &err), -1);
	assert_non_null(strstr(err.msg, "not a CPU number or range"));
	assert_int_equal(cpulist_parse_form("2000-1", NULL, &set, &err), -1);
	assert_non_null(strstr(err.msg, "a range goes downwards"));
	assert_null(cpulist_canonical("99999999999999999999-1"));
	assert_null(cpulist_canonical("1024"));
}

/* knob_session_side() with one side's SPEC; the session's error in @err. */
static int side_of(const char *spec, struct knob_list *list, struct knob_session *ks,
		   struct error *err)
{
	knob_session_init(ks, 1, "ab");
	assert_int_equal(knobs_parse(list, spec, "ab: --a", err), 0);
	return knob_session_side(ks, 0, list, "a", "ab: --a", err);
}

static void test_cpus_within_cpuset(void **state)
{
	static const struct {
		const char *spec;
		bool inside;
	} cases[] = {
		{ "cpus:1,cgroup:cpuset.cpus=0-1", true },
		{ "cgroup:cpuset.cpus=0-1,cpus:1,0", true },
		{ "cpus:0-3,cgroup:cpuset.cpus=0-1,2-3", true },
		{ "cpus:0,cgroup:cpuset.cpus=1", false },
		{ "cpus:0-1,cgroup:cpuset.cpus=1", false },
		{ "cgroup:cpuset.cpus=2,cpus:0-1", false },
		/* without a cpuset, or a cpuset without cpus:, nothing to check */
		{ "cpus:5,cgroup:cpuset.mems=0", true },
		{ "cgroup:cpuset.cpus=1", true },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct knob_list list = { NULL, 0 };
		struct knob_session ks;
		struct error err = { 0 };
		int rc = side_of(cases[i].spec, &list, &ks, &err);

		if (cases[i].inside) {
			assert_int_equal(rc, 0);
		} else {
			assert_int_equal(rc, -1);
			assert_int_equal(err.code, EXIT_USAGE);
			assert_non_null(strstr(err.msg, "ab: --a cpus:"));
			assert_non_null(strstr(err.msg, "is not inside cgroup:cpuset.cpus="));
		}
		knob_session_release(&ks);
		knobs_release(&list);
	}
	/* run's --cpus, beside its --knob */
	{
		struct knob_list list = { NULL, 0 };
		struct knob_session ks;
		struct error err = { 0 };

		assert_int_equal(side_of("cgroup:cpuset.cpus=1", &list, &ks, &err), 0);
		assert_int_equal(knob_session_cpus(&ks, 0, "1", "run: --cpus ", &err), 0);
		assert_int_equal(knob_session_cpus(&ks, 0, "0", "run: --cpus ", &err), -1);
		assert_string_equal(err.msg, "run: --cpus 0 is not inside cgroup:cpuset.cpus=1: "
				    "the cpuset would run the tasks on its own CPUs, not on these "
				    "(give CPUs within 1, or leave one of the two out)");
		knob_session_release(&ks);
		knobs_release(&list);
	}
}

static void test_other_knobs(void **state)
{
	parse_one("param:mode=thread", KNOB_PARAM, "mode", "thread");
	parse_one("env:AB=a", KNOB_ENV, "AB", "a");
	parse_one("cmd:./prog --x,y", KNOB_CMD, NULL, "./prog --x,y");
	refused("env:1X=a", "is not a variable's name");
	refused("param:=a", "needs NAME=VALUE");
	refused("bogus:1", "is not a knob (give sysctl:NAME=VALUE, sysfs:PATH=VALUE, "
		"feature:[NO_]NAME, procfs:PATH=VALUE, governor:NAME, cpus:LIST, "
		"param:KEY=VALUE, env:VAR=VALUE, cmd:PROGRAM ARGS, "
		"policy:other|batch|idle|fifo:PRIO|rr:PRIO, nice:N, slice:USEC, "
		"uclamp:MIN-MAX or cgroup:CONTROLLER.FILE=VALUE)");
	refused("sysctlx:a=1", "is not a knob");
}

static void test_kinds_by_name(void **state)
{
	assert_ptr_equal(knob_setting_find("sysctl"), &knob_sysctl);
	assert_ptr_equal(knob_setting_find("feature"), &knob_feature);
	assert_ptr_equal(knob_setting_find("sysfs"), &knob_sysfs);
	assert_ptr_equal(knob_setting_find("scratch-cgroup"), &knob_scratch_cgroup);
	assert_null(knob_setting_find("cpus"));
	assert_null(knob_setting_find("cgroup"));
	assert_null(knob_setting_find("procfs"));
}

/* The one machine setting of @spec: its kind, name and value. */
static void parse_machine(const char *spec, const struct knob_setting *kind, const char *name,
			  const char *value)
{
	struct knob_list list = { NULL, 0 };
	struct error err = { 0 };

	if (knobs_parse(&list, spec, "run: --knob", &err))
		fail_msg("%s: %s", spec, err.msg);
	assert_int_equal(list.nr, 1);
	assert_ptr_equal(list.knobs[0].setting, kind);
	assert_string_equal(list.knobs[0].name, name);
	assert_string_equal(list.knobs[0].value, value);
	knobs_release(&list);
}

/* procfs: is a sysctl by its path: one setting, whichever is given. */
static void test_procfs(void **state)
{
	parse_machine("procfs:/proc/sys/kernel/sched_autogroup_enabled=0", &knob_sysctl,
		      "kernel.sched_autogroup_enabled", "0");
	parse_machine("procfs:kernel/./sched_autogroup_enabled=1", &knob_sysctl,
		      "kernel.sched_autogroup_enabled", "1");
	refused("procfs:/proc/meminfo=1", "a path outside /proc/sys/");
	refused("procfs:/proc/sys/../self/environ=1", "is not a sysctl's name");
}

static void test_sysfs_spellings(void **state)
{
	char real[PATH_MAX], spec[PATH_MAX + 16];

	/* Lexically, where nothing exists to resolve. */
	parse_machine("sysfs:/sys/nosuch//./file=1", &knob_sysfs, "/sys/nosuch/file", "1");
	parse_machine("sysfs:nosuch/file=a b", &knob_sysfs, "/sys/nosuch/file", "a b");
	/* Through sysfs's links: /sys/class/net/lo is a link into /sys/devices. */
	if (!realpath("/sys/class/net/lo/mtu", real))
		skip();
	parse_machine("sysfs:/sys/class/net/lo/mtu=65536", &knob_sysfs, real, "65536");
	parse_machine("sysfs:class/net/./lo//mtu=65536", &knob_sysfs, real, "65536");
	/* Its own spelling is itself. */
	snprintf(spec, sizeof(spec), "sysfs:%s=1", real);
	parse_machine(spec, &knob_sysfs, real, "1");
}

static void test_sysfs_refusals(void **state)
{
	refused("sysfs:/etc/passwd=1", "a path outside /sys/");
	refused("sysfs:/sysx/a=1", "a path outside /sys/");
	refused("sysfs:/sys/../etc/passwd=1", "'..'");
	refused("sysfs:kernel/../../etc/passwd=1", "'..'");
	refused("sysfs:/sys/=1", "names no file under /sys");
	refused("sysfs:/sys/kernel/x", "needs PATH=VALUE");
	refused("sysfs:/sys/kernel/x=", "the value is empty");
}

/* A file that shows its choices has the bracketed one as its value. */
static void test_sysfs_choice(void **state)
{
	char *value = NULL;
	struct error err = { 0 };
	glob_t g;

	if (glob("/sys/kernel/mm/transparent_hugepage/enabled", 0, NULL, &g)) {
		globfree(&g);
		skip();
	}
	globfree(&g);
	assert_int_equal(knob_sysfs.read("/sys/kernel/mm/transparent_hugepage/enabled", false,
					 &value, &err), 0);
	assert_true(!strcmp(value, "always") || !strcmp(value, "madvise") ||
		    !strcmp(value, "never"));
	free(value);
	assert_int_equal(knob_sysfs.read("/sys/nosuch/file", false, &value, &err), -1);
	assert_int_equal(err.code, EXIT_ENV);
}

/* governor: a knob per cpufreq policy, or refused where there is none. */
static void test_governor(void **state)
{
	struct knob_list list = { NULL, 0 };
	struct error err = { 0 };
	glob_t g;
	int none = glob("/sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor", 0, NULL,
			&g);

	globfree(&g);
	refused("governor:per formance", "not a governor's name");
	if (none) {
		assert_int_equal(knobs_parse(&list, "governor:performance", "--a", &err), -1);
		assert_int_equal(err.code, EXIT_ENV);
		assert_non_null(strstr(err.msg, "no CPU here has a cpufreq governor"));
		return;
	}
	assert_int_equal(knobs_parse(&list, "governor:performance", "--a", &err), 0);
	assert_true(list.nr >= 1);
	for (size_t i = 0; i < list.nr; i++) {
		assert_ptr_equal(list.knobs[i].setting, &knob_sysfs);
		assert_non_null(strstr(list.knobs[i].name, "scaling_governor"));
		assert_string_equal(list.knobs[i].value, "performance");
	}
	knobs_release(&list);
}

static void test_task_knobs(void **state)
{
	parse_one("policy:fifo:50", KNOB_POLICY, NULL, "fifo:50");
	parse_one("policy:idle", KNOB_POLICY, NULL, "idle");
	parse_one("nice:-5", KNOB_NICE, NULL, "-5");
	parse_one("slice:3000", KNOB_SLICE, NULL, "3000");
	parse_one("uclamp:0-512", KNOB_UCLAMP, NULL, "0-512");
	refused("policy:fifo", "needs a priority from 1 to 99");
	refused("policy:rr:100", "needs a priority from 1 to 99");
	refused("policy:other:5", "other has no priority");
	/* SCHED_IDLE's weight is the lowest whatever the nice level: no "nice: for its weight" */
	refused("policy:idle:5", "idle has no priority, and its tasks the lowest weight");
	refused("policy:deadline", "is no policy");
	refused("nice:20", "not a nice level from -20 to 19");
	refused("slice:99", "not a slice from 100 to 100000");
	refused("slice:100001", "not a slice from 100 to 100000");
	refused("uclamp:600-500", "not MIN-MAX");
	refused("uclamp:0-1025", "not MIN-MAX");
	refused("uclamp:5", "not MIN-MAX");
}

/* One side's tasks' knobs together: each once, and only what fits a policy. */
static void test_task_knobs_together(void **state)
{
	struct knob_list list = { NULL, 0 };
	struct task_knobs t = { 0 };
	struct error err = { 0 };
	char text[256];

	assert_int_equal(knobs_parse(&list, "policy:batch,nice:5,slice:300,uclamp:10-20,nice:5",
				     "--a", &err), 0);
	for (size_t i = 0; i < list.nr; i++)
		assert_int_equal(task_knobs_add(&t, &list.knobs[i], &err), 0);
	assert_true(t.policy_set && t.policy == SCHED_BATCH && t.nice == 5 &&
		    t.slice_us == 300 && t.uclamp_min == 10 && t.uclamp_max == 20);
	task_knobs_describe(&t, text, sizeof(text));
	assert_string_equal(text, "policy=batch\nnice=5\nslice=300\nuclamp=10-20\n");
	knobs_release(&list);

	memset(&t, 0, sizeof(t));
	assert_int_equal(knobs_parse(&list, "nice:5,nice:6", "--a", &err), 0);
	assert_int_equal(task_knobs_add(&t, &list.knobs[0], &err), 0);
	assert_int_equal(task_knobs_add(&t, &list.knobs[1], &err), -1);
	assert_non_null(strstr(err.msg, "two values of one knob"));
	knobs_release(&list);

	memset(&t, 0, sizeof(t));
	assert_int_equal(knobs_parse(&list, "policy:fifo:10,slice:300", "--a", &err), 0);
	assert_int_equal(task_knobs_add(&t, &list.knobs[0], &err), 0);
	assert_int_equal(task_knobs_add(&t, &list.knobs[1], &err), -1);
	assert_non_null(strstr(err.msg, "the fair class's"));
	knobs_release(&list);

	/* SCHED_IDLE keeps the default slice: the kernel ignores sched_runtime there */
	memset(&t, 0, sizeof(t));
	assert_int_equal(knobs_parse(&list, "slice:300,policy:idle", "--a", &err), 0);
	assert_int_equal(task_knobs_add(&t, &list.knobs[0], &err), 0);
	assert_int_equal(task_knobs_add(&t, &list.knobs[1], &err), -1);
	assert_int_equal(err.code, EXIT_USAGE);
	assert_non_null(strstr(err.msg, "policy idle"));
	knobs_release(&list);

	memset(&t, 0, sizeof(t));
	assert_int_equal(knobs_parse(&list, "policy:idle,nice:5", "--a", &err), 0);
	assert_int_equal(task_knobs_add(&t, &list.knobs[0], &err), 0);
	assert_int_equal(task_knobs_add(&t, &list.knobs[1], &err), -1);
	assert_int_equal(err.code, EXIT_USAGE);
	assert_non_null(strstr(err.msg, "whatever their nice level"));
	knobs_release(&list);
}

/* What this kernel takes: a slice read back, or refused with why. */
static void test_task_knobs_check(void **state)
{
	struct task_knobs t = { .slice_us = 3000 };
	struct error err = { 0 };

	if (task_knobs_check(&t, &err)) {
		assert_int_equal(err.code, EXIT_ENV);
		assert_non_null(strstr(err.msg, "6.12"));
	}
	t = (struct task_knobs){ .uclamp_set = true, .uclamp_min = 0, .uclamp_max = 512 };
	if (task_knobs_check(&t, &err)) {
		assert_int_equal(err.code, EXIT_ENV);
		assert_non_null(strstr(err.msg, "uclamp"));
	}
}

static void test_cgroup_knobs(void **state)
{
	parse_one("cgroup:cpu.weight=100", KNOB_CGROUP, "cpu.weight", "100");
	parse_one("cgroup:cpuset.cpus=0-1", KNOB_CGROUP, "cpuset.cpus", "0-1");
	parse_one("cgroup:cpu.max=50000 100000", KNOB_CGROUP, "cpu.max", "50000 100000");
	refused("cgroup:cpu=1", "is not CONTROLLER.FILE");
	refused("cgroup:.weight=1", "is not CONTROLLER.FILE");
	refused("cgroup:cgroup.procs=1", "the cgroup's own");
	refused("cgroup:cpu.weight=", "empty");
	refused("cgroup:cpu/../x.y=1", "is not CONTROLLER.FILE");
}

/* The hash of @spec's knobs, which must parse. */
static uint64_t hash_of(const char *spec)
{
	struct knob_list list = { NULL, 0 };
	struct error err = { 0 };
	uint64_t h;

	if (knobs_parse(&list, spec, "--knob", &err))
		fail_msg("%s: %s", spec, err.msg);
	h = knobs_hash(&list, FNV1A_INIT);
	knobs_release(&list);
	return h;
}

/* A list's hash is its knobs', whatever their order; any other knob, name or value differs. */
static void test_knobs_hash(void **state)
{
	struct knob_list none = { NULL, 0 };
	uint64_t base = hash_of("env:X=1,nice:5,sysctl:kernel.sched_autogroup_enabled=0");

	assert_true(base == hash_of("sysctl:kernel/sched_autogroup_enabled=0,nice:5,env:X=1"));
	assert_true(base != hash_of("env:X=2,nice:5,sysctl:kernel.sched_autogroup_enabled=0"));
	assert_true(base != hash_of("env:Y=1,nice:5,sysctl:kernel.sched_autogroup_enabled=0"));
	assert_true(base != hash_of("env:X=1,nice:5"));
	assert_true(hash_of("nice:5") != hash_of("env:nice=5"));
	assert_true(knobs_hash(&none, FNV1A_INIT) == FNV1A_INIT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sysctl_spellings),
		cmocka_unit_test(test_sysctl_refusals),
		cmocka_unit_test(test_sysctl_read),
		cmocka_unit_test(test_features),
		cmocka_unit_test(test_cpus_list),
		cmocka_unit_test(test_cpulist_format),
		cmocka_unit_test(test_cpulist_beyond),
		cmocka_unit_test(test_cpus_within_cpuset),
		cmocka_unit_test(test_other_knobs),
		cmocka_unit_test(test_kinds_by_name),
		cmocka_unit_test(test_procfs),
		cmocka_unit_test(test_sysfs_spellings),
		cmocka_unit_test(test_sysfs_refusals),
		cmocka_unit_test(test_sysfs_choice),
		cmocka_unit_test(test_governor),
		cmocka_unit_test(test_task_knobs),
		cmocka_unit_test(test_task_knobs_together),
		cmocka_unit_test(test_task_knobs_check),
		cmocka_unit_test(test_cgroup_knobs),
		cmocka_unit_test(test_knobs_hash),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
