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
#include <sys/stat.h>
#include <sys/sysmacros.h>
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

/*
 * The mount a directory is on: a removal never leaves it. st_dev tells
 * another file system; a bind mount of a directory of the same one has
 * the same st_dev, and only its mount id (statx, Linux 5.8) tells it.
 */
struct mount_of {
	dev_t dev;
	__u64 mnt_id;		/* 0: unknown */
};

static int mount_of(int fd, struct mount_of *m)
{
	struct statx stx;

	if (statx(fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx))
		return -1;
	m->dev = makedev(stx.stx_dev_major, stx.stx_dev_minor);
	m->mnt_id = stx.stx_mask & STATX_MNT_ID ? stx.stx_mnt_id : 0;
	return 0;
}

/* Whether directory @fd is on mount @top; errno EXDEV when it is not. */
static bool same_mount(int fd, const struct mount_of *top)
{
	struct mount_of m;

	if (mount_of(fd, &m))
		return false;
	if (m.dev == top->dev && (!m.mnt_id || !top->mnt_id || m.mnt_id == top->mnt_id))
		return true;
	errno = EXDEV;
	return false;
}

static int empty_at(int fd, int depth, const struct mount_of *top);

/*
 * Remove @name of directory @fd, a directory with what it holds, but
 * never what another file system mounted there holds (a mount point
 * itself cannot be removed either: EBUSY).
 */
static int remove_entry(int fd, const char *name, int depth, const struct mount_of *top)
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
	if (!same_mount(sub, top)) {
		rc = errno;
		close(sub);
		errno = rc;
		return -1;
	}
	rc = empty_at(sub, depth + 1, top);
	close(sub);
	return rc ? -1 : unlinkat(fd, name, AT_REMOVEDIR);
}

/*
 * Remove what one reading of directory @fd finds. Sets *@found when it
 * found anything and *@removed when it removed anything.
 */
static int one_pass(int fd, int depth, const struct mount_of *top, bool *found,
		    bool *removed)
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
			if (!remove_entry(fd, e->d_name, depth, top)) {
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
static int empty_at(int fd, int depth, const struct mount_of *top)
{
	bool found, removed;

	for (int pass = 0; pass < MAX_PASSES; pass++) {
		int rc = one_pass(fd, depth, top, &found, &removed);

		if (!found)
			return rc;
		if (!removed)
			return -1;
	}
	errno = ENOTEMPTY;
	return -1;
}

int scratch_dir_id(const char *dir, struct scratch_dir_id *id)
{
	struct stat st;

	if (lstat(dir, &st))
		return -1;
	id->dev = st.st_dev;
	id->ino = st.st_ino;
	return 0;
}

/* Empty @dir, when it is @id (NULL: whatever it is). */
static int empty_checked(const char *dir, const struct scratch_dir_id *id)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct mount_of top;
	struct stat st;
	int rc = -1, saved;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || mount_of(fd, &top))
		goto out;
	if (id && (st.st_dev != id->dev || st.st_ino != id->ino)) {
		/* another directory at its path: not ours to empty */
		errno = ESTALE;
		goto out;
	}
	rc = empty_at(fd, 0, &top);
out:
	saved = errno;
	close(fd);
	errno = saved;
	return rc;
}

int scratch_dir_empty(const char *dir)
{
	return empty_checked(dir, NULL);
}

int scratch_dir_remove(const char *dir)
{
	return scratch_dir_remove_id(dir, NULL);
}

int scratch_dir_remove_id(const char *dir, const struct scratch_dir_id *id)
{
	const struct timespec ms = { 0, 1000000 };

	for (int tries = 1;; tries++) {
		if (empty_checked(dir, id))
			return errno == ENOENT ? 0 : -1;
		if (!rmdir(dir) || errno == ENOENT)
			return 0;
		if ((errno != ENOTEMPTY && errno != EEXIST) || tries >= REMOVE_TRIES)
			return -1;
		nanosleep(&ms, NULL);
	}
}
