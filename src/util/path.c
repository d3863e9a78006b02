// SPDX-License-Identifier: GPL-2.0
/* Where a name leads (path.h). */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/path.h"

int path_link_end(const char *path, char *end, size_t size)
{
	char target[PATH_MAX], dir[PATH_MAX];
	struct stat sb;
	ssize_t len;

	if ((size_t)snprintf(end, size, "%s", path) >= size)
		return -1;
	for (int hops = 0; hops < 40; hops++) {
		if (lstat(end, &sb) || !S_ISLNK(sb.st_mode))
			return 0;
		len = readlink(end, target, sizeof(target) - 1);
		if (len < 0)
			return -1;
		target[len] = '\0';
		snprintf(dir, sizeof(dir), "%s", end);
		if (target[0] == '/')
			snprintf(end, size, "%s", target);
		else if ((size_t)snprintf(end, size, "%s/%s", dirname(dir), target) >= size)
			return -1;
	}
	return -1;
}

/* @path's link end as its resolved directory and its own name; -1 when none. */
static int entry_of(const char *path, char *out, size_t size)
{
	char end[PATH_MAX], dir[PATH_MAX], base[PATH_MAX], real[PATH_MAX];

	if (path_link_end(path, end, sizeof(end)))
		return -1;
	snprintf(dir, sizeof(dir), "%s", end);
	snprintf(base, sizeof(base), "%s", end);
	if (!realpath(dirname(dir), real))
		return -1;
	return (size_t)snprintf(out, size, "%s/%s", real, basename(base)) >= size ? -1 : 0;
}

bool path_same_file(const char *a, const char *b)
{
	char ea[2 * PATH_MAX], eb[2 * PATH_MAX];
	struct stat sa, sb;

	if (!stat(a, &sa) && !stat(b, &sb))
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	return !entry_of(a, ea, sizeof(ea)) && !entry_of(b, eb, sizeof(eb)) && !strcmp(ea, eb);
}
