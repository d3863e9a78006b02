// SPDX-License-Identifier: GPL-2.0
/*
 * The confidence sequence behind ab and bisect-step (src/stats/sequential.c):
 * its numbers against tests/reference/sequential_reference.py (SciPy, 1e-6
 * relative), and its error rates by simulation through the same code:
 * A/A sequences with drift, heavy tails and 10x wild samples, and shifts.
 *
 * The simulations are seeded, so their counts are fixed numbers; the bounds
 * asserted are the guarantees (at most alpha false verdicts), not the
 * counts seen. With SEQCS_SIM_REPS=N in the environment the program prints
 * the figures of bench/ab-power.sh for N repetitions instead of testing.
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

#include "stats/power.h"
#include "stats/rng.h"
#include "stats/sequential.h"
#include "simulate.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ALPHA 0.05
#define HUBER 1.5
#define MAX_BLOCKS 200

/* The script's DATA: a 5 % shift, 2 % noise and one wild sample (x10). */
static const double data[] = {
	0.061, 0.032, 0.047, 0.071, 0.018, 0.055, 0.049, 2.302585, 0.038, 0.066,
	0.044, 0.029, 0.058, 0.052, 0.041, 0.063, 0.036, 0.050, 0.047, 0.057,
};

static void load(struct seqcs *cs, double huber)
{
	seqcs_init(cs, ALPHA, huber);
	for (size_t i = 0; i < ARRAY_SIZE(data); i++)
		seqcs_add(cs, data[i]);
}

static void test_reference_huber(void **state)
{
	/* sequential_reference.py, "huber: huber 1.5" */
	static const double scale[] = {
		0, 0, 0, 0.031134646588617636, 0.026686839933100826,
		0.033358549916376039, 0.032246598252496837, 0.026686839933100826,
		0.031134646588617622, 0.026686839933100826, 0.03113464658861765,
		0.026686839933100826, 0.032246598252496837, 0.026686839933100826,
		0.025574888269221635, 0.02446293660534244, 0.025574888269221625,
		0.026686839933100826, 0.025574888269221635, 0.02446293660534244,
	};
	static const double bet[] = {
		0.75, 0.75, 0.75, 0.75, 0.75, 0.75, 0.75, 0.75, 0.75, 0.75,
		0.73669027715039981, 0.71403022030375496, 0.66397687287181917,
		0.65325506283414114, 0.6456032319847318, 0.62896765005900235,
		0.6125592966145581, 0.58979540039611955, 0.58469490812986458,
		0.5790381189390742,
	};
	struct seqcs cs;
	struct seqcs_interval ci;

	load(&cs, HUBER);
	for (size_t i = 0; i < ARRAY_SIZE(data); i++) {
		assert_close(cs.scale[i], scale[i]);
		assert_close(cs.bet[i], bet[i]);
	}
	assert_close(seqcs_log_wealth(&cs, 0.0, 1), 10.393385421645062);
	assert_close(seqcs_log_wealth(&cs, 0.0, -1), -23.529685736960349);
	assert_close(seqcs_log_wealth(&cs, 0.05, 1), -3.5907643013255308);
	assert_close(seqcs_log_wealth(&cs, 0.05, -1), -1.9175452845928505);
	assert_close(seqcs_log_wealth(&cs, -0.02, 1), 10.543632189896373);
	assert_close(seqcs_log_wealth(&cs, -0.02, -1), -24.211028898100512);
	seqcs_interval(&cs, &ci);
	assert_close(ci.low, 0.035520137709072412);
	assert_close(ci.high, 0.061000000000000665);
	assert_close(ci.estimate, 0.047916589355391379);
	assert_false(ci.empty);
	assert_int_equal(seqcs_decide(&cs, 0, log(0.98), log(1.02)), SEQCS_ABOVE);
	seqcs_release(&cs);
}

