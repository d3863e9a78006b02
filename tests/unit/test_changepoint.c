// SPDX-License-Identifier: GPL-2.0
/*
 * Change points (src/stats/changepoint.c) against
 * tests/reference/changepoint_reference.py, an independent NumPy/SciPy
 * transcription of E-divisive means and Hunter's split, test and merge:
 * every expected number below is printed by that script. Values agree to
 * 1e-6 relative (p-values relative to themselves, however small).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stats/changepoint.h"
#include "util/array.h"

#define REL 1e-6

static void assert_rel_at(double actual, double expected, double floor,
			  const char *file, int line)
{
	double scale = fmax(fabs(expected), floor);

	if (fabs(actual - expected) <= REL * scale)
		return;
	print_error("expected %.17g, got %.17g\n", expected, actual);
	_fail(file, line);
}
/* relative, absolute at 1e-6 near 0 */
#define assert_close(a, e) assert_rel_at((a), (e), 1, __FILE__, __LINE__)
/* relative however small (p-values) */
#define assert_close_p(a, e) assert_rel_at((a), (e), 1e-300, __FILE__, __LINE__)

/* splitmix64, as the reference script transcribes it */
static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

struct level {
	size_t from;
	double value;
};

struct series_def {
	const char *name;
	uint64_t seed;
	size_t n;
	double amp;
	struct level levels[4];
	size_t nr_levels;
};

static const struct series_def series_defs[] = {
	{ "step_up", 1, 60, 4.0, { { 0, 100.0 }, { 30, 110.0 } }, 2 },
	{ "step_down", 2, 80, 2.0, { { 0, 100.0 }, { 45, 97.0 } }, 2 },
	{ "two_steps", 3, 120, 6.0, { { 0, 100.0 }, { 40, 120.0 }, { 85, 90.0 } }, 3 },
	{ "flat", 4, 100, 10.0, { { 0, 100.0 } }, 1 },
	{ "outlier", 5, 60, 2.0, { { 0, 50.0 } }, 1 },
	{ "long", 6, 300, 4.0, { { 0, 100.0 }, { 70, 105.0 }, { 150, 96.6 }, { 220, 108.2 } }, 4 },
};

/* The named series, malloc'd; *n set. */
static double *make_series(const char *name, size_t *n)
{
	for (size_t s = 0; s < ARRAY_SIZE(series_defs); s++) {
		const struct series_def *d = &series_defs[s];
		uint64_t state = d->seed;
		double *x;

		if (strcmp(d->name, name))
			continue;
		x = malloc(d->n * sizeof(*x));
		for (size_t i = 0; i < d->n; i++) {
			double u = (double)(splitmix64(&state) >> 11) * 0x1p-53 - 0.5;
			double level = d->levels[0].value;

			for (size_t l = 0; l < d->nr_levels; l++)
				if (d->levels[l].from <= i)
					level = d->levels[l].value;
			x[i] = level + d->amp * u;
		}
		if (!strcmp(name, "outlier"))
			x[30] = 80.0;
		*n = d->n;
		return x;
	}
	fail_msg("no series %s", name);
	return NULL;
}

struct candidate_case {
	const char *series;
	size_t n, tau;
	double qhat;
};

/* the script's "candidate" lines */
static const struct candidate_case candidate_cases[] = {
	{ "step_up", 60, 30, 266.4717262923109 },
	{ "two_steps", 120, 40, 760.3346017916319 },
	{ "outlier", 60, 30, 57.28178542748929 },
	{ "flat", 17, 1, 5.702151090133232 },
};

static void test_candidate(void **state)
{
	for (size_t c = 0; c < ARRAY_SIZE(candidate_cases); c++) {
		const struct candidate_case *cc = &candidate_cases[c];
		size_t n;
		double *x = make_series(cc->series, &n), qhat;

		assert_int_equal(edivisive_candidate(x, cc->n, &qhat), cc->tau);
		assert_close(qhat, cc->qhat);
		free(x);
	}
}

