// SPDX-License-Identifier: GPL-2.0
/*
 * Text at schedperf's edges: the UTF-8 check every name and value passes
 * (util/utf8.h) and the shortest round-trip form of numbers too large for
 * fixed notation (util/numfmt.h). The UTF-8 cases are RFC 3629's and
 * Markus Kuhn's UTF-8 decoder stress test's classes. A CSV text cell that a
 * spreadsheet would run as a formula is made text (report.h: csv_text).
 * A store's URL loses its password (util/url_password.h).
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

#include "report/report.h"
#include "util/error.h"
#include "util/json_write.h"
#include "util/numfmt.h"
#include "util/url_password.h"
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
	/* what reorders the rest of a line (U+202E, U+2066), or a C1 control (U+009B) */
	s = utf8_escaped("run\xe2\x80\xae" "1v \xe2\x81\xa6x\xc2\x9b" "2J \xe2\x80\x94 \xe2\x80\xad");
	assert_string_equal(s, "run\\u202e1v \\u2066x\\u009b2J \xe2\x80\x94 \\u202d");
	free(s);
	memset(long_value, '\r', sizeof(long_value) - 1);
	long_value[sizeof(long_value) - 1] = '\0';
	s = utf8_escaped(long_value);
	assert_int_equal(strlen(s), 4 * (sizeof(long_value) - 1));
	assert_true(utf8_valid(s) && !strchr(s, '\r'));
	free(s);
}

/* A message stays one line of text: a control '?', what is not UTF-8 text escaped. */
static void test_utf8_message(void **state)
{
	char *s = utf8_message("a\nb\x1b[31m caf\xc3\xa9 \xff\xe2\x80\xae|\xc2\x9b cut\xe2\x80");
	struct error err = { 0 };

	assert_string_equal(s, "a?b?[31m caf\xc3\xa9 \\xff\\u202e|\\u009b cut\\xe2\\x80");
	assert_true(utf8_plain(s));
	free(s);
	/* every error is shown so, whatever its arguments held */
	error_set(&err, 2, "knob is '%s'", "\xff\xe2\x81\xa6x\t");
	assert_string_equal(err.msg, "knob is '\\xff\\u2066x?'");
}

static void test_utf8_columns(void **state)
{
	assert_int_equal(utf8_columns(""), 0);
	assert_int_equal(utf8_columns("run"), 3);
	/* \u00fc, \u2014: one each; U+1F600 and \u65e5: two; U+0301 and U+200B: none */
	assert_int_equal(utf8_columns("\xc3\xbc\xe2\x80\x94\xf0\x9f\x98\x80x"), 5);
	assert_int_equal(utf8_columns("\u65e5e\u0301a\u200bb"), 5);
	assert_int_equal(utf8_columns("a\xff" "b"), 3);
}

/* benchstat's count: a code point each, whatever its width; a stray byte one. */
static void test_utf8_runes(void **state)
{
	assert_int_equal(utf8_runes(""), 0);
	assert_int_equal(utf8_runes("run"), 3);
	assert_int_equal(utf8_runes("\xc3\xbc\xe2\x80\x94\xf0\x9f\x98\x80x"), 4);
	assert_int_equal(utf8_runes("\u65e5e\u0301a\u200bb"), 6);
	assert_int_equal(utf8_runes("a\xff\x80" "b"), 4);
	assert_int_equal(utf8_runes("\xe2\x80"), 2);
}

/* Where a cut by characters falls: past whole sequences, a stray byte one. */
static void test_utf8_rune_offset(void **state)
{
	assert_int_equal(utf8_rune_offset("", 3), 0);
	assert_int_equal(utf8_rune_offset("run", 0), 0);
	assert_int_equal(utf8_rune_offset("run", 2), 2);
	assert_int_equal(utf8_rune_offset("run", 9), 3);
	assert_int_equal(utf8_rune_offset("\xc3\xa9\xe6\xbc\xa2\xf0\x9f\x98\x80x", 2), 5);
	assert_int_equal(utf8_rune_offset("\xc3\xa9\xe6\xbc\xa2\xf0\x9f\x98\x80x", 3), 9);
	assert_int_equal(utf8_rune_offset("a\xff\x80" "b", 3), 3);
}

