// SPDX-License-Identifier: GPL-2.0
/*
 * The intervals of BOOTSTRAP_LANES rows resampled together
 * (bootstrap_lanes.c): the tails of every lane cut in one pass over their
 * resampled means, and, from approximated means, the few resamples near
 * the four order statistics an interval reads resampled again exactly.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "stats/bootstrap.h"
#include "stats/bootstrap_parts.h"
#include "stats/sort.h"
#include "util/xalloc.h"

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
 * The ratios a lane keeps, beyond either of its cuts, before they are
 * split into its tails: each lane's @room of them (and TAIL_BLOCK more,
 * see lane_tails()) at x + lane * (room + TAIL_BLOCK), the resample of
 * each at the same place of @at.
 */
struct kept {
	double *x;
	uint32_t *at;
	size_t room, nr[BOOTSTRAP_LANES];
};

/*
 * The tails of every lane in one pass over the means, as cut_tails() of
 * bootstrap_percentiles.c keeps them for one: the cuts from the first
 * resamples' ratios (resamples come in a random order, so the first are
 * as good a sample as any), then the ratios of a block of TAIL_BLOCK (64)
 * resamples divided and compared with the cuts as vectors, a byte a
 * resample of which lanes' ratios are beyond a cut; each lane then copies
 * out those of its ratios, about a tenth, by the bits of its own, into
 * @kept, and splits them into its tails at the end. A tenth in a random
 * order: a branch on each ratio mispredicted so often that this pass cost
 * more than the resampling.
 * @nan[lane] tells whether a lane's ratio was NaN (not equal to itself);
 * a lane without cuts (NaN cuts compare false) keeps nothing.
 *
 * @by_product: means that are positive and finite (approximated: none is
 * NaN then) are compared without a division a resample, which was most of
 * this pass: a ratio is beyond a cut when its new mean is beyond the cut
 * times its base mean, with the cuts widened by CUT_WIDEN so that the
 * products' rounding misses none; the few kept are divided one by one
 * (the quotient a vector gives), and split_tails() compares those with
 * the cuts themselves. The values a few more kept, just inside the cuts,
 * count for nothing after (kept_candidates() reads only those beyond).
 */
#define CUT_WIDEN	0x1p-48

