// SPDX-License-Identifier: GPL-2.0
/*
 * Percentile bootstrap of a ratio of means. The ratio, not the difference,
 * because verdicts and reports speak in percent of the baseline; the
 * percentile method, because it needs no variance formula for a ratio and
 * respects its skew.
 *
 * Cost is resamples * (n_base + n_new) random indices per row: 10^6 for
 * 50 samples a side, which dominates a large comparison. So the indices are
 * drawn once into a plan and reused for every row of the same sizes, and
 * the two quantiles are selected, not sorted for.
 *
 * Beyond BOOTSTRAP_MAX_DRAWS indices a row (about 27,000 samples a side at
 * the default resamples), resampling would take minutes for a million
 * samples, and nothing is left for it to show: the interval is then read
 * from the bootstrap distribution's own large-sample expansion (see
 * bootstrap_ratio_limit), which is closer to the infinitely resampled
 * interval than 10,000 resamples are.
 */
#ifndef MATHLIB_STANDALONE
#define MATHLIB_STANDALONE	/* Rmath without R itself */
#endif
#include <Rmath.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "stats/bootstrap.h"
#include "stats/rng.h"
#include "stats/select.h"
#include "stats/summary.h"
#include "util/xalloc.h"

/* keep at most this many indices; beyond, draw as we go */
#define PLAN_MAX_INDICES	(UINT64_C(1) << 23)
/*
 * Samples of up to 256 values (nearly every benchmark) keep their indices
 * in one byte: a quarter of the memory, so that the plan every row reads
 * through (1 MB for 50 samples a side) stays in the cache.
 */
#define PLAN_BYTE_MAX_N		256

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

struct bootstrap_plan *bootstrap_plan_new(size_t n_base, size_t n_new,
					  size_t resamples, uint64_t seed)
{
	struct bootstrap_plan *plan;
	size_t per_resample = n_base + n_new, total, i;
	struct rng rng;

	if (n_base == 0 || n_new == 0 || resamples < 2)
		return NULL;
	plan = xcalloc(1, sizeof(*plan));
	*plan = (struct bootstrap_plan){
		.n_base = n_base, .n_new = n_new, .resamples = resamples, .seed = seed,
	};
	if (n_base > UINT32_MAX || n_new > UINT32_MAX ||
	    (uint64_t)resamples * per_resample > PLAN_MAX_INDICES)
		return plan;

	total = resamples * per_resample;
	if (n_base <= PLAN_BYTE_MAX_N && n_new <= PLAN_BYTE_MAX_N)
		plan->byte_indices = xreallocarray(NULL, total, 1);
	else
		plan->indices = xreallocarray(NULL, total, sizeof(*plan->indices));
	rng_seed(&rng, seed);
	for (i = 0; i < total; i++) {
		size_t k = i % per_resample;
		uint64_t index = k < n_base ? rng_below(&rng, n_base) :
					      rng_below(&rng, n_new);

		if (plan->byte_indices)
			plan->byte_indices[i] = (uint8_t)index;
		else
			plan->indices[i] = (uint32_t)index;
	}
	return plan;
}

void bootstrap_plan_free(struct bootstrap_plan *plan)
{
	if (!plan)
		return;
	free(plan->byte_indices);
	free(plan->indices);
	free(plan);
}

/*
 * Four partial sums: one running sum waits on each addition's latency,
 * which made the whole bootstrap several times slower. Both the kept and
 * the drawn-as-we-go paths add in this same order, so they agree exactly.
 */
#define DEFINE_MEAN_AT(name, index_type)					\
static double name(const double *x, const index_type *index, size_t n)	\
{									\
	double sum[4] = { 0, 0, 0, 0 };					\
	size_t i;							\
									\
	for (i = 0; i + 4 <= n; i += 4) {				\
		sum[0] += x[index[i]];					\
		sum[1] += x[index[i + 1]];				\
		sum[2] += x[index[i + 2]];				\
		sum[3] += x[index[i + 3]];				\
	}								\
	for (; i < n; i++)						\
		sum[i % 4] += x[index[i]];				\
	return ((sum[0] + sum[1]) + (sum[2] + sum[3])) / (double)n;	\
}
DEFINE_MEAN_AT(mean_at, uint32_t)
DEFINE_MEAN_AT(mean_at_bytes, uint8_t)

