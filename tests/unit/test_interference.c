// SPDX-License-Identifier: GPL-2.0
/*
 * Interference accounting (src/monitor/interference.c) on known /proc/stat
 * contents: which CPUs are read, how the time others took is counted, and
 * that /proc/stat's rounding to whole ticks never makes a disturbed
 * iteration on its own, however short the iteration.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include "monitor/interference.h"

#define HZ 100.0
#define NEAR(actual, expected) assert_true(fabs((actual) - (expected)) < 1e-9)

static const char stat_text[] =
	"cpu  900 0 500 10000 30 0 7 4 0 0\n"
	"cpu0 100 0 50 1000 10 0 2 1 0 0\n"
	"cpu1 200 0 60 2000 0 0 1 0 0 0\n"
	"cpu2 300 0 70 3000 20 0 4 3 0 0\n"
	"intr 12345 0 0\n"
	"ctxt 999\n";

static void test_parse_chosen_cpus(void **state)
{
	struct cpu_times t[2];
	cpu_set_t cpus;

	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	CPU_SET(2, &cpus);
	assert_int_equal(interference_parse_stat(stat_text, &cpus, HZ, t, 2), 2);
	NEAR(t[0].idle, 10.0);
	NEAR(t[0].iowait, 0.1);
	NEAR(t[0].steal, 0.01);
	NEAR(t[1].idle, 30.0);
	NEAR(t[1].iowait, 0.2);
	NEAR(t[1].steal, 0.03);
	/* a CPU /proc/stat does not list (offline) is not found */
	CPU_SET(5, &cpus);
	assert_int_equal(interference_parse_stat(stat_text, &cpus, HZ, t, 3), 2);
}

static struct interference compute(double idle_delta, double steal_delta, size_t nr,
				   double wall, double own)
{
	struct cpu_times before[2] = { { 100, 1, 0 }, { 200, 2, 0 } };
	struct cpu_times after[2];
	struct interference out;

	for (size_t i = 0; i < 2; i++) {
		after[i] = before[i];
		after[i].idle += idle_delta;
		after[i].steal += steal_delta;
	}
	interference_compute(before, after, nr, wall, own, 0.05, HZ, &out);
	return out;
}

static void test_quiet_short_iteration(void **state)
{
	/*
	 * 50 ms on one CPU: the iteration ran 20 ms and the CPU idled 30 ms,
	 * but /proc/stat shows idle one tick short (20 ms). 10 ms seem taken,
	 * 20 % of the time: below the floor of two ticks, so not disturbed.
	 */
	struct interference out = compute(0.02, 0, 1, 0.05, 0.02);

	NEAR(out.taken, 0.01);
	NEAR(out.available, 0.05);
	assert_false(out.disturbed);
	/* with idle and iowait both a tick short, still the floor */
	NEAR(interference_floor(1, HZ), 0.02);
}

static void test_busy_short_iteration(void **state)
{
	/* another task ran 25 ms of the 50: above the floor and the share */
	struct interference out = compute(0.005, 0, 1, 0.05, 0.02);

	NEAR(out.taken, 0.025);
	assert_true(out.disturbed);
}

static void test_share_on_long_iterations(void **state)
{
	/* 10 s on two CPUs, the iteration used 15 s: others 1.1 s is 5.5 % */
	struct interference out = compute(1.95, 0, 2, 10, 15);

	NEAR(out.taken, 1.1);
	NEAR(out.available, 20);
	assert_true(out.disturbed);
	/* 0.9 s is 4.5 %: not disturbed, though far above the floor */
	out = compute(2.05, 0, 2, 10, 15);
	NEAR(out.taken, 0.9);
	assert_false(out.disturbed);
}

static void test_steal_is_taken(void **state)
{
	/* the hypervisor took 0.5 s of each CPU: it is neither idle nor ours */
	struct interference out = compute(1.5, 0.5, 2, 5, 6);

	NEAR(out.taken, 1);
	NEAR(out.steal, 1);
	assert_true(out.disturbed);
}

static void test_bounds(void **state)
{
	/* rusage covers the child's whole life: more than the window is not negative */
	struct interference out = compute(0, 0, 1, 1, 1.2);

	NEAR(out.taken, 0);
	assert_false(out.disturbed);
	/* idle read short cannot make more than the whole window taken */
	out = compute(-0.01, 0, 1, 1, 0);
	NEAR(out.taken, 1);
}

static void test_open_on_this_machine(void **state)
{
	struct interference_monitor *im = interference_open(NULL, 0.05);
	struct interference out;

	/* /proc/stat is always there on Linux */
	assert_non_null(im);
	interference_before(im, 0);
	interference_after(im, 0, &out);
	assert_true(out.available >= 0 && out.taken >= 0 && out.taken <= out.available);
	interference_close(im);
	/* after without before: nothing measured */
	interference_after(NULL, 0, &out);
	assert_true(isnan(out.taken) && isnan(out.available) && !out.disturbed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_chosen_cpus),
		cmocka_unit_test(test_quiet_short_iteration),
		cmocka_unit_test(test_busy_short_iteration),
		cmocka_unit_test(test_share_on_long_iterations),
		cmocka_unit_test(test_steal_is_taken),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_open_on_this_machine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