static void check_sides(const double *left, size_t nl, const double *right, size_t nr,
			const double expected[5])
{
	struct change_point_sides s;

	change_point_sides_test(left, nl, right, nr, &s);
	assert_close(s.mean_before, expected[0]);
	assert_close(s.mean_after, expected[1]);
	assert_close(s.stddev_before, expected[2]);
	assert_close(s.stddev_after, expected[3]);
	assert_close_p(s.p, expected[4]);
}

/* the script's "sides" lines */
static void test_sides(void **state)
{
	const double a[] = { 1, 2, 3 }, b[] = { 4, 6 }, c[] = { 5 }, d[] = { 5, 7 };
	const double e[] = { 2, 2 }, f[] = { 3, 3, 3 }, g[] = { 1.5, 2.5, 2.0, 1.0 };
	const double h[] = { 2.2 };
	const double ab[] = { 2.0, 5.0, 0.816496580927726, 1.0, 0.033659295204337074 };
	const double cd[] = { 5.0, 6.0, 0.0, 1.0, 0.5640942168489751 };
	const double ef[] = { 2.0, 3.0, 0.0, 0.0, 0.0 };
	const double gh[] = { 1.75, 2.2, 0.5590169943749475, 0.0, 0.523550742738455 };
	const double one[] = { 1.0 }, two[] = { 3.0 };
	struct change_point_sides s;

	check_sides(a, 3, b, 2, ab);
	check_sides(c, 1, d, 2, cd);
	check_sides(e, 2, f, 3, ef);
	check_sides(g, 4, h, 1, gh);
	/* two values in all: nothing to test */
	change_point_sides_test(one, 1, two, 1, &s);
	assert_true(s.p == 1);
	/* constant and equal: nothing tells them apart */
	change_point_sides_test(f, 3, f, 2, &s);
	assert_true(s.p == 1);
}

struct expected_cp {
	size_t index;
	double mean_before, mean_after, sd_before, sd_after, p, magnitude;
};

struct detect_case {
	const char *series;
	double max_pvalue, min_magnitude;
	size_t window;
	const struct expected_cp *cps;
	size_t nr_cps;
};

