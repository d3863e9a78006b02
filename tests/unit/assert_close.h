/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_TESTS_ASSERT_CLOSE_H
#define SCHEDPERF_TESTS_ASSERT_CLOSE_H

/*
 * A number against its reference value: relative, except near 0 where the
 * same size is absolute (doc/design.md, "Tests": 1e-6 unless a test says).
 * Include after cmocka.h.
 */
#include <math.h>

#define REL 1e-6

static inline void assert_close_rel_at(double actual, double expected, double rel,
				       const char *file, int line)
{
	double scale = fabs(expected) > 1 ? fabs(expected) : 1;

	if (isnan(expected) ? isnan(actual) : fabs(actual - expected) <= rel * scale)
		return;
	/* print first: _fail() does not return */
	print_error("expected %.17g, got %.17g (rel %g)\n", expected, actual, rel);
	_fail(file, line);
}

#define assert_close_rel(actual, expected, rel) \
	assert_close_rel_at((actual), (expected), (rel), __FILE__, __LINE__)
#define assert_close(actual, expected) assert_close_rel((actual), (expected), REL)

#endif
