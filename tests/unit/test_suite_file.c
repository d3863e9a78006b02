// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for YAML suites: a valid suite becomes the assignments the
 * command line would give, each validation error carries the file and the
 * line to fix, every built-in suite parses and plans on small and large
 * machines, and a workload this build lacks is named when the suite is
 * used, not when it is read.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "runner/plan.h"
#include "runner/suite.h"
#include "runner/suite_file.h"
#include "monitor/topology.h"
#include "util/array.h"

static struct topology flat(int cpus)
{
	struct topology topo;

	topology_assume(&topo, cpus);
	return topo;
}

static void parse_ok(struct suite *suite, const char *yaml, int cpus)
{
	struct topology topo = flat(cpus);
	struct error err = { 0 };

	if (suite_parse(suite, "suite.yaml", yaml, strlen(yaml), &topo, &err))
		fail_msg("suite_parse: %s", err.msg);
}

static void test_valid_suite(void **state)
{
	static const char yaml[] =
		"# a comment\n"
		"- workload: messaging\n"
		"  params:\n"
		"    loops: 200\n"
		"    ipc: [pipe, socket]\n"
		"    mode: [process, thread]\n"
		"  sweep: {groups: \"topology:1..2x\"}\n"
		"  iterations: 10\n"
		"  warmup: 1\n"
		"  timeout: 60\n"
		"- workload: poundtime\n"
		"  sweep:\n"
		"    threads: stride:2..4x\n"
		"  params: {call: times}\n"
		"- workload: threads\n"
		"  params: {threads: 200%, runtime: 1}\n";
	struct suite suite;
	struct suite_entry *e;

	(void)state;
	parse_ok(&suite, yaml, 2);
	assert_string_equal(suite.name, "suite.yaml");
	assert_int_equal(suite.nr_entries, 3);

	e = &suite.entries[0];
	assert_string_equal(e->workload, "messaging");
	assert_int_equal(e->line, 2);
	assert_int_equal(e->nr_assignments, 4);
	assert_string_equal(e->assignments[0], "loops=200");
	assert_string_equal(e->assignments[1], "ipc=pipe,socket");
	assert_string_equal(e->assignments[2], "mode=process,thread");
	assert_string_equal(e->assignments[3], "groups=1,2,4");
	assert_int_equal(e->iterations, 10);
	assert_int_equal(e->warmup, 1);
	assert_true(e->timeout == 60);

	/* Key order is kept: the sweep first makes the thread count outermost. */
	e = &suite.entries[1];
	assert_int_equal(e->line, 11);
	assert_string_equal(e->assignments[0], "threads=2,4,6,8");
	assert_string_equal(e->assignments[1], "call=times");
	assert_int_equal(e->iterations, -1);
	assert_int_equal(e->warmup, -1);
	assert_true(e->timeout < 0);

	assert_string_equal(suite.entries[2].assignments[0], "threads=4");
	suite_release(&suite);
}

/* Parse @yaml, expect failure and exactly @want as the message. */
static void expect_error(const char *yaml, const char *want)
{
	struct topology topo = flat(2);
	struct suite suite;
	struct error err = { 0 };

	if (!suite_parse(&suite, "suite.yaml", yaml, strlen(yaml), &topo, &err))
		fail_msg("expected '%s', the suite parsed", want);
	assert_int_equal(err.code, EXIT_USAGE);
	if (strncmp(err.msg, want, strlen(want)))
		fail_msg("got '%s', want '%s...'", err.msg, want);
	assert_int_equal(suite.nr_entries, 0);
	suite_release(&suite);
}

static void test_unknown_key(void **state)
{
	(void)state;
	expect_error("- workload: pipe\n"
		     "  params: {loops: 1000}\n"
		     "\n"
		     "- workload: pipe\n"
		     "  itrations: 3\n",
		     "suite.yaml:5: unknown key 'itrations' (known: workload, params, sweep, "
		     "iterations, warmup, timeout)");
}