/* the script's "detect" lines, one block per option set */
static const struct expected_cp expect_step_up_0[] = {
	{ 30, 100.0548057647691, 110.24271985548116, 1.1144028686327543, 1.0904113995433502, 3.0977768360149197e-41, 0.1018233358491949 },
};
static const struct expected_cp expect_step_down_1[] = {
	{ 45, 99.9517047082672, 97.00541616808499, 0.534395566947881, 0.5058144059883727, 4.9485932275408536e-39, 0.030372412763809642 },
};
static const struct expected_cp expect_two_steps_2[] = {
	{ 40, 100.1030142575291, 119.82392118899344, 1.622252347027126, 1.3974552933830335, 2.9342757381230016e-70, 0.19700612491777258 },
	{ 85, 119.82392118899344, 90.070370275749, 1.3974552933830335, 1.8383363999298779, 1.4576606749196429e-77, 0.330336722522117 },
};
static const struct expected_cp expect_two_steps_3[] = {
	{ 85, 110.54349439771613, 90.070370275749, 9.958134276022367, 1.8383363999298779, 2.7250437308377197e-22, 0.22730143175040785 },
};
static const struct expected_cp expect_two_steps_4[] = {
	{ 40, 100.1030142575291, 119.82392118899344, 1.622252347027126, 1.3974552933830335, 2.9342757381230016e-70, 0.19700612491777258 },
	{ 85, 119.82392118899344, 90.070370275749, 1.3974552933830335, 1.8383363999298779, 1.4576606749196429e-77, 0.330336722522117 },
};
static const struct expected_cp expect_flat_6[] = {
	{ 17, 101.30163933663195, 98.12605913091201, 2.002728532180415, 2.593373252295711, 0.0037242903663824638, 0.03236225151448635 },
	{ 24, 98.12605913091201, 101.75279359763024, 2.593373252295711, 2.3061286731893444, 0.017122307096018908, 0.03695995231888127 },
	{ 31, 101.75279359763024, 96.89254546488071, 2.3061286731893444, 1.1352998476439515, 0.009468785148829723, 0.05016121838300913 },
	{ 34, 96.89254546488071, 103.3846070353751, 1.1352998476439515, 1.2276859450640711, 0.0003076438686700779, 0.06700269395696146 },
	{ 39, 103.3846070353751, 96.99212070120954, 1.2276859450640711, 0.0, 0.008949394248282323, 0.06590727461107915 },
	{ 40, 96.99212070120954, 103.62085395349985, 0.0, 1.161856578557746, 0.13461894720322098, 0.06834300770379631 },
	{ 42, 103.62085395349985, 96.41661668997871, 1.161856578557746, 1.062991494809962, 0.005534387827999654, 0.07471987205987407 },
	{ 45, 96.41661668997871, 101.42528781463034, 1.062991494809962, 2.201994170071168, 0.002097182976637538, 0.05194821490943502 },
	{ 58, 101.42528781463034, 96.55118838986641, 2.201994170071168, 0.16000008363040052, 0.009617924035820185, 0.05048202415782477 },
	{ 60, 96.55118838986641, 100.47633160247217, 0.16000008363040052, 0.9046552227364429, 0.010317434431139506, 0.04065349456659528 },
	{ 63, 100.47633160247217, 97.26454884634373, 0.9046552227364429, 1.1435487229709251, 0.006281183907947152, 0.0330211037240542 },
	{ 68, 97.26454884634373, 99.28741169790396, 1.1435487229709251, 2.0769101136552504, 0.08485779402325701, 0.0207975349246301 },
	{ 74, 99.28741169790396, 96.31192170209412, 2.0769101136552504, 1.5788755515263349, 0.06755428689417299, 0.03089430615883071 },
	{ 77, 96.31192170209412, 101.12425524438856, 1.5788755515263349, 2.224251364053745, 0.008024171140018669, 0.04996612524438704 },
	{ 85, 101.12425524438856, 95.46501819206992, 2.224251364053745, 0.0, 0.047548479423383104, 0.05928074135944339 },
	{ 86, 95.46501819206992, 101.50219521558853, 0.0, 0.5032408898510994, 0.06476877926878301, 0.06323967813395437 },
	{ 88, 101.50219521558853, 95.28484658459632, 0.5032408898510994, 0.0, 0.06290422748531481, 0.06525013004530877 },
	{ 89, 95.28484658459632, 98.57710895228234, 0.0, 1.7233975101845143, 0.18604861725716468, 0.03455179376043871 },
	{ 93, 98.57710895228234, 104.59261931800314, 1.7233975101845143, 0.0, 0.05239027788111299, 0.06102340015502672 },
	{ 94, 104.59261931800314, 100.01688191435636, 0.0, 0.8298648252793995, 0.041167051141834235, 0.04574965061963199 },
	{ 97, 100.01688191435636, 101.88016344292134, 0.8298648252793995, 0.614635748063229, 0.0757839941742668, 0.018629670240674967 },
	{ 99, 101.88016344292134, 95.13809731214226, 0.614635748063229, 0.0, 0.07078733137435622, 0.07086610223724343 },
};
static const struct expected_cp expect_long_8[] = {
	{ 70, 99.92501239403857, 104.91895206374402, 1.216885115185282, 1.1394508710460376, 6.246127789363474e-57, 0.049976873157769885 },
	{ 150, 104.91895206374402, 96.5947822328957, 1.1394508710460376, 1.0827135040532094, 3.841973900400596e-89, 0.0861761850736229 },
	{ 220, 96.5947822328957, 108.33940102657803, 1.0827135040532094, 1.1587305470223124, 1.3034546484187016e-109, 0.12158647208671547 },
};
static const struct expected_cp expect_long_9[] = {
	{ 70, 99.92501239403857, 104.91895206374402, 1.216885115185282, 1.1394508710460376, 6.246127789363474e-57, 0.049976873157769885 },
	{ 150, 104.91895206374402, 96.5947822328957, 1.1394508710460376, 1.0827135040532094, 3.841973900400596e-89, 0.0861761850736229 },
	{ 220, 96.5947822328957, 108.33940102657803, 1.0827135040532094, 1.1587305470223124, 1.3034546484187016e-109, 0.12158647208671547 },
};
static const struct detect_case detect_cases[] = {
	{ "step_up", 0.001, 0.0, 50, expect_step_up_0, 1 },
	{ "step_down", 0.001, 0.0, 50, expect_step_down_1, 1 },
	{ "two_steps", 0.001, 0.0, 50, expect_two_steps_2, 2 },
	{ "two_steps", 0.001, 0.2, 50, expect_two_steps_3, 1 },
	{ "two_steps", 0.05, 0.0, 30, expect_two_steps_4, 2 },
	{ "flat", 0.001, 0.0, 50, NULL, 0 },
	{ "flat", 0.3, 0.0, 50, expect_flat_6, 22 },
	{ "outlier", 0.001, 0.0, 50, NULL, 0 },
	{ "long", 0.001, 0.0, 50, expect_long_8, 3 },
	{ "long", 0.001, 0.0, 1000, expect_long_9, 3 },
};

