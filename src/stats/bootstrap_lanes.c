// SPDX-License-Identifier: GPL-2.0
/*
 * The bootstrap of BOOTSTRAP_LANES rows under one plan at once, the way a
 * comparison of many rows of the same sizes runs (bootstrap.h): the plan
 * is read once for the lanes instead of once per row, the values are
 * added as vectors, and the interval's tails of every lane are cut in one
 * pass over their resampled means.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "stats/bootstrap.h"
#include "stats/bootstrap_parts.h"
#include "util/xalloc.h"

/*
 * BOOTSTRAP_LANES samples resampled together, one per lane of a vector:
 * the values are laid out index by index (lane after lane), so that each
 * index of the plan loads one vector and each addition serves every
 * lane. Every lane adds its own values in the order and into the partial
 * sums mean_at() uses, so each of its means is that of the scalar code to
 * the bit. The plan is read once for the lanes instead of once per
 * sample, and the loads are contiguous instead of scattered.
 */
typedef double vector2 __attribute__((vector_size(2 * sizeof(double)),
				      aligned(sizeof(double))));
typedef double vector4 __attribute__((vector_size(4 * sizeof(double)),
				      aligned(sizeof(double))));
typedef long long mask4 __attribute__((vector_size(4 * sizeof(long long))));

/*
 * The lanes two vectors at a time (8 partial sums of vectors: as many
 * registers as there are, and no more), over the plan once per pair:
 * @xt holds BOOTSTRAP_LANES values per index, @means BOOTSTRAP_LANES
 * means per resample.
 */
#define DEFINE_LANE_MEANS(name, index_type, vector, attribute)			\
attribute static void name(const index_type *index, size_t stride, size_t n,	\
			   size_t resamples, const double *xt, double *means)	\
{										\
	const size_t w = sizeof(vector) / sizeof(double);			\
										\
	for (size_t lane = 0; lane < BOOTSTRAP_LANES; lane += 2 * w) {		\
		const index_type *ix = index;					\
		const double *x = xt + lane;					\
										\
		for (size_t r = 0; r < resamples; r++, ix += stride) {		\
			vector a0 = { 0 }, a1 = { 0 }, a2 = { 0 }, a3 = { 0 };	\
			vector b0 = { 0 }, b1 = { 0 }, b2 = { 0 }, b3 = { 0 };	\
			double *out = means + r * BOOTSTRAP_LANES + lane;	\
			size_t i;						\
										\
			for (i = 0; i + 4 <= n; i += 4) {			\
				const double *x0 = x + (size_t)ix[i] * BOOTSTRAP_LANES;	\
				const double *x1 = x + (size_t)ix[i + 1] * BOOTSTRAP_LANES; \
				const double *x2 = x + (size_t)ix[i + 2] * BOOTSTRAP_LANES; \
				const double *x3 = x + (size_t)ix[i + 3] * BOOTSTRAP_LANES; \
										\
				a0 += *(const vector *)x0;			\
				b0 += *(const vector *)(x0 + w);		\
				a1 += *(const vector *)x1;			\
				b1 += *(const vector *)(x1 + w);		\
				a2 += *(const vector *)x2;			\
				b2 += *(const vector *)(x2 + w);		\
				a3 += *(const vector *)x3;			\
				b3 += *(const vector *)(x3 + w);		\
			}							\
			if (i < n) {						\
				a0 += *(const vector *)(x + (size_t)ix[i] * BOOTSTRAP_LANES); \
				b0 += *(const vector *)(x + (size_t)ix[i] * BOOTSTRAP_LANES + w); \
				i++;						\
			}							\
			if (i < n) {						\
				a1 += *(const vector *)(x + (size_t)ix[i] * BOOTSTRAP_LANES); \
				b1 += *(const vector *)(x + (size_t)ix[i] * BOOTSTRAP_LANES + w); \
				i++;						\
			}							\
			if (i < n) {						\
				a2 += *(const vector *)(x + (size_t)ix[i] * BOOTSTRAP_LANES); \
				b2 += *(const vector *)(x + (size_t)ix[i] * BOOTSTRAP_LANES + w); \
			}							\
			*(vector *)out = ((a0 + a1) + (a2 + a3)) / (double)n;	\
			*(vector *)(out + w) = ((b0 + b1) + (b2 + b3)) / (double)n; \
		}								\
	}									\
}
DEFINE_LANE_MEANS(lane_means_words, uint32_t, vector2, )
DEFINE_LANE_MEANS(lane_means_bytes, uint8_t, vector2, )

#if defined(__x86_64__) && defined(__GNUC__)
/* Where the CPU has them, vectors of four: half the additions and loads. */
DEFINE_LANE_MEANS(lane_means_words_avx2, uint32_t, vector4, __attribute__((target("avx2"))))
DEFINE_LANE_MEANS(lane_means_bytes_avx2, uint8_t, vector4, __attribute__((target("avx2"))))

static bool avx2_refused;	/* bootstrap_refuse_avx2() */

