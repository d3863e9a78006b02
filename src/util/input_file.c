// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/input_file.h"

static const char *kind_of(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory, not a regular file";
	if (S_ISFIFO(mode))
		return "a FIFO, not a regular file";
	if (S_ISSOCK(mode))
		return "a socket, not a regular file";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "a device, not a regular file";
	return "not a regular file";
}

FILE *input_file_open(const char *path, const char **why)
{
	/* non-blocking, so that a FIFO without a writer opens at once */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat sb;
	FILE *f;

	if (fd < 0) {
		*why = strerror(errno);
		return NULL;
	}
	if (fstat(fd, &sb)) {
		*why = strerror(errno);
		close(fd);
		return NULL;
	}
	if (!S_ISREG(sb.st_mode)) {
		*why = kind_of(sb.st_mode);
		close(fd);
		return NULL;
	}
	if (fcntl(fd, F_SETFL, 0) || !(f = fdopen(fd, "r"))) {
		*why = strerror(errno);
		close(fd);
		return NULL;
	}
	return f;
}