/* Plain: what utf8_escape() would show as it is, and nothing else. */
static void test_utf8_plain(void **state)
{
	assert_true(utf8_plain(""));
	assert_true(utf8_plain("v6.1-rc2 caf\xc3\xa9 \xe2\x80\x94 \xc2\xa0"));
	assert_false(utf8_plain("a\tb"));
	assert_false(utf8_plain("a\x7f"));
	assert_false(utf8_plain("a\xc2\x85"));		/* U+0085, a C1 control */
	assert_false(utf8_plain("a\xe2\x80\xae" "b"));	/* U+202E */
	assert_false(utf8_plain("a\xe2\x81\xa6" "b"));	/* U+2066 */
	assert_false(utf8_plain("a\xff"));
}

/* Blank at an end: a space of any kind, or a zero-width one, first or last. */
static void test_utf8_blank_at_ends(void **state)
{
	char *s;

	assert_true(utf8_blank_at_ends(""));
	assert_true(utf8_blank_at_ends(" "));
	assert_true(utf8_blank_at_ends("a "));
	assert_true(utf8_blank_at_ends(" a"));
	assert_true(utf8_blank_at_ends("a\xc2\xa0"));		/* U+00A0 */
	assert_true(utf8_blank_at_ends("\xe3\x80\x80" "a"));	/* U+3000 */
	assert_true(utf8_blank_at_ends("a\xe2\x80\x8b"));		/* U+200B */
	assert_true(utf8_blank_at_ends("\xef\xbb\xbf" "a"));	/* U+FEFF */
	assert_true(utf8_blank_at_ends("\xe3\x85\xa4" "a"));	/* U+3164 */
	assert_true(utf8_blank_at_ends("a\xe2\xa0\x80"));		/* U+2800 */
	assert_true(utf8_blank_at_ends("\xe1\x85\x9f" "a"));	/* U+115F */
	assert_true(utf8_blank_at_ends("a\xe1\x85\xa0"));		/* U+1160 */
	assert_true(utf8_blank_at_ends("a\xef\xbe\xa0"));		/* U+FFA0 */
	assert_true(utf8_blank_at_ends("a\xc2\xad"));		/* U+00AD */
	assert_false(utf8_blank_at_ends("a b"));
	assert_false(utf8_blank_at_ends("caf\xc3\xa9"));
	assert_false(utf8_blank_at_ends("\xe2\x80\x94"));		/* U+2014, a dash */
	assert_true(utf8_blank(""));
	assert_true(utf8_blank(" \xc2\xa0\xe2\x80\x8b"));
	assert_false(utf8_blank(" a "));
	s = utf8_blanks_escaped("\xe2\x81\xa0" "a b\xc2\xa0\x1b");
	assert_string_equal(s, "\\u2060a b\\u00a0\\x1b");
	free(s);
}

/* Kept for JSON: UTF-8 as it is, a control character too; stray bytes escaped. */
static void test_utf8_kept(void **state)
{
	char *s = utf8_kept("log\nline\tTAB \x1b[31mred caf\xc3\xa9");

	assert_string_equal(s, "log\nline\tTAB \x1b[31mred caf\xc3\xa9");
	free(s);
	s = utf8_kept("caf\xe9\n");
	assert_string_equal(s, "caf\\xe9\\x0a");
	free(s);
}