static void test_detect(void **state)
{
	for (size_t c = 0; c < ARRAY_SIZE(detect_cases); c++) {
		const struct detect_case *dc = &detect_cases[c];
		struct change_point_options opts = {
			dc->max_pvalue, dc->min_magnitude, dc->window
		};
		struct change_point *cps;
		size_t n, nr;
		double *x = make_series(dc->series, &n);

		nr = change_points_detect(x, n, &opts, &cps);
		if (nr != dc->nr_cps)
			fail_msg("%s (case %zu): %zu change points, expected %zu",
				 dc->series, c, nr, dc->nr_cps);
		for (size_t i = 0; i < nr; i++) {
			const struct expected_cp *e = &dc->cps[i];

			assert_int_equal(cps[i].index, e->index);
			assert_close(cps[i].sides.mean_before, e->mean_before);
			assert_close(cps[i].sides.mean_after, e->mean_after);
			assert_close(cps[i].sides.stddev_before, e->sd_before);
			assert_close(cps[i].sides.stddev_after, e->sd_after);
			assert_close_p(cps[i].sides.p, e->p);
			assert_close(cps[i].magnitude, e->magnitude);
		}
		free(cps);
		free(x);
	}
}

/*
 * Sides of very different magnitudes: in one unit for both (2^1024 here),
 * the squares of 1, 3, 2 underflow to a spread of 0. R, in units of 2^1000
 * for the side near DBL_MAX (tests/reference has no such side):
 *   sdn <- function(x) sqrt(mean((x - mean(x))^2)); b <- c(1.5e308, 1.6e308, 1.55e308)
 *   mean(b / 2^1000) * 2^1000; sdn(b / 2^1000) * 2^1000; sdn(c(1, 3, 2))
 *   2 * pt(-abs(mean(b / 2^1000) / sqrt(2 * sdn(b / 2^1000)^2 / 4 * (2 / 3))), 4)
 * (the spread of 1, 3, 2 adds nothing to the pooled variance there, nor
 * the mean 2 to the difference).
 */
static void test_sides_far_apart(void **state)
{
	const double huge[] = { 1.5e308, 1.6e308, 1.55e308 }, small[] = { 1, 3, 2 };
	const double series[] = { 1.5e308, 1.6e308, 1.55e308, 1, 3, 2 };
	const double expected[] = { 1.5500000000000001e+308, 2.0, 4.0824829046386284e+306,
				    0.81649658092772603, 3.2033930862540085e-07 };
	/* the other way round, small side first */
	const double reversed[] = { expected[1], expected[0], expected[3], expected[2],
				    expected[4] };
	struct change_point_options opts;
	struct change_point *cps;

	(void)state;
	check_sides(huge, 3, small, 3, expected);
	check_sides(small, 3, huge, 3, reversed);
	/* detect sees the series scaled by 2^-1024 for its energy distances */
	change_point_options_init(&opts);
	opts.max_pvalue = 0.05;
	assert_int_equal(change_points_detect(series, 6, &opts, &cps), 1);
	assert_int_equal(cps[0].index, 3);
	assert_close(cps[0].sides.mean_before, expected[0]);
	assert_close(cps[0].sides.stddev_before, expected[2]);
	assert_close(cps[0].sides.mean_after, expected[1]);
	assert_close(cps[0].sides.stddev_after, expected[3]);
	assert_close_p(cps[0].sides.p, expected[4]);
	free(cps);
}