static double mean_drawn(struct rng *rng, const double *x, size_t n)
{
	double sum[4] = { 0, 0, 0, 0 };

	for (size_t i = 0; i < n; i++)
		sum[i % 4] += x[rng_below(rng, n)];
	return ((sum[0] + sum[1]) + (sum[2] + sum[3])) / (double)n;
}

/* The smallest of @n >= 1 values. */
static double min_of(const double *x, size_t n)
{
	double m = x[0];

	for (size_t i = 1; i < n; i++)
		if (x[i] < m)
			m = x[i];
	return m;
}

/*
 * R's quantile(type = 7) at @prob of @n values, once the lower order
 * statistic (rank @lo of the @n) is in place at x[at] of @x's @len values:
 * everything after it is at least as large, so the upper one is their
 * minimum. @x may be the whole set (at == lo) or a tail cut from it.
 */
static double interpolate(const double *x, size_t len, size_t at, size_t n, size_t lo,
			  double prob)
{
	double h = (double)(n - 1) * prob;

	if (lo + 1 >= n)
		return x[at];
	return x[at] + (h - (double)lo) * (min_of(x + at + 1, len - at - 1) - x[at]);
}

/*
 * Both ends with one partial selection each: the upper order statistic is
 * searched only among the values above the lower one.
 */
static void percentiles_selected(double *x, size_t n, double p_low, double p_high,
				 size_t lo1, size_t lo2, double *low, double *high)
{
	select_kth(x, n, lo1);
	*low = interpolate(x, n, lo1, n, lo1, p_low);
	if (lo2 > lo1)
		select_kth(x + lo1 + 1, n - lo1 - 1, lo2 - lo1 - 1);
	*high = interpolate(x, n, lo2, n, lo2, p_high);
}

/*
 * The tails alone: a bootstrap's interval needs the 250th values from each
 * end of 10,000, so a strided sample of them sets two thresholds that
 * should hold a few more than that, one pass copies out the values beyond
 * each, and the selection runs on those few hundred. The values beyond a
 * threshold are exactly the smallest (largest) of the whole, so when
 * enough of them are there, the order statistics and the interpolation
 * are those of the full selection to the bit; when not (the sample
 * misled), the full selection runs instead.
 */
#define TAIL_STRIDE	16
#define TAIL_MIN_N	2048
#define TAIL_MARGIN	16	/* sample ranks beyond the expected one: 3 sd */
#define TAIL_BLOCK	64	/* see cut_tails() */

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

static void tails_init(struct tails *t, size_t n, double level)
{
	*t = (struct tails){ .n = n, .p_low = (1 - level) / 2, .p_high = (1 + level) / 2 };
	t->lo1 = (size_t)floor((double)(n - 1) * t->p_low);
	t->lo2 = (size_t)floor((double)(n - 1) * t->p_high);
	t->want_low = t->lo1 + 2;
	t->want_high = n - t->lo2 + 1;
	t->room = t->want_low + t->want_high + 2 * TAIL_MARGIN * TAIL_STRIDE;
}

/*
 * The cuts from @m values drawn at random from the @n (reordered): a
 * margin beyond where the wanted ranks fall among them. -1 when they do
 * not leave a middle (ties, or too few values).
 */
static int tails_cut(struct tails *t, double *sample, size_t m)
{
	size_t below = t->want_low / TAIL_STRIDE + TAIL_MARGIN;
	size_t above = t->want_high / TAIL_STRIDE + TAIL_MARGIN;

	if (t->n < TAIL_MIN_N || t->lo2 <= t->lo1 || below + above >= m)
		return -1;
	t->cut_low = select_kth(sample, m, below);
	t->cut_high = select_kth(sample, m, m - 1 - above);
	return t->cut_low < t->cut_high ? 0 : -1;
}