/* utf8_quoted() is UTF-8 that utf8_unquoted() gives back byte for byte. */
static void test_utf8_quoted(void **state)
{
	static const char *const texts[] = {
		"", "plain", "caf\xc3\xa9", "\xff\xfe odd", "\\xff", "\\\\xff\\", "a\\x41b\xff",
		"tab\there", "\\x00", "\\x4", "\\", "\xc3", "\\\xff\\",
	};
	char *q, *u;

	(void)state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(*texts); i++) {
		q = utf8_quoted(texts[i]);
		assert_true(utf8_valid(q));
		u = utf8_unquoted(q);
		assert_string_equal(u, texts[i]);
		free(u);
		free(q);
	}
	/* the text \xff and the byte 0xff are two quotings */
	q = utf8_quoted("\\xff");
	assert_string_equal(q, "\\\\xff");
	free(q);
	q = utf8_quoted("\xff");
	assert_string_equal(q, "\\xff");
	free(q);
	/* what else a '\' begins is kept; upper-case hex is read too */
	u = utf8_unquoted("\\q \\x0 \\x00 \\xFF");
	assert_string_equal(u, "\\q \\x0 \\x00 \xff");
	free(u);
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

/*
 * A change to so many decimals below 1e15; from there, where %f would print
 * up to 309 digits, the shortest form that reads back, signed as %+ signs.
 */
static void test_format_change(void **state)
{
	char buf[32];

	(void)state;
	assert_string_equal(format_change(buf, sizeof(buf), 12.345, 2), "+12.35");
	assert_string_equal(format_change(buf, sizeof(buf), -0.001, 2), "-0.00");
	assert_string_equal(format_change(buf, sizeof(buf), -99.5, 1), "-99.5");
	assert_string_equal(format_change(buf, sizeof(buf), 999999999999999.0, 2),
			    "+999999999999999.00");
	assert_string_equal(format_change(buf, sizeof(buf), 1e15, 2), "+1e+15");
	assert_string_equal(format_change(buf, sizeof(buf), -1.0000000000000001e302, 2),
			    "-1e+302");
	assert_string_equal(format_change(buf, sizeof(buf), -1.7976931348623157e308, 2),
			    "-1.7976931348623157e+308");
	assert_string_equal(format_pct(buf, sizeof(buf), -1e302, 2, "-"), "-1e+302%");
	assert_string_equal(format_pct(buf, sizeof(buf), -0.001, 2, "-"), "+0.00%");
	assert_string_equal(format_pct(buf, sizeof(buf), NAN, 2, "none"), "none");
}

/* format_g17() against glibc's own %.17g: the value must print alike. */
static void assert_g17(double v)
{
	char mine[40], glibc[40];
	int n = format_g17(mine, v);

	snprintf(glibc, sizeof(glibc), "%.17g", v);
	if (strcmp(mine, glibc) || n != (int)strlen(glibc))
		fail_msg("%a: format_g17 gives '%s' (%d), printf '%s'", v, mine, n, glibc);
}

/* A double of random bits: every exponent and mantissa alike. */
static double random_bits(uint64_t *state)
{
	double v;

	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	memcpy(&v, state, sizeof(v));
	return v;
}

static void test_format_g17(void **state)
{
	static const double values[] = { 0, -0.0, 1, -1, 0.1, 1.5, 100, 1e16, 1e17, 1e-5,
					 1e-4, 9.9999999999999995e-5, 0.00012345, 99999999999999999.0,
					 9.9999999999999999e16, 123456789012345678.0, 1e21, 1e22,
					 1.7976931348623157e308, 5e-324, 2.2250738585072014e-308,
					 INFINITY, -INFINITY, NAN, 1e-6, 1.0000000000000002,
					 0.30000000000000004, 1e38, 1.7e38, 3.4e38 };
	uint64_t bits = 88172645463325252ULL;

	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		assert_g17(values[i]);
	/* ties at the 17th digit, to even: 18 digits ending in 5 */
	for (double k = 0x1p50; k < 0x1p50 + 4000; k++) {
		assert_g17(k + 0.25);
		assert_g17(k + 0.75);
		assert_g17((k + 0.25) / 0x1p40);
		assert_g17(-(k + 0.75) * 0x1p10);
	}
	for (int i = 0; i < 300000; i++) {
		double v = random_bits(&bits);

		assert_g17(v);
		/* and the values of measurements: 1e-9 to 1e20, every digit */
		assert_g17(ldexp(fabs(v) / 0x1p1023 + 1, (int)(bits % 100) - 30));
		assert_g17((double)(bits % 100000000) / 1000);
	}
}

