// SPDX-License-Identifier: GPL-2.0
/*
 * Log-linear histogram, the layout fio and schbench use ("mr axboe's
 * magic latency histogram"): bucket index = (power-of-two group, top
 * HISTOGRAM_SUB_BITS bits below the leading one). A bucket of group e
 * (e >= 1) spans 2^e integers whose smallest is at least 2^(SUB_BITS + e),
 * so its middle is off by less than 2^(e-1) / 2^(SUB_BITS + e) =
 * 2^-(SUB_BITS + 1) relative to any value in it.
 */
#include <math.h>

#include "stats/histogram.h"

#define SUB_BUCKETS	(1u << HISTOGRAM_SUB_BITS)

static unsigned int msb_of(uint64_t value)
{
	return 63u - (unsigned int)__builtin_clzll(value);
}

static unsigned int value_to_index(uint64_t value)
{
	unsigned int msb, shift;

	/* Small values are their own bucket: no precision is lost. */
	if (value < 2 * SUB_BUCKETS)
		return (unsigned int)value;
	msb = msb_of(value);
	if (msb > HISTOGRAM_MAX_MSB)
		return HISTOGRAM_BUCKETS - 1;
	shift = msb - HISTOGRAM_SUB_BITS;
	return ((shift + 1) << HISTOGRAM_SUB_BITS) +
	       (unsigned int)((value >> shift) & (SUB_BUCKETS - 1));
}

/* The middle of bucket @index's integer range. */
static double index_to_value(unsigned int index)
{
	unsigned int shift;
	double low, width;

	if (index < 2 * SUB_BUCKETS)
		return index;
	shift = (index >> HISTOGRAM_SUB_BITS) - 1;
	width = ldexp(1.0, (int)shift);
	low = ldexp(1.0, (int)(shift + HISTOGRAM_SUB_BITS)) +
	      (double)(index & (SUB_BUCKETS - 1)) * width;
	return low + (width - 1.0) / 2.0;
}

void histogram_init(struct histogram *h)
{
	for (unsigned int i = 0; i < HISTOGRAM_BUCKETS; i++)
		h->buckets[i] = 0;
	h->count = 0;
	h->min = UINT64_MAX;
	h->max = 0;
}

void histogram_add(struct histogram *h, uint64_t value)
{
	h->buckets[value_to_index(value)]++;
	h->count++;
	if (value < h->min)
		h->min = value;
	if (value > h->max)
		h->max = value;
}

void histogram_merge(struct histogram *dst, const struct histogram *src)
{
	for (unsigned int i = 0; i < HISTOGRAM_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	dst->count += src->count;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

double histogram_percentile(const struct histogram *h, double p)
{
	uint64_t rank, seen = 0;
	double exact_rank, value;

	if (!h->count || !(p > 0) || p > 100)
		return NAN;
	/* Nearest rank: the smallest sample with at least p % at or below it. */
	exact_rank = p / 100.0 * (double)h->count;
	/* p / 100 * n is often a whole number off by one rounding step. */
	rank = (uint64_t)ceil(exact_rank - exact_rank * 1e-12);
	if (rank < 1)
		rank = 1;
	if (rank >= h->count)
		return (double)h->max;	/* the largest sample is known exactly */
	for (unsigned int i = 0; i < HISTOGRAM_BUCKETS; i++) {
		seen += h->buckets[i];
		if (seen < rank)
			continue;
		/* The last bucket also holds everything too big for the others. */
		if (i == HISTOGRAM_BUCKETS - 1)
			return (double)h->max;
		value = index_to_value(i);
		/* The exact answer lies in [min, max]: clamping only helps. */
		if (value < (double)h->min)
			value = (double)h->min;
		if (value > (double)h->max)
			value = (double)h->max;
		return value;
	}
	return (double)h->max;
}
