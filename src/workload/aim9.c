// SPDX-License-Identifier: GPL-2.0
/*
 * aim9: our implementation of the four AIM Suite IX tests that MMTests'
 * pagealloc-performance-aim9 configuration runs and that scheduler
 * regressions show up in (exec_test -67 %, fork_test -33 % in one case).
 *
 * Each test is a function AIM9 calls over and over for a duration; it
 * reports operations per second, where one call counts a fixed number of
 * operations (AIM9's own counts):
 *   page_test  1700  grow the heap with brk by 17 pages, write one byte in
 *                    each page (a page fault and a zeroed page each), shrink
 *                    it back; 100 rounds, one operation per page touched
 *   brk_test  17000  the same brk up and down without touching the pages;
 *                    one operation per brk call
 *   exec_test    5   fork, exec a tiny program (schedperf-exec-helper), wait
 *   fork_test  100   fork, the child _exits at once, wait
 * The split of a call into rounds and the 17-page step follow the seed's
 * description and the per-call counts; we could not read AIM9's source, so
 * absolute ops/s may differ from AIM9's by a constant factor, while changes
 * between kernels (what schedperf compares) move the same way.
 * Like AIM9 we time whole calls: the run ends with the first call that
 * finishes after `duration` seconds.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/array.h"
#include "util/timeutil.h"
#include "workload/aim9.h"
#include "workload/exec_helper.h"
#include "workload/task_end.h"
#include "workload/workload.h"

enum {
	AIM9_PARAM_TEST,
	AIM9_PARAM_DURATION,
	NR_AIM9_PARAMS,
};

#define BRK_STEP_PAGES	17
#define PAGE_ROUNDS	100
#define BRK_PAIRS	8500
#define EXECS_PER_CALL	5
#define FORKS_PER_CALL	100

static const char *const test_choices[] = { "page", "brk", "exec", "fork", NULL };

static const struct param_spec aim9_params[NR_AIM9_PARAMS] = {
	[AIM9_PARAM_TEST] = { "test", PARAM_CHOICE, "fork", 0, 0, test_choices,
		"page: brk + page touching; brk: brk only; exec: fork+exec+wait; "
		"fork: fork+exit+wait" },
	[AIM9_PARAM_DURATION] = { "duration", PARAM_INT, "5", 1, 3600, NULL,
		"seconds to keep calling the test (AIM9's time per test)" },
};

static const struct metric_spec aim9_metrics[] = {
	{ "ops_per_sec", "ops/s", BETTER_HIGHER,
	  "operations per second, as AIM9 counts them" },
};

long aim9_ops_per_call(enum aim9_test test)
{
	switch (test) {
	case AIM9_PAGE:
		return PAGE_ROUNDS * BRK_STEP_PAGES;
	case AIM9_BRK:
		return 2 * BRK_PAIRS;
	case AIM9_EXEC:
		return EXECS_PER_CALL;
	case AIM9_FORK:
		return FORKS_PER_CALL;
	}
	return 0;
}

static int aim9_check(const struct param_value *values,
		      struct workload_needs *needs, struct error *err)
{
	enum aim9_test test = (enum aim9_test)values[AIM9_PARAM_TEST].num;

	/* The parent and one child at a time. */
	needs->tasks = test == AIM9_EXEC || test == AIM9_FORK ? 2 : 1;
	needs->fds = 0;
	return 0;
}

/*
 * Grow the break by one step, optionally write a byte in every new page,
 * and put it back exactly where it was, so that malloc's heap never
 * notices. Returns -1 when the kernel refuses the memory.
 */
static int brk_round(char *start, long page, int touch)
{
	char *end = start + BRK_STEP_PAGES * page;

	if (brk(end))
		return -1;
	if (touch)
		for (char *p = start; p < end; p += page)
			*(volatile char *)p = 1;
	return brk(start);
}

