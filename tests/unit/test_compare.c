// SPDX-License-Identifier: GPL-2.0
/*
 * The comparison model's statistics: the order-statistic
 * interval of the median, the verdict rules, and comparison_analyze() on
 * fixed data. The median interval's orders are printed by tests/reference/
 * compare_reference.py (k = scipy.stats.binom.ppf((1 - level)/2, n, 0.5),
 * the interval [x(k), x(n+1-k)]); the model's data and every number
 * expected of it come from R, in r_compare_model.h, written by
 * tests/reference/r_reference.R: t.test, wilcox.test, median(outer(new,
 * base, "-")) and p.adjust over the comparison's four Welch p-values.
 * Compared to 1e-6 relative.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/comparison.h"
#include "report/report.h"
#include "stats/bootstrap.h"
#include "stats/mannwhitney.h"
#include "stats/median_ci.h"
#include "stats/rng.h"
#include "stats/welch.h"
#include "util/array.h"

struct r_model_cell {
	const char *name;
	double p_welch, p_mwu, hl_shift, p_bh, p_holm;
};

#include "r_compare_model.h"

#define REL 1e-6
static void assert_close_at(double actual, double expected, const char *file, int line)
{
	double scale = fabs(expected) > 1 ? fabs(expected) : 1;

	if (isnan(expected) ? isnan(actual) : fabs(actual - expected) <= REL * scale)
		return;
	print_error("expected %.17g, got %.17g\n", expected, actual);
	_fail(file, line);
}
#define assert_close(a, e) assert_close_at((a), (e), __FILE__, __LINE__)

/* ------------------------------------------------------------ median CI */

struct orders_case {
	size_t n;
	double level;
	size_t lo, hi;		/* 0, 0: too few samples */
};

