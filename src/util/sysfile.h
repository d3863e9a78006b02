/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_SYSFILE_H
#define SCHEDPERF_UTIL_SYSFILE_H

#include "util/strbuf.h"

/*
 * The kernel's small text files (/proc/sys, /sys, a cgroup's files): read
 * one whole, or write one value with a single write(), since such a file
 * takes a value per write and a short write means it was refused (EINVAL,
 * as for a value refused whole). Both return 0, or -1 with errno as the
 * kernel set it.
 */
int sysfile_read(const char *path, struct strbuf *sb);
int sysfile_write(const char *path, const char *value);

#endif
