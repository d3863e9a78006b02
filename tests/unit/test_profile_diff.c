// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for analysis/profile_diff.c: profiles pooled per benchmark and
 * compared between runs. The profiles are made up so that every expected
 * share is plain arithmetic, worked out in the comments: weight / total x
 * 100, the mean over a run's profiles, 0 where a profile lacks the symbol.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/profile_diff.h"

struct sym {
	const char *name;
	uint64_t self, children;
};

/* A profile of @total weight with the symbols of @syms (name NULL ends it). */
static void add_profile(struct result_benchmark *b, uint64_t total, bool extra,
			const struct sym *syms)
{
	struct result_profile *p = result_benchmark_add_profile(b);

	p->seq = (int)b->nr_profiles - 1;
	p->extra = extra;
	p->event = strdup("cpu-clock");
	p->scope = strdup("tasks");
	p->frequency = 1000;
	p->samples = total;
	p->total = total;
	for (; syms->name; syms++)
		result_profile_add_symbol(p, syms->name, "[kernel.kallsyms]", syms->self,
					  syms->children);
}

static struct result_benchmark *add_bench(struct compare_run *run, const char *workload,
					  const char *params)
{
	struct result_batch *batch = run->set.nr_batches ? &run->set.batches[0] :
				     result_set_add_batch(&run->set);
	struct result_benchmark *b = result_batch_add_benchmark(batch);

	b->workload = strdup(workload);
	b->params = strdup(params);
	return b;
}

static const struct profile_symbol_row *row_of(const struct profile_bench *pb, const char *name)
{
	for (size_t i = 0; i < pb->nr_rows; i++)
		if (!strcmp(pb->rows[i].name, name))
			return &pb->rows[i];
	fail_msg("no row for %s", name);
	return NULL;
}

static void assert_share(const struct share_stats *s, double mean, double min, double max)
{
	assert_float_equal(s->mean, mean, 1e-9);
	assert_float_equal(s->min, min, 1e-9);
	assert_float_equal(s->max, max, 1e-9);
}

/*
 * Run A: three profiles of 1000; x self 10, 20, 30 (children 100, 110,
 * 120); y self and children 500; "dup" twice in the first profile (two
 * functions of one name), 5 + 5.
 * Run B: three profiles of 1000; x self 300, 310, 320 (children 400, 410,
 * 420); y 400; z only in the last one, 30.
 */
static void make_runs(struct compare_run runs[2])
{
	static const struct sym a[3][4] = {
		{ { "x", 10, 100 }, { "y", 500, 500 }, { "dup", 5, 5 }, { NULL, 0, 0 } },
		{ { "x", 20, 110 }, { "y", 500, 500 }, { NULL, 0, 0 } },
		{ { "x", 30, 120 }, { "y", 500, 500 }, { NULL, 0, 0 } },
	};
	static const struct sym dup[] = { { "dup", 5, 5 }, { NULL, 0, 0 } };
	static const struct sym b[3][4] = {
		{ { "x", 300, 400 }, { "y", 400, 400 }, { NULL, 0, 0 } },
		{ { "x", 310, 410 }, { "y", 400, 400 }, { NULL, 0, 0 } },
		{ { "x", 320, 420 }, { "y", 400, 400 }, { "z", 30, 30 }, { NULL, 0, 0 } },
	};
	struct result_benchmark *ba, *bb;

	memset(runs, 0, 2 * sizeof(*runs));
	runs[0].name = "A";
	runs[1].name = "B";
	ba = add_bench(&runs[0], "pipe", "{\"loops\":\"1000\"}");
	bb = add_bench(&runs[1], "pipe", "{\"loops\":\"1000\"}");
	for (int i = 0; i < 3; i++) {
		add_profile(ba, 1000, false, a[i]);
		add_profile(bb, 1000, false, b[i]);
	}
	/* the second "dup" of A's first profile */
	result_profile_add_symbol(&ba->profiles[0], dup[0].name, "[kernel.kallsyms]", 5, 5);
	/* a profile that took no sample is no profile */
	add_profile(bb, 0, true, dup + 1);
}

static void release_runs(struct compare_run runs[2])
{
	result_set_release(&runs[0].set);
	result_set_release(&runs[1].set);
}