/* json_write() of @json, as json_dumpf() writes it. */
static void assert_json_alike(const json_t *json, int indent)
{
	char *mine = NULL, *theirs = NULL;
	size_t mine_len = 0, theirs_len = 0;
	FILE *f = open_memstream(&mine, &mine_len);

	assert_int_equal(json_write(f, json, indent), 0);
	fclose(f);
	f = open_memstream(&theirs, &theirs_len);
	assert_int_equal(json_dumpf(json, f, JSON_INDENT(indent) | JSON_REAL_PRECISION(17)), 0);
	fclose(f);
	assert_string_equal(mine, theirs);
	free(mine);
	free(theirs);
}

static void test_json_write(void **state)
{
	static const double reals[] = { 0, -0.0, 1, 1e16, 1e17, 1.5e-5, 0.0001, 123456.789,
					 -2.5e-300, 1.7976931348623157e308, 5e-324, 1e100, 0.1 };
	json_t *doc = json_object(), *array = json_array(), *nested = json_object();
	uint64_t bits = 5;

	json_object_set_new(doc, "text", json_string("quote \" backslash \\ tab \t nl \n "
						      "cr \r bs \b ff \f bell \a del \x7f é ∑ 😀"));
	json_object_set_new(doc, "nul", json_stringn("a\0b", 3));
	json_object_set_new(doc, "key \"quoted\"\n", json_integer(-9223372036854775807LL - 1));
	json_object_set_new(doc, "empty array", json_array());
	json_object_set_new(doc, "empty object", json_object());
	json_object_set_new(doc, "true", json_true());
	json_object_set_new(doc, "false", json_false());
	json_object_set_new(doc, "null", json_null());
	for (size_t i = 0; i < sizeof(reals) / sizeof(reals[0]); i++)
		json_array_append_new(array, json_real(reals[i]));
	for (int i = 0; i < 20000; i++) {
		double v = random_bits(&bits);

		if (isfinite(v))
			json_array_append_new(array, json_real(v));
		json_array_append_new(array, json_real((double)(bits % 1000000) / 1024));
	}
	json_object_set_new(nested, "deeper", json_pack("[[[{}], []], {\"a\": [1, 2.5]}]"));
	json_object_set_new(doc, "reals", array);
	json_object_set_new(doc, "nested", nested);
	assert_json_alike(doc, 2);
	assert_json_alike(doc, 0);
	assert_json_alike(doc, 31);
	assert_int_equal(json_write(stdout, json_object_get(doc, "true"), 2), -1);
	json_decref(doc);
}

/*
 * A document written as it is made, and the tree jansson builds from the
 * same calls, print alike: what jansson refuses (a real not finite, a
 * string or key not UTF-8) leaves its member or element out either way.
 */
