// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the option tables of src/cli/options.c: that one table
 * parses every kind of option (and the common ones), refuses what it must
 * with exit code 2, and prints --help lines made from the same rows.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cmd/cmd.h"
#include "cli/options.h"
#include "util/array.h"

struct fixture {
	bool flag;
	const char *name;
	int count;
	int calls;
	const char *last;
};

static int remember(const struct cmd_option *opt, const char *arg)
{
	struct fixture *f = opt->value;

	f->calls++;
	f->last = arg;
	return 0;
}

static int refuse(const struct cmd_option *opt, const char *arg)
{
	return EXIT_ENV;
}

static const struct cmd_usage usage = {
	"usage: schedperf test [options]\n",
	"An epilogue.\n",
};

/* Parse @args (argv[0] "test" added) with the fixture's table. */
static bool parse(struct fixture *f, int *code, int *first, ...)
{
	const struct cmd_option options[] = {
		OPT_BOOL('f', "flag", &f->flag, "set the flag"),
		OPT_STRING(0, "name", &f->name, "NAME", "a name"),
		OPT_INTEGER('n', "count", &f->count, "N", 1, 10, "a count from 1 to 10"),
		OPT_CALLBACK('c', "call", f, "ARG", "call back with ARG", remember),
		OPT_CALLBACK(0, "bare", f, NULL, "call back without an argument", remember),
		OPT_CALLBACK(0, "refuse", f, NULL, "fail with exit code 3", refuse),
		OPT_END(),
	};
	char *argv[16] = { (char *)"test" };
	int argc = 1;
	bool stop;
	va_list ap;

	va_start(ap, first);
	for (char *a; (a = va_arg(ap, char *)) && argc < 15; )
		argv[argc++] = a;
	va_end(ap);
	optind = 0;
	opterr = 0;
	memset(f, 0, sizeof(*f));
	stop = parse_options(argc, argv, options, &usage, code);
	*first = optind;
	return stop;
}

static void test_every_kind(void **state)
{
	struct fixture f;
	int code = -1, first;

	assert_false(parse(&f, &code, &first, "-f", "--name", "x", "--count=7", "-c", "a",
			   "--call", "b", "--bare", NULL));
	assert_true(f.flag);
	assert_string_equal(f.name, "x");
	assert_int_equal(f.count, 7);
	assert_int_equal(f.calls, 3);
	assert_null(f.last);
	assert_int_equal(first, 10);
}

static void test_operands_between_options(void **state)
{
	struct fixture f;
	int code = -1, first;
	bool stop = parse(&f, &code, &first, "one", "-n", "2", "two", NULL);

	assert_false(stop);
	assert_int_equal(f.count, 2);
	/* getopt moved the operands behind the options */
	assert_int_equal(first, 3);
}

static void test_refusals(void **state)
{
	struct fixture f;
	int code, first;

	code = -1;
	assert_true(parse(&f, &code, &first, "--count", "11", NULL));
	assert_int_equal(code, EXIT_USAGE);
	code = -1;
	assert_true(parse(&f, &code, &first, "-n", "3x", NULL));
	assert_int_equal(code, EXIT_USAGE);
	code = -1;
	assert_true(parse(&f, &code, &first, "--nope", NULL));
	assert_int_equal(code, EXIT_USAGE);
	code = -1;
	assert_true(parse(&f, &code, &first, "-z", NULL));
	assert_int_equal(code, EXIT_USAGE);
	code = -1;
	assert_true(parse(&f, &code, &first, "--name", NULL));
	assert_int_equal(code, EXIT_USAGE);
	code = -1;
	assert_true(parse(&f, &code, &first, "--flag=yes", NULL));
	assert_int_equal(code, EXIT_USAGE);
	/* a callback's exit code stops the command; what follows is not parsed */
	code = -1;
	assert_true(parse(&f, &code, &first, "--refuse", "-f", NULL));
	assert_int_equal(code, EXIT_ENV);
	assert_false(f.flag);
}

static void test_common_options(void **state)
{
	struct fixture f;
	int code = -1, first;

	global.db = NULL;
	global.quiet = false;
	assert_false(parse(&f, &code, &first, "--db", "/tmp/x.db", "-q", NULL));
	assert_string_equal(global.db, "/tmp/x.db");
	assert_true(global.quiet);
	assert_true(parse(&f, &code, &first, "-f", "--help", NULL));
	assert_int_equal(code, EXIT_OK);
}

static char *help_text(void)
{
	const struct cmd_option options[] = {
		OPT_BOOL('f', "flag", NULL, "set  the flag (two spaces kept)"),
		OPT_STRING(0, "a-very-long-option", NULL, "VALUE", "its help starts on "
			   "the next line because the option is too wide for the column"),
		OPT_INTEGER('n', "count", NULL, "N", 1, 10, "a count from 1 to 10, and a "
			    "help text long enough that it has to be wrapped over more than "
			    "one line of the terminal"),
		OPT_END(),
	};
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	assert_non_null(out);
	print_options_usage(out, options, &usage);
	fclose(out);
	return text;
}

static void test_help_lines(void **state)
{
	char *text = help_text(), *line, *save = NULL;
	const char *expect[] = {
		"usage: schedperf test [options]",
		"  -f, --flag     set  the flag (two spaces kept)",
		"      --a-very-long-option VALUE",
		"                 its help starts on the next line because the option is too",
		"                 wide for the column",
		"  -n, --count N  a count from 1 to 10, and a help text long enough that it has",
		"                 to be wrapped over more than one line of the terminal",
		"      --db FILE  results store: an SQLite file or a postgresql:// URL (default",
		"                 $SCHEDPERF_DB or ./schedperf.db)",
		"  -q, --quiet    no progress line and no summary",
		"An epilogue.",
	};
	size_t i = 0;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		assert_true(strlen(line) <= 79);
		assert_true(i < ARRAY_SIZE(expect));
		assert_string_equal(line, expect[i]);
		i++;
	}
	assert_int_equal(i, ARRAY_SIZE(expect));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_kind),
		cmocka_unit_test(test_operands_between_options),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_common_options),
		cmocka_unit_test(test_help_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
