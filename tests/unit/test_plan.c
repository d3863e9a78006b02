// SPDX-License-Identifier: GPL-2.0
/*
 * The plan stored with a batch: the run options --resume keeps are read
 * from and written to it by their table (runner/plan.h), in the keys and
 * the order a stored plan has always had, so that a batch stored by an
 * older schedperf resumes with its options and a newer one writes what an
 * older one reads.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "runner/plan.h"
#include "runner/plan_given.h"
#include "util/strbuf.h"

/* A stored plan of one benchmark with @params_json, then @options ("" or ",..."). */
static char *stored_plan(const char *params_json, const char *options)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "{\"benchmarks\":[{\"workload\":\"pipe\",\"params\":%s,"
		    "\"iterations\":3,\"warmup\":1}]%s}", params_json, options);
	return strbuf_detach(&sb);
}

static void assert_round_trip(const char *options, struct plan *plan)
{
	struct error err = { 0 };
	char *text = stored_plan("{}", options), *want, *got;

	assert_int_equal(plan_from_json(text, plan, &err), 0);
	assert_int_equal(plan->nr_items, 1);
	want = stored_plan(plan->items[0].params_json, options);
	got = plan_to_json(plan);
	assert_string_equal(got, want);
	free(text);
	free(want);
	free(got);
}

static void test_plan_options_round_trip(void **state)
{
	struct plan plan = { 0 };

	assert_round_trip(",\"monitors\":\"vmstat,profile\",\"retries\":2,\"cpus\":\"0-1\","
			  "\"knobs\":[\"sysctl:kernel.sched_child_runs_first=1\",\"b=2\"],"
			  "\"profile_iterations\":1,\"profile_frequency\":99,\"rerun_disturbed\":3,"
			  "\"iterations\":3,\"warmup\":1,\"timeout\":2.5,\"shuffle\":true,"
			  "\"max_interference\":12.5,\"quiet_wait\":0.5", &plan);
	assert_string_equal(plan.monitors, "vmstat,profile");
	assert_int_equal(plan.retries, 2);
	assert_string_equal(plan.cpus, "0-1");
	assert_int_equal(plan.nr_knobs, 2);
	assert_string_equal(plan.knobs[1], "b=2");
	assert_int_equal(plan.profile_iterations, 1);
	assert_int_equal(plan.profile_frequency, 99);
	assert_int_equal(plan.rerun_disturbed, 3);
	assert_int_equal(plan.iterations, 3);
	assert_int_equal(plan.warmup, 1);
	assert_true(plan.timeout == 2.5);
	assert_true(plan.shuffle);
	assert_true(plan.max_interference == 12.5);
	assert_true(plan.quiet_wait == 0.5);
	plan_release(&plan);
	for (const struct plan_option *o = plan_options; o->key; o++)
		assert_false(plan_option_given(&plan, o));
	assert_null(plan.monitors);
	assert_null(plan.knobs);
}

/* Row @i's value of its kind, as a stored plan holds it: ,"KEY":VALUE. */
static void add_option_value(struct strbuf *sb, const struct plan_option *o, int i)
{
	switch (o->kind) {
	case PLAN_OPTION_STRING:
		strbuf_addf(sb, ",\"%s\":\"s%d\"", o->key, i);
		break;
	case PLAN_OPTION_INT:
		strbuf_addf(sb, ",\"%s\":%d", o->key, i + 1);
		break;
	case PLAN_OPTION_NUMBER:
		strbuf_addf(sb, ",\"%s\":%d.5", o->key, i);
		break;
	case PLAN_OPTION_FLAG:
		strbuf_addf(sb, ",\"%s\":true", o->key);
		break;
	case PLAN_OPTION_LIST:
		strbuf_addf(sb, ",\"%s\":[\"a%d\",\"b%d\"]", o->key, i, i);
		break;
	}
}

/* Row @i's field in @plan holds what add_option_value() wrote. */
static void assert_option_field(const struct plan *plan, const struct plan_option *o, int i)
{
	const char *field = (const char *)plan + o->offset;
	char want[32];

	switch (o->kind) {
	case PLAN_OPTION_STRING:
		snprintf(want, sizeof(want), "s%d", i);
		assert_string_equal(*(char *const *)field, want);
		break;
	case PLAN_OPTION_INT:
		assert_int_equal(*(const int *)field, i + 1);
		break;
	case PLAN_OPTION_NUMBER:
		assert_true(*(const double *)field == i + 0.5);
		break;
	case PLAN_OPTION_FLAG:
		assert_true(*(const bool *)field);
		break;
	case PLAN_OPTION_LIST:
		assert_int_equal(*(const size_t *)((const char *)plan + o->count_offset), 2);
		snprintf(want, sizeof(want), "b%d", i);
		assert_string_equal((*(char *const *const *)field)[1], want);
		break;
	}
}

/*
 * Every row of plan_options[], a new one too, with no change here: a value
 * of its kind is read into its own field, given, written back as it was
 * and let go.
 */
