/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_IO_H
#define SCHEDPERF_UTIL_IO_H

#include <errno.h>
#include <stddef.h>
#include <unistd.h>

/*
 * Whole reads and writes on a pipe or socket, retried on EINTR and short
 * transfers. Inline because messaging calls them in its timed loop, where
 * perf's own loop is inline too. Return 0, or -1 on an error or an early
 * end of file.
 */
static inline int read_full(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t n = read(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static inline int write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

#endif
