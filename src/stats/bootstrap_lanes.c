// SPDX-License-Identifier: GPL-2.0
/*
 * The bootstrap of BOOTSTRAP_LANES rows under one plan at once, the way a
 * comparison of many rows of the same sizes runs (bootstrap.h): the plan
 * is read once for the lanes instead of once per row, and the values are
 * added as vectors. Here the lanes' resampled means, exact and
 * approximated; their intervals are bootstrap_lane_cis.c's.
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

bool bootstrap_have_avx2(void)
{
	return !avx2_refused && __builtin_cpu_supports("avx2");
}
#else
#define lane_means_words_avx2	lane_means_words
#define lane_means_bytes_avx2	lane_means_bytes

static bool avx2_refused;

bool bootstrap_have_avx2(void)
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
	bool scaled = false, avx2 = bootstrap_have_avx2();
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

/* ------------------------------------------------------------ approximated first */

/*
 * Rows of positive values of ordinary size (nearly every benchmark's) are
 * resampled in single precision first: eight lanes a vector, half the
 * loads and additions of the exact means, which are what the bootstrap
 * waits on. The interval reads only four order statistics of the ratios,
 * and each approximate ratio q is within a factor `bound` of the exact
 * one r (q / bound <= r <= q * bound: the float sums' rounding, with room
 * to spare); so the k-th exact ratio lies between the k-th approximate
 * one divided and multiplied by the bound, every resample whose
 * approximate ratio is below the k-th's divided by bound^2 is below it
 * exactly too, and those within the bounds (about a dozen a rank) are
 * resampled again exactly, in the order and into the partial sums of the
 * one-row code: the same interval to the bit. Where anything does not hold
 * (a value out of range, too many ties), the lanes take the exact way
 * (bootstrap_lane_cis.c).
 */
#define APPROX_MIN		0x1p-60
#define APPROX_MAX		0x1p60

typedef float fvector8 __attribute__((vector_size(8 * sizeof(float)),
				      aligned(sizeof(float))));
typedef float fvector4 __attribute__((vector_size(4 * sizeof(float)),
				      aligned(sizeof(float))));

/*
 * Eight indices below 64 (a side of up to 64 samples, nearly every row's)
 * in one load, each multiplied by four at once (no byte overflows into
 * the next): then an index's floats lie at eight bytes times its byte,
 * which an address scales by itself, where BYTES4 shifts each index
 * apart. Half the instructions an index; the same sums, in the same order.
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SCALED8_MAX	64
#define SCALED8(p, eight) do {							\
	memcpy(&(eight), (p), sizeof(eight));					\
	(eight) <<= 2;								\
} while (0)
#else
#define SCALED8_MAX	0
#define SCALED8(p, eight)	((eight) = 0)
#endif
/* The floats of the lowest two bytes of @eight, then the next two down. */
#define AT_LOW(x, eight)	((const char *)(x) + ((eight) & 0xff) * 8)
#define AT_NEXT(x, eight)	((const char *)(x) + ((eight) >> 8 & 0xff) * 8)

_Static_assert(BOOTSTRAP_LANES * sizeof(float) == 4 * 8,
	       "a scaled byte is an index's offset in units of 8 bytes");

