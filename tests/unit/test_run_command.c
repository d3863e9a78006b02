// SPDX-License-Identifier: GPL-2.0
/*
 * run_command()'s deadline (util/run_command.h): a command that ends in
 * time is untouched by it; one that does not is killed with every process
 * of its group, also when it has closed the pipes we read, and the error
 * says how long it had, and with what left the group (setsid). A death
 * by signal is named; what a command leaves behind when it exits, in its
 * group or out of it, is killed only when end_group asks.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/run_command.h"
#include "util/timeutil.h"

/* Field 3 of /proc/PID/stat, its state; 0 once it is gone. */
static char state_of(long pid)
{
	char path[64], buf[512], *paren;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	paren = strrchr(buf, ')');
	return paren && paren[1] ? paren[2] : 0;
}

/* Wait (for its death, not for a time: the limit only ends a failure) until @pid ran out. */
static bool dies(long pid)
{
	double limit = time_now() + 60;
	char s;

	while ((s = state_of(pid)) && s != 'Z' && time_now() < limit)
		usleep(10000);
	return !s || s == 'Z';
}

static int run_group(const char *script, unsigned int timeout, bool end_group, char *last,
		     size_t len, struct error *err)
{
	char *argv[] = { (char *)"sh", (char *)"-c", (char *)script, NULL };
	struct child_command cmd = { .argv = argv, .log_fd = -1, .timeout = timeout,
				     .end_group = end_group };

	return run_command(&cmd, last, len, err);
}

static int run_sh(const char *script, unsigned int timeout, char *last, size_t len,
		  struct error *err)
{
	return run_group(script, timeout, false, last, len, err);
}

static void test_in_time(void **state)
{
	struct error err = { 0 };
	char last[128];

	(void)state;
	assert_int_equal(run_sh("echo one >&2; echo two >&2; exit 3", 60, last, sizeof(last),
				&err), 3);
	assert_string_equal(last, "two");
	assert_int_equal(err.code, 0);
}

/* A failure's line is the error, not the context a compiler quotes after it. */
static void test_error_line(void **state)
{
	struct error err = { 0 };
	char last[128];

	(void)state;
	assert_int_equal(run_sh("printf 'In function f:\\np.c:3:5: error: unknown type name x\\n"
				"    3 |     x y;\\n      |     ^\\nmake: *** [all] Error 1\\n' >&2; "
				"exit 2", 60, last, sizeof(last), &err), 2);
	assert_string_equal(last, "p.c:3:5: error: unknown type name x");
	assert_int_equal(run_sh("printf 'make: *** No rule to make target x.  Stop.\\n"
				"      |  ^\\n\\n' >&2; exit 2", 60, last, sizeof(last), &err), 2);
	assert_string_equal(last, "make: *** No rule to make target x.  Stop.");
	assert_int_equal(run_sh("printf '  a\\n  |b\\r\\n' >&2; exit 1", 60, last, sizeof(last),
				&err), 1);
	assert_string_equal(last, "  |b");
	assert_int_equal(run_sh("exit 1", 60, last, sizeof(last), &err), 1);
	assert_string_equal(last, "");
}

/* dies(), and killed when it does not: a failed test leaves no sleeper behind. */
static bool dies_or_kill(long pid)
{
	if (dies(pid))
		return true;
	kill((pid_t)pid, SIGKILL);
	return false;
}

/*
 * The command's last line is the pid of a process it left behind, in its
 * group or out of it.
 */
static void check_killed(const char *script)
{
	struct error err = { 0 };
	char last[128];

	assert_int_equal(run_sh(script, 1, last, sizeof(last), &err), -1);
	assert_true(atol(last) > 0);
	assert_true(dies_or_kill(atol(last)));
	assert_int_equal(err.code, EXIT_ENV);
	assert_string_equal(err.msg, "sh did not finish within 1 s: it was killed, with its "
			    "process group");
}

