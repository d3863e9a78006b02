// SPDX-License-Identifier: GPL-2.0
/*
 * Reading and writing the kernel's small text files (see sysfile.h): what
 * the ab knobs (sysctls, scheduler features) and scratch cgroups share.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "util/sysfile.h"

int sysfile_read(const char *path, struct strbuf *sb)
{
	char buf[4096];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		if (n > 0)
			strbuf_add(sb, buf, (size_t)n);
	if (n < 0) {
		int saved = errno;

		close(fd);
		errno = saved;
		return -1;
	}
	close(fd);
	return 0;
}

int sysfile_write(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	size_t len = strlen(value);
	ssize_t n;

	if (fd < 0)
		return -1;
	do
		n = write(fd, value, len);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)len) {
		/* the kernel took the start of the value and refused the rest */
		int saved = n < 0 ? errno : EINVAL;

		close(fd);
		errno = saved;
		return -1;
	}
	return close(fd);
}