static void test_json_writer(void **state)
{
	static const char bad[] = "\xff\xfe";
	json_t *doc = json_object(), *a = json_array(), *o = json_object(), *inner = json_array();
	json_t *packed;
	char *mine = NULL, *theirs = NULL;
	size_t mine_len = 0, theirs_len = 0;
	FILE *f = open_memstream(&mine, &mine_len);
	struct json_writer *w = json_writer_new(f, 2);

	jw_object(w);
	jw_key(w, "first");
	jw_real(w, NAN);			/* left out, and its key */
	json_object_set_new(doc, "first", json_real(NAN));
	jw_key(w, "reals");
	jw_array(w);
	jw_real(w, INFINITY);
	json_array_append_new(a, json_real(INFINITY));
	jw_real(w, 1e16);
	json_array_append_new(a, json_real(1e16));
	jw_real(w, -0.5);
	json_array_append_new(a, json_real(-0.5));
	jw_string(w, bad);
	json_array_append_new(a, json_string(bad));
	jw_string(w, NULL);
	json_array_append_new(a, json_string(NULL));
	jw_close(w);
	json_object_set_new(doc, "reals", a);
	jw_key(w, bad);				/* a key not UTF-8: the member goes */
	jw_object(w);
	jw_key(w, "x");
	jw_integer(w, 1);
	jw_close(w);
	json_object_set_new(doc, bad, json_pack("{s:i}", "x", 1));
	jw_key(w, "empty");
	jw_object(w);
	jw_close(w);
	json_object_set_new(doc, "empty", o);
	jw_key(w, "nested");
	jw_array(w);
	jw_array(w);
	jw_close(w);
	packed = json_pack("{s:[b, n, s]}", "t", 1, "\"q\"");
	jw_json(w, packed);
	json_decref(packed);
	jw_close(w);
	json_array_append_new(inner, json_array());
	json_array_append_new(inner, json_pack("{s:[b, n, s]}", "t", 1, "\"q\""));
	json_object_set_new(doc, "nested", inner);
	jw_key(w, "last");
	jw_bool(w, false);
	json_object_set_new(doc, "last", json_false());
	jw_key(w, "nothing");
	jw_null(w);
	json_object_set_new(doc, "nothing", json_null());
	jw_close(w);
	assert_int_equal(json_writer_end(w), 0);
	fclose(f);
	f = open_memstream(&theirs, &theirs_len);
	assert_int_equal(json_dumpf(doc, f, JSON_INDENT(2) | JSON_REAL_PRECISION(17)), 0);
	fclose(f);
	assert_string_equal(mine, theirs);
	free(mine);
	free(theirs);
	json_decref(doc);
}

/* A message too long for its buffer keeps its start and its end: why, and how to fix. */
static void test_error_shorten(void **state)
{
	char buf[40], full[200];
	struct error err;

	(void)state;
	error_shorten(buf, sizeof(buf), "short (fix it)");
	assert_string_equal(buf, "short (fix it)");
	error_shorten(buf, sizeof(buf), "cannot import 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaabbb': why (fix it)");
	assert_string_equal(buf, "cannot import 'aaa...bbb': why (fix it)");
	assert_int_equal(strlen(buf), sizeof(buf) - 1);
	/* never cut inside a character: \u00fc is two bytes */
	error_shorten(buf, sizeof(buf), "f\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc");
	assert_string_equal(buf, "f\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc...\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc");
	error_shorten(buf, sizeof(buf), "\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fcg");
	assert_string_equal(buf, "\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc...\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fc\u00fcg");
	/* error_set() shortens so */
	memset(full, 'n', sizeof(full) - 1);
	full[sizeof(full) - 1] = '\0';
	error_set(&err, 2, "cannot import '%s%s%s%s': File name too long (give a shorter name)",
		  full, full, full, full);
	assert_int_equal(err.code, 2);
	assert_int_equal(strlen(err.msg), sizeof(err.msg) - 1);
	assert_non_null(strstr(err.msg, "cannot import 'nnn"));
	assert_non_null(strstr(err.msg, "nnn...nnn"));
	assert_non_null(strstr(err.msg, "nnn': File name too long (give a shorter name)"));
	/* a value cut by %.Ns inside a character is not left cut, nor another byte not UTF-8 */
	error_set(&err, 2, "'%.4s' is not %s (fix it)", "ab\u20ac", "\xff\xc3x");
	assert_string_equal(err.msg, "'ab\\xe2\\x82' is not \\xff\\xc3x (fix it)");
}

/* Whether @s opens as many parentheses as it closes, never closing one first. */
static bool balanced(const char *s)
{
	int depth = 0;

	for (; *s && depth >= 0; s++)
		depth += (*s == '(') - (*s == ')');
	return !depth;
}