static bool have_avx2(void)
{
	return !avx2_refused && __builtin_cpu_supports("avx2");
}
#else
#define lane_means_words_avx2	lane_means_words
#define lane_means_bytes_avx2	lane_means_bytes

static bool avx2_refused;

static bool have_avx2(void)
{
	return false;
}
#endif

void bootstrap_refuse_avx2(bool refuse)
{
	avx2_refused = refuse;
}

int bootstrap_plan_lane_means(const struct bootstrap_plan *plan, bool new_side,
			      const double *const *x, size_t nr, double *means)
{
	size_t n = new_side ? plan->n_new : plan->n_base, offset = new_side ? plan->n_base : 0;
	size_t stride = plan->n_base + plan->n_new;
	int exp[BOOTSTRAP_LANES] = { 0 };
	bool scaled = false, avx2 = have_avx2();
	double *xt;

	if (!bootstrap_plan_keeps_indices(plan) || nr > BOOTSTRAP_LANES)
		return -1;
	xt = xreallocarray(NULL, n, BOOTSTRAP_LANES * sizeof(*xt));
	for (size_t lane = 0; lane < BOOTSTRAP_LANES; lane++) {
		struct side side = lane < nr ? side_of(x[lane], n) : (struct side){ 0 };

		for (size_t j = 0; j < n; j++)
			xt[j * BOOTSTRAP_LANES + lane] = side.x ? side.x[j] : 1;
		exp[lane] = side.exp;
		scaled |= side.exp != 0;
		free(side.scaled);
	}
	if (plan->byte_indices)
		(avx2 ? lane_means_bytes_avx2 : lane_means_bytes)(plan->byte_indices + offset,
								  stride, n, plan->resamples,
								  xt, means);
	else
		(avx2 ? lane_means_words_avx2 : lane_means_words)(plan->indices + offset, stride,
								  n, plan->resamples, xt, means);
	free(xt);
	for (size_t i = 0; scaled && i < plan->resamples; i++)
		for (size_t lane = 0; lane < nr; lane++)
			means[i * BOOTSTRAP_LANES + lane] =
				ldexp(means[i * BOOTSTRAP_LANES + lane], exp[lane]);
	return 0;
}

/*
 * A block of up to TAIL_BLOCK of a lane's ratios, every BOOTSTRAP_LANES-th
 * of @x, those beyond either cut appended to @kept (@nr of them so far,
 * returned): each is written at the end, and the count moves only for
 * one beyond a cut. A tenth of the ratios are, in a random order: a branch
 * on it mispredicted so often that this pass cost more than the
 * resampling. One write a ratio, not one to each tail: a store a cycle is
 * what this loop can do.
 */
static inline __attribute__((always_inline)) size_t
keep_beyond(const struct tails *t, const double *x, size_t len, double *kept, size_t nr)
{
	double cut_low = t->cut_low, cut_high = t->cut_high;

	for (size_t i = 0; i < len; i++) {
		double r = x[i * BOOTSTRAP_LANES];

		kept[nr] = r;
		nr += (r <= cut_low) | (r >= cut_high);
	}
	return nr;
}

/* The ratios kept into the two tails, or the tails overflow. */
static void split_tails(struct tails *t, const double *kept, size_t nr)
{
	for (size_t i = 0; i < nr && !t->overflow; i++) {
		if (kept[i] <= t->cut_low && t->nr_low < t->room)
			t->lows[t->nr_low++] = kept[i];
		else if (kept[i] >= t->cut_high && t->nr_high < t->room)
			t->highs[t->nr_high++] = kept[i];
		else
			t->overflow = true;
	}
}

/*
 * The tails of every lane in one pass over the means, as cut_tails() of
 * bootstrap_percentiles.c keeps them for one: the cuts from the first
 * resamples' ratios (resamples come in a random order, so the first are
 * as good a sample as any), then the ratios of a block of resamples
 * divided as vectors, each lane's beyond its cuts kept by keep_beyond()
 * in @kept (@room ratios a lane, and TAIL_BLOCK more), and split into its
 * tails at the end. @nan[lane] tells whether a lane's ratio was NaN (not
 * equal to itself); a lane without cuts (NaN cuts compare false) keeps
 * nothing.
 */
static inline __attribute__((always_inline)) void
lane_tails(const double *base_means, const double *new_means, struct tails *t, bool *nan,
	   double *kept, size_t room)
{
	const vector4 *base = (const vector4 *)base_means, *new = (const vector4 *)new_means;
	const size_t per = BOOTSTRAP_LANES / 4, n = t[0].n;
	mask4 seen[BOOTSTRAP_LANES / 4] = { 0 };
	vector4 ratios[TAIL_BLOCK][BOOTSTRAP_LANES / 4];
	size_t nr[BOOTSTRAP_LANES] = { 0 };

	for (size_t at = 0; at < n; at += TAIL_BLOCK) {
		size_t len = n - at < TAIL_BLOCK ? n - at : TAIL_BLOCK;

		for (size_t i = 0; i < len; i++) {
			for (size_t v = 0; v < per; v++) {
				vector4 q = new[(at + i) * per + v] / base[(at + i) * per + v];

				seen[v] |= q != q;
				ratios[i][v] = q;
			}
		}
		for (size_t lane = 0; lane < BOOTSTRAP_LANES; lane++) {
			nr[lane] = keep_beyond(&t[lane], (const double *)ratios + lane, len,
					       kept + lane * (room + TAIL_BLOCK), nr[lane]);
			/* the block may have written TAIL_BLOCK past the room, not more */
			if (nr[lane] > room) {
				t[lane].overflow = true;
				nr[lane] = 0;
			}
		}
	}
	for (size_t lane = 0; lane < BOOTSTRAP_LANES; lane++) {
		split_tails(&t[lane], kept + lane * (room + TAIL_BLOCK), nr[lane]);
		nan[lane] = seen[lane / 4][lane % 4] != 0;
	}
}

