// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the sweep generators and the topology reader: that each
 * generator gives the points MMTests or LKP would give for the same
 * machine (MMTests' poundtime thread counts above all), that topology comes out
 * right from fake sysfs trees (tests/data/topology-*), and that every bad
 * sweep fails with a usage error that says what is wrong.
 */
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "runner/sweep.h"
#include "monitor/topology.h"

/* tests/data, found beside this source file or from the test binary's place. */
static const char *data_dir(void)
{
	static char dir[PATH_MAX];
	char exe[PATH_MAX], src[PATH_MAX];
	ssize_t n;

	if (dir[0])
		return dir;
	snprintf(src, sizeof(src), "%s", __FILE__);
	snprintf(dir, sizeof(dir), "%s/../data", dirname(src));
	if (!access(dir, R_OK))
		return dir;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	assert_true(n > 0);
	exe[n] = '\0';
	/* BUILD/tests/test_sweep -> BUILD/../tests/data */
	snprintf(dir, sizeof(dir), "%s/../../tests/data", dirname(exe));
	return dir;
}

static void read_tree(const char *name, struct topology *topo)
{
	char root[PATH_MAX];
	struct error err = { 0 };

	snprintf(root, sizeof(root), "%s/%s", data_dir(), name);
	if (topology_read(topo, root, &err))
		fail_msg("topology_read(%s): %s", root, err.msg);
}

/* Compare the points of @gen with a space-separated expectation. */
static void check_points(const char *gen, const struct topology *topo, const char *want)
{
	struct sweep_points p;
	struct error err = { 0 };
	char got[4096] = "";
	size_t used = 0;

	if (sweep_points(gen, topo, &p, &err))
		fail_msg("sweep_points(%s) on %d CPUs: %s", gen, topo->cpus, err.msg);
	for (size_t i = 0; i < p.nr; i++)
		used += (size_t)snprintf(got + used, sizeof(got) - used, "%s%ld",
					 i ? " " : "", p.value[i]);
	if (strcmp(got, want))
		fail_msg("%s on %d CPUs: got '%s', want '%s'", gen, topo->cpus, got, want);
}

static void check_flat(int cpus, const char *gen, const char *want)
{
	struct topology topo;

	topology_assume(&topo, cpus);
	check_points(gen, &topo, want);
}

/*
 * Seed 000: 2 to 4 x 32 CPUs gave 2 5 8 12 21 30 48 79 110 128. MAX = 128
 * is not above 8 x 32 = 256, so schedperf's extra rule adds nothing there.
 */
static void test_stride_seed_000(void **state)
{
	(void)state;
	check_flat(32, "stride:2..128", "2 5 8 12 21 30 48 79 110 128");
	check_flat(32, "stride:2..4x", "2 5 8 12 21 30 48 79 110 128");
}

static void test_stride_small(void **state)
{
	(void)state;
	/* MAX <= 8: MIN..MAX step 2, MAX appended when the step misses it. */
	check_flat(2, "stride:2..4x", "2 4 6 8");
	check_flat(2, "stride:1..4x", "1 3 5 7 8");
	check_flat(2, "stride:2..2x", "2 4");
	check_flat(1, "stride:1..1", "1");
	/* 8 < MAX <= 32: MIN..8 step 2, then 12..MAX step 6. */
	check_flat(32, "stride:2..32", "2 4 6 8 12 18 24 30 32");
	check_flat(4, "stride:2..4x", "2 4 6 8 12 16");
	/* As MMTests: the fixed grid below MIN is dropped, MIN itself too. */
	check_flat(32, "stride:10..128", "12 21 30 48 79 110 128");
	check_flat(64, "stride:2..4x", "2 5 8 12 21 30 48 79 110 141 172 203 234 256");
	check_flat(16, "stride:2..4x", "2 5 8 12 21 30 48 64");
}

/* MAX > 8 x CPUs adds 2 x CPUs .. MAX in steps of (MAX - 2 x CPUs) / 8. */
static void test_stride_beyond_8x(void **state)
{
	(void)state;
	check_flat(2, "stride:2..64",
		   "2 4 5 8 11 12 18 21 25 30 32 39 46 48 53 60 64");
	/* 8 x 1 CPU = 8 < 9: step (9 - 2) / 8 = 0 is taken as 1. */
	check_flat(1, "stride:1..9", "1 2 3 4 5 6 7 8 9");
}

static void test_pow2(void **state)
{
	(void)state;
	check_flat(2, "pow2", "1 2 4 8");
	check_flat(2, "pow2:1..4x", "1 2 4 8");
	check_flat(2, "pow2:3..20", "3 6 12 20");
	check_flat(2, "pow2:1..1", "1");
	check_flat(32, "pow2:1..4x", "1 2 4 8 16 32 64 128");
	check_flat(64, "pow2:2..4x", "2 4 8 16 32 64 128 256");
}

static void test_topology_vm2(void **state)
{
	struct topology topo;

	(void)state;
	read_tree("topology-vm2", &topo);
	assert_int_equal(topo.cpus, 2);
	assert_int_equal(topo.smt, 1);
	assert_int_equal(topo.llc, 2);		/* no cache directory: the node */
	assert_int_equal(topo.node, 2);
	assert_int_equal(topo.nr_nodes, 1);
	assert_int_equal(topo.nr_cores, 2);
	check_points("topology", &topo, "1 2 4 8");
	check_points("topology:1..2x", &topo, "1 2 4");
	check_points("topology:2..8", &topo, "2 4 8");
}

static void test_topology_two_socket_smt(void **state)
{
	struct topology topo;

	(void)state;
	read_tree("topology-2s-smt", &topo);
	assert_int_equal(topo.cpus, 32);
	assert_int_equal(topo.smt, 2);
	assert_int_equal(topo.llc, 16);		/* L3, not the L1i or L2 */
	assert_int_equal(topo.node, 16);
	assert_int_equal(topo.nr_nodes, 2);	/* node2 holds no CPUs */
	assert_int_equal(topo.nr_cores, 16);
	assert_int_equal(topo.nr_llcs, 2);
	check_points("topology", &topo, "2 16 32 64 128");
	check_points("topology:1..2x", &topo, "2 16 32 64");
	/* The same CPU count assumed flat walks 1 (SMT) then the machine. */
	check_flat(32, "topology", "1 32 64 128");
}

static void test_topology_missing(void **state)
{
	struct topology topo;
	struct error err = { 0 };

	(void)state;
	assert_int_equal(topology_read(&topo, "/nonexistent-schedperf-root", &err), -1);
	assert_int_equal(err.code, EXIT_ENV);
	assert_non_null(strstr(err.msg, "cpu/online"));
}

static void test_real_topology(void **state)
{
	struct topology topo;
	struct error err = { 0 };

	(void)state;
	if (topology_read(&topo, NULL, &err))
		skip();
	assert_true(topo.cpus >= 1);
	assert_true(topo.smt >= 1 && topo.smt <= topo.cpus);
	assert_true(topo.llc >= topo.smt || topo.llc >= 1);
	assert_true(topo.node >= 1 && topo.node <= topo.cpus);
}

static void test_cpulist_count(void **state)
{
	(void)state;
	assert_int_equal(topology_cpulist_count("0-3,8,10-11"), 7);
	assert_int_equal(topology_cpulist_count("0"), 1);
	assert_int_equal(topology_cpulist_count("0-31\n"), 32);
	assert_int_equal(topology_cpulist_count("3-1"), -1);
	assert_int_equal(topology_cpulist_count("a"), -1);
	assert_int_equal(topology_cpulist_count("1,,2"), -1);
}

static long resolve(const char *text, int cpus)
{
	struct error err = { 0 };
	long n = -1;

	if (sweep_resolve_value(text, cpus, "parameter 'x'", &n, &err))
		fail_msg("sweep_resolve_value(%s, %d): %s", text, cpus, err.msg);
	return n;
}

/* LKP's params/nr_threads: ($1.to_f * nr_cpu / 100).to_i, a truncation. */
static void test_percent(void **state)
{
	struct error err = { 0 };
	long n;

	(void)state;
	assert_int_equal(resolve("1600%", 2), 32);
	assert_int_equal(resolve("100%", 2), 2);
	assert_int_equal(resolve("50%", 2), 1);
	assert_int_equal(resolve("150%", 3), 4);	/* 4.5 truncates */
	assert_int_equal(resolve("12.5%", 16), 2);
	assert_int_equal(resolve("33%", 100), 33);
	assert_int_equal(resolve("99%", 2), 1);		/* 1.98, not rounded up */
	assert_int_equal(resolve("4x", 32), 128);
	assert_int_equal(resolve("0.5x", 3), 1);
	assert_int_equal(resolve("7", 2), 7);
	check_flat(2, "50%,100%,200%", "1 2 4");
	check_flat(2, "1600%", "32");
	check_flat(2, "200%,4,1", "4 1");		/* order kept, repeats dropped */

	assert_int_equal(sweep_resolve_value("10%", 2, "parameter 'threads'", &n, &err), -1);
	assert_int_equal(err.code, EXIT_USAGE);
	assert_non_null(strstr(err.msg, "less than 1 ("));
	/* the message names where the value was given */
	assert_non_null(strstr(err.msg, "bad count '10%' of parameter 'threads': it is 0.2 "));
	assert_int_equal(sweep_resolve_value("-50%", 2, "x", &n, &err), -1);
	assert_int_equal(sweep_resolve_value("1e2%", 2, "x", &n, &err), -1);
	assert_int_equal(sweep_resolve_value("%", 2, "x", &n, &err), -1);
}

static void check_string(char *got, const char *want)
{
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void test_expand(void **state)
{
	struct topology two, thirty_two;
	struct error err = { 0 };

	(void)state;
	topology_assume(&two, 2);
	topology_assume(&thirty_two, 32);
	check_string(sweep_expand("threads=stride:2..4x", &thirty_two, &err),
		     "threads=2,5,8,12,21,30,48,79,110,128");
	check_string(sweep_expand("threads=stride:2..4x", &two, &err), "threads=2,4,6,8");
	check_string(sweep_expand("groups=topology:1..2x", &two, &err), "groups=1,2,4");
	check_string(sweep_expand("threads=1600%", &two, &err), "threads=32");
	check_string(sweep_resolve_assignment("threads=200%,3,4x", 2, &err), "threads=4,3,8");
	check_string(sweep_resolve_assignment("ipc=socket,pipe", 2, &err), "ipc=socket,pipe");
	check_string(sweep_resolve_assignment("mode=x", 2, &err), "mode=x");
	check_string(sweep_resolve_assignment("novalue", 2, &err), "novalue");
	assert_null(sweep_resolve_assignment("threads=1,10%", 2, &err));
	assert_int_equal(err.code, EXIT_USAGE);
}

static void expect_error(const char *spec, int cpus, const char *needle)
{
	struct topology topo;
	struct error err = { 0 };
	char *got;

	topology_assume(&topo, cpus);
	got = sweep_expand(spec, &topo, &err);
	if (got)
		fail_msg("%s: expected an error, got %s", spec, got);
	assert_int_equal(err.code, EXIT_USAGE);
	if (!strstr(err.msg, needle))
		fail_msg("%s: message '%s' lacks '%s'", spec, err.msg, needle);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("threads=strid:2..8", 2, "unknown generator 'strid' (known: pow2");
	expect_error("threads=pow2:8..2", 2, "MIN 8 is above MAX 2");
	expect_error("threads=stride:9..4x", 2, "MIN 9 is above MAX 8");
	expect_error("threads", 2, "expected KEY=GENERATOR");
	expect_error("=stride", 2, "expected KEY=GENERATOR");
	expect_error("threads=", 2, "expected KEY=GENERATOR");
	expect_error("threads=stride:2-8", 2, "expected MIN..MAX");
	expect_error("threads=stride:a..8", 2,
		     "bad count 'a' of sweep 'threads=stride:a..8': expected a whole number");
	/* a bound below one task says so, not that it is no count */
	expect_error("threads=pow2:0.1x..1x", 2, "'0.1x' of sweep 'threads=pow2:0.1x..1x': "
		     "it is 0.2 of 2 CPUs, less than 1 (");
	expect_error("threads=stride:2..", 2, "expected MIN..MAX");
	expect_error("threads=pow2:0..8", 2, "pow2 starts at 1");
	expect_error("threads=stride:2..100000", 2, "more than 256 points");
	expect_error("threads=50%:1..2", 2, "takes no MIN..MAX");
	expect_error("threads=topology:5..7", 2, "no topology level");
	expect_error("threads=10%", 2, "less than 1 (");
	expect_error("threads=stride:2..99999999", 2, "larger than");
	/* The message names the whole argument as typed. */
	expect_error("groups=strid:2..8", 2, "bad sweep 'groups=strid:2..8'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stride_seed_000),
		cmocka_unit_test(test_stride_small),
		cmocka_unit_test(test_stride_beyond_8x),
		cmocka_unit_test(test_pow2),
		cmocka_unit_test(test_topology_vm2),
		cmocka_unit_test(test_topology_two_socket_smt),
		cmocka_unit_test(test_topology_missing),
		cmocka_unit_test(test_real_topology),
		cmocka_unit_test(test_cpulist_count),
		cmocka_unit_test(test_percent),
		cmocka_unit_test(test_expand),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
