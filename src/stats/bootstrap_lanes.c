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
 * The tails of every lane in one pass over the means, as percentiles_tails()
 * keeps them: the cuts from the first resamples' ratios (resamples come in
 * a random order, so the first are as good a sample as any), then each
 * resample's ratios divided as vectors and compared with the lanes' cuts
 * at once; the few beyond a cut are kept. @nan[lane] tells whether a
 * lane's ratio was NaN (not equal to itself); a lane without cuts (NaN
 * cuts compare false) keeps nothing.
 */
static inline __attribute__((always_inline)) void
lane_tails(const double *base_means, const double *new_means, struct tails *t, bool *nan)
{
	const vector4 *base = (const vector4 *)base_means, *new = (const vector4 *)new_means;
	const size_t per = BOOTSTRAP_LANES / 4;	/* vectors per resample */
	vector4 cut_low[BOOTSTRAP_LANES / 4], cut_high[BOOTSTRAP_LANES / 4];
	mask4 seen[BOOTSTRAP_LANES / 4] = { 0 };

	for (size_t lane = 0; lane < BOOTSTRAP_LANES; lane++) {
		cut_low[lane / 4][lane % 4] = t[lane].cut_low;
		cut_high[lane / 4][lane % 4] = t[lane].cut_high;
	}
	for (size_t i = 0; i < t[0].n; i++) {
		for (size_t v = 0; v < per; v++) {
			vector4 r = new[i * per + v] / base[i * per + v];
			mask4 beyond = (r <= cut_low[v]) | (r >= cut_high[v]);

			seen[v] |= r != r;
			if (!(beyond[0] | beyond[1] | beyond[2] | beyond[3]))
				continue;
			for (size_t k = 0; k < 4; k++) {
				struct tails *lane = &t[4 * v + k];

				if (!beyond[k])
					continue;
				if (r[k] <= lane->cut_low && lane->nr_low < lane->room)
					lane->lows[lane->nr_low++] = r[k];
				else if (r[k] >= lane->cut_high && lane->nr_high < lane->room)
					lane->highs[lane->nr_high++] = r[k];
				else
					lane->overflow = true;
			}
		}
	}
	for (size_t lane = 0; lane < BOOTSTRAP_LANES; lane++)
		nan[lane] = seen[lane / 4][lane % 4] != 0;
}

/* Compiled twice, as the lane means are: with AVX2 where the CPU has it. */
static void lane_tails_sse(const double *base_means, const double *new_means,
			   struct tails *t, bool *nan)
{
	lane_tails(base_means, new_means, t, nan);
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx2")))
static void lane_tails_avx2(const double *base_means, const double *new_means,
			    struct tails *t, bool *nan)
{
	lane_tails(base_means, new_means, t, nan);
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
	each = 2 * (t[0].room + TAIL_BLOCK);
	buf = xreallocarray(NULL, BOOTSTRAP_LANES * each + resamples / TAIL_STRIDE + 1,
			    sizeof(*buf));
	for (size_t lane = 0; lane < BOOTSTRAP_LANES; lane++) {
		t[lane].lows = buf + lane * each;
		t[lane].highs = t[lane].lows + t[lane].room + TAIL_BLOCK;
	}
	lane_cuts(base_means, new_means, nr, t, buf + BOOTSTRAP_LANES * each);
	(have_avx2() ? lane_tails_avx2 : lane_tails_sse)(base_means, new_means, t, nan);
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