#define DEFINE_LANE_TAILS(name, movemask, by_product, attribute)		\
attribute static void name(const double *base_means, const double *new_means,	\
			   struct tails *t, bool *nan, struct kept *kept)	\
{										\
	const vector4 *base = (const vector4 *)base_means;			\
	const vector4 *new = (const vector4 *)new_means;			\
	const size_t per = BOOTSTRAP_LANES / 4, n = t[0].n;			\
	vector4 cut_low[BOOTSTRAP_LANES / 4], cut_high[BOOTSTRAP_LANES / 4];	\
	mask4 seen[BOOTSTRAP_LANES / 4] = { 0 };				\
	vector4 ratios[TAIL_BLOCK][BOOTSTRAP_LANES / 4];			\
	size_t *nr = kept->nr, room = kept->room;				\
										\
	for (size_t lane = 0; lane < BOOTSTRAP_LANES; lane++) {			\
		cut_low[lane / 4][lane % 4] = t[lane].cut_low *			\
					      (by_product ? 1 + CUT_WIDEN : 1);	\
		cut_high[lane / 4][lane % 4] = t[lane].cut_high *		\
					       (by_product ? 1 - CUT_WIDEN : 1); \
	}									\
	for (size_t at = 0; at < n; at += TAIL_BLOCK) {				\
		size_t len = n - at < TAIL_BLOCK ? n - at : TAIL_BLOCK;		\
		uint64_t bytes[TAIL_BLOCK / 8] = { 0 };				\
										\
		for (size_t i = 0; i < len; i++) {				\
			uint64_t bits = 0;					\
										\
			for (size_t v = 0; v < per; v++) {			\
				vector4 b = base[(at + i) * per + v];		\
				vector4 w = new[(at + i) * per + v], q;		\
										\
				if (by_product) {				\
					bits |= (uint64_t)movemask((w <= cut_low[v] * b) | \
								   (w >= cut_high[v] * b)) \
						<< (4 * v);			\
					continue;				\
				}						\
				q = w / b;					\
				seen[v] |= q != q;				\
				ratios[i][v] = q;				\
				bits |= (uint64_t)movemask((q <= cut_low[v]) |	\
							   (q >= cut_high[v])) << (4 * v); \
			}							\
			bytes[i / 8] |= bits << (8 * (i % 8));			\
		}								\
		for (size_t lane = 0; lane < BOOTSTRAP_LANES; lane++) {		\
			double *out = kept->x + lane * (room + TAIL_BLOCK);	\
			uint32_t *out_at = kept->at + lane * (room + TAIL_BLOCK); \
			uint64_t beyond = 0;					\
										\
			for (size_t g = 0; g < TAIL_BLOCK / 8; g++)		\
				beyond |= lane_bits(bytes[g], lane) << (8 * g);	\
			for (; beyond; beyond &= beyond - 1, nr[lane]++) {	\
				size_t i = (size_t)__builtin_ctzll(beyond);	\
				size_t mean = (at + i) * BOOTSTRAP_LANES + lane; \
										\
				out[nr[lane]] = by_product ?			\
						new_means[mean] / base_means[mean] : \
						ratios[i][lane / 4][lane % 4];	\
				out_at[nr[lane]] = (uint32_t)(at + i);		\
			}							\
			/* the block may have written TAIL_BLOCK past the room, not more */ \
			if (nr[lane] > room) {					\
				t[lane].overflow = true;			\
				nr[lane] = 0;					\
			}							\
		}								\
	}									\
	for (size_t lane = 0; lane < BOOTSTRAP_LANES; lane++) {			\
		if (!t[lane].overflow)						\
			split_tails(&t[lane], kept->x + lane * (room + TAIL_BLOCK), nr[lane]); \
		nan[lane] = seen[lane / 4][lane % 4] != 0;			\
	}									\
}

/* A bit a lane of a mask of four, 0 or -1 each. */
#define MOVEMASK_ANY(m)	((unsigned)(((m)[0] & 1) | ((m)[1] & 2) | ((m)[2] & 4) | ((m)[3] & 8)))

/* Compiled twice each, as the lane means are: with AVX2 where the CPU has it. */
DEFINE_LANE_TAILS(lane_tails_sse, MOVEMASK_ANY, false, )
DEFINE_LANE_TAILS(lane_tails_product_sse, MOVEMASK_ANY, true, )

#if defined(__x86_64__) && defined(__GNUC__)
#define MOVEMASK_AVX2(m)	((unsigned)__builtin_ia32_movmskpd256((vector4)(m)))

DEFINE_LANE_TAILS(lane_tails_avx2, MOVEMASK_AVX2, false, __attribute__((target("avx2"))))
DEFINE_LANE_TAILS(lane_tails_product_avx2, MOVEMASK_AVX2, true,
		  __attribute__((target("avx2"))))
#else
#define lane_tails_avx2		lane_tails_sse
#define lane_tails_product_avx2	lane_tails_product_sse
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

/*
 * The tails of the first @nr lanes' ratios cut and kept, into @t, which
 * point into the returned buffer (free it, and kept->at, after); @nan and
 * @kept as lane_tails(), compared @by_product when the means allow it.
 */
static double *lanes_tails(const double *base_means, const double *new_means, size_t nr,
			   size_t resamples, double level, bool by_product, struct tails *t,
			   bool *nan, struct kept *kept)
{
	bool avx2 = bootstrap_have_avx2();
	size_t each;
	double *buf;

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
	*kept = (struct kept){
		.x = buf + BOOTSTRAP_LANES * each,
		.at = xreallocarray(NULL, BOOTSTRAP_LANES, each * sizeof(*kept->at)),
		.room = 2 * t[0].room,
	};
	if (by_product)
		(avx2 ? lane_tails_product_avx2 : lane_tails_product_sse)(base_means, new_means,
									  t, nan, kept);
	else
		(avx2 ? lane_tails_avx2 : lane_tails_sse)(base_means, new_means, t, nan, kept);
	return buf;
}