/* The float means of a byte plan's lanes: @xt holds BOOTSTRAP_LANES floats an index. */
#define DEFINE_LANE_APPROX(name, fvector, attribute)				\
attribute static void name(const uint8_t *index, size_t stride, size_t n,	\
			   size_t resamples, const float *xt, double *means)	\
{										\
	const size_t w = sizeof(fvector) / sizeof(float);			\
	const size_t n8 = n <= SCALED8_MAX ? n : 0;				\
	const double per = 1 / (double)n;					\
										\
	for (size_t lane = 0; lane < BOOTSTRAP_LANES; lane += w) {		\
		const uint8_t *ix = index;					\
		const float *x = xt + lane;					\
										\
		for (size_t r = 0; r < resamples; r++, ix += stride) {		\
			fvector a0 = { 0 }, a1 = { 0 }, a2 = { 0 }, a3 = { 0 }, sum; \
			double *out = means + r * BOOTSTRAP_LANES + lane;	\
			size_t i;						\
										\
			for (i = 0; i + 8 <= n8; i += 8) {			\
				uint64_t eight;					\
										\
				SCALED8(ix + i, eight);				\
				a0 += *(const fvector *)AT_LOW(x, eight);	\
				a1 += *(const fvector *)AT_NEXT(x, eight);	\
				eight >>= 16;					\
				a2 += *(const fvector *)AT_LOW(x, eight);	\
				a3 += *(const fvector *)AT_NEXT(x, eight);	\
				eight >>= 16;					\
				a0 += *(const fvector *)AT_LOW(x, eight);	\
				a1 += *(const fvector *)AT_NEXT(x, eight);	\
				eight >>= 16;					\
				a2 += *(const fvector *)AT_LOW(x, eight);	\
				a3 += *(const fvector *)AT_NEXT(x, eight);	\
			}							\
			for (; i + 4 <= n; i += 4) {				\
				const float *x0, *x1, *x2, *x3;			\
										\
				BYTES4(ix + i, x, x0, x1, x2, x3);		\
				a0 += *(const fvector *)x0;			\
				a1 += *(const fvector *)x1;			\
				a2 += *(const fvector *)x2;			\
				a3 += *(const fvector *)x3;			\
			}							\
			for (; i < n; i++)					\
				a0 += *(const fvector *)(x + (size_t)ix[i] * BOOTSTRAP_LANES); \
			sum = (a0 + a1) + (a2 + a3);				\
			for (size_t k = 0; k < w; k++)				\
				out[k] = (double)sum[k] * per;			\
		}								\
	}									\
}
DEFINE_LANE_APPROX(lane_approx_sse, fvector4, )
#if defined(__x86_64__) && defined(__GNUC__)
DEFINE_LANE_APPROX(lane_approx_avx2, fvector8, __attribute__((target("avx2"))))
#else
#define lane_approx_avx2	lane_approx_sse
#endif

/*
 * Two sets of lanes resampled under the same indices at once (the new
 * sides of two runs against one baseline): each index read and taken
 * apart once for both, which is most of an index's instructions. Each
 * set's sums are those of lane_approx_avx2() to the bit: the same
 * additions in the same order.
 */
#if defined(__x86_64__) && defined(__GNUC__)
#define PAIR_ADD(a, b, x0, x1, offset) do {					\
	a += *(const fvector8 *)((const char *)(x0) + (offset));		\
	b += *(const fvector8 *)((const char *)(x1) + (offset));		\
} while (0)
/* The byte offset of the floats of byte @k of @v, an index (of bytes scaled by 4: @scale 8). */
#define BYTE_OFFSET(v, k, scale)	(((v) >> (8 * (k)) & 0xff) * (scale))

__attribute__((target("avx2")))
static void lane_approx_pair_avx2(const uint8_t *ix, size_t stride, size_t n, size_t resamples,
				  const float *x0, const float *x1, double *means0,
				  double *means1)
{
	const size_t n8 = n <= SCALED8_MAX ? n : 0, scale = BOOTSTRAP_LANES * sizeof(float);
	const double per = 1 / (double)n;

	for (size_t r = 0; r < resamples; r++, ix += stride) {
		fvector8 a0 = { 0 }, a1 = { 0 }, a2 = { 0 }, a3 = { 0 }, sum;
		fvector8 b0 = { 0 }, b1 = { 0 }, b2 = { 0 }, b3 = { 0 };
		size_t i;

		for (i = 0; i + 8 <= n8; i += 8) {
			uint64_t eight;

			SCALED8(ix + i, eight);
			PAIR_ADD(a0, b0, x0, x1, BYTE_OFFSET(eight, 0, 8));
			PAIR_ADD(a1, b1, x0, x1, BYTE_OFFSET(eight, 1, 8));
			PAIR_ADD(a2, b2, x0, x1, BYTE_OFFSET(eight, 2, 8));
			PAIR_ADD(a3, b3, x0, x1, BYTE_OFFSET(eight, 3, 8));
			PAIR_ADD(a0, b0, x0, x1, BYTE_OFFSET(eight, 4, 8));
			PAIR_ADD(a1, b1, x0, x1, BYTE_OFFSET(eight, 5, 8));
			PAIR_ADD(a2, b2, x0, x1, BYTE_OFFSET(eight, 6, 8));
			PAIR_ADD(a3, b3, x0, x1, BYTE_OFFSET(eight, 7, 8));
		}
		for (; i + 4 <= n; i += 4) {
			uint32_t four;

			memcpy(&four, ix + i, sizeof(four));
			PAIR_ADD(a0, b0, x0, x1, BYTE_OFFSET(four, 0, scale));
			PAIR_ADD(a1, b1, x0, x1, BYTE_OFFSET(four, 1, scale));
			PAIR_ADD(a2, b2, x0, x1, BYTE_OFFSET(four, 2, scale));
			PAIR_ADD(a3, b3, x0, x1, BYTE_OFFSET(four, 3, scale));
		}
		for (; i < n; i++)
			PAIR_ADD(a0, b0, x0, x1, (size_t)ix[i] * scale);
		sum = (a0 + a1) + (a2 + a3);
		for (size_t k = 0; k < BOOTSTRAP_LANES; k++)
			means0[r * BOOTSTRAP_LANES + k] = (double)sum[k] * per;
		sum = (b0 + b1) + (b2 + b3);
		for (size_t k = 0; k < BOOTSTRAP_LANES; k++)
			means1[r * BOOTSTRAP_LANES + k] = (double)sum[k] * per;
	}
}
#endif

