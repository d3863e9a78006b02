// SPDX-License-Identifier: GPL-2.0
/*
 * Where the exec helper lives. A build runs it from the build directory
 * (next to schedperf), an installed schedperf from libexec/schedperf
 * beside its bin/ (as git's RUNTIME_PREFIX finds its own: so that an
 * install under another PREFIX or DESTDIR than the build's, or a moved
 * one, finds its helper) or else the build's PREFIX/libexec, and tests
 * point SCHEDPERF_LIBEXEC at the build directory because the test
 * binaries live one level below it.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workload/exec_helper.h"

#ifndef SCHEDPERF_LIBEXECDIR
#define SCHEDPERF_LIBEXECDIR "/usr/local/libexec/schedperf"
#endif

static int try_dir(const char *dir, char *path, size_t len)
{
	int n = snprintf(path, len, "%s/%s", dir, EXEC_HELPER_NAME);

	return n > 0 && (size_t)n < len && !access(path, X_OK) ? 0 : -1;
}

/* The directory of the running binary, or "" when /proc is not there. */
static void self_dir(char *dir, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", dir, len - 1);
	char *slash;

	if (n <= 0) {
		dir[0] = '\0';
		return;
	}
	dir[n] = '\0';
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		dir[0] = '\0';
}

/* DIR/../libexec/schedperf into @libexec for a binary in DIR that is a bin/; else "". */
static void libexec_beside(const char *dir, char *libexec, size_t len)
{
	const char *slash = strrchr(dir, '/');
	int n;

	libexec[0] = '\0';
	if (!slash || strcmp(slash, "/bin"))
		return;
	n = snprintf(libexec, len, "%.*s/libexec/schedperf", (int)(slash - dir), dir);
	if (n < 0 || (size_t)n >= len)
		libexec[0] = '\0';
}

int exec_helper_find(char *path, size_t len, struct error *err)
{
	const char *env = getenv("SCHEDPERF_LIBEXEC");
	char dir[PATH_MAX], beside[PATH_MAX];

	/* An explicit directory is the only one looked at: no surprises. */
	if (env && *env) {
		if (!try_dir(env, path, len))
			return 0;
		return error_set(err, EXIT_ENV,
			"cannot find the exec helper: %s/%s is missing or not executable "
			"(run make, or fix SCHEDPERF_LIBEXEC)", env, EXEC_HELPER_NAME);
	}
	self_dir(dir, sizeof(dir));
	libexec_beside(dir, beside, sizeof(beside));
	if (dir[0] && !try_dir(dir, path, len))
		return 0;
	if (beside[0] && !try_dir(beside, path, len))
		return 0;
	if (!try_dir(SCHEDPERF_LIBEXECDIR, path, len))
		return 0;
	return error_set(err, EXIT_ENV,
		"cannot find the exec helper %s: not in %s%s%s nor in %s "
		"(run make, or make install, or set SCHEDPERF_LIBEXEC to its directory)",
		EXEC_HELPER_NAME, dir[0] ? dir : "(unknown binary directory)",
		beside[0] ? ", " : "", beside, SCHEDPERF_LIBEXECDIR);
}

int exec_helper_ready(const struct param_value *values, struct error *err)
{
	char path[PATH_MAX];

	(void)values;
	return exec_helper_find(path, sizeof(path), err);
}
