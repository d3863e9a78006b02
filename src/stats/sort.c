// SPDX-License-Identifier: GPL-2.0
/*
 * Least-significant-digit radix sort of doubles on their bit patterns,
 * flipped so that unsigned order is numeric order: negative numbers have
 * every bit inverted, others only the sign bit. A byte whose value is the
 * same in every key (the exponent of samples of one magnitude, usually)
 * costs no pass. Short arrays go to insertion sort.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats/sort.h"
#include "util/xalloc.h"

#define INSERTION_MAX	64
#define DIGITS		8	/* bytes of a key */

static uint64_t key_of(double d)
{
	uint64_t bits;

	if (isnan(d))
		return UINT64_MAX;
	memcpy(&bits, &d, sizeof(bits));
	return bits >> 63 ? ~bits : bits | UINT64_C(1) << 63;
}

static double double_of(uint64_t key)
{
	uint64_t bits = key >> 63 ? key & ~(UINT64_C(1) << 63) : ~key;
	double d;

	if (key == UINT64_MAX)
		return NAN;
	memcpy(&d, &bits, sizeof(d));
	return d;
}

static void insertion_sort(uint64_t *key, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		uint64_t k = key[i];
		size_t j = i;

		for (; j > 0 && key[j - 1] > k; j--)
			key[j] = key[j - 1];
		key[j] = k;
	}
}

static void radix_sort(uint64_t *key, uint64_t *spare, size_t n)
{
	size_t (*count)[256] = xcalloc(DIGITS, sizeof(*count));
	uint64_t *from = key, *to = spare, *swap;

	for (size_t i = 0; i < n; i++)
		for (int d = 0; d < DIGITS; d++)
			count[d][(key[i] >> (8 * d)) & 0xff]++;
	for (int d = 0; d < DIGITS; d++) {
		size_t at = 0;

		if (count[d][(key[0] >> (8 * d)) & 0xff] == n)
			continue;	/* every key has this byte */
		for (int b = 0; b < 256; b++) {
			size_t c = count[d][b];

			count[d][b] = at;
			at += c;
		}
		for (size_t i = 0; i < n; i++)
			to[count[d][(from[i] >> (8 * d)) & 0xff]++] = from[i];
		swap = from;
		from = to;
		to = swap;
	}
	if (from != key)
		memcpy(key, from, n * sizeof(*key));
	free(count);
}

void sort_doubles(double *x, size_t n)
{
	uint64_t *key;

	if (n < 2)
		return;
	key = xreallocarray(NULL, n <= INSERTION_MAX ? n : 2 * n, sizeof(*key));
	for (size_t i = 0; i < n; i++)
		key[i] = key_of(x[i]);
	if (n <= INSERTION_MAX)
		insertion_sort(key, n);
	else
		radix_sort(key, key + n, n);
	for (size_t i = 0; i < n; i++)
		x[i] = double_of(key[i]);
	free(key);
}

double *sorted_doubles(const double *x, size_t n)
{
	double *sorted = xreallocarray(NULL, n ? n : 1, sizeof(*sorted));

	if (n)
		memcpy(sorted, x, n * sizeof(*sorted));
	sort_doubles(sorted, n);
	return sorted;
}