static int call_brk(int touch, long page, struct error *err)
{
	char *start = sbrk(0);
	long rounds = touch ? PAGE_ROUNDS : BRK_PAIRS;

	if (start == (void *)-1)
		return error_set(err, EXIT_ENV, "aim9: cannot read the program break: %s",
				 strerror(errno));
	for (long i = 0; i < rounds; i++) {
		if (brk_round(start, page, touch)) {
			int saved = errno;

			brk(start);
			return error_set(err, EXIT_ENV,
				"aim9: brk cannot grow the heap by %ld pages: %s "
				"(raise the data size limit, ulimit -d)",
				(long)BRK_STEP_PAGES, strerror(saved));
		}
	}
	return 0;
}

static int reap(pid_t pid, struct error *err)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return error_set(err, EXIT_INTERNAL, "aim9: waitpid: %s",
					 strerror(errno));
	/* Killed from outside: this iteration fails, the run goes on. */
	if (WIFSIGNALED(status))
		return task_end_fail(err, "aim9", "child", status, NULL);
	if (!task_end_clean(status))
		return error_set(err, EXIT_INTERNAL,
			"aim9: a child failed (status %#x): the exec helper did not run "
			"or exited with an error", status);
	return 0;
}

static int call_fork(const char *helper, long times, struct error *err)
{
	for (long i = 0; i < times; i++) {
		pid_t pid = fork();
		int ret;

		if (pid < 0)
			return error_set(err, EXIT_ENV,
				"aim9: cannot fork: %s (raise the process limit, ulimit -u, "
				"or kernel.threads-max)", strerror(errno));
		if (pid == 0) {
			if (helper)
				execl(helper, helper, (char *)NULL);
			_exit(helper ? 127 : 0);
		}
		ret = reap(pid, err);
		if (ret)
			return ret;
	}
	return 0;
}

static int call_test(enum aim9_test test, const char *helper, long page,
		     struct error *err)
{
	switch (test) {
	case AIM9_PAGE:
		return call_brk(1, page, err);
	case AIM9_BRK:
		return call_brk(0, page, err);
	case AIM9_EXEC:
		return call_fork(helper, EXECS_PER_CALL, err);
	case AIM9_FORK:
		return call_fork(NULL, FORKS_PER_CALL, err);
	}
	return error_set(err, EXIT_INTERNAL, "aim9: unknown test %d", (int)test);
}

int aim9_measure(enum aim9_test test, double duration, struct aim9_result *result,
		 struct error *err)
{
	char helper[PATH_MAX];
	long page = sysconf(_SC_PAGESIZE), calls = 0;
	double start, call_start, now;

	helper[0] = '\0';
	if (test == AIM9_EXEC && exec_helper_find(helper, sizeof(helper), err))
		return -1;
	start = now = time_now();
	do {
		int ret;

		call_start = now;
		ret = call_test(test, helper, page, err);
		if (ret)
			return ret;
		calls++;
		now = time_now();
	} while (now - start < duration);
	result->operations = calls * aim9_ops_per_call(test);
	result->elapsed = now - start;
	result->last_start = call_start - start;
	return 0;
}

/* Only exec_test executes the helper. */
static int aim9_ready(const struct param_value *values, struct error *err)
{
	if (values[AIM9_PARAM_TEST].num != AIM9_EXEC)
		return 0;
	return exec_helper_ready(values, err);
}

static int aim9_run(const struct param_value *values, double *metrics,
		    struct error *err)
{
	enum aim9_test test = (enum aim9_test)values[AIM9_PARAM_TEST].num;
	struct aim9_result result;
	int ret = aim9_measure(test, (double)values[AIM9_PARAM_DURATION].num, &result, err);

	if (ret)
		return ret;
	metrics[0] = (double)result.operations / result.elapsed;
	return 0;
}

const struct workload workload_aim9 = {
	.name = "aim9",
	.summary = "AIM9 page_test, brk_test, exec_test or fork_test for a duration",
	.params = aim9_params,
	.nr_params = NR_AIM9_PARAMS,
	.metrics = aim9_metrics,
	.nr_metrics = ARRAY_SIZE(aim9_metrics),
	.check = aim9_check,
	.ready = aim9_ready,
	.run = aim9_run,
};