static void test_reference_sign(void **state)
{
	/* sequential_reference.py, "sign: huber 0.0": the bets; scales are all 0 */
	static const double bet[] = {
		0.75, 0.75, 0.75, 0.75, 0.75, 0.75, 0.75, 0.72950721487854309,
		0.68073457856259822, 0.61539228976128613, 0.58105721683903555,
		0.53719461134698121, 0.50487719761268512, 0.47989675904198997,
		0.4599026823554434, 0.43582188732086408, 0.41973758605898626,
		0.40074212986240654, 0.38748015451535134, 0.37206235671628357,
	};
	struct seqcs cs;
	struct seqcs_interval ci;

	load(&cs, 0);
	for (size_t i = 0; i < ARRAY_SIZE(data); i++) {
		assert_true(cs.scale[i] == 0);
		assert_close(cs.bet[i], bet[i]);
	}
	assert_close(seqcs_log_wealth(&cs, 0.0, 1), 9.2240779560239119);
	assert_close(seqcs_log_wealth(&cs, 0.0, -1), -19.306198905257283);
	assert_close(seqcs_log_wealth(&cs, 0.05, 1), -5.7928364535153012);
	assert_close(seqcs_log_wealth(&cs, 0.05, -1), -4.1142234122073571);
	seqcs_interval(&cs, &ci);
	/* With psi = sign the ends and the estimate are observations. */
	assert_close(ci.low, 0.036);
	assert_close(ci.high, 0.063);
	assert_close(ci.estimate, 0.049);
	seqcs_release(&cs);
}

static void test_empty_and_unbounded(void **state)
{
	struct seqcs cs;
	struct seqcs_interval ci;

	seqcs_init(&cs, ALPHA, HUBER);
	seqcs_interval(&cs, &ci);
	assert_true(isnan(ci.estimate) && isnan(ci.low) && isnan(ci.high));
	assert_int_equal(seqcs_decide(&cs, 0, -0.02, 0.02), SEQCS_CONTINUE);
	/* Five observations cannot bound anything at 5 %: 1.75^5 < 40. */
	for (int i = 0; i < 5; i++)
		seqcs_add(&cs, 0.1 + 0.001 * i);
	seqcs_interval(&cs, &ci);
	assert_true(ci.low == -INFINITY && ci.high == INFINITY);
	assert_true(ci.estimate > 0.1 && ci.estimate < 0.105);
	assert_int_equal(seqcs_decide(&cs, 0, -0.02, 0.02), SEQCS_CONTINUE);
	seqcs_release(&cs);
}

/*
 * Constant observations (an ab of a metric that never varies): the
 * interval is the point itself once the bettors can reject, 0 for two
 * identical sides, and unbounded before; each end checked against the
 * wealths of the definition just beside it.
 */
static void check_constant(double c)
{
	double level = log(2 / ALPHA), near = fmax(1e-9, 1e-9 * fabs(c));
	struct seqcs cs;
	struct seqcs_interval ci;

	seqcs_init(&cs, ALPHA, HUBER);
	for (int i = 0; i < 6; i++)
		seqcs_add(&cs, c);
	seqcs_interval(&cs, &ci);
	assert_true(ci.low == -INFINITY && ci.high == INFINITY && ci.estimate == c);
	seqcs_add(&cs, c);
	seqcs_interval(&cs, &ci);
	assert_true(ci.low == c && ci.high == c && ci.estimate == c);
	assert_false(ci.empty);
	assert_true(seqcs_log_wealth(&cs, c - near, 1) >= level);
	assert_true(seqcs_log_wealth(&cs, c + near, -1) >= level);
	assert_false(seqcs_rejects(&cs, c, 1) || seqcs_rejects(&cs, c, -1));
	assert_int_equal(seqcs_decide(&cs, 0, log(0.98), log(1.02)),
			 c == 0 ? SEQCS_WITHIN : c > 0 ? SEQCS_ABOVE : SEQCS_BELOW);
	seqcs_release(&cs);
}