static void test_past_the_deadline(void **state)
{
	(void)state;
	check_killed("sleep 600 & echo $! >&2; sleep 600");
}

/* It closed the pipes we read: it is waited for to its deadline all the same. */
static void test_pipes_closed(void **state)
{
	(void)state;
	check_killed("sleep 600 >/dev/null 2>&1 & echo $! >&2; exec >&- 2>&-; sleep 600");
}

/* It left the group (a session of its own): it is killed all the same. */
static void test_left_the_group(void **state)
{
	(void)state;
	check_killed("setsid sleep 600 >/dev/null 2>&1 & echo $! >&2; sleep 600");
}

/* A death by signal is told from an exit status of 128 + it, and named. */
static void test_signal_named(void **state)
{
	struct error err = { 0 };
	char last[128], how[64];
	int status;

	(void)state;
	status = run_sh("kill -SEGV $$", 0, last, sizeof(last), &err);
	assert_int_equal(status, RUN_COMMAND_SIGNALED(SIGSEGV));
	assert_string_equal(run_command_status(status, how, sizeof(how)), "killed by SIGSEGV");
	status = run_sh("exit 139", 0, last, sizeof(last), &err);
	assert_int_equal(status, 139);
	assert_string_equal(run_command_status(status, how, sizeof(how)), "exit status 139");
}

/*
 * What a command left behind when it exited lives on (a build server), in
 * its group or out of it, unless end_group says the group is ours to end,
 * and with it what left the group.
 */
static void check_left(const char *script)
{
	struct error err = { 0 };
	char last[128];
	char s;

	assert_int_equal(run_group(script, 60, true, last, sizeof(last), &err), 0);
	assert_true(atol(last) > 0);
	assert_true(dies_or_kill(atol(last)));
	assert_int_equal(run_group(script, 60, false, last, sizeof(last), &err), 0);
	assert_true(atol(last) > 0);
	/* alive now; it is ours to end (the group no longer is) */
	s = state_of(atol(last));
	kill((pid_t)atol(last), SIGKILL);
	assert_int_not_equal(s, 0);
	assert_int_not_equal(s, 'Z');
}

static void test_end_group(void **state)
{
	(void)state;
	check_left("sleep 600 >/dev/null 2>&1 & echo $! >&2");
	check_left("setsid sleep 600 >/dev/null 2>&1 & echo $! >&2");
}

/*
 * What the command's tasks leave when they exit is reaped while it runs:
 * its holder adopts the orphans, and those that exit are no zombies left
 * to pile up (a long build's, to the pid limit) until the command ends.
 * The command leaves 50, waits for them to exit and counts, up to a limit
 * that only ends a failure, the zombies whose parent is its own, the
 * holder: its last line.
 */
static void test_orphans_reaped(void **state)
{
	static const char script[] =
		"h=$PPID; for i in $(seq 50); do (true &); done; n=0; "
		"while [ $n -lt 100 ]; do z=0; a=0; "
		"for f in /proc/[0-9]*/stat; do "
		"read -r l <$f 2>/dev/null || continue; set -- ${l##*) }; "
		"[ \"$2\" = $h ] && [ ${f#/proc/} != $$/stat ] || continue; "
		"if [ $1 = Z ]; then z=$((z + 1)); else a=$((a + 1)); fi; done; "
		"[ $z = 0 ] && [ $a = 0 ] && break; n=$((n + 1)); sleep 0.05; done; "
		"echo $z $a >&2";
	struct error err = { 0 };
	char last[128];

	(void)state;
	assert_int_equal(run_sh(script, 0, last, sizeof(last), &err), 0);
	assert_string_equal(last, "0 0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_time),
		cmocka_unit_test(test_error_line),
		cmocka_unit_test(test_past_the_deadline),
		cmocka_unit_test(test_pipes_closed),
		cmocka_unit_test(test_left_the_group),
		cmocka_unit_test(test_signal_named),
		cmocka_unit_test(test_end_group),
		cmocka_unit_test(test_orphans_reaped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