static void test_plan_options_every_row(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct plan plan = { 0 };
	int i = 0;

	for (const struct plan_option *o = plan_options; o->key; o++)
		add_option_value(&sb, o, i++);
	assert_round_trip(strbuf_str(&sb), &plan);
	i = 0;
	for (const struct plan_option *o = plan_options; o->key; o++) {
		assert_true(plan_option_given(&plan, o));
		assert_option_field(&plan, o, i++);
	}
	plan_release(&plan);
	for (const struct plan_option *o = plan_options; o->key; o++)
		assert_false(plan_option_given(&plan, o));
	strbuf_release(&sb);
}

/* An option not given is not written, and one missing reads as not given. */
static void test_plan_options_absent(void **state)
{
	struct plan plan = { 0 };

	assert_round_trip("", &plan);
	for (const struct plan_option *o = plan_options; o->key; o++)
		assert_false(plan_option_given(&plan, o));
	plan_release(&plan);
	assert_round_trip(",\"retries\":1", &plan);
	assert_int_equal(plan.retries, 1);
	assert_null(plan.cpus);
	plan_release(&plan);
}

/* A 0 an option gave (--warmup 0) is given: written, read back, refused by --resume. */
static void test_plan_options_zero_given(void **state)
{
	struct plan plan = { 0 };
	const struct plan_option *warmup = plan_option_find("warmup");
	const struct plan_option *retries = plan_option_find("retries");
	const struct plan_option *timeout = plan_option_find("timeout");

	plan_options_unset(&plan);
	plan.warmup = 0;	/* as --warmup 0 and --retries 0 set them */
	plan.retries = 0;
	plan_options_mark(&plan);
	assert_true(plan_option_given(&plan, warmup));
	assert_true(plan_option_given(&plan, retries));
	assert_false(plan_option_given(&plan, timeout));
	assert_true(plan.timeout == 0);
	assert_int_equal(plan.iterations, 0);
	plan_release(&plan);
	assert_false(plan_option_given(&plan, warmup));
	assert_round_trip(",\"retries\":0,\"warmup\":0,\"shuffle\":false,"
			  "\"max_interference\":0.0", &plan);
	assert_true(plan_option_given(&plan, plan_option_find("max_interference")));
	assert_false(plan_option_given(&plan, plan_option_find("quiet_wait")));
	assert_true(plan_option_given(&plan, warmup));
	assert_true(plan_option_given(&plan, retries));
	assert_true(plan_option_given(&plan, plan_option_find("shuffle")));
	assert_false(plan_option_given(&plan, timeout));
	plan_release(&plan);
}

static void test_plan_option_find(void **state)
{
	struct plan plan = { 0 };
	const struct plan_option *knobs = plan_option_find("knobs");

	assert_non_null(knobs);
	assert_string_equal(knobs->option, "knob");
	assert_null(plan_option_find("nothing"));
	plan_option_add(&plan, knobs, "a=1");
	plan_option_add(&plan, knobs, "b=2");
	assert_int_equal(plan.nr_knobs, 2);
	assert_string_equal(plan.knobs[0], "a=1");
	assert_true(plan_option_given(&plan, knobs));
	plan_release(&plan);
}

/* plan_given_error() of @msg, a benchmark of @resolved refused, where the user typed @typed. */
static const char *given_error(const char *msg, const char *typed, const char *resolved,
			       int cpus)
{
	static struct error err;
	char mode[] = "mode=socket";
	const char *const text[] = { mode, typed };
	char *const assignments[] = { mode, (char *)resolved };
	struct plan_given given = { text, 2, cpus };
	struct error why = { EXIT_USAGE, "" };

	snprintf(why.msg, sizeof(why.msg), "%s", msg);
	assert_int_equal(plan_given_error(&given, assignments, &why, &err), -1);
	assert_int_equal(err.code, EXIT_USAGE);
	return err.msg;
}

/* The reason names what was typed, before its "(how to fix)", and only what it names. */
static void test_plan_given_error(void **state)
{
	(void)state;
	assert_string_equal(given_error("1 call for 2 threads (give calls >= threads)",
					"calls=50%", "calls=1", 2),
			    "1 call for 2 threads; -p calls=50% is calls=1 on 2 CPUs "
			    "(give calls >= threads)");
	assert_string_equal(given_error("calls: too few", "calls=1x,1", "calls=1,1", 1),
			    "calls: too few; -p calls=1x,1 is calls=1,1 on 1 CPU");
	assert_string_equal(given_error("calls (of threads) low (give more (or fewer))",
					"calls=2x", "calls=4", 2),
			    "calls (of threads) low; -p calls=2x is calls=4 on 2 CPUs "
			    "(give more (or fewer))");
	assert_string_equal(given_error("calls low(give more)", "calls=2x", "calls=4", 2),
			    "calls low(give more); -p calls=2x is calls=4 on 2 CPUs");
	/* not named as a word, or typed as planned: the reason as it is */
	assert_string_equal(given_error("recalls_n low (give more)", "calls=2x", "calls=4", 2),
			    "recalls_n low (give more)");
	assert_string_equal(given_error("calls low (give more)", "calls=4", "calls=4", 2),
			    "calls low (give more)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_options_round_trip),
		cmocka_unit_test(test_plan_options_every_row),
		cmocka_unit_test(test_plan_options_absent),
		cmocka_unit_test(test_plan_options_zero_given),
		cmocka_unit_test(test_plan_option_find),
		cmocka_unit_test(test_plan_given_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
