// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for ab's knobs (src/runner/knobs.c, knob_sysctl.c,
 * knob_feature.c): every spelling of a sysctl is one name, what names no
 * sysctl is refused, cpus: keeps its CPU list whole, and the kinds of
 * machine setting are found by name.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "runner/knobs.h"
#include "util/array.h"

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
	/* What follows the list and is no CPU is the next knob. */
	assert_int_equal(knobs_parse(&list, "cpus:0,1,env:X=2,3", "--a", &err), -1);
	assert_non_null(strstr(err.msg, "'3' is not a knob"));
	knobs_release(&list);
	assert_int_equal(knobs_parse(&list, "cpus:0,1,env:X=2", "--a", &err), 0);
	assert_int_equal(list.nr, 2);
	assert_string_equal(list.knobs[0].value, "0,1");
	assert_int_equal(list.knobs[1].kind, KNOB_ENV);
	knobs_release(&list);
	refused("cpus:0,1-", "'1-' is not a knob");
	refused("cpus:0,-1", "'-1' is not a knob");
	refused("cpus:", "empty value");
}

static void test_other_knobs(void **state)
{
	parse_one("param:mode=thread", KNOB_PARAM, "mode", "thread");
	parse_one("env:AB=a", KNOB_ENV, "AB", "a");
	parse_one("cmd:./prog --x,y", KNOB_CMD, NULL, "./prog --x,y");
	refused("env:1X=a", "bad env:");
	refused("param:=a", "needs NAME=VALUE");
	refused("bogus:1", "is not a knob (give sysctl:NAME=VALUE, feature:[NO_]NAME, "
		"cpus:LIST, param:KEY=VALUE, env:VAR=VALUE or cmd:PROGRAM ARGS)");
	refused("sysctlx:a=1", "is not a knob");
}

static void test_kinds_by_name(void **state)
{
	assert_ptr_equal(knob_setting_find("sysctl"), &knob_sysctl);
	assert_ptr_equal(knob_setting_find("feature"), &knob_feature);
	assert_null(knob_setting_find("cpus"));
	assert_null(knob_setting_find("cgroup"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sysctl_spellings),
		cmocka_unit_test(test_sysctl_refusals),
		cmocka_unit_test(test_features),
		cmocka_unit_test(test_cpus_list),
		cmocka_unit_test(test_other_knobs),
		cmocka_unit_test(test_kinds_by_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
