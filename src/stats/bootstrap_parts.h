/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STATS_BOOTSTRAP_PARTS_H
#define SCHEDPERF_STATS_BOOTSTRAP_PARTS_H

/*
 * What the bootstrap's files share (bootstrap.c the plan and the one-row
 * paths, bootstrap_lanes.c the rows resampled as vectors,
 * bootstrap_lane_cis.c their intervals, bootstrap_percentiles.c the
 * interval from the resampled ratios): not for use outside them;
 * bootstrap.h is the interface.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef double vector2 __attribute__((vector_size(2 * sizeof(double)),
				      aligned(sizeof(double))));
typedef double vector4 __attribute__((vector_size(4 * sizeof(double)),
				      aligned(sizeof(double))));
typedef long long mask4 __attribute__((vector_size(4 * sizeof(long long))));

/* Whether the vector kernels may use AVX2 (bootstrap_refuse_avx2()). */
bool bootstrap_have_avx2(void);

struct bootstrap_plan {
	size_t n_base, n_new, resamples;
	uint64_t seed;
	/*
	 * resamples rows of n_base base then n_new new indices, in the order
	 * the generator yields them, in bytes or in words; both NULL when
	 * too large to keep.
	 */
	uint8_t *byte_indices;
	uint32_t *indices;
};

/*
 * A resample's sum of samples near the largest double overflows although
 * its mean is finite: such a side is resampled from a copy scaled by a
 * power of two, exactly, and its means scaled back.
 */
struct side {
	const double *x;
	double *scaled;		/* the copy, or NULL */
	int exp;		/* what its means are multiplied back by, in 2^exp */
};

struct side side_of(const double *x, size_t n);

/* The interval from @ratios (reordered, then freed); -1 when a ratio is NaN. */
int ratio_interval(double *ratios, size_t resamples, double level, double *low,
		   double *high);

/*
 * The tails alone: a bootstrap's interval needs the 250th values from each
 * end of 10,000, so a strided sample of them sets two cuts that should
 * hold a few more than that, one pass keeps the values beyond each, and
 * the selection runs on those few hundred (bootstrap_percentiles.c).
 */
#define TAIL_STRIDE	16
#define TAIL_MIN_N	2048
#define TAIL_MARGIN	16	/* sample ranks beyond the expected one: 3 sd */
#define TAIL_BLOCK	64	/* values a pass writes before it checks the room */

/* The two tails of @n values that hold the ranks an interval reads. */
struct tails {
	size_t n, lo1, lo2;
	double p_low, p_high;
	size_t want_low, want_high;	/* rank lo1 and the next; rank lo2 up */
	size_t room;			/* most values kept in each */
	double cut_low, cut_high;	/* values <= cut_low and >= cut_high */
	double *lows, *highs;		/* room + TAIL_BLOCK each */
	size_t nr_low, nr_high;
	bool overflow;
};

void tails_init(struct tails *t, size_t n, double level);
/*
 * The cuts from @m values drawn at random from the @n (reordered). -1
 * when they do not leave a middle (ties, or too few values).
 */
int tails_cut(struct tails *t, double *sample, size_t m);
/*
 * The interval from the tails kept, to the bit that of the full
 * selection; -1 when the cuts misled or a tail overflowed.
 */
int tails_interval(struct tails *t, double *low, double *high);
/*
 * The order statistics it reads, the same way: ranks lo1 and lo1 + 1 into
 * q[0] and q[1], lo2 and lo2 + 1 (lo2 again when it is the last) into
 * q[2] and q[3].
 */
int tails_order_stats(struct tails *t, double *q);
/*
 * R's quantile(type = 7) at @prob of @n values from the order statistics
 * of rank @lo = floor((n - 1) prob), @at, and of the next, @next.
 */
double quantile_between(size_t n, size_t lo, double prob, double at, double next);

/*
 * The mean of @x over the @n indices that resample @i of a plan that keeps
 * its indices draws from @offset on (0 for the base, n_base for the new).
 */
double kept_mean(const struct bootstrap_plan *plan, const double *x, size_t i,
		 size_t offset, size_t n);

#endif
