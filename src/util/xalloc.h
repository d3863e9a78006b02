/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_XALLOC_H
#define SCHEDPERF_UTIL_XALLOC_H

#include <stddef.h>

/*
 * Allocation that cannot fail: on a machine out of memory a benchmark tool
 * has nothing sensible left to do, so these print one line and exit 3.
 */
void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
/* Grow an array of @nmemb elements of @size bytes, checking for overflow. */
void *xreallocarray(void *ptr, size_t nmemb, size_t size);
char *xstrdup(const char *s);
/* The first @len characters of @s (which has at least that many), NUL-terminated. */
char *xstrndup(const char *s, size_t len);
/* A printf into new memory. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Zeroed memory that a child of fork() does not get (MADV_DONTFORK), for
 * what the runner keeps and a workload never reads: the profile's symbol
 * tables, megabytes that every task a workload forks would map too, and pay
 * to unmap again when it exits. Released with unshared_free().
 */
void *unshared_alloc(size_t size);
void unshared_free(void *ptr);

#endif