/* A fix added to a message's: into its "(...)", the message cut to make room, safely. */
static void test_error_add_fix(void **state)
{
	struct error err = { .code = 3 };
	char fix[600];
	size_t len;

	(void)state;
	strcpy(err.msg, "disk full (free some)");
	error_add_fix(&err, "go on");
	assert_string_equal(err.msg, "disk full (free some; go on)");
	strcpy(err.msg, "disk full");
	error_add_fix(&err, "go on");
	assert_string_equal(err.msg, "disk full (go on)");
	/* a fix too long to fit is not added */
	memset(fix, 'f', sizeof(fix) - 1);
	fix[sizeof(fix) - 1] = '\0';
	strcpy(err.msg, "disk full (free some)");
	error_add_fix(&err, fix);
	assert_string_equal(err.msg, "disk full (free some)");
	/* a cut that would fall inside a character (\u00fc, two bytes) falls before it */
	fix[378] = '\0';
	len = 0;
	while (len < sizeof(err.msg) - 3)
		len += (size_t)sprintf(err.msg + len, "\u00fc");
	err.msg[len] = '\0';
	error_add_fix(&err, fix);
	assert_true(utf8_valid(err.msg));
	assert_non_null(strstr(err.msg, "\u00fc... (fff"));
	assert_true(balanced(err.msg));
	/* a cut that drops the "(" of the message's fix opens one of its own */
	memset(err.msg, 'w', 200);
	strcpy(err.msg + 200, " (fix it with a long sentence of many words that the cut drops)");
	error_add_fix(&err, fix);
	assert_true(balanced(err.msg));
	assert_non_null(strstr(err.msg, "www... (fff"));
	/* nor does it leave a parenthesis within the fix open: it goes whole */
	memset(err.msg, 'w', 100);
	strcpy(err.msg + 100, " (fix it (a long aside that the cut would cut in two, and more))");
	error_add_fix(&err, fix);
	assert_true(balanced(err.msg));
	assert_non_null(strstr(err.msg, "www (fix it ...; fff"));
	assert_true(strlen(err.msg) < sizeof(err.msg));
}

/* What csv_text() (or, @number, csv_number()) writes of @text. */
static char *csv_of(const char *text, double number)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	if (text)
		csv_text(out, text);
	else
		csv_number(out, number);
	assert_int_equal(fclose(out), 0);
	return buf;
}

static void assert_csv(const char *text, double number, const char *expected)
{
	char *got = csv_of(text, number);

	assert_string_equal(got, expected);
	free(got);
}

/*
 * OWASP's "CSV Injection": = + - @, tab and CR start a formula in Excel or
 * LibreOffice; a quote before them makes the cell text, inside the field's
 * quotes when it has them. Anywhere else they are text already, and a
 * number keeps its sign. A control character is \xHH first, as text
 * shows it: a tab or CR starts no cell, a newline or escape sequence from
 * a store another program wrote neither ends a row nor reaches a terminal.
 */
static void test_csv_formula_guard(void **state)
{
	(void)state;
	assert_csv("=1+1", 0, "'=1+1");
	assert_csv("+1", 0, "'+1");
	assert_csv("-rc1", 0, "'-rc1");
	assert_csv("@SUM(A1)", 0, "'@SUM(A1)");
	assert_csv("\tx", 0, "\\x09x");
	assert_csv("\rx", 0, "\\x0dx");
	assert_csv("=a\nb\x1b[31m,c", 0, "\"'=a\\x0ab\\x1b[31m,c\"");
	assert_csv("\xe2\x80\xaex\xff", 0, "\\u202ex\\xff");
	assert_csv("=HYPERLINK(\"http://e.example\",\"x\")", 0,
		   "\"'=HYPERLINK(\"\"http://e.example\"\",\"\"x\"\")\"");
	assert_csv("cmd==HYPERLINK(x)", 0, "cmd==HYPERLINK(x)");
	assert_csv("a-b", 0, "a-b");
	assert_csv("a,b", 0, "\"a,b\"");
	assert_csv("", 0, "");
	assert_csv(NULL, -1.5, ",-1.5");
	assert_csv(NULL, -0.25, ",-0.25");
}