/*
 * The interval from the tails kept: the values beyond a cut are exactly
 * the smallest (largest) of all, so when enough of them are there the
 * order statistics and the interpolation are those of the full selection
 * to the bit. -1 when not (the cuts misled) or a tail overflowed.
 */
static int tails_interval(struct tails *t, double *low, double *high)
{
	size_t skipped = t->n - t->nr_high;	/* rank lo2 of all, less these, in highs */

	if (t->overflow || t->nr_low > t->room || t->nr_high > t->room ||
	    t->nr_low < t->want_low || t->nr_high < t->want_high)
		return -1;
	select_kth(t->lows, t->nr_low, t->lo1);
	*low = interpolate(t->lows, t->nr_low, t->lo1, t->n, t->lo1, t->p_low);
	select_kth(t->highs, t->nr_high, t->lo2 - skipped);
	*high = interpolate(t->highs, t->nr_high, t->lo2 - skipped, t->n, t->lo2, t->p_high);
	return 0;
}

/*
 * Values <= cut_low into lows and >= cut_high into highs: every value is
 * written to both, and a count moves only for a value that belongs, so
 * the loop has no branch to mispredict on the random order of resamples
 * (hence the TAIL_BLOCK more of each, for the writes past the end a block
 * makes before the room is checked).
 */
static void cut_tails(struct tails *t, const double *x)
{
	size_t nl = 0, nh = 0;

	for (size_t at = 0; at < t->n && nl <= t->room && nh <= t->room; at += TAIL_BLOCK) {
		size_t end = at + TAIL_BLOCK < t->n ? at + TAIL_BLOCK : t->n;

		for (size_t i = at; i < end; i++) {
			t->lows[nl] = x[i];
			t->highs[nh] = x[i];
			nl += x[i] <= t->cut_low;
			nh += x[i] >= t->cut_high;
		}
	}
	t->nr_low = nl;
	t->nr_high = nh;
}

static int percentiles_tails(const double *x, size_t n, double level, double *low,
			     double *high)
{
	struct tails t;
	size_t m = n / TAIL_STRIDE;
	double *buf;
	int rc = -1;

	tails_init(&t, n, level);
	buf = xreallocarray(NULL, m + 2 * (t.room + TAIL_BLOCK), sizeof(*buf));
	t.lows = buf + m;
	t.highs = t.lows + t.room + TAIL_BLOCK;
	for (size_t i = 0; i < m; i++)
		buf[i] = x[i * TAIL_STRIDE];
	if (!tails_cut(&t, buf, m)) {
		cut_tails(&t, x);
		rc = tails_interval(&t, low, high);
	}
	free(buf);
	return rc;
}

void bootstrap_percentiles(double *x, size_t n, double level, double *low, double *high)
{
	double p_low = (1 - level) / 2, p_high = (1 + level) / 2;
	size_t lo1 = (size_t)floor((double)(n - 1) * p_low);
	size_t lo2 = (size_t)floor((double)(n - 1) * p_high);

	if (n >= TAIL_MIN_N && !percentiles_tails(x, n, level, low, high))
		return;
	percentiles_selected(x, n, p_low, p_high, lo1, lo2, low, high);
}

/*
 * The mean of @x over the @n indices that resample @i of a plan that keeps
 * its indices draws from @offset on (0 for the base, n_base for the new).
 */
static double kept_mean(const struct bootstrap_plan *plan, const double *x, size_t i,
			size_t offset, size_t n)
{
	size_t at = i * (plan->n_base + plan->n_new) + offset;

	if (plan->byte_indices)
		return mean_at_bytes(x, plan->byte_indices + at, n);
	return mean_at(x, plan->indices + at, n);
}

/* The interval from @ratios, none NaN (reordered). */
static int interval_of(double *ratios, size_t resamples, double level,
		       double *low, double *high)
{
	bootstrap_percentiles(ratios, resamples, level, low, high);
	/* infinite ratios (a zero base mean) can interpolate to inf - inf */
	if (isnan(*low) || isnan(*high)) {
		*low = *high = NAN;
		return -1;
	}
	return 0;
}

