// SPDX-License-Identifier: GPL-2.0
/*
 * The command workload and what it stands on: the word splitter (quoting
 * as a shell does, no shell), text parameters (taken whole, commas and
 * all, and freed), and runs of real programs: times measured, a number
 * parsed from the output, failures with the program's last stderr line,
 * and nothing left behind.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "runner/plan.h"
#include "util/words.h"
#include "workload/workload.h"
#include "test_helpers.h"

static void assert_words(const char *line, const char *const *want)
{
	struct error err = { 0 };
	char **words = words_split(line, "test", &err);
	size_t i;

	assert_non_null(words);
	for (i = 0; want[i]; i++) {
		assert_non_null(words[i]);
		assert_string_equal(words[i], want[i]);
	}
	assert_null(words[i]);
	words_free(words);
}

static void test_words(void **state)
{
	assert_words("", (const char *const[]){ NULL });
	assert_words("  \t ", (const char *const[]){ NULL });
	assert_words("perf bench sched pipe -l 1000",
		     (const char *const[]){ "perf", "bench", "sched", "pipe", "-l", "1000", NULL });
	assert_words("a 'b c' \"d $e\"", (const char *const[]){ "a", "b c", "d $e", NULL });
	assert_words("x'y'\"z\" ''", (const char *const[]){ "xyz", "", NULL });
	assert_words("a\\ b \"q\\\"q\\\\\" 'no\\'", (const char *const[]){ "a b", "q\"q\\", "no\\", NULL });
	assert_words("\"keep \\n\" ; | > $(x)",
		     (const char *const[]){ "keep \\n", ";", "|", ">", "$(x)", NULL });
}

/* A quoted word is read back as it was, alone, and left as it is when plain. */
static void test_words_quote(void **state)
{
	static const char *const given[] = {
		"/tmp/h1/repo", "", "a b", "it's", "'", "$HOME", "~x", "a\\b", "x;y", "\"q\"",
		"*", "tab\there", "new\nline", "é", NULL
	};
	char *quoted = words_quote("/tmp/h1/b.db");

	assert_string_equal(quoted, "/tmp/h1/b.db");
	free(quoted);
	quoted = words_quote("it's here");
	assert_string_equal(quoted, "'it'\\''s here'");
	free(quoted);
	for (const char *const *g = given; *g; g++) {
		quoted = words_quote(*g);
		assert_words(quoted, (const char *const[]){ *g, NULL });
		free(quoted);
	}
}

static void test_words_unterminated(void **state)
{
	static const char *const bad[] = { "'open", "\"open", "trailing\\", "a \"b\\\"", NULL };

	for (const char *const *b = bad; *b; b++) {
		struct error err = { 0 };

		assert_null(words_split(*b, "cmd", &err));
		assert_int_equal(err.code, EXIT_USAGE);
		assert_non_null(strstr(err.msg, "unterminated quote"));
	}
}

/* Run command (test_helpers.h); the fourth value, unmeasured unless asked, NAN. */
static int run_command(double *metrics, struct error *err, ...)
{
	va_list ap;
	int ret;

	metrics[3] = NAN;
	va_start(ap, err);
	ret = run_workload("command", metrics, NULL, err, ap);
	va_end(ap);
	return ret;
}

static void test_command_times(void **state)
{
	double m[4];
	struct error err;

	assert_int_equal(run_command(m, &err, "cmd=sh -c 'i=0; while [ $i -lt 20000 ]; "
				      "do i=$((i+1)); done'", NULL), 0);
	/* The loop burns CPU in user mode: wall >= user + system, roughly. */
	assert_true(m[0] > 0 && m[1] > 0 && m[2] >= 0);
	assert_true(m[0] * 1.05 + 0.01 >= m[1] + m[2]);
	assert_true(isnan(m[3]));
}

static void test_command_metric(void **state)
{
	double m[4];
	struct error err;

	assert_int_equal(run_command(m, &err, "cmd=printf 'Total time: 1.5 [sec]\\n"
				      "  7.25 usecs/op\\n 137931 ops/sec\\n'",
				      "metric_regex=([0-9.]+) usecs/op", "metric_name=usecs",
				      NULL), 0);
	assert_true(m[0] == 7.25);
	assert_true(m[1] > 0 && m[2] >= 0 && m[3] >= 0);
	/* ^ and $ match at line ends: the number of the line that starts so. */
	assert_int_equal(run_command(m, &err, "cmd=printf 'a 1\\nb 2\\n'",
				      "metric_regex=^b ([0-9]+)$", NULL), 0);
	assert_true(m[0] == 2);
}

