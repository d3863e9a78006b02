// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <unistd.h>

#include "util/io.h"
#include "util/xalloc.h"

int pread_text(int fd, char **text, size_t *cap, size_t *len)
{
	size_t got = 0;

	for (;;) {
		ssize_t n;

		if (got + 1 >= *cap) {
			*cap = *cap ? *cap * 2 : 16384;
			*text = xrealloc(*text, *cap);
		}
		n = pread(fd, *text + got, *cap - 1 - got, (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	(*text)[got] = '\0';
	if (len)
		*len = got;
	return 0;
}