/* Compiled twice, as the lane means are: with AVX2 where the CPU has it. */
static void lane_tails_sse(const double *base_means, const double *new_means,
			   struct tails *t, bool *nan, double *kept, size_t room)
{
	lane_tails(base_means, new_means, t, nan, kept, room);
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx2")))
static void lane_tails_avx2(const double *base_means, const double *new_means,
			    struct tails *t, bool *nan, double *kept, size_t room)
{
	lane_tails(base_means, new_means, t, nan, kept, room);
}
#else
#define lane_tails_avx2	lane_tails_sse
#endif

/* Lane @lane's ratios, all of them, and their interval (the long way). */
static int lane_interval(const double *base_means, const double *new_means, size_t lane,
			 size_t resamples, double level, double *low, double *high)
{
	double *ratios = xreallocarray(NULL, resamples, sizeof(*ratios));

	for (size_t i = 0; i < resamples; i++)
		ratios[i] = new_means[i * BOOTSTRAP_LANES + lane] /
			    base_means[i * BOOTSTRAP_LANES + lane];
	return ratio_interval(ratios, resamples, level, low, high);
}

/*
 * Cuts for each of the first @nr lanes from its first resamples' ratios;
 * NAN cuts (nothing kept) for a lane whose cuts leave no middle or whose
 * sample holds a NaN, and for the lanes past @nr.
 */
static void lane_cuts(const double *base_means, const double *new_means, size_t nr,
		      struct tails *t, double *sample)
{
	size_t m = t[0].n / TAIL_STRIDE;

	for (size_t lane = 0; lane < BOOTSTRAP_LANES; lane++) {
		bool nan = false;

		for (size_t i = 0; lane < nr && i < m; i++) {
			sample[i] = new_means[i * BOOTSTRAP_LANES + lane] /
				    base_means[i * BOOTSTRAP_LANES + lane];
			nan |= isnan(sample[i]);
		}
		if (lane >= nr || nan || tails_cut(&t[lane], sample, m))
			t[lane].cut_low = t[lane].cut_high = NAN;
	}
}

int bootstrap_lane_ratio_cis(const double *base_means, const double *new_means, size_t nr,
			     size_t resamples, double level, double *low, double *high)
{
	struct tails t[BOOTSTRAP_LANES];
	bool nan[BOOTSTRAP_LANES];
	double *buf;
	size_t each;
	int rc = 0;

	for (size_t lane = 0; lane < nr; lane++)
		low[lane] = high[lane] = NAN;
	if (resamples < 2 || !(level > 0 && level < 1) || !nr || nr > BOOTSTRAP_LANES)
		return -1;
	for (size_t lane = 0; lane < BOOTSTRAP_LANES; lane++)
		tails_init(&t[lane], resamples, level);
	/* a lane's two tails, then the ratios it keeps (both tails' room) */
	each = 2 * (t[0].room + TAIL_BLOCK);
	buf = xreallocarray(NULL, 2 * BOOTSTRAP_LANES * each + resamples / TAIL_STRIDE + 1,
			    sizeof(*buf));
	for (size_t lane = 0; lane < BOOTSTRAP_LANES; lane++) {
		t[lane].lows = buf + lane * each;
		t[lane].highs = t[lane].lows + t[lane].room + TAIL_BLOCK;
	}
	lane_cuts(base_means, new_means, nr, t, buf + 2 * BOOTSTRAP_LANES * each);
	(have_avx2() ? lane_tails_avx2 : lane_tails_sse)(base_means, new_means, t, nan,
							 buf + BOOTSTRAP_LANES * each,
							 2 * t[0].room);
	for (size_t lane = 0; lane < nr; lane++) {
		if (nan[lane])
			rc = -1;
		else if ((isnan(t[lane].cut_low) || tails_interval(&t[lane], &low[lane], &high[lane]))
			 && lane_interval(base_means, new_means, lane, resamples, level,
					  &low[lane], &high[lane]))
			rc = -1;
		else if (isnan(low[lane]) || isnan(high[lane])) {
			/* infinite ratios can interpolate to inf - inf */
			low[lane] = high[lane] = NAN;
			rc = -1;
		}
	}
	free(buf);
	return rc;
}