static void test_command_failures(void **state)
{
	static const char *const not_finite[] = { "inf", "nan", "-Infinity", "1e999",
						  "1e-999", NULL };
	double m[4];
	struct error err;

	assert_int_equal(run_command(m, &err, "cmd=sh -c 'echo one >&2; echo last words >&2; "
				      "exit 3'", NULL), 1);
	assert_string_equal(err.msg, "the program exited with status 3: last words");
	assert_int_equal(run_command(m, &err, "cmd=sh -c 'kill -9 $$'", NULL), 1);
	assert_non_null(strstr(err.msg, "killed by signal 9"));
	assert_int_equal(run_command(m, &err, "cmd=echo no number here",
				      "metric_regex=([0-9]+) ops", NULL), 1);
	assert_string_equal(err.msg, "metric_regex matched nothing in the output");
	assert_int_equal(run_command(m, &err, "cmd=echo abc ops",
				      "metric_regex=([a-z]+) ops", NULL), 1);
	assert_string_equal(err.msg, "metric_regex captured 'abc', not a number");
	/* a number no sample can hold fails the iteration, never a missing metric */
	for (const char *const *v = not_finite; *v; v++) {
		char cmd[64];

		snprintf(cmd, sizeof(cmd), "cmd=echo %s ops", *v);
		assert_int_equal(run_command(m, &err, cmd, "metric_regex=([^ ]+) ops", NULL), 1);
		assert_non_null(strstr(err.msg, "not a finite number"));
	}
	assert_int_equal(run_command(m, &err, "cmd=echo 1e-300 ops",
				      "metric_regex=([^ ]+) ops", NULL), 0);
	assert_true(m[0] == 1e-300);
	/* The times of a failed run are still what it took. */
	assert_true(m[1] > 0);
}

/* A NUL byte ends a line: the text after it is searched. */
static void test_command_nul(void **state)
{
	double m[4];
	struct error err;

	assert_int_equal(run_command(m, &err, "cmd=printf 'x\\0v=5\\n'", "shell=1",
				      "metric_regex=v=([0-9]+)", NULL), 0);
	assert_true(m[0] == 5);
	assert_int_equal(run_command(m, &err, "cmd=printf 'v=\\0005\\n'", "shell=1",
				      "metric_regex=v=([0-9]+)", NULL), 1);
	assert_non_null(strstr(err.msg, "matched nothing in the output"));
}

/*
 * Of an output over 64 MiB the end is kept, from its first whole line: the
 * 7s of the cut line are not a number, the 5 of the last line is.
 */
static void test_command_long_output(void **state)
{
	double m[4];
	struct error err;

	assert_int_equal(run_command(m, &err, "cmd=printf A; head -c 70000000 /dev/zero | "
				      "tr '\\0' 7; printf '\\n5 end\\n'", "shell=1",
				      "metric_regex=^([0-9]+)", NULL), 0);
	assert_true(m[0] == 5);
	assert_int_equal(run_command(m, &err, "cmd=echo v=3; head -c 70000000 /dev/zero",
				      "shell=1", "metric_regex=v=([0-9]+)", NULL), 1);
	assert_string_equal(err.msg, "metric_regex matched nothing in the output (it was "
			    "longer than 64 MiB: only its end was searched)");
}

static void test_command_shell(void **state)
{
	double m[4];
	struct error err;

	/* Without shell=1 the pipe is an argument to echo; with it, a pipe. */
	assert_int_equal(run_command(m, &err, "cmd=echo 5 | sed s/5/6/",
				      "metric_regex=^([0-9]+)", NULL), 0);
	assert_true(m[0] == 5);
	assert_int_equal(run_command(m, &err, "cmd=echo 5 | sed s/5/6/", "shell=1",
				      "metric_regex=^([0-9]+)", NULL), 0);
	assert_true(m[0] == 6);
}