static void test_entry_errors(void **state)
{
	(void)state;
	expect_error("- workload: pipe\n- params: {loops: 10}\n",
		     "suite.yaml:2: benchmark without a 'workload'");
	expect_error("- pipe\n", "suite.yaml:1: a benchmark must be a mapping");
	expect_error("- workload: [pipe]\n", "suite.yaml:1: 'workload' must be a workload name");
	expect_error("- workload: pipe\n  workload: messaging\n",
		     "suite.yaml:2: 'workload' given twice");
	expect_error("- workload: pipe\n  iterations: 0\n",
		     "suite.yaml:2: 'iterations' must be a whole number from 1, not '0'");
	expect_error("- workload: pipe\n  iterations: ten\n",
		     "suite.yaml:2: 'iterations' must be a whole number");
	expect_error("- workload: pipe\n  warmup: -1\n",
		     "suite.yaml:2: 'warmup' must be a whole number from 0");
	expect_error("- workload: pipe\n  timeout: 0\n",
		     "suite.yaml:2: 'timeout' must be a number of seconds above 0");
	/* the cap, stated: 7 days, as run's --timeout */
	expect_error("- workload: pipe\n  timeout: 1e308\n",
		     "suite.yaml:2: 'timeout' must be a number of seconds above 0 and at most "
		     "604800 (7 days), not '1e308'");
	expect_error("- workload: pipe\n  timeout: 604800.5\n",
		     "suite.yaml:2: 'timeout' must be a number of seconds above 0 and at most "
		     "604800 (7 days)");
	expect_error("- workload: pipe\n\n  timeout: [1]\n",
		     "suite.yaml:3: 'timeout' must be a number");
}

static void test_params_errors(void **state)
{
	(void)state;
	expect_error("- workload: pipe\n  params: [loops]\n",
		     "suite.yaml:2: 'params' must be a mapping of parameter names to values");
	expect_error("- workload: pipe\n  params:\n    loops: {a: 1}\n",
		     "suite.yaml:3: params: 'loops' must be a value or a list of values");
	expect_error("- workload: pipe\n  params:\n    loops: []\n",
		     "suite.yaml:3: params: 'loops' has an empty list");
	expect_error("- workload: pipe\n  params:\n    loops: [1, [2]]\n",
		     "suite.yaml:3: params: 'loops' must be a value");
	expect_error("- workload: pipe\n  params:\n    loops: 1\n    loops: 2\n",
		     "suite.yaml:4: parameter 'loops' given twice");
	expect_error("- workload: threads\n  params:\n    threads: 10%\n",
		     "suite.yaml:3: params: bad count '10%' of parameter 'threads'");
	/* a sweep of a choice, said at its key's line, the workload given after it */
	expect_error("- sweep:\n    threads: pow2:1..2\n    call: pow2\n  workload: poundtime\n",
		     "suite.yaml:3: bad sweep 'call=pow2': parameter 'call' is a choice");
}

static void test_sweep_errors(void **state)
{
	(void)state;
	expect_error("- workload: threads\n  sweep: {threads: \"strid:1..4\"}\n",
		     "suite.yaml:2: bad sweep 'threads=strid:1..4': unknown generator 'strid'");
	expect_error("- workload: threads\n  sweep:\n    threads: pow2:8..2\n",
		     "suite.yaml:3: bad sweep 'threads=pow2:8..2': MIN 8 is above MAX 2");
	expect_error("- workload: threads\n  params: {threads: 2}\n"
		     "  sweep: {threads: pow2}\n",
		     "suite.yaml:3: parameter 'threads' given twice");
	expect_error("- workload: threads\n  sweep: stride\n",
		     "suite.yaml:2: 'sweep' must be a mapping of parameter names to generators");
	expect_error("- workload: threads\n  sweep: {threads: [1, 2]}\n",
		     "suite.yaml:2: sweep: 'threads' must be a generator");
}

static void test_document_errors(void **state)
{
	(void)state;
	expect_error("", "suite.yaml:1: the suite is empty");
	expect_error("# nothing\n", "suite.yaml:1: the suite is empty");
	expect_error("[]\n", "suite.yaml:1: the suite is empty");
	expect_error("workload: pipe\n", "suite.yaml:1: a suite is a list of benchmarks");
	expect_error("- workload: pipe\n  params: {loops: [1, 2}\n",
		     "suite.yaml:2: YAML syntax error");
	expect_error("- workload: pipe\n\t- bad\n", "suite.yaml:2: YAML syntax error");
}

