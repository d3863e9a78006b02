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

/*
 * The whole of a file open as @fd (a /proc file, read again at every
 * iteration), from its start, as text in *@text, NUL-terminated; the
 * buffer, *@cap bytes, grows only when the file outgrew it, so that a
 * monitor's reads before and after an iteration allocate nothing.
 * Its length goes to @len unless NULL. Returns 0, or -1 with errno.
 */
int pread_text(int fd, char **text, size_t *cap, size_t *len);

#endif
