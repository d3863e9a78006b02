// SPDX-License-Identifier: GPL-2.0
/*
 * Scratch directories (scratch_dir.h). Their removal reads a directory
 * with getdents64() rather than readdir(), which allocates: a guardian,
 * forked from a runner that may have threads, removes one too.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/scratch_dir.h"
#include "util/xalloc.h"

/* Levels of subdirectories removed: a workload makes none, a program it runs may. */
#define MAX_DEPTH 16
/* Whole directory readings that each removed something, at most, in one directory. */
#define MAX_PASSES 1000
/* Tries at a directory that a task being killed still added a file to, 1 ms apart. */
#define REMOVE_TRIES 1000

const char *scratch_dir_root(void)
{
	const char *tmp = getenv("TMPDIR");

	return tmp && *tmp ? tmp : "/tmp";
}

char *scratch_dir_make(const char *name, struct error *err)
{
	char *made = xasprintf("%s/schedperf-%s-XXXXXX", scratch_dir_root(), name);
	char *dir;

	if (!mkdtemp(made)) {
		error_set(err, EXIT_ENV, "cannot make a scratch directory for %s in %s: %s "
			  "(set TMPDIR to a writable directory)", name, scratch_dir_root(),
			  strerror(errno));
		free(made);
		return NULL;
	}
	/* Absolute: the workload may change directory, and the guardian keeps ours. */
	dir = realpath(made, NULL);
	if (!dir) {
		error_set(err, EXIT_ENV, "cannot find the scratch directory %s again: %s "
			  "(set TMPDIR to a writable directory)", made, strerror(errno));
		rmdir(made);
	}
	free(made);
	return dir;
}

static int empty_at(int fd, int depth);

/* Remove @name of directory @fd, a directory with what it holds. */
static int remove_entry(int fd, const char *name, int depth)
{
	int sub, rc;

	/* gone meanwhile: what the caller wants */
	if (!unlinkat(fd, name, 0) || errno == ENOENT)
		return 0;
	/* Linux says EISDIR for a directory, POSIX EPERM */
	if ((errno != EISDIR && errno != EPERM) || depth >= MAX_DEPTH)
		return -1;
	sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (sub < 0)
		return -1;
	rc = empty_at(sub, depth + 1);
	close(sub);
	return rc ? -1 : unlinkat(fd, name, AT_REMOVEDIR);
}

/*
 * Remove what one reading of directory @fd finds. Sets *@found when it
 * found anything and *@removed when it removed anything.
 */
static int one_pass(int fd, int depth, bool *found, bool *removed)
{
	char buf[4096] __attribute__((aligned(8)));
	int rc = 0, saved = 0;
	ssize_t n;

	*found = *removed = false;
	if (lseek(fd, 0, SEEK_SET) < 0)
		return -1;
	while ((n = getdents64(fd, buf, sizeof(buf))) > 0)
		for (ssize_t at = 0; at < n;) {
			struct dirent64 *e = (struct dirent64 *)(buf + at);

			at += e->d_reclen;
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			*found = true;
			if (!remove_entry(fd, e->d_name, depth)) {
				*removed = true;
			} else if (!rc) {
				rc = -1;
				saved = errno;
			}
		}
	if (n < 0)
		return -1;
	errno = saved;
	return rc;
}

/*
 * Empty directory @fd. A reading that removes entries as it goes may miss
 * some, and a task may add one meanwhile: read it again while that finds
 * anything and removes something.
 */
static int empty_at(int fd, int depth)
{
	bool found, removed;

	for (int pass = 0; pass < MAX_PASSES; pass++) {
		int rc = one_pass(fd, depth, &found, &removed);

		if (!found)
			return rc;
		if (!removed)
			return -1;
	}
	errno = ENOTEMPTY;
	return -1;
}

int scratch_dir_empty(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int rc, saved;

	if (fd < 0)
		return -1;
	rc = empty_at(fd, 0);
	saved = errno;
	close(fd);
	errno = saved;
	return rc;
}

int scratch_dir_remove(const char *dir)
{
	const struct timespec ms = { 0, 1000000 };

	for (int tries = 1;; tries++) {
		if (scratch_dir_empty(dir))
			return errno == ENOENT ? 0 : -1;
		if (!rmdir(dir) || errno == ENOENT)
			return 0;
		if ((errno != ENOTEMPTY && errno != EEXIST) || tries >= REMOVE_TRIES)
			return -1;
		nanosleep(&ms, NULL);
	}
}
