/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_PATH_H
#define SCHEDPERF_UTIL_PATH_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Where a name leads, for the checks that keep an output or a store off a
 * file it must never touch: through symbolic links, whether the file at
 * the end exists or is yet to be made.
 */

/*
 * Where the chain of symbolic links from @path ends, into @end (@size
 * bytes), whether a file is there or not (a link to a store's -wal that is
 * yet to be made): 0, or -1 when it cannot be followed (a loop, too long).
 */
int path_link_end(const char *path, char *end, size_t size);

/*
 * Whether @a and @b name one file: the same inode where both exist (any
 * hard or symbolic link), else the same directory entry once their links
 * are followed and their directories resolved (a file yet to be made).
 */
bool path_same_file(const char *a, const char *b);

#endif