static void test_shares_and_changes(void **state)
{
	struct compare_run runs[2];
	struct profile_diff d;
	const struct profile_bench *pb;
	const struct profile_symbol_row *x, *y, *z, *dup;

	make_runs(runs);
	profile_diff_build(&d, runs, 2, 0, NULL);
	assert_int_equal(d.nr_benches, 1);
	pb = &d.benches[0];
	assert_int_equal(pb->runs[0].nr_profiles, 3);
	assert_int_equal(pb->runs[1].nr_profiles, 3);
	assert_int_equal(pb->runs[1].nr_extra, 0);
	assert_int_equal(pb->runs[0].samples, 3000);
	assert_int_equal(pb->nr_rows, 4);

	x = row_of(pb, "x");
	/* self: 1, 2, 3 % against 30, 31, 32 %: +29 points, ranges apart */
	assert_share(&x->self[0], 2, 1, 3);
	assert_share(&x->self[1], 31, 30, 32);
	assert_int_equal(x->self_spread[1], SPREAD_BEYOND);
	assert_share(&x->children[0], 11, 10, 12);
	assert_share(&x->children[1], 41, 40, 42);
	assert_int_equal(x->children_spread[1], SPREAD_BEYOND);
	assert_int_equal(x->self_spread[0], SPREAD_NONE);

	y = row_of(pb, "y");
	assert_share(&y->self[0], 50, 50, 50);
	assert_share(&y->self[1], 40, 40, 40);
	assert_int_equal(y->self_spread[1], SPREAD_BEYOND);

	/* z: 3 % in one of B's three profiles, never in A's: mean 1, range 0..3 */
	z = row_of(pb, "z");
	assert_share(&z->self[0], 0, 0, 0);
	assert_share(&z->self[1], 1, 0, 3);
	assert_int_equal(z->self_spread[1], SPREAD_WITHIN);

	/* dup: 5 + 5 of 1000 in one of A's three profiles: 1 %, mean 1/3 */
	dup = row_of(pb, "dup");
	assert_share(&dup->self[0], 1.0 / 3, 0, 1);

	/* ordered by the largest change: x (+30 children), y (-10), z (+1), dup (-1/3) */
	assert_string_equal(pb->rows[0].name, "x");
	assert_string_equal(pb->rows[1].name, "y");
	assert_string_equal(pb->rows[2].name, "z");
	assert_string_equal(pb->rows[3].name, "dup");
	profile_diff_release(&d);

	profile_diff_build(&d, runs, 2, 2, NULL);
	assert_int_equal(d.benches[0].nr_rows, 2);
	assert_string_equal(d.benches[0].rows[1].name, "y");
	profile_diff_release(&d);
	release_runs(runs);
}

/* One run alone is ordered by children share: y (50), x (11), dup. */
static void test_one_run(void **state)
{
	struct compare_run runs[2];
	struct profile_diff d;

	make_runs(runs);
	profile_diff_build(&d, runs, 1, 0, NULL);
	assert_int_equal(d.benches[0].nr_rows, 3);
	assert_string_equal(d.benches[0].rows[0].name, "y");
	assert_string_equal(d.benches[0].rows[1].name, "x");
	assert_true(profile_diff_has_run(&d, 0));
	profile_diff_release(&d);
	release_runs(runs);
}

/* With one profile a side there is no spread to judge a change by. */
static void test_single_profiles(void **state)
{
	static const struct sym a[] = { { "x", 10, 10 }, { NULL, 0, 0 } };
	static const struct sym b[] = { { "x", 900, 900 }, { NULL, 0, 0 } };
	struct compare_run runs[2];
	struct profile_diff d;

	memset(runs, 0, sizeof(runs));
	add_profile(add_bench(&runs[0], "pipe", "{}"), 1000, true, a);
	add_profile(add_bench(&runs[1], "pipe", "{}"), 1000, true, b);
	profile_diff_build(&d, runs, 2, 0, NULL);
	assert_int_equal(d.benches[0].runs[1].nr_extra, 1);
	assert_int_equal(d.benches[0].rows[0].self_spread[1], SPREAD_UNKNOWN);
	assert_float_equal(d.benches[0].rows[0].self[1].mean - d.benches[0].rows[0].self[0].mean,
			   89, 1e-9);
	profile_diff_release(&d);
	release_runs(runs);
}

/* Benchmarks pair up by workload and params; a run without one shows none. */
static void test_pairing_and_filter(void **state)
{
	static const struct sym s[] = { { "x", 1, 1 }, { NULL, 0, 0 } };
	const char *const only_messaging[] = { "messaging", NULL };
	struct compare_run runs[2];
	struct profile_diff d;

	memset(runs, 0, sizeof(runs));
	add_profile(add_bench(&runs[0], "pipe", "{}"), 10, false, s);
	add_profile(add_bench(&runs[0], "messaging", "{}"), 10, false, s);
	add_profile(add_bench(&runs[1], "messaging", "{}"), 10, false, s);
	add_bench(&runs[1], "pipe", "{}");
	profile_diff_build(&d, runs, 2, 0, NULL);
	assert_int_equal(d.nr_benches, 2);
	assert_string_equal(d.benches[0].workload, "pipe");
	assert_int_equal(d.benches[0].runs[1].nr_profiles, 0);
	assert_true(isnan(d.benches[0].rows[0].self[1].mean));
	profile_diff_release(&d);

	profile_diff_build(&d, runs, 2, 0, only_messaging);
	assert_int_equal(d.nr_benches, 1);
	assert_string_equal(d.benches[0].workload, "messaging");
	assert_true(profile_diff_has_run(&d, 1));
	profile_diff_release(&d);

	profile_diff_build(&d, runs, 2, 0, (const char *const[]){ "futex-wake", NULL });
	assert_int_equal(d.nr_benches, 0);
	assert_false(profile_diff_has_run(&d, 0));
	profile_diff_release(&d);
	release_runs(runs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shares_and_changes),
		cmocka_unit_test(test_one_run),
		cmocka_unit_test(test_single_profiles),
		cmocka_unit_test(test_pairing_and_filter),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
