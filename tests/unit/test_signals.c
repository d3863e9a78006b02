// SPDX-License-Identifier: GPL-2.0
/*
 * The cleanups held for a terminating signal (util/signals.h): all of them
 * run, the latest first also when a freed place was taken again, and one
 * more than there is room for ends the program as an internal error
 * instead of being forgotten. A lower layer's wait is ended before the
 * handler runs, and a handler that catches them stays while cleanups come
 * and go. Each case runs in a child, whose signal dispositions and
 * registry are its own.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/error.h"
#include "util/signals.h"

static int log_fd = -1;	/* where the child's cleanups write their letter */

#define CLEANUP(c) static void cleanup_##c(void) { (void)!write(log_fd, #c, 1); }
CLEANUP(a) CLEANUP(b) CLEANUP(c) CLEANUP(d) CLEANUP(e)

/* All @fd has until its end, as a string of at most @len bytes. */
static void read_all(int fd, char *buf, size_t len)
{
	size_t done = 0;
	ssize_t n;

	while (done < len - 1 && (n = read(fd, buf + done, len - 1 - done)) > 0)
		done += (size_t)n;
	buf[done] = '\0';
}

/*
 * Run @body in a child whose stdout and stderr go to a pipe, with log_fd
 * another; return its wait status, with what the cleanups wrote in @log
 * and what it printed in @out.
 */
static int in_child(void (*body)(void), char *log, size_t log_len, char *out, size_t out_len)
{
	int lp[2], op[2], status;
	pid_t pid;

	assert_int_equal(pipe(lp), 0);
	assert_int_equal(pipe(op), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		close(lp[0]);
		close(op[0]);
		log_fd = lp[1];
		dup2(op[1], STDOUT_FILENO);
		dup2(op[1], STDERR_FILENO);
		body();
		_exit(0);
	}
	close(lp[1]);
	close(op[1]);
	read_all(lp[0], log, log_len);
	read_all(op[0], out, out_len);
	close(lp[0]);
	close(op[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

static void hold_two_drop_first_hold_third(void)
{
	signals_hold_cleanup(cleanup_a);
	signals_hold_cleanup(cleanup_b);
	signals_hold_cleanup(cleanup_a);	/* held once */
	signals_drop_cleanup(cleanup_a);
	signals_hold_cleanup(cleanup_c);	/* where a was */
	signals_hold_cleanup(cleanup_d);
	signals_drop_cleanup(cleanup_d);
	raise(SIGTERM);
}

/* c was held after b, so it runs first, whatever place it took. */
static void test_latest_first(void **state)
{
	char log[16], out[256];
	int status;

	(void)state;
	status = in_child(hold_two_drop_first_hold_third, log, sizeof(log), out, sizeof(out));
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGTERM);
	assert_string_equal(log, "cb");
	assert_string_equal(out, "");
}

static void hold_too_many(void)
{
	signals_hold_cleanup(cleanup_a);
	signals_hold_cleanup(cleanup_b);
	signals_hold_cleanup(cleanup_c);
	signals_hold_cleanup(cleanup_d);
	signals_hold_cleanup(cleanup_e);
	raise(SIGTERM);
}

/* No room is a mistake of the program: said, exit 4, not a lost cleanup. */
static void test_no_room(void **state)
{
	char log[16], out[256];
	int status;

	(void)state;
	status = in_child(hold_too_many, log, sizeof(log), out, sizeof(out));
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), EXIT_INTERNAL);
	assert_non_null(strstr(out, "schedperf: internal error: "));
	assert_non_null(strchr(out, '\n'));
	assert_ptr_equal(strchr(out, '\n'), out + strlen(out) - 1);
}

static void handler_e(int sig)
{
	(void)sig;
	cleanup_e();
}

/* A lower layer's wait is ended (a), then the handler runs (e); let go, only the handler. */
static void end_wait_then_catch(void)
{
	signals_catch_terminating(handler_e);
	signals_end_wait_with(cleanup_a);
	raise(SIGTERM);
	signals_end_wait_with(NULL);
	raise(SIGINT);
	_exit(signals_caught() == SIGINT ? 0 : 1);
}

static void test_end_wait(void **state)
{
	char log[16], out[256];
	int status;

	(void)state;
	status = in_child(end_wait_then_catch, log, sizeof(log), out, sizeof(out));
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_string_equal(log, "aee");
}

/*
 * A cleanup held and let go while a handler catches the signals (a store
 * made by a command that catches them) leaves the handler in place: the
 * signal is noted (e), the process goes on, and no cleanup (a) runs.
 */
static void catch_then_hold_and_drop(void)
{
	signals_catch_terminating(handler_e);
	signals_hold_cleanup(cleanup_a);
	raise(SIGTERM);
	signals_drop_cleanup(cleanup_a);
	raise(SIGINT);
	_exit(signals_caught() == SIGINT ? 0 : 1);
}

static void test_handler_stays(void **state)
{
	char log[16], out[256];
	int status;

	(void)state;
	status = in_child(catch_then_hold_and_drop, log, sizeof(log), out, sizeof(out));
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_string_equal(log, "ee");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_latest_first),
		cmocka_unit_test(test_no_room),
		cmocka_unit_test(test_end_wait),
		cmocka_unit_test(test_handler_stays),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
