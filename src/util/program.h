/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_PROGRAM_H
#define SCHEDPERF_UTIL_PROGRAM_H

#include <stdbool.h>

/*
 * Whether execvp() and posix_spawnp() would find @name and run it, with
 * @path as the PATH they search (NULL: no PATH at all, where glibc
 * searches "/bin:/usr/bin"). A name with a slash is that file; any other
 * is looked for in each directory of @path in turn, an empty one (a
 * leading, doubled or trailing colon, or @path "") being the current
 * directory. A program is a regular file this process may execute: the
 * x bit of a directory is its search.
 */
bool program_found(const char *name, const char *path);

#endif