static void test_constant(void **state)
{
	check_constant(0);
	check_constant(log(6.0) - log(5.0));
	check_constant(-0.5);
}

/* ------------------------------------------------------------ simulation */

struct sim_result {
	int different, worse, same, unknown;
	int *blocks;		/* per repetition, blocks used */
};

/*
 * @reps ab sessions, B slower than A by @shift in log: each block runs A
 * and B in a random order on the machine and adds the paired difference.
 */
static void simulate(int reps, uint64_t seed, bool heavy, double noise, double shift,
		     struct sim_result *res)
{
	struct machine m = { .heavy = heavy, .noise = noise };

	rng_seed(&m.rng, seed);
	memset(res, 0, sizeof(*res));
	res->blocks = calloc((size_t)reps, sizeof(int));
	for (int rep = 0; rep < reps; rep++) {
		enum seqcs_decision d = SEQCS_CONTINUE;
		struct seqcs cs;
		int b;

		seqcs_init(&cs, ALPHA, HUBER);
		for (b = 1; b <= MAX_BLOCKS; b++) {
			double first = machine_sample(&m), second = machine_sample(&m);
			bool a_first = uniform(&m.rng) < 0.5;

			seqcs_add(&cs, a_first ? shift + second - first : shift + first - second);
			d = seqcs_decide(&cs, 0, log(0.98), log(1.02));
			if (d != SEQCS_CONTINUE)
				break;
		}
		res->blocks[rep] = b > MAX_BLOCKS ? MAX_BLOCKS : b;
		res->different += d == SEQCS_ABOVE || d == SEQCS_BELOW;
		res->worse += d == SEQCS_ABOVE;
		res->same += d == SEQCS_WITHIN;
		res->unknown += d == SEQCS_CONTINUE;
		seqcs_release(&cs);
	}
}

static int median_blocks(const struct sim_result *res, int reps)
{
	int *sorted = malloc((size_t)reps * sizeof(int)), m;

	memcpy(sorted, res->blocks, (size_t)reps * sizeof(int));
	for (int i = 1; i < reps; i++)
		for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
			int t = sorted[j];

			sorted[j] = sorted[j - 1];
			sorted[j - 1] = t;
		}
	m = sorted[reps / 2];
	free(sorted);
	return m;
}

/* A/A with drift, heavy tails and wild samples: DIFFERENT at most alpha. */
static void test_aa_heavy_tails(void **state)
{
	struct sim_result res;
	int reps = 300;

	simulate(reps, 1, true, 0.03, 0, &res);
	assert_true(res.different <= ALPHA * reps);
	assert_int_equal(res.different + res.same + res.unknown, reps);
	free(res.blocks);
}

/* A/A with 1 % normal noise ends SAME (within 2 %), and quickly. */
static void test_aa_same(void **state)
{
	struct sim_result res;
	int reps = 200;

	simulate(reps, 2, false, 0.01, 0, &res);
	assert_true(res.different <= ALPHA * reps);
	assert_true(res.same >= 0.9 * reps);
	assert_true(median_blocks(&res, reps) <= 40);
	free(res.blocks);
}

/* A 2 % slowdown under 1 % noise is found, in the right direction. */
static void test_shift_found(void **state)
{
	struct sim_result res;
	int reps = 200;

	simulate(reps, 3, false, 0.01, log(1.02), &res);
	assert_true(res.worse >= 0.9 * reps);
	assert_int_equal(res.worse, res.different);
	assert_true(median_blocks(&res, reps) <= 20);
	free(res.blocks);
}

/*
 * One wild sample, ten times the others (log 10 on one side of a pair),
 * weighs no more than one 1.65 times the others: put at any
 * block of A/A sequences and of 10 % shifts, it ends each sequence with
 * the same verdict after the same number of blocks as a sample 0.5 (18
 * standard deviations of a difference) out on the same side would. psi
 * caps its vote, and the median and MAD behind the scale only see which
 * side of them it falls on.
 */