static void test_command_bad_params(void **state)
{
	assert_usage_error("cmd", "command", "shell=0");
	assert_usage_error("nosuchprogram-xyz", "command", "cmd=nosuchprogram-xyz -v");
	assert_usage_error("unterminated", "command", "cmd=echo 'x");
	assert_usage_error("names no program", "command", "cmd=  ");
	assert_usage_error("metric_regex", "command", "cmd=true", "metric_regex=no group");
	assert_usage_error("metric_regex", "command", "cmd=true", "metric_regex=([0-9]");
	assert_usage_error("metric_name", "command", "cmd=true", "metric_name=seconds");
	assert_usage_error("metric_name", "command", "cmd=true", "metric_name=a b");
}

/* A plan refuses a metric_name every benchmark stores already, from rusage's or a monitor's. */
static void assert_plan_refuses(const char *name, const char *why)
{
	char regex[] = "metric_regex=v=(.*)", arg[128];
	char *assignments[] = { (char *)"cmd=true", regex, arg };
	struct plan plan = { 0 };
	struct error err = { 0 };

	snprintf(arg, sizeof(arg), "metric_name=%s", name);
	assert_int_equal(plan_add(&plan, find("command"), assignments, 3, &err), -1);
	assert_int_equal(err.code, EXIT_USAGE);
	assert_non_null(strstr(err.msg, name));
	assert_non_null(strstr(err.msg, why));
	assert_int_equal(plan.nr_items, 0);
	plan_release(&plan);
}

static void test_command_metric_name_taken(void **state)
{
	assert_plan_refuses("voluntary_csw", "already a metric of every benchmark "
			    "(voluntary context switches); give another name");
	assert_plan_refuses("wall", "already a metric of every benchmark");
	assert_plan_refuses("major_faults", "already a metric of every benchmark");
	assert_plan_refuses("vmstat.pgfree", "the vmstat monitor's metrics");
	assert_plan_refuses("cpufreq.cpu0", "the cpufreq monitor's metrics");
}

static void test_command_metrics_described(void **state)
{
	const struct workload *w = find("command");
	struct param_value values[MAX_PARAMS];
	struct metric_spec specs[8];
	struct error err;

	assert_int_equal(parse("command", values, NULL, &err, "cmd=true", NULL), 0);
	assert_int_equal(workload_metrics(w, values, specs), 3);
	assert_int_equal(workload_nr_values(w, values), 3);
	workload_release_params(w, values);
	assert_int_equal(parse("command", values, NULL, &err, "cmd=true", "metric_regex=(x)",
			       "metric_name=ops", "metric_unit=ops/s", "better=higher", NULL), 0);
	/* The parsed number comes first: it is the benchmark's main metric. */
	assert_int_equal(workload_metrics(w, values, specs), 4);
	assert_string_equal(specs[0].name, "ops");
	assert_string_equal(specs[0].unit, "ops/s");
	assert_int_equal(specs[0].better, BETTER_HIGHER);
	assert_string_equal(specs[1].name, "seconds");
	assert_string_equal(specs[3].name, "system_seconds");
	workload_release_params(w, values);
}

/* A text parameter is one value: its commas do not sweep it. */
static void test_text_param_not_swept(void **state)
{
	char *assignments[] = { (char *)"cmd=taskset -c 0,1 true", (char *)"shell=0,1" };
	struct plan plan = { 0 };
	struct error err = { 0 };
	char desc[256];

	assert_int_equal(plan_add(&plan, find("command"), assignments, 2, &err), 0);
	assert_int_equal(plan.nr_items, 2);
	assert_string_equal(param_text(&plan.items[0].values[0]), "taskset -c 0,1 true");
	assert_non_null(strstr(plan.items[1].params_json, "\"cmd\":\"taskset -c 0,1 true\""));
	plan_item_describe(&plan.items[0], desc, sizeof(desc));
	assert_non_null(strstr(desc, "cmd='taskset -c 0,1 true'"));
	plan_release(&plan);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_words_quote),
		cmocka_unit_test(test_words_unterminated),
		cmocka_unit_test(test_command_times),
		cmocka_unit_test(test_command_metric),
		cmocka_unit_test(test_command_failures),
		cmocka_unit_test(test_command_nul),
		cmocka_unit_test(test_command_long_output),
		cmocka_unit_test(test_command_shell),
		cmocka_unit_test(test_command_bad_params),
		cmocka_unit_test(test_command_metric_name_taken),
		cmocka_unit_test(test_command_metrics_described),
		cmocka_unit_test(test_text_param_not_swept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