/* The interval from @ratios (reordered, then freed); -1 when a ratio is NaN. */
static int ratio_interval(double *ratios, size_t resamples, double level,
			  double *low, double *high)
{
	int rc = -1;

	for (size_t i = 0; i < resamples; i++)
		if (isnan(ratios[i]))
			goto out;
	rc = interval_of(ratios, resamples, level, low, high);
out:
	free(ratios);
	return rc;
}

/*
 * A resample's sum of samples near the largest double overflows although
 * its mean is finite: such a side is resampled from a copy scaled by a
 * power of two, exactly, and its means scaled back.
 */
#define HUGE_SAMPLE		0x1p960
#define HUGE_SCALE_EXP		64

struct side {
	const double *x;
	double *scaled;		/* the copy, or NULL */
	int exp;		/* what its means are multiplied back by, in 2^exp */
};

static struct side side_of(const double *x, size_t n)
{
	struct side side = { x, NULL, 0 };

	for (size_t i = 0; i < n; i++) {
		if (fabs(x[i]) > HUGE_SAMPLE) {
			side.scaled = xreallocarray(NULL, n, sizeof(double));
			for (size_t j = 0; j < n; j++)
				side.scaled[j] = ldexp(x[j], -HUGE_SCALE_EXP);
			side.x = side.scaled;
			side.exp = HUGE_SCALE_EXP;
			break;
		}
	}
	return side;
}

/* ------------------------------------------------------------ lanes */

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

