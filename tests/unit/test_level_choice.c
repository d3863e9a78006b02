// SPDX-License-Identifier: GPL-2.0
/*
 * A bisection step's decision (src/stats/level_choice.c), by simulation
 * through the same code: its error rates over many steps of builds at the
 * good level and at the bad one, on a machine that drifts and has heavy
 * tails (paired blocks) or on a quiet one against stored ends; that a step
 * always ends, for the level it is nearer; the margin rule with a stored
 * good run alone; and the sample counts sign_bettor_samples() promises.
 *
 * The simulations are seeded, so their counts are fixed numbers; the bounds
 * asserted are the guarantees (at most alpha wrong verdicts, plus three
 * binomial standard deviations where the guarantee is not conservative by
 * construction), not the counts seen. With LEVEL_SIM_REPS=N in the
 * environment the program prints the figures doc/design.md quotes instead
 * of testing.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "assert_close.h"

#include "stats/level_choice.h"
#include "stats/median_ci.h"
#include "stats/rng.h"
#include "simulate.h"

#define ALPHA 0.05
#define MAX_BLOCKS 200
#define STORED 15		/* samples of a stored end, as a user stores them */

/*
 * tests/reference/sequential_reference.py, "level choice": its DATA (a 5 %
 * shift, 2 % noise, one wild sample) moved up 0.1 as the build less good
 * and down 0.08 as the build less bad; each bettor's log wealth after each
 * observation, and the verdict at the sixth.
 */
static const double step_data[] = {
	0.061, 0.032, 0.047, 0.071, 0.018, 0.055,
};

static void reference_steps(double huber, const double *on_bad, const double *on_good,
			    enum level_verdict last)
{
	struct level_choice lc;
	size_t n = sizeof(step_data) / sizeof(step_data[0]);

	level_choice_init(&lc, ALPHA, huber);
	for (size_t i = 0; i < n; i++) {
		level_choice_add(&lc, step_data[i] + 0.1, step_data[i] - 0.08);
		assert_close(seqcs_log_wealth(&lc.from_good, 0, 1), on_bad[i]);
		assert_close(seqcs_log_wealth(&lc.from_bad, 0, -1), on_good[i]);
		assert_int_equal(level_choice_decide(&lc), i + 1 < n ? LEVEL_UNDECIDED : last);
	}
	level_choice_release(&lc);
}

static void test_reference(void **state)
{
	static const double huber_bad[] = {
		0.55961578793542266, 1.1192315758708453, 1.678847363806268,
		2.2384631517416906, 2.7980789396771133, 3.357694727612536,
	};
	static const double huber_good[] = {
		0.55961578793542266, 1.1192315758708453, 1.678847363806268,
		1.8750720532911644, 2.4346878412265873, 2.8807027735912842,
	};

	reference_steps(SEQCS_HUBER, huber_bad, huber_good, LEVEL_BAD);
	/* with psi = sign every sign agrees: equal wealths, the nearer centre (bad) decides */
	reference_steps(0, huber_bad, huber_bad, LEVEL_BAD);
}

struct step_counts {
	int good, bad, undecided;	/* at the cap: nearer's verdict, counted too */
	int capped;			/* steps the cap ended */
	int *blocks;			/* per step */
};

/* The median of @n ints, for the blocks a kind of step takes. */
static int median_int(const int *v, int n)
{
	int *sorted = malloc((size_t)n * sizeof(int)), m;

	memcpy(sorted, v, (size_t)n * sizeof(int));
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
			int t = sorted[j];

			sorted[j] = sorted[j - 1];
			sorted[j - 1] = t;
		}
	m = sorted[n / 2];
	free(sorted);
	return m;
}

static void count_verdict(struct step_counts *c, const struct level_choice *lc, int rep,
			  int blocks)
{
	enum level_verdict v = level_choice_decide(lc);
	double bound;

	if (v == LEVEL_UNDECIDED) {
		c->capped++;
		v = level_choice_nearer(lc, &bound);
	}
	c->good += v == LEVEL_GOOD;
	c->bad += v == LEVEL_BAD;
	c->undecided += v == LEVEL_UNDECIDED;
	c->blocks[rep] = blocks;
}

/*
 * @reps steps of a build at @at of the way from good (0) to bad (1), the
 * levels @delta apart in log: each block runs good, the build and bad in a
 * random order on the machine, as schedperf bisect does.
 */
