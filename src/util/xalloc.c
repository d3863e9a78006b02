// SPDX-License-Identifier: GPL-2.0
/* Allocation that cannot fail: out of memory, print one line and exit 3. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util/error.h"
#include "util/xalloc.h"

static void out_of_memory(size_t size)
{
	fprintf(stderr, "schedperf: out of memory: could not allocate %zu bytes "
		"(free memory or raise 'ulimit -v'; a run can also lower the workload's "
		"parameters)\n", size);
	exit(EXIT_ENV);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		out_of_memory(size);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		out_of_memory(nmemb * size);
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		out_of_memory(size);
	return p;
}

void *xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		out_of_memory(SIZE_MAX);
	return xrealloc(ptr, nmemb * size);
}

char *xstrdup(const char *s)
{
	size_t len = strlen(s) + 1;

	return memcpy(xmalloc(len), s, len);
}

char *xstrndup(const char *s, size_t len)
{
	char *copy = xmalloc(len + 1);

	memcpy(copy, s, len);
	copy[len] = '\0';
	return copy;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		out_of_memory(strlen(fmt));
	return s;
}

/*
 * A header before the caller's bytes keeps the mapping's length for
 * unshared_free(); 16 bytes keep the caller's memory aligned as malloc's.
 */
#define UNSHARED_HEADER 16

void *unshared_alloc(size_t size)
{
	size_t total;
	char *p;

	if (size > SIZE_MAX - UNSHARED_HEADER)
		out_of_memory(SIZE_MAX);
	total = size + UNSHARED_HEADER;
	p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		out_of_memory(size);
	/* Refused (a kernel without it), the memory is only shared, as malloc's is. */
	madvise(p, total, MADV_DONTFORK);
	memcpy(p, &total, sizeof(total));
	return p + UNSHARED_HEADER;
}

void unshared_free(void *ptr)
{
	char *p = ptr;
	size_t total;

	if (!p)
		return;
	p -= UNSHARED_HEADER;
	memcpy(&total, p, sizeof(total));
	munmap(p, total);
}