/* Plan every entry of @suite; returns the number of plan items. */
static size_t plan_all(const struct suite *suite)
{
	struct plan plan = { 0 };
	struct error err = { 0 };
	size_t n;

	for (size_t i = 0; i < suite->nr_entries; i++)
		if (suite_entry_plan(suite, &suite->entries[i], &plan, &err))
			fail_msg("%s: %s", suite->name, err.msg);
	n = plan.nr_items;
	plan_release(&plan);
	return n;
}

static void test_builtin_suites(void **state)
{
	static const int cpus[] = { 1, 2, 32, 64 };
	struct error err = { 0 };

	(void)state;
	for (const struct suite_builtin *b = suite_builtins; b->id.name; b++) {
		const char *name = b->id.name;

		assert_non_null(strstr(suite_names(), name));
		for (size_t i = 0; i < ARRAY_SIZE(cpus); i++) {
			struct topology topo = flat(cpus[i]);
			struct suite suite;

			if (suite_load(&suite, name, &topo, &err))
				fail_msg("built-in suite %s on %d CPUs: %s", name, cpus[i],
					 err.msg);
			assert_true(suite.nr_entries > 0);
			assert_true(plan_all(&suite) > 0);
			suite_release(&suite);
		}
	}
}

/* The quick suite is exactly the C table it replaced. */
static void test_quick_unchanged(void **state)
{
	static const char *const want[][4] = {
		{ "pipe", "loops=100000", "cpus=any,same", NULL },
		{ "messaging", "groups=4", "loops=200", "ipc=socket,pipe" },
		{ "messaging", "groups=4", "loops=200", "mode=thread" },
	};
	struct topology topo = flat(2);
	struct error err = { 0 };
	struct suite suite;

	(void)state;
	assert_int_equal(suite_load(&suite, "quick", &topo, &err), 0);
	assert_int_equal(suite.nr_entries, 3);
	for (size_t i = 0; i < 3; i++) {
		struct suite_entry *e = &suite.entries[i];
		size_t n = want[i][3] ? 3 : 2;

		assert_string_equal(e->workload, want[i][0]);
		assert_int_equal(e->nr_assignments, n);
		for (size_t j = 0; j < n; j++)
			assert_string_equal(e->assignments[j], want[i][j + 1]);
		assert_int_equal(e->iterations, -1);
	}
	suite_release(&suite);
}

/* Seed 000 on its 32-CPU machine: both calls at the seed's ten thread counts. */
static void test_poundtime_on_32(void **state)
{
	struct topology topo = flat(32);
	struct plan plan = { 0 };
	struct error err = { 0 };

	(void)state;
	assert_int_equal(suite_plan_on("poundtime", &topo, &plan, &err), 0);
	assert_int_equal(plan.nr_items, 20);
	for (size_t i = 0; i < plan.nr_items; i++)
		assert_int_equal(plan.items[i].iterations, 10);
	assert_non_null(strstr(plan.items[19].params_json, "\"threads\":\"128\""));
	assert_non_null(strstr(plan.items[19].params_json, "\"call\":\"clock_gettime\""));
	plan_release(&plan);
}

static void test_unknown_workload_at_plan_time(void **state)
{
	static const char yaml[] =
		"- workload: pipe\n"
		"- workload: no-such-workload\n"
		"  params: {loops: 1}\n";
	struct plan plan = { 0 };
	struct error err = { 0 };
	struct suite suite;

	(void)state;
	parse_ok(&suite, yaml, 2);
	assert_int_equal(suite_entry_plan(&suite, &suite.entries[0], &plan, &err), 0);
	assert_int_equal(suite_entry_plan(&suite, &suite.entries[1], &plan, &err), -1);
	assert_int_equal(err.code, EXIT_USAGE);
	assert_string_equal(err.msg, "suite.yaml:2: workload 'no-such-workload' is not in this "
			    "build of schedperf (see 'schedperf list')");
	plan_release(&plan);
	suite_release(&suite);
}