int bootstrap_lane_ratio_cis(const double *base_means, const double *new_means, size_t nr,
			     size_t resamples, double level, double *low, double *high)
{
	struct tails t[BOOTSTRAP_LANES];
	bool nan[BOOTSTRAP_LANES];
	struct kept kept;
	double *buf;
	int rc = 0;

	for (size_t lane = 0; lane < nr; lane++)
		low[lane] = high[lane] = NAN;
	if (resamples < 2 || !(level > 0 && level < 1) || !nr || nr > BOOTSTRAP_LANES)
		return -1;
	buf = lanes_tails(base_means, new_means, nr, resamples, level, false, t, nan, &kept);
	free(kept.at);
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

/* ------------------------------------------------------------ approximated first */

/*
 * The intervals from approximated means (bootstrap_lanes.c says why they
 * are the exact ones to the bit): each lane's ratios within the bounds of
 * the four ranks it reads are resampled again exactly.
 */
#define APPROX_CANDIDATES	256	/* most resamples of a lane resampled again */

/*
 * Per lane, the resamples whose approximate ratio is within the bounds of
 * one of the four ranks (@th: the low end's bounds, then the high end's),
 * and how many are below each end's lower bound.
 */
struct candidates {
	size_t nr[BOOTSTRAP_LANES];
	uint32_t at[BOOTSTRAP_LANES][APPROX_CANDIDATES];
	size_t below[2][BOOTSTRAP_LANES];
};

/*
 * A lane's candidates from the ratios it kept, with the resample of each:
 * every ratio below the low end's upper bound or above the high end's
 * lower bound is one of them, so long as those bounds are within the
 * cuts. -1 when not, or when there are too many.
 */
static int kept_candidates(const struct kept *kept, size_t lane, const struct tails *t,
			   const double *th, struct candidates *c)
{
	const double *x = kept->x + lane * (kept->room + TAIL_BLOCK);
	const uint32_t *at = kept->at + lane * (kept->room + TAIL_BLOCK);
	size_t below = 0, above = 0;

	if (!(th[1] <= t->cut_low && th[2] >= t->cut_high))
		return -1;
	for (size_t i = 0; i < kept->nr[lane]; i++) {
		/* not && and ||: each comparison a branch, half of them mispredicted */
		bool in = ((x[i] >= th[0]) & (x[i] <= th[1])) | ((x[i] >= th[2]) & (x[i] <= th[3]));

		below += x[i] < th[0];
		above += x[i] >= th[2];
		if (!in)
			continue;
		if (c->nr[lane] == APPROX_CANDIDATES)
			return -1;
		c->at[lane][c->nr[lane]++] = at[i];
	}
	c->below[0][lane] = below;
	c->below[1][lane] = t->n - above;
	return 0;
}

/*
 * One end of a lane's interval from its @nr candidates (resampled at
 * at[i], their approximate ratios approx[i]): the exact ratios of those
 * within the bounds th[0] .. th[1], sorted, hold ranks @lo and the next
 * (@below less) of all. -1 when they do not.
 */
static int exact_end(const struct bootstrap_plan *plan, const double *base, const double *new,
		     const uint32_t *at, const double *approx, size_t nr, const double *th,
		     size_t below, size_t lo, double prob, double *end)
{
	size_t n = plan->resamples, need = lo + 1 < n ? 2 : 1, len = 0;
	double r[APPROX_CANDIDATES];

	for (size_t i = 0; i < nr; i++) {
		if (!(approx[i] >= th[0] && approx[i] <= th[1]))
			continue;
		r[len++] = kept_mean(plan, new, at[i], plan->n_base, plan->n_new) /
			   kept_mean(plan, base, at[i], 0, plan->n_base);
	}
	if (below > lo || lo - below + need > len)
		return -1;
	sort_doubles(r, len);
	*end = quantile_between(n, lo, prob, r[lo - below], r[lo - below + need - 1]);
	return isfinite(*end) ? 0 : -1;
}

/* Lane @lane's ends from its candidates; -1 as exact_end(). */
static int exact_lane(const struct bootstrap_plan *plan, const double *base, const double *new,
		      const double *base_means, const double *new_means, size_t lane,
		      const struct tails *t, const double (*th)[BOOTSTRAP_LANES],
		      const struct candidates *c, double *low, double *high)
{
	double approx[APPROX_CANDIDATES];
	const double th_low[2] = { th[0][lane], th[1][lane] };
	const double th_high[2] = { th[2][lane], th[3][lane] };
	size_t nr = c->nr[lane];

	for (size_t i = 0; i < nr; i++) {
		size_t at = (size_t)c->at[lane][i] * BOOTSTRAP_LANES + lane;

		approx[i] = new_means[at] / base_means[at];
	}
	if (exact_end(plan, base, new, c->at[lane], approx, nr, th_low, c->below[0][lane],
		      t->lo1, t->p_low, low))
		return -1;
	return exact_end(plan, base, new, c->at[lane], approx, nr, th_high, c->below[1][lane],
			 t->lo2, t->p_high, high);
}

/* The bound on the approximate ratios' distance (in factor) from the exact ones. */
static double approx_bound(const struct bootstrap_plan *plan)
{
	size_t n = plan->n_base > plan->n_new ? plan->n_base : plan->n_new;

	/* a float sum of n positive values: (n / 4 + 3) * 2^-24 at most, each side */
	return 1 + (double)(n + 16) * 0x1p-22;
}

/* Every lane's ends, or -1. */
static int approx_cis(const struct bootstrap_plan *plan, const double *const *base,
		      const double *base_means, const double *const *new,
		      const double *new_means, size_t nr, double level, double *low,
		      double *high)
{
	double bound = approx_bound(plan), th[4][BOOTSTRAP_LANES], q[4], *buf;
	struct tails t[BOOTSTRAP_LANES];
	bool nan[BOOTSTRAP_LANES];
	struct candidates *c = xcalloc(1, sizeof(*c));
	struct kept kept;
	int rc = -1;

	/* approximated means: positive and finite */
	buf = lanes_tails(base_means, new_means, nr, plan->resamples, level, true, t, nan,
			  &kept);
	for (size_t lane = 0; lane < nr; lane++) {
		double th_lane[4];

		if (nan[lane] || isnan(t[lane].cut_low) || tails_order_stats(&t[lane], q))
			goto out;
		th_lane[0] = th[0][lane] = q[0] / bound / bound;
		th_lane[1] = th[1][lane] = q[1] * bound * bound;
		th_lane[2] = th[2][lane] = q[2] / bound / bound;
		th_lane[3] = th[3][lane] = q[3] * bound * bound;
		if (kept_candidates(&kept, lane, &t[lane], th_lane, c) ||
		    exact_lane(plan, base[lane], new[lane], base_means, new_means, lane, &t[lane],
			       (const double (*)[BOOTSTRAP_LANES])th, c, &low[lane], &high[lane]))
			goto out;
	}
	rc = 0;
out:
	free(kept.at);
	free(c);
	free(buf);
	return rc;
}

int bootstrap_lane_ratio_cis_approx(const struct bootstrap_plan *plan,
				    const double *const *base, const double *base_means,
				    const double *const *new, const double *new_means, size_t nr,
				    double level, double *low, double *high)
{
	double *exact;
	int rc;

	for (size_t lane = 0; lane < nr; lane++)
		low[lane] = high[lane] = NAN;
	if (!plan || plan->resamples < 2 || !(level > 0 && level < 1) || !nr ||
	    nr > BOOTSTRAP_LANES)
		return -1;
	if (!approx_cis(plan, base, base_means, new, new_means, nr, level, low, high))
		return 0;
	/* the exact way: both sides' means again */
	exact = xreallocarray(NULL, 2 * plan->resamples, BOOTSTRAP_LANES * sizeof(*exact));
	bootstrap_plan_lane_means(plan, false, base, nr, exact);
	bootstrap_plan_lane_means(plan, true, new, nr, exact + plan->resamples * BOOTSTRAP_LANES);
	rc = bootstrap_lane_ratio_cis(exact, exact + plan->resamples * BOOTSTRAP_LANES, nr,
				      plan->resamples, level, low, high);
	free(exact);
	return rc;
}
