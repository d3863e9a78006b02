/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_SCRATCH_DIR_H
#define SCHEDPERF_UTIL_SCRATCH_DIR_H

#include <sys/types.h>

#include "util/error.h"

/*
 * A scratch directory: an empty directory of its own under $TMPDIR (else
 * /tmp), schedperf-NAME-XXXXXX, for files that must not outlive what
 * made them. Removing it takes whatever is in it, with async-signal-safe
 * calls only (no allocation), so that a process forked from a threaded
 * one (util/guardian.h's) may remove it too.
 */

/* Where scratch directories are made: $TMPDIR when set, else /tmp. */
const char *scratch_dir_root(void);

/*
 * Make a scratch directory for @name (mode 0700) and return its absolute
 * path, allocated; NULL with @err (EXIT_ENV) when it cannot be made.
 */
char *scratch_dir_make(const char *name, struct error *err);

/*
 * Which directory a path named when it was made: a remover that knows it
 * by path only checks that the path still names it.
 */
struct scratch_dir_id {
	dev_t dev;
	ino_t ino;
};

/* The identity of @dir (not followed when a symbolic link); -1 (errno) when none. */
int scratch_dir_id(const char *dir, struct scratch_dir_id *id);

/*
 * Remove what directory @dir holds, subdirectories included, but not
 * @dir itself, nor anything on another mount than @dir's (a file system
 * or a bind mount mounted inside it: like rm --one-file-system, that is
 * left, and the call fails, EXDEV or EBUSY). Returns 0 when it is empty,
 * -1 (errno) otherwise.
 */
int scratch_dir_empty(const char *dir);

/*
 * Remove @dir and everything in it. A file that a task being killed
 * creates meanwhile is removed by trying again, a bounded number of
 * times. Nothing on another mount is removed (scratch_dir_empty()).
 * Returns 0 when it is gone (or was), -1 (errno) otherwise.
 */
int scratch_dir_remove(const char *dir);

/*
 * The same, when @dir is still the directory @id (NULL: whatever it is):
 * a directory now at its path that is another is left, -1, ESTALE.
 */
int scratch_dir_remove_id(const char *dir, const struct scratch_dir_id *id);

#endif