static enum seqcs_decision run_sequence(const double *x, size_t n, size_t *used)
{
	enum seqcs_decision d = SEQCS_CONTINUE;
	struct seqcs cs;

	seqcs_init(&cs, ALPHA, HUBER);
	for (*used = 0; *used < n && d == SEQCS_CONTINUE; (*used)++) {
		seqcs_add(&cs, x[*used]);
		d = seqcs_decide(&cs, 0, log(0.98), log(1.02));
	}
	seqcs_release(&cs);
	return d;
}

static void test_wild_sample(void **state)
{
	struct machine m = { .heavy = false, .noise = 0.02 };
	double x[60], wild[60], far[60];
	size_t used, used_wild, used_far;
	int different = 0;

	rng_seed(&m.rng, 4);
	for (int seq = 0; seq < 40; seq++) {
		double shift = seq % 2 ? log(1.10) : 0, side = seq % 4 < 2 ? 1 : -1;

		for (size_t i = 0; i < ARRAY_SIZE(x); i++)
			x[i] = shift + machine_sample(&m) - machine_sample(&m);
		run_sequence(x, ARRAY_SIZE(x), &used);
		for (size_t at = 0; at < used; at++) {
			enum seqcs_decision d;

			memcpy(wild, x, sizeof(x));
			memcpy(far, x, sizeof(x));
			wild[at] = x[at] + side * log(10);
			far[at] = x[at] + side * 0.5;
			d = run_sequence(wild, ARRAY_SIZE(x), &used_wild);
			assert_int_equal(d, run_sequence(far, ARRAY_SIZE(x), &used_far));
			assert_int_equal(used_wild, used_far);
			different += shift > 0 && d == SEQCS_ABOVE;
		}
	}
	assert_true(different > 0);
}

/* bench/ab-power.sh: the simulated figures, for SEQCS_SIM_REPS repetitions. */
static void print_figures(int reps)
{
	static const struct {
		const char *what;
		bool heavy;
		double noise, shift;
	} cases[] = {
		{ "A/A, drift + t(2) noise 3 % + 1 % wild x10", true, 0.03, 0 },
		{ "A/A, normal noise 1 %", false, 0.01, 0 },
		{ "10 % slower, normal noise 5 %", false, 0.05, 0.0953101798043249 },
		{ "2 % slower, normal noise 1 %", false, 0.01, 0.0198026272961797 },
		{ "2 % slower, drift + t(2) noise 1 % + wild", true, 0.01, 0.0198026272961797 },
	};

	for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
		struct sim_result res;
		double power;
		size_t n = 2;
		struct mde mde;

		simulate(reps, 100 + c, cases[c].heavy, cases[c].noise, cases[c].shift, &res);
		power = (double)res.different / reps;
		printf("%s: different %d (worse %d) same %d unknown %d of %d; median blocks %d",
		       cases[c].what, res.different, res.worse, res.same, res.unknown, reps,
		       median_blocks(&res, reps));
		/* Welch's fixed size for that power: each sample's sd is the noise. */
		if (cases[c].shift > 0 && !cases[c].heavy && power > 0.05 && power < 1) {
			do {
				n++;
				power_mde(n, n, cases[c].noise, 1, ALPHA, power, &mde);
			} while (mde.delta > cases[c].shift && n < 100000);
			printf("; fixed-size Welch at power %.3f: %zu per side", power, n);
		}
		printf("\n");
		free(res.blocks);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_huber),
		cmocka_unit_test(test_reference_sign),
		cmocka_unit_test(test_empty_and_unbounded),
		cmocka_unit_test(test_constant),
		cmocka_unit_test(test_aa_heavy_tails),
		cmocka_unit_test(test_aa_same),
		cmocka_unit_test(test_shift_found),
		cmocka_unit_test(test_wild_sample),
	};
	const char *reps = getenv("SEQCS_SIM_REPS");

	if (reps) {
		print_figures(atoi(reps) > 0 ? atoi(reps) : 2000);
		return 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