static void paired_steps(int reps, uint64_t seed, bool heavy, double noise, double delta,
			 double at, double alpha, struct step_counts *c)
{
	struct machine m = { .heavy = heavy, .noise = noise };

	rng_seed(&m.rng, seed);
	memset(c, 0, sizeof(*c));
	c->blocks = calloc((size_t)reps, sizeof(int));
	for (int rep = 0; rep < reps; rep++) {
		struct level_choice lc;
		int b;

		level_choice_init(&lc, alpha, SEQCS_HUBER);
		for (b = 1; b <= MAX_BLOCKS; b++) {
			double slot[3], level[3] = { 0, at * delta, delta }, value[3];
			int order[3] = { 0, 1, 2 };

			for (int i = 0; i < 3; i++)
				slot[i] = machine_sample(&m);
			for (int i = 2; i > 0; i--) {
				int j = (int)rng_below(&m.rng, (uint64_t)i + 1), t = order[i];

				order[i] = order[j];
				order[j] = t;
			}
			/* order[k]: which of good, build, bad ran in slot k */
			for (int k = 0; k < 3; k++)
				value[order[k]] = level[order[k]] + slot[k];
			level_choice_add(&lc, value[1] - value[0], value[1] - value[2]);
			if (level_choice_decide(&lc) != LEVEL_UNDECIDED)
				break;
		}
		count_verdict(c, &lc, rep, b > MAX_BLOCKS ? MAX_BLOCKS : b);
		level_choice_release(&lc);
	}
}

