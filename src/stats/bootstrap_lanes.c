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
 * The values at four indices of a plan at @p, of the lanes' @x. Bytes are
 * read four in one load: three loads an index (its own and two vectors)
 * were more than the CPU issues in a cycle.
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define BYTES4(p, x, x0, x1, x2, x3) do {					\
	uint32_t four_;								\
										\
	memcpy(&four_, (p), sizeof(four_));					\
	x0 = (x) + (size_t)(four_ & 0xff) * BOOTSTRAP_LANES;			\
	x1 = (x) + (size_t)(four_ >> 8 & 0xff) * BOOTSTRAP_LANES;		\
	x2 = (x) + (size_t)(four_ >> 16 & 0xff) * BOOTSTRAP_LANES;		\
	x3 = (x) + (size_t)(four_ >> 24) * BOOTSTRAP_LANES;			\
} while (0)
#else
#define BYTES4	WORDS4
#endif
#define WORDS4(p, x, x0, x1, x2, x3) do {					\
	x0 = (x) + (size_t)(p)[0] * BOOTSTRAP_LANES;				\
	x1 = (x) + (size_t)(p)[1] * BOOTSTRAP_LANES;				\
	x2 = (x) + (size_t)(p)[2] * BOOTSTRAP_LANES;				\
	x3 = (x) + (size_t)(p)[3] * BOOTSTRAP_LANES;				\
} while (0)

/*
 * The lanes two vectors at a time (8 partial sums of vectors: as many
 * registers as there are, and no more), over the plan once per pair:
 * @xt holds BOOTSTRAP_LANES values per index, @means BOOTSTRAP_LANES
 * means per resample.
 */
#define DEFINE_LANE_MEANS(name, index_type, INDEX4, vector, attribute)		\
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
				const double *x0, *x1, *x2, *x3;		\
										\
				INDEX4(ix + i, x, x0, x1, x2, x3);		\
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
DEFINE_LANE_MEANS(lane_means_words, uint32_t, WORDS4, vector2, )
DEFINE_LANE_MEANS(lane_means_bytes, uint8_t, BYTES4, vector2, )

#if defined(__x86_64__) && defined(__GNUC__)
/* Where the CPU has them, vectors of four: half the additions and loads. */
DEFINE_LANE_MEANS(lane_means_words_avx2, uint32_t, WORDS4, vector4,
		  __attribute__((target("avx2"))))
DEFINE_LANE_MEANS(lane_means_bytes_avx2, uint8_t, BYTES4, vector4,
		  __attribute__((target("avx2"))))

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
 * Which of 8 resamples' ratios are beyond a lane's cuts: bit lane of
 * each byte of @bytes (byte j for resample j), packed into bit j of the
 * result. The multiplication moves each byte's bit to its place, and no
 * two of its partial products meet, so nothing carries.
 */
static inline uint64_t lane_bits(uint64_t bytes, size_t lane)
{
	return ((bytes >> lane) & UINT64_C(0x0101010101010101)) *
	       UINT64_C(0x0102040810204080) >> 56;
}

/*
 * The ratios kept into the two tails, or the tails overflow: without a
 * branch, as cut_tails() of bootstrap_percentiles.c does (half of them
 * go to each tail, in a random order).
 */
static void split_tails(struct tails *t, const double *kept, size_t nr)
{
	size_t nl = 0, nh = 0;

	for (size_t at = 0; at < nr; at += TAIL_BLOCK) {
		size_t end = at + TAIL_BLOCK < nr ? at + TAIL_BLOCK : nr;

		for (size_t i = at; i < end; i++) {
			t->lows[nl] = kept[i];
			t->highs[nh] = kept[i];
			nl += kept[i] <= t->cut_low;
			nh += kept[i] >= t->cut_high;
		}
		if (nl > t->room || nh > t->room) {
			t->overflow = true;
			return;
		}
	}
	t->nr_low = nl;
	t->nr_high = nh;
}

