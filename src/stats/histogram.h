/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STATS_HISTOGRAM_H
#define SCHEDPERF_STATS_HISTOGRAM_H

#include <stdint.h>

/*
 * A log-linear histogram of non-negative integers (latencies in
 * nanoseconds): exact below 2^(HISTOGRAM_SUB_BITS + 1), then every
 * power-of-two range is cut into 2^HISTOGRAM_SUB_BITS equal buckets.
 * A percentile is reported as the middle of the bucket that holds the
 * nearest-rank sample, so it is within HISTOGRAM_REL_ERROR (1/256, about
 * 0.4 %) of the exact nearest-rank percentile. Values of 2^48 and more
 * (78 hours in ns) share the last bucket. Pure: no I/O, no locking; merge
 * per-thread histograms after the threads are done.
 */
#define HISTOGRAM_SUB_BITS	7
#define HISTOGRAM_MAX_MSB	47
#define HISTOGRAM_BUCKETS	((HISTOGRAM_MAX_MSB - HISTOGRAM_SUB_BITS + 1 + 1) << HISTOGRAM_SUB_BITS)
#define HISTOGRAM_REL_ERROR	(1.0 / (double)(1 << (HISTOGRAM_SUB_BITS + 1)))

struct histogram {
	uint64_t count;
	uint64_t min;
	uint64_t max;
	uint64_t buckets[HISTOGRAM_BUCKETS];
};

void histogram_init(struct histogram *h);
void histogram_add(struct histogram *h, uint64_t value);
void histogram_merge(struct histogram *dst, const struct histogram *src);

/*
 * The @p-th percentile (0 < p <= 100) by nearest rank, within the bound
 * above and clamped to [min, max]; NAN when the histogram is empty.
 */
double histogram_percentile(const struct histogram *h, double p);

#endif