bool bootstrap_plan_keeps_indices(const struct bootstrap_plan *plan)
{
	return plan && (plan->byte_indices || plan->indices);
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

int bootstrap_plan_base_means(const struct bootstrap_plan *plan, const double *base,
			      double *means)
{
	struct side b;

	if (!plan || (!plan->byte_indices && !plan->indices))
		return -1;
	b = side_of(base, plan->n_base);
	for (size_t i = 0; i < plan->resamples; i++)
		means[i] = ldexp(kept_mean(plan, b.x, i, 0, plan->n_base), b.exp);
	free(b.scaled);
	return 0;
}

int bootstrap_plan_ratio_ci_means(const struct bootstrap_plan *plan, const double *base_means,
				  const double *new, double level, double *low, double *high)
{
	struct side n;
	double *ratios;

	*low = *high = NAN;
	if (!plan || (!plan->byte_indices && !plan->indices) || !(level > 0 && level < 1))
		return -1;
	ratios = xreallocarray(NULL, plan->resamples, sizeof(*ratios));
	n = side_of(new, plan->n_new);
	for (size_t i = 0; i < plan->resamples; i++)
		ratios[i] = ldexp(kept_mean(plan, n.x, i, plan->n_base, plan->n_new), n.exp) /
			    base_means[i];
	free(n.scaled);
	return ratio_interval(ratios, plan->resamples, level, low, high);
}

int bootstrap_plan_ratio_ci(const struct bootstrap_plan *plan,
			    const double *base, const double *new, double level,
			    double *low, double *high)
{
	struct side b, n;
	double *ratios;
	struct rng rng;
	int rc;

	*low = *high = NAN;
	if (!plan || !(level > 0 && level < 1))
		return -1;
	if ((uint64_t)plan->resamples * (plan->n_base + plan->n_new) > BOOTSTRAP_MAX_DRAWS)
		return bootstrap_ratio_limit(base, plan->n_base, new, plan->n_new, level,
					     low, high);
	if (plan->byte_indices || plan->indices) {
		double *means = xreallocarray(NULL, plan->resamples, sizeof(*means));

		bootstrap_plan_base_means(plan, base, means);
		rc = bootstrap_plan_ratio_ci_means(plan, means, new, level, low, high);
		free(means);
		return rc;
	}
	/* base first, then new: the order of the draws is part of reproducibility */
	ratios = xreallocarray(NULL, plan->resamples, sizeof(*ratios));
	b = side_of(base, plan->n_base);
	n = side_of(new, plan->n_new);
	rng_seed(&rng, plan->seed);
	for (size_t i = 0; i < plan->resamples; i++) {
		double mean_base = ldexp(mean_drawn(&rng, b.x, plan->n_base), b.exp);

		ratios[i] = ldexp(mean_drawn(&rng, n.x, plan->n_new), n.exp) / mean_base;
	}
	free(b.scaled);
	free(n.scaled);
	return ratio_interval(ratios, plan->resamples, level, low, high);
}

/* ------------------------------------------------------------ the limit */

/*
 * The first three cumulants of log(mean(x*) / mean(x)) over resamples x*
 * of @x, to order 1/n^2. With d = mean(x*)/mean(x) - 1, whose variance is
 * v = m2 / (n mean^2) and third cumulant m3 / (n^2 mean^3) (m2, m3 the
 * plug-in central moments), log(1 + d) = d - d^2/2 + ... has mean -v/2,
 * variance v and third cumulant k3(d) - 3 v^2. Deviations are taken
 * relative to the mean first, so that samples near the largest double do
 * not overflow their squares.
 */
struct log_mean_cumulants {
	double mean, k1, k2, k3;
};

static int log_mean_cumulants(const double *x, size_t n, struct log_mean_cumulants *c)
{
	double m2 = 0, m3 = 0, nd = (double)n;

	c->mean = stats_mean(x, n);
	if (!(c->mean != 0) || !isfinite(c->mean))
		return -1;
	for (size_t i = 0; i < n; i++) {
		double d = x[i] / c->mean - 1;

		m2 += d * d;
		m3 += d * d * d;
	}
	m2 /= nd;
	m3 /= nd;
	c->k2 = m2 / nd;
	c->k1 = -c->k2 / 2;
	c->k3 = m3 / (nd * nd) - 3 * c->k2 * c->k2;
	return isfinite(c->k2) && isfinite(c->k3) ? 0 : -1;
}

int bootstrap_ratio_limit(const double *base, size_t n_base,
			  const double *new, size_t n_new, double level,
			  double *low, double *high)
{
	struct log_mean_cumulants b, n;
	double ratio, k1, k2, k3, sd, end[2];
	const double p[2] = { (1 - level) / 2, (1 + level) / 2 };

	*low = *high = NAN;
	if (n_base == 0 || n_new == 0 || !(level > 0 && level < 1))
		return -1;
	if (log_mean_cumulants(base, n_base, &b) || log_mean_cumulants(new, n_new, &n))
		return -1;
	ratio = n.mean / b.mean;
	/* log of the ratio: new's cumulants less base's (odd ones change sign) */
	k1 = n.k1 - b.k1;
	k2 = n.k2 + b.k2;
	k3 = n.k3 - b.k3;
	sd = sqrt(k2);
	for (int i = 0; i < 2; i++) {
		double z = qnorm(p[i], 0, 1, 1, 0);
		double q = sd > 0 ? k1 + sd * (z + (z * z - 1) * k3 / (6 * k2 * sd)) : 0;

		end[i] = ratio * exp(q);
	}
	/* a negative ratio reverses the order of its quantiles */
	*low = fmin(end[0], end[1]);
	*high = fmax(end[0], end[1]);
	return isfinite(*low) && isfinite(*high) ? 0 : -1;
}

int bootstrap_ratio_ci(const double *base, size_t n_base,
		       const double *new, size_t n_new,
		       size_t resamples, double level, uint64_t seed,
		       double *low, double *high)
{
	/* one row: drawing as we go costs the same and needs no memory */
	struct bootstrap_plan plan = {
		.n_base = n_base, .n_new = n_new, .resamples = resamples, .seed = seed,
	};

	if (n_base == 0 || n_new == 0 || resamples < 2) {
		*low = *high = NAN;
		return -1;
	}
	return bootstrap_plan_ratio_ci(&plan, base, new, level, low, high);
}
