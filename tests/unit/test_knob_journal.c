// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the machine's knob journal (src/runner/knob_journal.c):
 * every original, whatever its bytes, is read back as it was written, so
 * that what an ab killed by SIGKILL changed is put back byte for byte; a
 * journal of an older schedperf is read; hex that is no original is
 * refused; and the journal is written without jansson's allocations, and
 * read with an error or whole, never with an entry less. Its lock and its
 * put-back after kills are tests/cli/knob_journal.bats's.
 */
#include <limits.h>
#include <stdint.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include "runner/knob_journal.h"
#include "util/array.h"

static char dir[PATH_MAX];

static int setup(void **state)
{
	snprintf(dir, sizeof(dir), "/tmp/schedperf-knob-journal.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	return setenv(KNOB_TEST_RUNDIR_VARIABLE, dir, 1);
}

static int teardown(void **state)
{
	unlink(knob_journal_path());
	unlink(knob_journal_new_path());
	return rmdir(dir);
}

static struct knob_original entry(const char *kind, const char *name, const char *value,
				  const char *command)
{
	return (struct knob_original){
		.kind = (char *)kind, .name = (char *)name, .value = (char *)value,
		.writer = { .boot = "6b0f3c3e-0d6a-4b52-9d2b-7f1c2a3e4d5f", .pid = 4242,
			    .start = 123456789 },
		.started = (char *)"2026-12-06T03:00:00Z", .command = (char *)command,
	};
}

static void assert_entries(const struct knob_original *got, size_t nr,
			   const struct knob_original *want, size_t n)
{
	assert_int_equal(nr, n);
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(got[i].kind, want[i].kind);
		assert_string_equal(got[i].name, want[i].name);
		/* byte for byte: a value made UTF-8 would be put back wrong */
		assert_string_equal(got[i].value, want[i].value);
		assert_string_equal(got[i].started, want[i].started);
		assert_string_equal(got[i].writer.boot, want[i].writer.boot);
		assert_int_equal(got[i].writer.pid, want[i].writer.pid);
		assert_int_equal(got[i].writer.start, want[i].writer.start);
		if (want[i].command)
			assert_string_equal(got[i].command, want[i].command);
		else
			assert_null(got[i].command);
	}
}

static void assert_same_entries(const struct knob_original *want, size_t n)
{
	struct knob_original *got;
	struct error err = { 0 };
	size_t nr;

	if (knob_journal_read(&got, &nr, &err))
		fail_msg("%s", err.msg);
	assert_entries(got, nr, want, n);
	store_journal_release(got, nr);
}

static char *journal_file(void)
{
	FILE *f = fopen(knob_journal_path(), "r");
	char *text = calloc(1, 1 << 16);

	assert_non_null(f);
	assert_non_null(text);
	assert_true(fread(text, 1, (1 << 16) - 1, f) > 0);
	fclose(f);
	return text;
}

/*
 * Originals that are not UTF-8 (a byte 0xff, an overlong '/', a
 * surrogate, a cut sequence) beside ones that are, with tabs and a
 * newline: each comes back as written.
 */
static void test_any_bytes(void **state)
{
	const struct knob_original k[] = {
		entry("sysctl", "kernel.domainname", "\xff\xfe odd", "ab"),
		entry("sysctl", "kernel.printk", "4\t4\t1\t7", "run"),
		entry("sysfs", "/sys/kernel/x", "caf\xc3\xa9\n", NULL),
		entry("sysfs", "/sys/kernel/y", "\xc0\xaf", "bisect-step"),
		entry("sysfs", "/sys/kernel/z\xed\xa0\x80", "\xed\xa0\x80", "ab \xe2\x82"),
		entry("sysctl", "kernel.hostname", "", "ab"),
	};
	struct error err = { 0 };
	char *text;

	if (knob_journal_write(k, ARRAY_SIZE(k), &err))
		fail_msg("%s", err.msg);
	assert_same_entries(k, ARRAY_SIZE(k));
	/*
	 * UTF-8 is kept as it is, the rest in KEY_hex alone: a reader that
	 * knows only "original" refuses the journal, never writes hex back.
	 */
	text = journal_file();
	assert_non_null(strstr(text, "\"original\": \"caf\xc3\xa9\\n\""));
	assert_non_null(strstr(text, "\"original_hex\": \"fffe206f6464\""));
	assert_non_null(strstr(text, "\"original_hex\": \"c0af\""));
	assert_non_null(strstr(text, "\"name_hex\": \"2f7379732f6b65726e656c2f7aeda080\""));
	assert_non_null(strstr(text, "\"command_hex\": \"616220e282\""));
	free(text);
	/* and rewritten (an entry added, one forgotten) it stays so */
	assert_int_equal(knob_journal_forget("sysctl", "kernel.printk", &k[1].writer, &err), 0);
	{
		const struct knob_original left[] = { k[0], k[2], k[3], k[4], k[5] };

		assert_same_entries(left, ARRAY_SIZE(left));
	}
}

