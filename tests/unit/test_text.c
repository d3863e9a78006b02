// SPDX-License-Identifier: GPL-2.0
/*
 * Text at schedperf's edges: the UTF-8 check every name and value passes
 * (util/utf8.h) and the shortest round-trip form of numbers too large for
 * fixed notation (util/numfmt.h). The UTF-8 cases are RFC 3629's and
 * Markus Kuhn's UTF-8 decoder stress test's classes.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/numfmt.h"
#include "util/utf8.h"

static void test_utf8_valid(void **state)
{
	static const char *const good[] = {
		"", "plain ascii", "caf\xc3\xa9", "\xe5\x90\x8d\xe5\x89\x8d",	/* é, 名前 */
		"\xf0\x9f\x98\x80",		/* U+1F600 */
		"\xf4\x8f\xbf\xbf",		/* U+10FFFF, the last */
		"\xed\x9f\xbf", "\xee\x80\x80",	/* around the surrogates */
	};
	static const char *const bad[] = {
		"\xff", "\xfe\xff", "a\x80", "\xbf",	/* stray bytes, lone continuation */
		"\xc0\x80", "\xc1\xbf",			/* overlong 2-byte */
		"\xe0\x80\xaf", "\xf0\x80\x80\xaf",	/* overlong 3-, 4-byte '/' */
		"\xed\xa0\x80", "\xed\xbf\xbf",		/* UTF-16 surrogates */
		"\xf4\x90\x80\x80", "\xf5\x80\x80\x80",	/* beyond U+10FFFF */
		"\xc3", "caf\xc3", "\xe5\x90", "\xf0\x9f\x98",	/* cut short */
		"\xc3(", "\xe2\x28\xa1",		/* bad continuation */
	};

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_true(utf8_valid(good[i]));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_false(utf8_valid(bad[i]));
}

static void test_utf8_escape(void **state)
{
	char buf[64];

	utf8_escape(buf, sizeof(buf), "\xff\xfe");
	assert_string_equal(buf, "\\xff\\xfe");
	utf8_escape(buf, sizeof(buf), "caf\xc3\xa9 \xc0\x80\n");
	assert_string_equal(buf, "caf\xc3\xa9 \\xc0\\x80\\x0a");
	/* what is escaped is valid UTF-8, and cut with "..." when long */
	utf8_escape(buf, 16, "\xff\xff\xff\xff\xff\xff\xff\xff");
	assert_true(utf8_valid(buf));
	assert_true(strlen(buf) < 16 && strstr(buf, "...") != NULL);
}

/* Whole, however long: a return or an escape in a shown value never reaches a line. */
static void test_utf8_escaped(void **state)
{
	char long_value[300], *s;

	s = utf8_escaped("v\rEVIL|\x1b[31mred caf\xc3\xa9\x7f");
	assert_string_equal(s, "v\\x0dEVIL|\\x1b[31mred caf\xc3\xa9\\x7f");
	free(s);
	s = utf8_escaped("");
	assert_string_equal(s, "");
	free(s);
	memset(long_value, '\r', sizeof(long_value) - 1);
	long_value[sizeof(long_value) - 1] = '\0';
	s = utf8_escaped(long_value);
	assert_int_equal(strlen(s), 4 * (sizeof(long_value) - 1));
	assert_true(utf8_valid(s) && !strchr(s, '\r'));
	free(s);
}

static void test_format_shortest(void **state)
{
	static const double values[] = { 1.547e308, 1.7976931348623157e308, 0.1, 1e15,
					 123456789012345678.0, -2.5e-300, 5e-324 };
	char buf[40];

	format_shortest(buf, sizeof(buf), 1.547e308);
	assert_string_equal(buf, "1.547e+308");
	format_shortest(buf, sizeof(buf), 0.1);
	assert_string_equal(buf, "0.1");
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		format_shortest(buf, sizeof(buf), values[i]);
		assert_true(strtod(buf, NULL) == values[i]);
		assert_true(strlen(buf) <= 24);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_utf8_valid),
		cmocka_unit_test(test_utf8_escape),
		cmocka_unit_test(test_utf8_escaped),
		cmocka_unit_test(test_format_shortest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