/* The lanes' values as floats, index by index; false when one is out of range. */
static bool approx_values(const double *const *x, size_t nr, size_t n, float *xt)
{
	for (size_t lane = 0; lane < BOOTSTRAP_LANES; lane++) {
		for (size_t j = 0; j < n; j++) {
			double v = lane < nr ? x[lane][j] : 1;

			if (!(v >= APPROX_MIN && v <= APPROX_MAX))
				return false;
			xt[j * BOOTSTRAP_LANES + lane] = (float)v;
		}
	}
	return true;
}

int bootstrap_plan_lane_means_approx(const struct bootstrap_plan *plan, bool new_side,
				     const double *const *x, size_t nr, double *means)
{
	bool avx2 = bootstrap_have_avx2(), in_range;
	size_t n, offset;
	float *xt;

	if (!plan || !plan->byte_indices || nr > BOOTSTRAP_LANES)
		return bootstrap_plan_lane_means(plan, new_side, x, nr, means) ? -1 : 0;
	n = new_side ? plan->n_new : plan->n_base;
	offset = new_side ? plan->n_base : 0;
	xt = xreallocarray(NULL, n, BOOTSTRAP_LANES * sizeof(*xt));
	in_range = approx_values(x, nr, n, xt);
	if (in_range)
		(avx2 ? lane_approx_avx2 : lane_approx_sse)(plan->byte_indices + offset,
							    plan->n_base + plan->n_new, n,
							    plan->resamples, xt, means);
	free(xt);
	if (!in_range)
		return bootstrap_plan_lane_means(plan, new_side, x, nr, means) ? -1 : 0;
	return 1;
}

int bootstrap_plan_lane_means_approx2(const struct bootstrap_plan *plan, bool new_side,
				      const double *const *x0, const double *const *x1, size_t nr,
				      double *means0, double *means1)
{
	size_t n, offset, stride;
	float *xt;
	bool in_range;

	if (!plan || !plan->byte_indices || nr > BOOTSTRAP_LANES)
		return 0;
	n = new_side ? plan->n_new : plan->n_base;
	offset = new_side ? plan->n_base : 0;
	stride = plan->n_base + plan->n_new;
	xt = xreallocarray(NULL, 2 * n, BOOTSTRAP_LANES * sizeof(*xt));
	in_range = approx_values(x0, nr, n, xt) &&
		   approx_values(x1, nr, n, xt + n * BOOTSTRAP_LANES);
	if (in_range && bootstrap_have_avx2()) {
		lane_approx_pair_avx2(plan->byte_indices + offset, stride, n, plan->resamples, xt,
				      xt + n * BOOTSTRAP_LANES, means0, means1);
	} else if (in_range) {
		lane_approx_sse(plan->byte_indices + offset, stride, n, plan->resamples, xt,
				means0);
		lane_approx_sse(plan->byte_indices + offset, stride, n, plan->resamples,
				xt + n * BOOTSTRAP_LANES, means1);
	}
	free(xt);
	return in_range ? 1 : 0;
}