static void test_median_ci_orders(void **state)
{
	/* k = binom.ppf((1 - level)/2, n, 0.5), hi = n + 1 - k */
	static const struct orders_case cases[] = {
		{ 1, 0.95, 0, 0 }, { 2, 0.95, 0, 0 }, { 5, 0.95, 0, 0 }, { 5, 0.9, 1, 5 },
		{ 6, 0.95, 1, 6 }, { 6, 0.99, 0, 0 }, { 7, 0.95, 1, 7 }, { 10, 0.95, 2, 9 },
		{ 10, 0.99, 1, 10 }, { 11, 0.9, 3, 9 }, { 30, 0.95, 10, 21 },
		{ 31, 0.95, 10, 22 }, { 50, 0.95, 18, 33 }, { 50, 0.9, 19, 32 },
		{ 101, 0.95, 41, 61 }, { 101, 0.99, 38, 64 }, { 1000, 0.95, 469, 532 },
		{ 1000, 0.9, 474, 527 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		size_t lo, hi;
		int rc = median_ci_orders(cases[i].n, cases[i].level, &lo, &hi);

		assert_int_equal(rc, cases[i].lo ? 0 : -1);
		assert_int_equal(lo, cases[i].lo);
		assert_int_equal(hi, cases[i].hi);
	}
}

static void test_median_ci_values(void **state)
{
	/* sorted([3.1,1.2,5.5,2.2,9.9,4.4,0.5,7.7,6.6,8.8,2.9]): k = 2 */
	static const double sorted[] = { 0.5, 1.2, 2.2, 2.9, 3.1, 4.4, 5.5, 6.6, 7.7, 8.8, 9.9 };
	double lo, hi;

	assert_int_equal(median_ci(sorted, ARRAY_SIZE(sorted), 0.95, &lo, &hi), 0);
	assert_close(lo, 1.2);
	assert_close(hi, 8.8);
	/* too few samples, and a level outside (0, 1) */
	assert_int_equal(median_ci(sorted, 5, 0.95, &lo, &hi), -1);
	assert_true(isnan(lo) && isnan(hi));
	assert_int_equal(median_ci(sorted, 11, 1.0, &lo, &hi), -1);
	assert_int_equal(median_ci(sorted, 0, 0.95, &lo, &hi), -1);
}

/* ------------------------------------------------------------ verdicts */

static struct cell_stats stats_with(double p, double low, double high)
{
	struct cell_stats st = { .p_adjusted = p, .ratio_low = low, .ratio_high = high };

	return st;
}

static void test_verdict_rules(void **state)
{
	struct cell_stats st;

	/* significant and the interval above 1: worse when lower is better */
	st = stats_with(0.001, 1.08, 1.12);
	assert_int_equal(cell_verdict(&st, BETTER_LOWER, 0.05, 0.01), VERDICT_WORSE);
	assert_int_equal(cell_verdict(&st, BETTER_HIGHER, 0.05, 0.01), VERDICT_BETTER);
	st = stats_with(0.001, 0.90, 0.95);
	assert_int_equal(cell_verdict(&st, BETTER_LOWER, 0.05, 0.01), VERDICT_BETTER);
	assert_int_equal(cell_verdict(&st, BETTER_HIGHER, 0.05, 0.01), VERDICT_WORSE);
	/* significant p but the interval straddles 1: not a change */
	st = stats_with(0.001, 0.98, 1.03);
	assert_int_equal(cell_verdict(&st, BETTER_LOWER, 0.05, 0.01), VERDICT_UNKNOWN);
	/* not significant, interval inside 1 +/- 1 %: same; edges count */
	st = stats_with(0.5, 0.99, 1.01);
	assert_int_equal(cell_verdict(&st, BETTER_LOWER, 0.05, 0.01), VERDICT_SAME);
	st = stats_with(0.5, 0.989, 1.005);
	assert_int_equal(cell_verdict(&st, BETTER_LOWER, 0.05, 0.01), VERDICT_UNKNOWN);
	assert_int_equal(cell_verdict(&st, BETTER_LOWER, 0.05, 0.02), VERDICT_SAME);
	/* p exactly alpha is not significant */
	st = stats_with(0.05, 1.08, 1.12);
	assert_int_equal(cell_verdict(&st, BETTER_LOWER, 0.05, 0.01), VERDICT_UNKNOWN);
	/* no interval: unknown */
	st = stats_with(0.001, NAN, NAN);
	assert_int_equal(cell_verdict(&st, BETTER_LOWER, 0.05, 0.01), VERDICT_UNKNOWN);
	assert_string_equal(verdict_name(VERDICT_WORSE), "worse");
	assert_string_equal(verdict_name(VERDICT_SAME), "same");
}

/* ------------------------------------------------------------ the model */


static void add_metric(struct result_batch *batch, const char *workload, const char *name,
		       enum better better, const double *x, size_t n)
{
	struct result_benchmark *bench = result_batch_add_benchmark(batch);
	struct result_metric *m = result_benchmark_add_metric(bench);

	bench->workload = strdup(workload);
	bench->params = strdup("{}");
	m->name = strdup(name);
	m->unit = strdup("u");
	m->better = better;
	m->source = strdup("workload");
	for (size_t i = 0; i < n; i++)
		result_metric_add_sample(m, x[i], false);
}

static void make_run(struct compare_run *run, const char *name, const char *governor,
		     const double *a, const double *b)
{
	struct result_batch *batch;

	memset(run, 0, sizeof(*run));
	run->name = name;
	batch = result_set_add_batch(&run->set);
	memset(batch, 0, sizeof(*batch));
	batch->name = strdup(name);
	result_batch_add_env(batch, "cpufreq.governor", governor);
	result_batch_add_env(batch, "loadavg", name);	/* always differs: ignored */
	result_batch_add_env(batch, "kernel.release", name);
	result_batch_sort_env(batch);
	add_metric(batch, "wa", "seconds", BETTER_LOWER, a, 8);
	add_metric(batch, "wb", "ops", BETTER_HIGHER, b, 8);
}

static void build(struct compare_run runs[3], struct comparison *cmp, enum p_adjust_method m)
{
	struct compare_options opts;

	make_run(&runs[0], "base", "performance", r_base_a, r_base_b);
	make_run(&runs[1], "new1", "powersave", r_new1_a, r_new1_b);
	make_run(&runs[2], "new2", "performance", r_new2_a, r_new2_b);
	comparison_build(cmp, runs, 3, false);
	compare_options_init(&opts);
	opts.adjust = m;
	comparison_analyze(cmp, &opts);
}

static void release(struct compare_run runs[3], struct comparison *cmp)
{
	comparison_release(cmp);
	for (int i = 0; i < 3; i++)
		result_set_release(&runs[i].set);
}

/* cell i of r_model_cells: row i / 2, run i % 2 + 1 */
static const struct cell_stats *model_cell(const struct comparison *cmp, size_t i)
{
	return &cmp->rows[i / 2].cells[i % 2 + 1].stats;
}

static void test_model_tests_and_bh(void **state)
{
	struct compare_run runs[3];
	struct comparison cmp;

	build(runs, &cmp, P_ADJUST_BH);
	assert_int_equal(cmp.nr_rows, 2);
	for (size_t i = 0; i < ARRAY_SIZE(r_model_cells); i++) {
		const struct cell_stats *st = model_cell(&cmp, i);

		assert_close(st->p_welch, r_model_cells[i].p_welch);
		assert_close(st->p_mwu, r_model_cells[i].p_mwu);
		assert_close(st->hl_shift, r_model_cells[i].hl_shift);
		/* BH over all four cells of the comparison */
		assert_close(st->p_adjusted, r_model_cells[i].p_bh);
	}
	/* the baseline cell compares with nothing */
	assert_true(isnan(cmp.rows[0].cells[0].stats.p_welch));
	assert_int_equal(cmp.rows[0].cells[0].stats.verdict, VERDICT_NONE);
	assert_close(cmp.rows[0].cells[0].stats.median_low, r_base_a_median_ci[0]);
	assert_close(cmp.rows[0].cells[0].stats.median_high, r_base_a_median_ci[1]);
	release(runs, &cmp);
}

static void test_model_holm(void **state)
{
	struct compare_run runs[3];
	struct comparison cmp;

	build(runs, &cmp, P_ADJUST_HOLM);
	for (size_t i = 0; i < ARRAY_SIZE(r_model_cells); i++)
		assert_close(model_cell(&cmp, i)->p_adjusted, r_model_cells[i].p_holm);
	release(runs, &cmp);
}

static void test_model_verdicts_and_env(void **state)
{
	struct compare_run runs[3];
	struct comparison cmp;
	const char *keys[4];
	const struct cell_stats *a1, *a2, *b1;
	char buf[96];

	build(runs, &cmp, P_ADJUST_BH);
	a1 = &cmp.rows[0].cells[1].stats;
	a2 = &cmp.rows[0].cells[2].stats;
	b1 = &cmp.rows[1].cells[1].stats;
	/* seconds up 10 %: worse; ops down 10 %: worse; new2 unchanged */
	assert_int_equal(a1->verdict, VERDICT_WORSE);
	assert_int_equal(b1->verdict, VERDICT_WORSE);
	/* the interval holds mean(new1)/mean(base) = 11.09375/10.10625 */
	assert_true(a1->ratio_low < 11.09375 / 10.10625 && a1->ratio_high > 11.09375 / 10.10625);
	assert_true(a1->ratio_low > 1.07 && a1->ratio_high < 1.13);
	assert_true(a1->ratio_low <= a1->ratio_high);
	assert_true(isnan(a1->mde_pct));	/* only for rows without a change */
	assert_int_equal(a2->verdict, VERDICT_UNKNOWN);	/* 1.5 % noise, 8 samples */
	assert_true(a2->mde_pct > 0 && a2->mde_pct < 5);
	assert_true(comparison_has_regression(&cmp));

	/* loadavg ignored; governor and release differ, governor moves results */
	assert_int_equal(cmp.nr_env_diffs, 2);
	assert_string_equal(cmp.env_diffs[0].key, "cpufreq.governor");
	assert_true(cmp.env_diffs[0].moves_results);
	assert_string_equal(cmp.env_diffs[1].key, "kernel.release");
	assert_false(cmp.env_diffs[1].moves_results);
	assert_int_equal(comparison_caveats(&cmp, 1, keys, 4), 1);
	assert_string_equal(keys[0], "cpufreq.governor");
	assert_int_equal(comparison_caveats(&cmp, 2, keys, 4), 0);

	format_verdict(buf, sizeof(buf), &cmp, &cmp.rows[0], 1, VERDICT_WORSE);
	assert_string_equal(buf, "worse (!governor differs)");

	/* --only-changed keeps both rows (new1 changed in each) */
	comparison_keep_changed(&cmp);
	assert_int_equal(cmp.nr_rows, 2);
	release(runs, &cmp);
}

static void test_model_filter(void **state)
{
	static const char *const wb[] = { "wb", NULL };
	static const char *const none[] = { "nosuch", NULL };
	static const char *const one_bad[] = { "wb", "nosuch", NULL };
	static const char *const param[] = { "x=1", NULL };
	struct compare_run runs[3];
	struct comparison cmp;
	const char *kind;

	make_run(&runs[0], "base", "performance", r_base_a, r_base_b);
	make_run(&runs[1], "new1", "powersave", r_new1_a, r_new1_b);
	make_run(&runs[2], "new2", "performance", r_new2_a, r_new2_b);
	comparison_build(&cmp, runs, 3, false);
	/* a name no row has is said, whatever the others match */
	assert_string_equal(comparison_filter(&cmp, one_bad, NULL, NULL, &kind), "nosuch");
	assert_string_equal(kind, "--workload");
	assert_int_equal(cmp.nr_rows, 1);
	assert_null(comparison_filter(&cmp, wb, NULL, NULL, &kind));
	assert_int_equal(cmp.nr_rows, 1);
	assert_string_equal(cmp.rows[0].workload, "wb");
	/* a KEY=VALUE of -p that no row's parameters hold, too */
	assert_string_equal(comparison_filter(&cmp, NULL, NULL, param, &kind), "x=1");
	assert_string_equal(kind, "-p");
	assert_int_equal(cmp.nr_rows, 0);
	assert_string_equal(comparison_filter(&cmp, NULL, none, NULL, &kind), "nosuch");
	assert_string_equal(kind, "--metric");
	assert_int_equal(cmp.nr_rows, 0);
	release(runs, &cmp);
}

/*
 * Identical runs: nothing significant. Eight samples of 1.5 % noise cannot
 * show "same within 1 %" (the ratio interval is wider): unknown; 0.7 %
 * noise can: same.
 */
static void test_model_identical(void **state)
{
	struct compare_run runs[2];
	struct compare_options opts;
	struct comparison cmp;

	make_run(&runs[0], "x", "performance", r_base_a, r_base_b);
	make_run(&runs[1], "y", "performance", r_base_a, r_base_b);
	comparison_build(&cmp, runs, 2, false);
	compare_options_init(&opts);
	comparison_analyze(&cmp, &opts);
	for (size_t i = 0; i < cmp.nr_rows; i++) {
		const struct cell_stats *st = &cmp.rows[i].cells[1].stats;

		assert_close(st->p_welch, 1.0);
		assert_close(st->p_adjusted, 1.0);
		assert_close(st->hl_shift, 0.0);
		assert_int_equal(st->verdict, i == 0 ? VERDICT_UNKNOWN : VERDICT_SAME);
		assert_true(st->ratio_low < 1 && st->ratio_high > 1);
	}
	assert_false(comparison_has_regression(&cmp));
	comparison_release(&cmp);
	result_set_release(&runs[0].set);
	result_set_release(&runs[1].set);
}

/* ------------------------------------------------------------ batches */

/* A batch of run @run with the given governor; metrics added by add_metric(). */
static struct result_batch *add_batch(struct compare_run *run, const char *governor)
{
	struct result_batch *batch = result_set_add_batch(&run->set);

	memset(batch, 0, sizeof(*batch));
	batch->name = strdup(run->name);
	result_batch_add_env(batch, "cpufreq.governor", governor);
	result_batch_sort_env(batch);
	return batch;
}

static const struct compare_row *row_named(const struct comparison *cmp, const char *workload)
{
	for (size_t i = 0; i < cmp->nr_rows; i++)
		if (!strcmp(cmp->rows[i].workload, workload))
			return &cmp->rows[i];
	fail_msg("no row %s", workload);
	return NULL;
}

/*
 * A run of two batches is compared as its samples pooled: every batch's
 * samples in the cell, in order, and the tests on all of them; a metric
 * that only the second batch has is a row of its own; a key that differs
 * between the batches of one run shows both values and marks the verdict.
 */
static void test_model_pools_batches(void **state)
{
	static const double wc[] = { 3.0, 3.5, 3.25 };
	struct compare_run runs[2] = { { .name = "base" }, { .name = "new" } };
	struct result_batch *batch;
	struct compare_options opts;
	struct comparison cmp;
	const struct compare_row *row;
	struct welch_result w;
	const char *keys[4];

	batch = add_batch(&runs[0], "performance");
	add_metric(batch, "wa", "seconds", BETTER_LOWER, r_base_a, 8);
	batch = add_batch(&runs[1], "performance");
	add_metric(batch, "wa", "seconds", BETTER_LOWER, r_new1_a, 4);
	batch = add_batch(&runs[1], "powersave");
	add_metric(batch, "wa", "seconds", BETTER_LOWER, r_new1_a + 4, 4);
	add_metric(batch, "wc", "seconds", BETTER_LOWER, wc, 3);

	comparison_build(&cmp, runs, 2, false);
	compare_options_init(&opts);
	comparison_analyze(&cmp, &opts);
	assert_int_equal(cmp.nr_rows, 2);

	row = row_named(&cmp, "wa");
	assert_int_equal(row->cells[1].nr_samples, 8);
	assert_memory_equal(row->cells[1].samples, r_new1_a, 8 * sizeof(double));
	assert_int_equal(row->cells[1].summary.n, 8);
	welch_test(r_base_a, 8, r_new1_a, 8, &w);
	assert_close(row->cells[1].stats.p_welch, w.p);
	assert_close(row->cells[1].stats.p_welch, r_model_cells[0].p_welch);
	/* the only p-value of the family (wc has no baseline): unadjusted */
	assert_close(row->cells[1].stats.p_adjusted, w.p);
	assert_int_equal(row->cells[1].stats.verdict, VERDICT_WORSE);

	row = row_named(&cmp, "wc");
	assert_int_equal(row->cells[0].nr_samples, 0);
	assert_int_equal(row->cells[1].nr_samples, 3);
	assert_close(row->cells[1].summary.amean, 3.25);
	assert_true(isnan(row->cells[1].stats.p_welch));
	assert_true(isnan(row->cells[1].stats.p_adjusted));
	assert_int_equal(row->cells[1].stats.verdict, VERDICT_UNKNOWN);

	assert_int_equal(cmp.nr_env_diffs, 1);
	assert_string_equal(cmp.env_diffs[0].key, "cpufreq.governor");
	assert_string_equal(cmp.env_diffs[0].values[0], "performance");
	assert_string_equal(cmp.env_diffs[0].values[1], "performance | powersave");
	assert_int_equal(comparison_caveats(&cmp, 1, keys, 4), 1);
	comparison_release(&cmp);
	result_set_release(&runs[0].set);
	result_set_release(&runs[1].set);
}

/*
 * Both runs' batches mixed the same two governors: the runs' values read
 * the same, yet a baseline whose own batches differ in such a key is a
 * caveat for every run.
 */
static void test_model_baseline_batches_differ(void **state)
{
	struct compare_run runs[2] = { { .name = "base" }, { .name = "new" } };
	struct comparison cmp;
	const char *keys[4];

	for (int r = 0; r < 2; r++) {
		const double *x = r ? r_new2_a : r_base_a;

		add_metric(add_batch(&runs[r], "performance"), "wa", "seconds", BETTER_LOWER, x, 4);
		add_metric(add_batch(&runs[r], "powersave"), "wa", "seconds", BETTER_LOWER,
			   x + 4, 4);
	}
	comparison_build(&cmp, runs, 2, false);
	assert_int_equal(cmp.rows[0].cells[0].nr_samples, 8);
	comparison_env_differences(&cmp);
	assert_int_equal(cmp.nr_env_diffs, 1);
	assert_string_equal(cmp.env_diffs[0].values[1], cmp.env_diffs[0].values[0]);
	assert_int_equal(comparison_caveats(&cmp, 1, keys, 4), 1);
	assert_string_equal(keys[0], "cpufreq.governor");
	comparison_release(&cmp);
	result_set_release(&runs[0].set);
	result_set_release(&runs[1].set);
}

/*
 * Constant samples of different means: Welch's t is undefined (no
 * variance), so the p-value adjusted and judged is Mann-Whitney's.
 */
static void test_model_welch_falls_back_to_mann_whitney(void **state)
{
	static const double fives[] = { 5, 5, 5, 5, 5, 5 }, sixes[] = { 6, 6, 6, 6, 6, 6 };
	struct compare_run runs[2] = { { .name = "base" }, { .name = "new" } };
	struct compare_options opts;
	struct comparison cmp;
	const struct cell_stats *st;
	struct mwu_result u;

	add_metric(add_batch(&runs[0], "performance"), "wa", "seconds", BETTER_LOWER, fives, 6);
	add_metric(add_batch(&runs[1], "performance"), "wa", "seconds", BETTER_LOWER, sixes, 6);
	comparison_build(&cmp, runs, 2, false);
	compare_options_init(&opts);
	comparison_analyze(&cmp, &opts);
	st = &cmp.rows[0].cells[1].stats;
	mwu_test(fives, 6, sixes, 6, &u);
	assert_true(isnan(st->p_welch));
	assert_true(u.p < 0.05);
	assert_close(st->p_mwu, u.p);
	assert_close(st->p_test, u.p);
	assert_close(st->p_adjusted, u.p);
	assert_close(st->ratio_low, 1.2);
	assert_close(st->ratio_high, 1.2);
	assert_int_equal(st->verdict, VERDICT_WORSE);
	comparison_release(&cmp);
	result_set_release(&runs[0].set);
	result_set_release(&runs[1].set);
}

/* ------------------------------------------------------------ bootstrap */

#define NR_SIZES 20	/* more pairs of sizes than compare keeps plans for (16) */

static void fill(double *x, size_t n, double mean, uint64_t seed)
{
	struct rng rng;

	rng_seed(&rng, seed);
	for (size_t i = 0; i < n; i++)
		x[i] = mean * (0.9 + 0.2 * (double)rng_below(&rng, 1000001) / 1e6);
}

/*
 * Every cell's ratio interval is the one bootstrap_ratio_ci() gives its
 * samples with compare's seed and level: rows sharing sizes share a plan
 * (and the baseline's resample means), rows past 16 pairs of sizes draw as
 * they go, and any number of threads shares out the rows.
 */
static void test_model_bootstrap_cells(void **state)
{
	static double values[3][NR_SIZES + 2][40];
	static const int thread_counts[] = { 1, 2, 3, 8 };
	struct compare_run runs[3] = { { .name = "base" }, { .name = "new1" }, { .name = "new2" } };
	struct result_batch *batches[3];
	char name[32];

	for (int r = 0; r < 3; r++)
		batches[r] = add_batch(&runs[r], "performance");
	/* rows 0 and 1 have the same sizes: one plan; then 20 other pairs */
	for (int row = 0; row < NR_SIZES + 2; row++) {
		int size = row < 2 ? 6 : 4 + row;

		snprintf(name, sizeof(name), "w%02d", row);
		for (int r = 0; r < 3; r++) {
			fill(values[r][row], (size_t)(size + r), 100 + r, (uint64_t)(row * 3 + r));
			add_metric(batches[r], name, "seconds", BETTER_LOWER, values[r][row],
				   (size_t)(size + r));
		}
	}
	for (size_t t = 0; t < ARRAY_SIZE(thread_counts); t++) {
		struct compare_options opts;
		struct comparison cmp;

		comparison_build(&cmp, runs, 3, false);
		compare_options_init(&opts);
		opts.threads = thread_counts[t];
		opts.seed = 99;
		opts.alpha = 0.1;
		comparison_analyze(&cmp, &opts);
		assert_int_equal(cmp.nr_rows, NR_SIZES + 2);
		for (size_t i = 0; i < cmp.nr_rows; i++) {
			const struct compare_cell *base = &cmp.rows[i].cells[0];

			for (size_t r = 1; r < 3; r++) {
				const struct compare_cell *cell = &cmp.rows[i].cells[r];
				double low, high;

				assert_int_equal(bootstrap_ratio_ci(base->samples, base->nr_samples,
								    cell->samples, cell->nr_samples,
								    BOOTSTRAP_RESAMPLES, 0.9, 99,
								    &low, &high), 0);
				if (cell->stats.ratio_low != low || cell->stats.ratio_high != high)
					fail_msg("threads %d, row %zu, run %zu: [%.17g, %.17g], "
						 "alone [%.17g, %.17g]", thread_counts[t], i, r,
						 cell->stats.ratio_low, cell->stats.ratio_high,
						 low, high);
			}
		}
		comparison_release(&cmp);
	}
	for (int r = 0; r < 3; r++)
		result_set_release(&runs[r].set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median_ci_orders),
		cmocka_unit_test(test_median_ci_values),
		cmocka_unit_test(test_verdict_rules),
		cmocka_unit_test(test_model_tests_and_bh),
		cmocka_unit_test(test_model_holm),
		cmocka_unit_test(test_model_verdicts_and_env),
		cmocka_unit_test(test_model_filter),
		cmocka_unit_test(test_model_identical),
		cmocka_unit_test(test_model_pools_batches),
		cmocka_unit_test(test_model_baseline_batches_differ),
		cmocka_unit_test(test_model_welch_falls_back_to_mann_whitney),
		cmocka_unit_test(test_model_bootstrap_cells),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