static void test_bad_params_at_plan_time(void **state)
{
	struct plan plan = { 0 };
	struct error err = { 0 };
	struct suite suite;

	(void)state;
	parse_ok(&suite, "- workload: pipe\n\n- workload: pipe\n  params: {lops: 1}\n", 2);
	assert_int_equal(suite_entry_plan(&suite, &suite.entries[1], &plan, &err), -1);
	assert_int_equal(err.code, EXIT_USAGE);
	assert_true(!strncmp(err.msg, "suite.yaml:4: ", 14));
	assert_non_null(strstr(err.msg, "lops"));
	plan_release(&plan);
	suite_release(&suite);
}

/* Plan @yaml's only entry; its error must start with @prefix. */
static void expect_plan_error(const char *yaml, const char *prefix)
{
	struct plan plan = { 0 };
	struct error err = { 0 };
	struct suite suite;

	parse_ok(&suite, yaml, 2);
	assert_int_equal(suite_entry_plan(&suite, &suite.entries[0], &plan, &err), -1);
	assert_int_equal(err.code, EXIT_USAGE);
	if (strncmp(err.msg, prefix, strlen(prefix)))
		fail_msg("expected '%s...', got '%s'", prefix, err.msg);
	plan_release(&plan);
	suite_release(&suite);
}

/* A parameter's error is said at that parameter's line, not the entry's. */
static void test_param_errors_at_their_line(void **state)
{
	(void)state;
	/* the error lists the parameters pipe takes, loops among them */
	expect_plan_error("- workload: pipe\n  iterations: 1\n  params:\n    loops: 10\n"
			  "    bogus: 3\n", "suite.yaml:5: unknown parameter 'bogus'");
	expect_plan_error("- workload: pipe\n  params:\n    loops: -5\n",
			  "suite.yaml:3: bad value for parameter 'loops'");
	expect_plan_error("- workload: pipe\n  sweep:\n    loops: pow2:1..4\n  params:\n"
			  "    mode: bogus\n", "suite.yaml:5: bad value for parameter 'mode'");
	/* two parameters in conflict: the one the error quotes */
	expect_plan_error("- workload: poundtime\n  params:\n    threads: 4\n"
			  "    calls: 2\n", "suite.yaml:4: bad value for parameter 'calls'");
}

static void test_files(void **state)
{
	char path[] = "/tmp/schedperf-suite-XXXXXX.yaml";
	struct topology topo = flat(2);
	struct error err = { 0 };
	struct suite suite;
	FILE *f;
	int fd;

	(void)state;
	fd = mkstemps(path, 5);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs("- workload: pipe\n  iterations: 3\n  itrations: 4\n", f);
	fclose(f);
	assert_int_equal(suite_load(&suite, path, &topo, &err), -1);
	assert_true(!strncmp(err.msg, path, strlen(path)));
	assert_non_null(strstr(err.msg, ":3: unknown key 'itrations'"));
	suite_release(&suite);

	f = fopen(path, "w");
	fputs("- workload: pipe\n  iterations: 3\n", f);
	fclose(f);
	assert_int_equal(suite_load(&suite, path, &topo, &err), 0);
	assert_int_equal(suite.entries[0].iterations, 3);
	suite_release(&suite);
	unlink(path);

	assert_int_equal(suite_load(&suite, path, &topo, &err), -1);
	assert_non_null(strstr(err.msg, "cannot read suite file"));
	assert_int_equal(suite_load(&suite, "quik", &topo, &err), -1);
	assert_int_equal(err.code, EXIT_USAGE);
	assert_non_null(strstr(err.msg, "unknown suite 'quik'"));
	assert_non_null(strstr(err.msg, "quick, standard, poundtime"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_suite),
		cmocka_unit_test(test_unknown_key),
		cmocka_unit_test(test_entry_errors),
		cmocka_unit_test(test_params_errors),
		cmocka_unit_test(test_sweep_errors),
		cmocka_unit_test(test_document_errors),
		cmocka_unit_test(test_builtin_suites),
		cmocka_unit_test(test_quick_unchanged),
		cmocka_unit_test(test_poundtime_on_32),
		cmocka_unit_test(test_unknown_workload_at_plan_time),
		cmocka_unit_test(test_bad_params_at_plan_time),
		cmocka_unit_test(test_param_errors_at_their_line),
		cmocka_unit_test(test_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
