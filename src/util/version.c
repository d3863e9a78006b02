// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel release order (version.h), for history --order version.
 */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "util/version.h"

static bool digit(char c)
{
	return isdigit((unsigned char)c);
}

/*
 * Compare the digit runs at *a and *b as numbers of any length (leading
 * zeros skipped, then the longer run is larger), moving both past them.
 */
static int number_compare(const char **a, const char **b)
{
	size_t la, lb;
	int c;

	while (**a == '0' && digit((*a)[1]))
		(*a)++;
	while (**b == '0' && digit((*b)[1]))
		(*b)++;
	for (la = 0; digit((*a)[la]); la++)
		;
	for (lb = 0; digit((*b)[lb]); lb++)
		;
	c = la != lb ? (la < lb ? -1 : 1) : strncmp(*a, *b, la);
	*a += la;
	*b += lb;
	return c;
}

/* Digit runs as numbers, everything else byte by byte. */
static int natural_compare(const char *a, const char *b)
{
	while (*a && *b) {
		int c;

		if (digit(*a) && digit(*b)) {
			if ((c = number_compare(&a, &b)))
				return c;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

/* The leading dotted numbers; *a and *b end after them. */
static int release_compare(const char **a, const char **b)
{
	for (;;) {
		int c = number_compare(a, b);
		bool more_a = **a == '.' && digit((*a)[1]);
		bool more_b = **b == '.' && digit((*b)[1]);

		if (c)
			return c;
		if (more_a != more_b)
			return more_a ? 1 : -1;	/* 5.10 < 5.10.1 */
		if (!more_a)
			return 0;
		(*a)++;
		(*b)++;
	}
}

/* What follows the numbers: -rcN (0) < nothing (1) < anything else (2). */
static int suffix_rank(const char *s)
{
	if (!*s)
		return 1;
	return !strncmp(s, "-rc", 3) && digit(s[3]) ? 0 : 2;
}

static const char *release_start(const char *s)
{
	if (*s == 'v' && digit(s[1]))
		return s + 1;
	return digit(*s) ? s : NULL;
}

int version_compare(const char *a, const char *b)
{
	const char *ra = release_start(a), *rb = release_start(b);
	int c;

	if (!ra || !rb) {
		if (ra || rb)
			return ra ? -1 : 1;
		return (c = natural_compare(a, b)) ? c : strcmp(a, b);
	}
	if ((c = release_compare(&ra, &rb)))
		return c;
	if ((c = suffix_rank(ra) - suffix_rank(rb)))
		return c;
	if ((c = natural_compare(ra, rb)))
		return c;
	return strcmp(a, b);
}