/*
 * The tails of every lane in one pass over the means, as cut_tails() of
 * bootstrap_percentiles.c keeps them for one: the cuts from the first
 * resamples' ratios (resamples come in a random order, so the first are
 * as good a sample as any), then the ratios of a block of TAIL_BLOCK (64)
 * resamples divided and compared with the cuts as vectors, a byte a
 * resample of which lanes' ratios are beyond a cut; each lane then copies
 * out those of its ratios, about a tenth, by the bits of its own (@kept
 * holds @room a lane, and TAIL_BLOCK more), and splits them into its
 * tails at the end. A tenth in a random order: a branch on each ratio
 * mispredicted so often that this pass cost more than the resampling.
 * @nan[lane] tells whether a lane's ratio was NaN (not equal to itself);
 * a lane without cuts (NaN cuts compare false) keeps nothing.
 */
#define DEFINE_LANE_TAILS(name, movemask, attribute)				\
attribute static void name(const double *base_means, const double *new_means,	\
			   struct tails *t, bool *nan, double *kept, size_t room) \
{										\
	const vector4 *base = (const vector4 *)base_means;			\
	const vector4 *new = (const vector4 *)new_means;			\
	const size_t per = BOOTSTRAP_LANES / 4, n = t[0].n;			\
	vector4 cut_low[BOOTSTRAP_LANES / 4], cut_high[BOOTSTRAP_LANES / 4];	\
	mask4 seen[BOOTSTRAP_LANES / 4] = { 0 };				\
	vector4 ratios[TAIL_BLOCK][BOOTSTRAP_LANES / 4];			\
	size_t nr[BOOTSTRAP_LANES] = { 0 };					\
										\
	for (size_t lane = 0; lane < BOOTSTRAP_LANES; lane++) {			\
		cut_low[lane / 4][lane % 4] = t[lane].cut_low;			\
		cut_high[lane / 4][lane % 4] = t[lane].cut_high;		\
	}									\
	for (size_t at = 0; at < n; at += TAIL_BLOCK) {				\
		size_t len = n - at < TAIL_BLOCK ? n - at : TAIL_BLOCK;		\
		uint64_t bytes[TAIL_BLOCK / 8] = { 0 };				\
										\
		for (size_t i = 0; i < len; i++) {				\
			uint64_t bits = 0;					\
										\
			for (size_t v = 0; v < per; v++) {			\
				vector4 q = new[(at + i) * per + v] /		\
					    base[(at + i) * per + v];		\
										\
				seen[v] |= q != q;				\
				ratios[i][v] = q;				\
				bits |= (uint64_t)movemask((q <= cut_low[v]) |	\
							   (q >= cut_high[v])) << (4 * v); \
			}							\
			bytes[i / 8] |= bits << (8 * (i % 8));			\
		}								\
		for (size_t lane = 0; lane < BOOTSTRAP_LANES; lane++) {		\
			double *out = kept + lane * (room + TAIL_BLOCK);	\
			uint64_t beyond = 0;					\
										\
			for (size_t g = 0; g < TAIL_BLOCK / 8; g++)		\
				beyond |= lane_bits(bytes[g], lane) << (8 * g);	\
			for (; beyond; beyond &= beyond - 1)			\
				out[nr[lane]++] = ratios[__builtin_ctzll(beyond)] \
						[lane / 4][lane % 4];		\
			/* the block may have written TAIL_BLOCK past the room, not more */ \
			if (nr[lane] > room) {					\
				t[lane].overflow = true;			\
				nr[lane] = 0;					\
			}							\
		}								\
	}									\
	for (size_t lane = 0; lane < BOOTSTRAP_LANES; lane++) {			\
		if (!t[lane].overflow)						\
			split_tails(&t[lane], kept + lane * (room + TAIL_BLOCK), nr[lane]); \
		nan[lane] = seen[lane / 4][lane % 4] != 0;			\
	}									\
}

/* A bit a lane of a mask of four, 0 or -1 each. */
#define MOVEMASK_ANY(m)	((unsigned)(((m)[0] & 1) | ((m)[1] & 2) | ((m)[2] & 4) | ((m)[3] & 8)))

/* Compiled twice, as the lane means are: with AVX2 where the CPU has it. */
DEFINE_LANE_TAILS(lane_tails_sse, MOVEMASK_ANY, )

#if defined(__x86_64__) && defined(__GNUC__)
#define MOVEMASK_AVX2(m)	((unsigned)__builtin_ia32_movmskpd256((vector4)(m)))

DEFINE_LANE_TAILS(lane_tails_avx2, MOVEMASK_AVX2, __attribute__((target("avx2"))))
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