/*
 * A store's URL without its password (util/url_password.h): shown with
 * "password=..." in messages, the parameter gone in a hint's --db, which
 * then runs with the password libpq finds elsewhere; a file name as it is.
 */
static void test_url_without_password(void **state)
{
	static const struct {
		const char *location, *mark, *want;
	} cases[] = {
		{ "postgresql://u:s3cret@h/db", NULL, "postgresql://u@h/db" },
		{ "postgresql://u:p@s3cret@h:1/db", "...", "postgresql://u@h:1/db" },
		{ "postgresql:///db?password=s3cret", NULL, "postgresql:///db" },
		{ "postgresql:///db?password=s3cret", "...", "postgresql:///db?password=..." },
		{ "postgresql:///db?host=/s&password=a&PASS%77ORD=b&sslmode=disable", NULL,
		  "postgresql:///db?host=/s&sslmode=disable" },
		{ "postgresql:///db?password=a&user=u", NULL, "postgresql:///db?user=u" },
		{ "postgresql:///db?host=/s&password", NULL, "postgresql:///db?host=/s&password" },
		{ "postgres://h:5432/db?user=u", NULL, "postgres://h:5432/db?user=u" },
		{ "/tmp/a b/store.db", NULL, "/tmp/a b/store.db" },
		{ "/tmp/x://u:s3cret@h", NULL, "/tmp/x://u:s3cret@h" },
		{ "://u:s3cret@h", NULL, "://u:s3cret@h" },
		{ "postgresql://u:s3cret@host/db?sslpassword=keypw", "...",
		  "postgresql://u@host/db?sslpassword=..." },
		{ "postgresql:///db?SSLPass%77ord=keypw&user=u", NULL, "postgresql:///db?user=u" },
		{ "postgresql://host:5432/db?application_name=me@corp", NULL,
		  "postgresql://host:5432/db?application_name=me@corp" },
		{ "postgresql://[::1]:5432/db?user=a@b", NULL,
		  "postgresql://[::1]:5432/db?user=a@b" },
		{ "postgresql://u:p@w@h/db?application_name=me@corp", NULL,
		  "postgresql://u@h/db?application_name=me@corp" },
		{ "postgresql://u:s3/cret@h/db?user=a@b", NULL, "postgresql://u@h/db?user=a@b" },
		{ "postgresql://u?x=p:s3cret@h", NULL, "postgresql://u?x=p@h" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = url_without_password(cases[i].location, cases[i].mark);

		assert_string_equal(got, cases[i].want);
		free(got);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_utf8_valid),
		cmocka_unit_test(test_utf8_escape),
		cmocka_unit_test(test_utf8_escaped),
		cmocka_unit_test(test_utf8_plain),
		cmocka_unit_test(test_utf8_blank_at_ends),
		cmocka_unit_test(test_utf8_message),
		cmocka_unit_test(test_utf8_columns),
		cmocka_unit_test(test_utf8_runes),
		cmocka_unit_test(test_utf8_rune_offset),
		cmocka_unit_test(test_utf8_kept),
		cmocka_unit_test(test_utf8_quoted),
		cmocka_unit_test(test_format_shortest),
		cmocka_unit_test(test_format_change),
		cmocka_unit_test(test_format_g17),
		cmocka_unit_test(test_json_write),
		cmocka_unit_test(test_json_writer),
		cmocka_unit_test(test_error_shorten),
		cmocka_unit_test(test_error_add_fix),
		cmocka_unit_test(test_csv_formula_guard),
		cmocka_unit_test(test_url_without_password),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
