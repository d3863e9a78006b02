// SPDX-License-Identifier: GPL-2.0
/*
 * Finding a program as execvp() does (program.h), so that a command that
 * checks one before it runs it (the command workload, report's gnuplot)
 * says yes exactly when the exec will find it.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/program.h"

/* glibc's confstr(_CS_PATH): what execvp() searches when there is no PATH */
#define NO_PATH_SEARCH "/bin:/usr/bin"

static bool runnable(const char *file)
{
	struct stat sb;

	return access(file, X_OK) == 0 && stat(file, &sb) == 0 && S_ISREG(sb.st_mode);
}

bool program_found(const char *name, const char *path)
{
	char full[PATH_MAX];
	const char *dir;

	if (strchr(name, '/'))
		return runnable(name);
	if (!path)
		path = NO_PATH_SEARCH;
	/* each component, the last too when the path ends in a colon */
	for (dir = path;; dir += strcspn(dir, ":") + 1) {
		size_t len = strcspn(dir, ":");

		if (snprintf(full, sizeof(full), "%.*s%s%s", (int)len, dir, len ? "/" : "",
			     name) < (int)sizeof(full) && runnable(full))
			return true;
		if (!dir[len])
			return false;
	}
}
