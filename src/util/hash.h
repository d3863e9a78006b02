/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_HASH_H
#define SCHEDPERF_UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>

/*
 * FNV-1a, 64 bits: a quick hash to tell contents apart, not to keep
 * anyone from making two alike. Start from FNV1A_INIT; chain calls to
 * hash several parts.
 */
#define FNV1A_INIT 0xcbf29ce484222325ULL

static inline uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

#endif