static int compare_doubles(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* @n normal samples of sd @noise about @level, sorted: a stored run. */
static void stored_run(struct rng *r, double level, double noise, double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		x[i] = level + noise * gauss(r);
	qsort(x, n, sizeof(*x), compare_doubles);
}

/*
 * @reps steps as bisect-step takes them with --good and --bad: each
 * against fresh stored runs of STORED samples, the build sampled alone.
 */
static void stored_steps(int reps, uint64_t seed, double noise, double delta, double at,
			 double alpha, struct step_counts *c)
{
	struct rng r;

	rng_seed(&r, seed);
	memset(c, 0, sizeof(*c));
	c->blocks = calloc((size_t)reps, sizeof(int));
	for (int rep = 0; rep < reps; rep++) {
		double good[STORED], bad[STORED], g_low, g_high, b_low, b_high;
		struct level_choice lc;
		int b;

		stored_run(&r, 0, noise, good, STORED);
		stored_run(&r, delta, noise, bad, STORED);
		assert_int_equal(median_ci(good, STORED, 1 - alpha, &g_low, &g_high), 0);
		assert_int_equal(median_ci(bad, STORED, 1 - alpha, &b_low, &b_high), 0);
		level_choice_init(&lc, alpha / 2, 0);
		for (b = 1; b <= MAX_BLOCKS; b++) {
			double x = at * delta + noise * gauss(&r);

			level_choice_add(&lc, x - g_high, x - b_low);
			if (level_choice_decide(&lc) != LEVEL_UNDECIDED)
				break;
		}
		count_verdict(c, &lc, rep, b > MAX_BLOCKS ? MAX_BLOCKS : b);
		level_choice_release(&lc);
	}
}

/*
 * Against stored ends whose bounds overlap, neither bettor wins anything;
 * the cap's answer is then the nearer centre, said to be a guess (bound 1).
 */
static void test_nearer_without_evidence(void **state)
{
	struct level_choice lc;
	double bound;

	level_choice_init(&lc, ALPHA, 0);
	assert_int_equal(level_choice_nearer(&lc, &bound), LEVEL_UNDECIDED);
	for (int i = 0; i < 50; i++)
		level_choice_add(&lc, -0.01 + 0.001 * (i % 3), 0.03 + 0.001 * (i % 3));
	assert_int_equal(level_choice_decide(&lc), LEVEL_UNDECIDED);
	assert_int_equal(level_choice_nearer(&lc, &bound), LEVEL_GOOD);
	assert_true(bound == 1);
	level_choice_release(&lc);
	level_choice_init(&lc, ALPHA, 0);
	for (int i = 0; i < 50; i++)
		level_choice_add(&lc, -0.03 - 0.001 * (i % 3), 0.01 - 0.001 * (i % 3));
	assert_int_equal(level_choice_nearer(&lc, &bound), LEVEL_BAD);
	level_choice_release(&lc);
}

/* alpha's share of @reps plus three binomial standard deviations. */
static double allowed(double alpha, int reps)
{
	return alpha * reps + 3 * sqrt(alpha * (1 - alpha) * reps);
}

/* A build at the good level, drift and heavy tails: BAD at most alpha of the time. */
static void test_paired_good_build(void **state)
{
	struct step_counts c;
	int reps = 400;

	paired_steps(reps, 11, true, 0.03, log(1.2), 0, ALPHA, &c);
	assert_true(c.bad <= ALPHA * reps);
	assert_int_equal(c.good + c.bad + c.undecided, reps);
	free(c.blocks);
}

/* A build at the bad level: GOOD at most alpha, and each step decided before the cap. */
static void test_paired_bad_build(void **state)
{
	struct step_counts c;
	int reps = 400;

	paired_steps(reps, 12, true, 0.03, log(1.2), 1, ALPHA, &c);
	assert_true(c.good <= ALPHA * reps);
	assert_true(c.bad >= (1 - ALPHA) * reps);
	free(c.blocks);
}

/*
 * 20 % apart under 5 % normal noise, the case bisect-step skipped on: both
 * ends decided in every step, the wrong way at most alpha, in few blocks.
 */
static void test_paired_twenty_percent(void **state)
{
	struct step_counts good, bad;
	int reps = 300;

	paired_steps(reps, 13, false, 0.05, log(1.2), 0, ALPHA, &good);
	paired_steps(reps, 14, false, 0.05, log(1.2), 1, ALPHA, &bad);
	assert_int_equal(good.capped + bad.capped, 0);
	assert_true(good.bad <= ALPHA * reps);
	assert_true(bad.good <= ALPHA * reps);
	assert_true(median_int(good.blocks, reps) <= 20);
	assert_true(median_int(bad.blocks, reps) <= 20);
	free(good.blocks);
	free(bad.blocks);
}

/*
 * A build between the levels is decided for the nearer one: a quarter of
 * the way mostly GOOD, three quarters mostly BAD, and half-way each about
 * half the time; none left undecided, with or without the cap.
 */
static void test_paired_between(void **state)
{
	struct step_counts quarter, three, half;
	int reps = 300;

	paired_steps(reps, 15, false, 0.05, log(1.2), 0.25, ALPHA, &quarter);
	paired_steps(reps, 16, false, 0.05, log(1.2), 0.75, ALPHA, &three);
	paired_steps(reps, 17, false, 0.05, log(1.2), 0.5, ALPHA, &half);
	assert_true(quarter.good >= 0.8 * reps);
	assert_true(three.bad >= 0.8 * reps);
	assert_true(half.good >= 0.3 * reps && half.bad >= 0.3 * reps);
	assert_int_equal(quarter.undecided + three.undecided + half.undecided, 0);
	free(quarter.blocks);
	free(three.blocks);
	free(half.blocks);
}

/*
 * Against stored runs of 15 samples (their medians' uncertainty carried in
 * by the order-statistic bounds at alpha/2): each wrong verdict at most
 * alpha over steps with fresh stored runs, and every step decided.
 */
static void test_stored_ends(void **state)
{
	struct step_counts good, bad;
	int reps = 400;

	stored_steps(reps, 21, 0.05, log(1.2), 0, ALPHA, &good);
	stored_steps(reps, 22, 0.05, log(1.2), 1, ALPHA, &bad);
	assert_true(good.bad <= allowed(ALPHA, reps));
	assert_true(bad.good <= allowed(ALPHA, reps));
	assert_true(good.good >= 0.9 * reps);
	assert_true(bad.bad >= 0.9 * reps);
	assert_int_equal(good.undecided + bad.undecided, 0);
	free(good.blocks);
	free(bad.blocks);
}

/*
 * The margin rule with a stored good run of 50 samples: a build 10 % worse
 * is BAD, one at the good level GOOD, and a build right at the margin's
 * edge gets either verdict wrong at most alpha of the time.
 */
static int margin_steps(int reps, uint64_t seed, double shift, enum level_verdict wrong,
			enum level_verdict *first)
{
	struct rng r;
	int wrongs = 0;

	rng_seed(&r, seed);
	for (int rep = 0; rep < reps; rep++) {
		double good[50], low, high;
		enum level_verdict v = LEVEL_UNDECIDED;
		struct seqcs cs;

		stored_run(&r, 0, 0.01, good, 50);
		assert_int_equal(median_ci(good, 50, 1 - ALPHA, &low, &high), 0);
		seqcs_init(&cs, ALPHA, 0);
		for (int b = 0; b < 400 && v == LEVEL_UNDECIDED; b++) {
			seqcs_add(&cs, shift + 0.01 * gauss(&r));
			v = margin_decide(&cs, low, high, log(1.02));
		}
		wrongs += v == wrong;
		if (!rep)
			*first = v;
		seqcs_release(&cs);
	}
	return wrongs;
}

static void test_margin_rule(void **state)
{
	enum level_verdict v;
	int reps = 200;

	assert_int_equal(margin_steps(reps, 31, log(1.1), LEVEL_GOOD, &v), 0);
	assert_int_equal(v, LEVEL_BAD);
	assert_int_equal(margin_steps(reps, 32, 0, LEVEL_BAD, &v), 0);
	assert_int_equal(v, LEVEL_GOOD);
	/* exactly at the margin: no verdict is right, so neither may come often */
	assert_true(margin_steps(reps, 33, log(1.02), LEVEL_BAD, &v) <= allowed(ALPHA, reps));
	assert_true(margin_steps(reps, 34, log(1.02), LEVEL_GOOD, &v) <= allowed(ALPHA, reps));
}

/*
 * sign_bettor_samples() is what a step is told it would need: the median
 * number of samples a sign bettor takes, with a fraction p of signs on
 * its side, lies within a factor two of it (and never above it by more).
 */
static void test_sign_bettor_samples(void **state)
{
	static const double ps[] = { 0.65, 0.75, 0.9 };
	struct rng r;

	rng_seed(&r, 41);
	for (size_t k = 0; k < sizeof(ps) / sizeof(ps[0]); k++) {
		double need = sign_bettor_samples(ps[k], ALPHA / 2);
		int reps = 200, taken[200];

		for (int rep = 0; rep < reps; rep++) {
			struct seqcs cs;
			int n = 0;

			seqcs_init(&cs, ALPHA, 0);
			while (n < 5000 && !seqcs_rejects(&cs, 0, 1)) {
				seqcs_add(&cs, uniform(&r) < ps[k] ? 1 + uniform(&r) : -1 - uniform(&r));
				n++;
			}
			taken[rep] = n;
			seqcs_release(&cs);
		}
		print_message("p %.2f: needs %.0f, median taken %d\n", ps[k], need,
			      median_int(taken, reps));
		assert_true(median_int(taken, reps) <= 1.25 * need);
		assert_true(median_int(taken, reps) >= need / 2);
	}
	assert_true(isinf(sign_bettor_samples(0.5, ALPHA)));
}

/* doc/design.md's figures: error rates and blocks per step, for LEVEL_SIM_REPS steps. */
static void print_figures(int reps)
{
	static const struct {
		const char *what;
		bool heavy;
		double noise, delta, at;
	} cases[] = {
		{ "20 % apart, 5 % normal noise, build good", false, 0.05, 0.1823215568, 0 },
		{ "20 % apart, 5 % normal noise, build bad", false, 0.05, 0.1823215568, 1 },
		{ "20 % apart, 5 % normal noise, build a quarter", false, 0.05, 0.1823215568, 0.25 },
		{ "20 % apart, 5 % normal noise, build half-way", false, 0.05, 0.1823215568, 0.5 },
		{ "20 % apart, 5 % normal noise, build 3 quarters", false, 0.05, 0.1823215568, 0.75 },
		{ "5 % apart, 3 % normal noise, build good", false, 0.03, 0.0487901642, 0 },
		{ "5 % apart, 3 % normal noise, build bad", false, 0.03, 0.0487901642, 1 },
		{ "20 % apart, drift + t2 tails 3 %, build good", true, 0.03, 0.1823215568, 0 },
		{ "20 % apart, drift + t2 tails 3 %, build bad", true, 0.03, 0.1823215568, 1 },
	};
	static const double alphas[] = { 0.05, 0.01 };

	for (size_t a = 0; a < 2; a++)
		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			struct step_counts c;

			paired_steps(reps, 100 + i, cases[i].heavy, cases[i].noise,
				     cases[i].delta, cases[i].at, alphas[a], &c);
			printf("alpha %.2f  %-46s good %5.1f %%  bad %5.1f %%  capped %d  "
			       "median blocks %d\n", alphas[a], cases[i].what,
			       100.0 * c.good / reps, 100.0 * c.bad / reps, c.capped,
			       median_int(c.blocks, reps));
			free(c.blocks);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference),
		cmocka_unit_test(test_paired_good_build),
		cmocka_unit_test(test_paired_bad_build),
		cmocka_unit_test(test_paired_twenty_percent),
		cmocka_unit_test(test_paired_between),
		cmocka_unit_test(test_stored_ends),
		cmocka_unit_test(test_margin_rule),
		cmocka_unit_test(test_sign_bettor_samples),
		cmocka_unit_test(test_nearer_without_evidence),
	};
	const char *reps = getenv("LEVEL_SIM_REPS");

	if (reps) {
		print_figures(atoi(reps) > 0 ? atoi(reps) : 1000);
		return 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