static void write_file(const char *text)
{
	FILE *f = fopen(knob_journal_path(), "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

#define OLD_ENTRY(original, more) \
	"{\"kind\": \"sysctl\", \"name\": \"kernel.printk_ratelimit\", " original ", " \
	"\"boot\": \"b\", \"pid\": 1, \"start\": 2, \"started\": \"2026-12-01T00:00:00Z\"" \
	more "}"
#define JOURNAL(entries) "{\"schema\": \"schedperf-knobs/1\", \"settings\": [" entries "]}\n"

/* A journal as schedperf wrote it before KEY_hex, with and without its command. */
static void test_old_journal(void **state)
{
	struct knob_original *got;
	struct error err = { 0 };
	size_t n;

	write_file(JOURNAL(OLD_ENTRY("\"original\": \"5\"", "") ","
			   OLD_ENTRY("\"original\": \"7\"", ", \"command\": \"ab\"")));
	assert_int_equal(knob_journal_read(&got, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(got[0].value, "5");
	assert_null(got[0].command);
	assert_string_equal(got[1].value, "7");
	assert_string_equal(got[1].command, "ab");
	assert_string_equal(got[1].writer.boot, "b");
	store_journal_release(got, n);
}

/* Hex that is not whole bytes, or holds a NUL, is no original: the journal is refused. */
static void test_bad_hex(void **state)
{
	static const char *const bad[] = {
		"\"original_hex\": \"f\"", "\"original_hex\": \"zz\"",
		"\"original_hex\": \"6100\"", "\"original_hex\": \"\"", "\"original_hex\": 7",
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct knob_original *got;
		struct error err = { 0 };
		char text[1024];
		size_t n;

		snprintf(text, sizeof(text), JOURNAL(OLD_ENTRY("%s", "")), bad[i]);
		write_file(text);
		if (knob_journal_read(&got, &n, &err) != -1)
			fail_msg("%s was read", bad[i]);
		assert_int_equal(err.code, EXIT_ENV);
		assert_non_null(strstr(err.msg, "cannot be read"));
		assert_null(got);
		assert_int_equal(n, 0);
	}
}

/* jansson's allocator, failing its call number fail_at (0: none, SIZE_MAX: every one) */
static size_t calls, fail_at;

static void *failing_malloc(size_t size)
{
	calls++;
	return fail_at == SIZE_MAX || calls == fail_at ? NULL : malloc(size);
}

/*
 * The journal is written whole even where jansson can allocate nothing:
 * its json_pack() gave NULL then, and the entry was left out in silence.
 */
static void test_written_without_jansson(void **state)
{
	const struct knob_original k[] = {
		entry("sysctl", "kernel.a", "1", "ab"),
		entry("sysctl", "kernel.domainname", "\xff\xfe", "ab"),
		entry("sysfs", "/sys/kernel/x", "never", NULL),
	};
	struct error err = { 0 };
	int rc;

	fail_at = SIZE_MAX;
	json_set_alloc_funcs(failing_malloc, free);
	rc = knob_journal_write(k, ARRAY_SIZE(k), &err);
	json_set_alloc_funcs(malloc, free);
	if (rc)
		fail_msg("%s", err.msg);
	assert_same_entries(k, ARRAY_SIZE(k));
}

/*
 * Whatever allocation of jansson's fails while the journal is read, the
 * read is an error: never a journal read with an entry less.
 */
static void test_read_without_memory(void **state)
{
	const struct knob_original k[] = {
		entry("sysctl", "kernel.a", "1", "ab"),
		entry("sysctl", "kernel.domainname", "\xff\xfe", "ab"),
		entry("sysfs", "/sys/kernel/x", "never", NULL),
	};
	struct error err = { 0 };

	if (knob_journal_write(k, ARRAY_SIZE(k), &err))
		fail_msg("%s", err.msg);
	calls = 0;
	/* until a read makes fewer allocations than the one failed */
	for (fail_at = 1; calls >= fail_at - 1; fail_at++) {
		struct knob_original *got;
		size_t n;
		int rc;

		calls = 0;
		err = (struct error){ 0 };
		json_set_alloc_funcs(failing_malloc, free);
		rc = knob_journal_read(&got, &n, &err);
		json_set_alloc_funcs(malloc, free);
		if (!rc) {
			assert_entries(got, n, k, ARRAY_SIZE(k));
			store_journal_release(got, n);
			continue;
		}
		assert_int_equal(err.code, EXIT_ENV);
		assert_non_null(strstr(err.msg, "out of memory"));
		assert_null(got);
		assert_int_equal(n, 0);
	}
	/* a read makes many: each was failed once */
	assert_true(fail_at > 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_any_bytes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_old_journal, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_hex, setup, teardown),
		cmocka_unit_test_setup_teardown(test_written_without_jansson, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_without_memory, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