/*
 * A piece far below the rest of its series: searched in the series' unit
 * (2^-1024), its values near 1e-300 vanish and its change goes unseen. R,
 * for the same values without the factor 1e-300 (a factor changes no p):
 *   sdn <- function(x) sqrt(mean((x - mean(x))^2))
 *   a <- c(1, 1.1, 0.9, 1.05, 0.95); b <- c(3, 3.1, 2.9, 3.05, 2.95)
 *   se <- sqrt((4 * sdn(a)^2 + 4 * sdn(b)^2) / 8 * (2 / 5))
 *   sdn(a); sdn(b); 2 * pt(-abs(mean(a) - mean(b)) / se, 8)
 * (Otherwise E-divisive is Hunter's: the piece 1.5e8, then these values
 * without the factor, gives the same two change points.)
 */
static void test_detect_far_apart(void **state)
{
	const double x[] = { 1.5e308, 1e-300, 1.1e-300, 0.9e-300, 1.05e-300, 0.95e-300,
			     3e-300, 3.1e-300, 2.9e-300, 3.05e-300, 2.95e-300 };
	struct change_point_options opts;
	struct change_point *cps;

	(void)state;
	change_point_options_init(&opts);
	opts.max_pvalue = 0.05;
	assert_int_equal(change_points_detect(x, 11, &opts, &cps), 2);
	assert_int_equal(cps[0].index, 1);
	assert_int_equal(cps[1].index, 6);
	assert_close(cps[1].sides.mean_before * 1e300, 1);
	assert_close(cps[1].sides.mean_after * 1e300, 3);
	assert_close(cps[1].sides.stddev_before * 1e300, 0.070710678118654779);
	assert_close(cps[1].sides.stddev_after * 1e300, 0.070710678118654752);
	assert_close_p(cps[1].sides.p, 6.9001171807742752e-11);
	free(cps);
}

/*
 * Constant sides have a spread of exactly 0 (exact arithmetic): the mean
 * of 70 values of 5.000000001 summed is 6e-15 off, and their spread around
 * it was reported as 6.22e-15 (detect: 5 +- 0 -> 5 +- 6.22e-15).
 */
static void test_sides_constant(void **state)
{
	double x[130];
	struct change_point_sides s;

	(void)state;
	for (size_t i = 0; i < 130; i++)
		x[i] = i < 60 ? 5 : 5.000000001;
	change_point_sides_test(x, 60, x + 60, 70, &s);
	assert_true(s.mean_before == 5 && s.mean_after == 5.000000001);
	assert_true(s.stddev_before == 0 && s.stddev_after == 0);
	assert_true(s.p == 0);
}

/* The same data give the same answer, and short series none. */
static void test_detect_edges(void **state)
{
	const double two[] = { 1, 100 }, steps[] = { 1, 1, 1, 1, 9, 9, 9, 9 };
	struct change_point_options opts;
	struct change_point *cps;

	change_point_options_init(&opts);
	assert_int_equal(change_points_detect(two, 0, &opts, &cps), 0);
	assert_null(cps);
	assert_int_equal(change_points_detect(two, 2, &opts, &cps), 0);
	/* constant sides: a certain change */
	assert_int_equal(change_points_detect(steps, 8, &opts, &cps), 1);
	assert_int_equal(cps[0].index, 4);
	assert_true(cps[0].sides.p == 0);
	free(cps);
	/*
	 * window 3, the smallest, finds the step (2 against 1 point); a window
	 * of 2 (one point a side, p = 1) is taken for 3, not left to find nothing
	 */
	for (size_t window = 2; window <= CHANGE_POINT_MIN_WINDOW; window++) {
		opts.window = window;
		assert_int_equal(change_points_detect(steps, 8, &opts, &cps), 1);
		assert_int_equal(cps[0].index, 4);
		free(cps);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_candidate),
		cmocka_unit_test(test_sides),
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_sides_far_apart),
		cmocka_unit_test(test_sides_constant),
		cmocka_unit_test(test_detect_far_apart),
		cmocka_unit_test(test_detect_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
