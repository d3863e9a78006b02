/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the unit tests: counting a process's fds and tasks,
 * checking that a run left nothing behind (fd, thread, child), finding a
 * workload by name, and parsing a NULL-terminated list of "key=value"
 * assignments through workload_parse_params.
 */
#ifndef SCHEDPERF_TEST_HELPERS_H
#define SCHEDPERF_TEST_HELPERS_H

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "workload/workload.h"

#define MAX_PARAMS WORKLOAD_MAX_PARAMS	/* values and assignments of one workload */

/* Entries of directory @path, not counting "." and "..". */
static inline int count_dir(const char *path)
{
	DIR *dir = opendir(path);
	struct dirent *entry;
	int n = 0;

	assert_non_null(dir);
	while ((entry = readdir(dir)))
		if (entry->d_name[0] != '.')
			n++;
	closedir(dir);
	return n;
}

static inline int open_fds(void)
{
	return count_dir("/proc/self/fd");
}

/*
 * Threads of this process other than the caller, waiting up to two seconds
 * for joined threads to go: pthread_join() returns when the kernel clears
 * the thread's tid at exit_mm(), which is before the task is released and
 * leaves /proc/self/task, and on a loaded machine the exiting thread can
 * be preempted in between. A thread that was never joined stays, and is
 * still counted.
 */
static inline int other_threads(void)
{
	struct timespec pause = { 0, 1000000 };
	int n;

	for (int i = 0; (n = count_dir("/proc/self/task") - 1) > 0 && i < 2000; i++)
		nanosleep(&pause, NULL);
	return n;
}

/* No child process (not even a zombie) and no thread but this one. */
static inline void assert_no_children(void)
{
	errno = 0;
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
	assert_int_equal(other_threads(), 0);
}

/* The fds are back to @fds_before, and no child or extra thread is left. */
static inline void assert_nothing_left(int fds_before)
{
	assert_int_equal(open_fds(), fds_before);
	assert_no_children();
}

/*
 * Point SCHEDPERF_LIBEXEC at the build tree, where the exec helper is
 * (@dir: $(BUILD), found from this test's own path, $(BUILD)/tests/NAME),
 * for a group setup; 0, or -1 when the path cannot be read.
 */
static inline int use_build_libexec(char *dir, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", dir, len - 1);
	char *slash;

	if (n <= 0)
		return -1;
	dir[n] = '\0';
	for (int i = 0; i < 2; i++) {
		slash = strrchr(dir, '/');
		if (!slash)
			return -1;
		*slash = '\0';
	}
	return setenv("SCHEDPERF_LIBEXEC", dir, 1);
}

static inline const struct workload *find(const char *name)
{
	const struct workload *w = workload_find(name);

	assert_non_null(w);
	return w;
}

/* Gather the NULL-terminated char * arguments of @ap, at most MAX_PARAMS. */
static inline size_t collect(char **assignments, va_list ap)
{
	size_t n = 0;

	for (char *a; (a = va_arg(ap, char *)) && n < MAX_PARAMS; )
		assignments[n++] = a;
	return n;
}

/* Parse a NULL-terminated list of "key=value" for @name; returns what parse returns. */
static inline int parse(const char *name, struct param_value *values,
			struct workload_needs *needs, struct error *err, ...)
{
	char *assignments[MAX_PARAMS];
	size_t n;
	va_list ap;

	va_start(ap, err);
	n = collect(assignments, ap);
	va_end(ap);
	memset(err, 0, sizeof(*err));
	return workload_parse_params(find(name), assignments, n, values, needs, err);
}

/*
 * Run workload @name once with the NULL-terminated "key=value" assignments
 * of @ap, which must parse: its values (*@nr of them when @nr is not NULL)
 * are NAN first. Returns what run() returns, with @err filled, after
 * checking that nothing (fd, child, thread) is left behind either way.
 */
static inline int run_workload(const char *name, double *metrics, size_t *nr,
			       struct error *err, va_list ap)
{
	const struct workload *w = find(name);
	struct param_value values[MAX_PARAMS];
	char *assignments[MAX_PARAMS];
	int fds_before = open_fds(), ret;
	size_t n = collect(assignments, ap), nr_values;

	memset(err, 0, sizeof(*err));
	assert_int_equal(workload_parse_params(w, assignments, n, values, NULL, err), 0);
	nr_values = workload_nr_values(w, values);
	for (size_t i = 0; i < nr_values; i++)
		metrics[i] = NAN;
	if (nr)
		*nr = nr_values;
	ret = w->run(values, metrics, err);
	workload_release_params(w, values);
	assert_nothing_left(fds_before);
	return ret;
}

/* A parse that must fail with EXIT_USAGE and name @param in its message. */
#define assert_usage_error(param, name, ...) do {				\
	struct param_value v_[MAX_PARAMS];					\
	struct error e_;							\
										\
	assert_int_equal(parse(name, v_, NULL, &e_, __VA_ARGS__, NULL), -1);	\
	assert_int_equal(e_.code, EXIT_USAGE);					\
	if (!strstr(e_.msg, param))						\
		fail_msg("'%s' not named in: %s", param, e_.msg);		\
} while (0)

#endif /* SCHEDPERF_TEST_HELPERS_H */
