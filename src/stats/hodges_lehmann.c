// SPDX-License-Identifier: GPL-2.0
/*
 * Hodges–Lehmann shift and interval. All three numbers are order
 * statistics of the n_base * n_new pairwise differences: the estimate is
 * their median, the exact interval two of them picked by qwilcox, and the
 * approximate interval's end points are where R's wdiff() changes sign,
 * which can only be at a difference (see approximate_rank).
 *
 * The differences are never formed: with both samples sorted they are an
 * implicit matrix, new[j] - base[i], sorted along every row and column, and
 * an order statistic of it is selected as Johnson and Mitchell (1978) and
 * Monahan (1984) do: keep per row the columns still in play, bracket the
 * wanted rank between two pivots drawn from them, count the differences
 * below each pivot in one monotone sweep, and drop what falls outside.
 * That costs O((n_base + n_new) log(n_base + n_new)) time and O(n_base +
 * n_new) memory, where sorting or selecting the differences themselves
 * took n_base * n_new of both (3 GB for 20,000 samples a side).
 *
 * Small samples are the other way round: for 50 a side the 2,500
 * differences are fewer than one round's pivot sample, so up to
 * HL_ALL_MAX differences are formed once and the four order statistics
 * an estimate needs are selected from them in place, each search confined
 * between the ranks already placed. Only those between two cuts that
 * bracket all four are formed (the middle fifth or so for 50 a side): the
 * ranks are known before any is selected.
 */
#ifndef MATHLIB_STANDALONE
#define MATHLIB_STANDALONE	/* Rmath without R itself */
#endif
#include <Rmath.h>
#include <math.h>
#include <stdlib.h>

#include "stats/hodges_lehmann.h"
#include "stats/ranksum.h"
#include "stats/rng.h"
#include "stats/select.h"
#include "stats/sort.h"
#include "stats/summary.h"
#include "util/xalloc.h"

#define HL_EXACT_LIMIT 50	/* as R's wilcox.test, like the test itself */

/*
 * Random candidates drawn per round to place the two pivots, and how many
 * of them the pivots stand off the wanted rank: about three standard
 * deviations of the rank's place in the sample, so that a round keeps a
 * sixteenth of the candidates and rarely misses the answer.
 */
#define PIVOT_SAMPLE	2048
#define PIVOT_MARGIN	64
#define PIVOT_SEED	UINT64_C(0x48cd1e3a)

/* Up to this many differences are formed (128 KB), and ranks placed among them. */
#define HL_ALL_MAX	16384
#define HL_MAX_PLACED	8
/*
 * The cuts of the formed band: order statistics of a grid of up to
 * BAND_GRID x BAND_GRID differences, BAND_MARGIN of them beyond where the
 * ranks fall among them.
 */
#define BAND_GRID	16
#define BAND_MARGIN	8

/* ------------------------------------------------------------ selection */

/*
 * The differences new[j] - base[i] of two ascending samples. As
 * floating-point subtraction rounds monotonically, the computed
 * differences are themselves non-decreasing in j and non-increasing in i:
 * the selection works on exactly the values the naive code would sort.
 */
struct diff_matrix {
	const double *base, *new;	/* ascending */
	size_t n_base, n_new;
	/* per row i, the columns [lo[i], hi[i]) still in play */
	size_t *lo, *hi;
	/* per row, the columns below and up to each pivot (scratch) */
	size_t *below_low, *upto_low, *below_high, *upto_high;
	double *sample;		/* PIVOT_SAMPLE candidates (scratch) */
	struct rng rng;
	/*
	 * Small matrices: the differences of ranks offset .. offset + nr_all
	 * - 1, each rank in placed[] (less offset) at its place with nothing
	 * larger before it and nothing smaller after.
	 */
	bool small;
	double *all;
	unsigned long long offset;
	size_t nr_all, placed[HL_MAX_PLACED], nr_placed;
};

static double diff_at(const struct diff_matrix *m, size_t i, size_t j)
{
	return m->new[j] - m->base[i];
}

/*
 * Per row, the number of differences < @pivot (@below) and <= @pivot
 * (@upto), returning their totals. The counts only grow from one row to
 * the next, so one sweep of a column pointer finds them all.
 */
static void count_pivot(const struct diff_matrix *m, double pivot,
			size_t *below, size_t *upto,
			unsigned long long *n_below, unsigned long long *n_upto)
{
	size_t lt = 0, le = 0;

	*n_below = *n_upto = 0;
	for (size_t i = 0; i < m->n_base; i++) {
		while (le < m->n_new && diff_at(m, i, le) <= pivot)
			le++;
		/* ties with the pivot are rare: only then sweep for < too */
		if (le > 0 && diff_at(m, i, le - 1) == pivot) {
			while (lt < le && diff_at(m, i, lt) < pivot)
				lt++;
		} else {
			lt = le;
		}
		below[i] = lt;
		upto[i] = le;
		*n_below += lt;
		*n_upto += le;
	}
}

/* The differences in play, in no order, into @out; returns their number. */
static size_t gather(const struct diff_matrix *m, double *out)
{
	size_t n = 0;

	for (size_t i = 0; i < m->n_base; i++)
		for (size_t j = m->lo[i]; j < m->hi[i]; j++)
			out[n++] = diff_at(m, i, j);
	return n;
}

/*
 * Two pivots that likely bracket the @rank-th smallest (0-based) of the
 * @in_play differences still in play: order statistics of a random
 * sample of them, a margin either side of where the rank falls.
 * @cumulative is scratch for the per-row running counts.
 */
static void draw_pivots(struct diff_matrix *m, unsigned long long in_play,
			unsigned long long rank, unsigned long long *cumulative,
			double *low, double *high)
{
	double *sample = m->sample;
	unsigned long long total = 0;
	long at;

	for (size_t i = 0; i < m->n_base; i++) {
		total += m->hi[i] - m->lo[i];
		cumulative[i] = total;
	}
	for (int s = 0; s < PIVOT_SAMPLE; s++) {
		unsigned long long r = rng_below(&m->rng, in_play);
		size_t a = 0, b = m->n_base - 1;

		/* the row holding the r-th candidate: first cumulative > r */
		while (a < b) {
			size_t mid = a + (b - a) / 2;

			if (cumulative[mid] > r)
				b = mid;
			else
				a = mid + 1;
		}
		r -= a ? cumulative[a - 1] : 0;
		sample[s] = diff_at(m, a, m->lo[a] + (size_t)r);
	}
	sort_doubles(sample, PIVOT_SAMPLE);
	at = (long)((double)rank / (double)in_play * PIVOT_SAMPLE);
	*low = sample[at - PIVOT_MARGIN < 0 ? 0 : at - PIVOT_MARGIN];
	*high = sample[at + PIVOT_MARGIN >= PIVOT_SAMPLE ? PIVOT_SAMPLE - 1 :
		       at + PIVOT_MARGIN];
}

/* Narrow every row's columns in play to [@from[i], @to[i]). */
static void narrow(struct diff_matrix *m, const size_t *from, const size_t *to)
{
	for (size_t i = 0; i < m->n_base; i++) {
		if (from && from[i] > m->lo[i])
			m->lo[i] = from[i];
		if (to && to[i] < m->hi[i])
			m->hi[i] = to[i];
		if (m->hi[i] < m->lo[i])
			m->hi[i] = m->lo[i];
	}
}

/*
 * The largest of x[lo .. hi - 1] to x[k] when k is the last, else the
 * smallest to x[k] (k == lo): one pass where a selection takes three.
 */
static void extreme_to(double *x, size_t lo, size_t hi, size_t k)
{
	size_t at = lo;
	double t;

	for (size_t i = lo + 1; i < hi; i++)
		if (k == lo ? x[i] < x[at] : x[i] > x[at])
			at = i;
	t = x[k];
	x[k] = x[at];
	x[at] = t;
}

/*
 * Small matrices: the differences between two cuts that bracket every
 * rank of @ranks, formed, and the number below the lower cut. The cuts
 * are order statistics of a grid of the matrix (evenly spaced rows and
 * columns of two sorted samples: a sample of the differences spread over
 * all of them); counted exactly, and moved to the end when they do not
 * bracket the ranks.
 */
static void form_band(struct diff_matrix *m, const unsigned long long *ranks, size_t nr)
{
	unsigned long long n = (unsigned long long)m->n_base * m->n_new;
	unsigned long long k_min = ranks[0], k_max = ranks[0], lt_low, le_low, lt_high, le_high;
	size_t gb = m->n_base < BAND_GRID ? m->n_base : BAND_GRID;
	size_t gn = m->n_new < BAND_GRID ? m->n_new : BAND_GRID, s = 0;
	double cut_low = -INFINITY, cut_high = INFINITY;
	long long lo, hi;

	for (size_t r = 1; r < nr; r++) {
		k_min = ranks[r] < k_min ? ranks[r] : k_min;
		k_max = ranks[r] > k_max ? ranks[r] : k_max;
	}
	for (size_t a = 0; a < gb; a++)
		for (size_t b = 0; b < gn; b++)
			m->sample[s++] = diff_at(m, (2 * a + 1) * m->n_base / (2 * gb),
						 (2 * b + 1) * m->n_new / (2 * gn));
	lo = (long long)(k_min * s / n) - BAND_MARGIN;
	hi = (long long)(((k_max + 1) * s + n - 1) / n) + BAND_MARGIN;
	if (lo >= 0)
		cut_low = select_kth(m->sample, s, (size_t)lo);
	if (hi < (long long)s)
		cut_high = select_kth(m->sample, s, (size_t)hi);
	count_pivot(m, cut_low, m->below_low, m->upto_low, &lt_low, &le_low);
	if (lt_low > k_min)
		count_pivot(m, -INFINITY, m->below_low, m->upto_low, &lt_low, &le_low);
	count_pivot(m, cut_high, m->below_high, m->upto_high, &lt_high, &le_high);
	if (le_high <= k_max)
		count_pivot(m, INFINITY, m->below_high, m->upto_high, &lt_high, &le_high);
	m->offset = lt_low;
	m->all = xreallocarray(NULL, le_high - lt_low, sizeof(*m->all));
	for (size_t i = 0; i < m->n_base; i++)
		for (size_t j = m->below_low[i]; j < m->upto_high[i]; j++)
			m->all[m->nr_all++] = diff_at(m, i, j);
}

/* The @rank-th smallest difference of a small matrix, between the ranks placed. */
static double select_formed(struct diff_matrix *m, unsigned long long rank)
{
	size_t lo = 0, hi = m->nr_all, k = (size_t)(rank - m->offset);

	for (size_t i = 0; i < m->nr_placed; i++) {
		size_t p = m->placed[i];

		if (p == k)
			return m->all[k];
		if (p < k && p + 1 > lo)
			lo = p + 1;
		if (p > k && p < hi)
			hi = p;
	}
	if (k + 1 == hi || k == lo)
		extreme_to(m->all, lo, hi, k);	/* the next of a placed rank */
	else
		select_kth(m->all + lo, hi - lo, k - lo);
	if (m->nr_placed < HL_MAX_PLACED)
		m->placed[m->nr_placed++] = k;
	return m->all[k];
}

/*
 * The @k-th smallest (0-based) difference. Every round keeps in play
 * exactly the differences strictly between the last pivots found below and
 * above the answer, so the answer stays in play and its rank among them
 * is k less the differences dropped below. Once few enough remain that
 * copying them costs no more than a sweep, quickselect finishes.
 */
static double select_difference(struct diff_matrix *m, unsigned long long k,
				double *scratch, unsigned long long *cumulative)
{
	size_t finish_at = m->n_base + m->n_new + PIVOT_SAMPLE;

	if (m->small)
		return select_formed(m, k);
	for (size_t i = 0; i < m->n_base; i++) {
		m->lo[i] = 0;
		m->hi[i] = m->n_new;
	}
	for (;;) {
		unsigned long long in_play = 0, dropped = 0;
		unsigned long long lt_low, le_low, lt_high, le_high;
		double low, high;

		for (size_t i = 0; i < m->n_base; i++) {
			in_play += m->hi[i] - m->lo[i];
			dropped += m->lo[i];
		}
		if (in_play <= finish_at) {
			size_t n = gather(m, scratch);

			return select_kth(scratch, n, (size_t)(k - dropped));
		}
		draw_pivots(m, in_play, k - dropped, cumulative, &low, &high);
		count_pivot(m, low, m->below_low, m->upto_low, &lt_low, &le_low);
		if (k >= lt_low && k < le_low)
			return low;
		if (k < lt_low) {
			narrow(m, NULL, m->below_low);
			continue;
		}
		count_pivot(m, high, m->below_high, m->upto_high, &lt_high, &le_high);
		if (k >= lt_high && k < le_high)
			return high;
		if (k >= le_high)
			narrow(m, m->upto_high, NULL);
		else
			narrow(m, m->upto_low, m->below_high);
	}
}

/* ------------------------------------------------------------ the interval */

/*
 * R's wdiff() at one shift: the rank statistic and its null sd, so that
 * it can be scored against both quantiles.
 */
struct shifted_rank {
	double w, sigma;
};

struct shifted_test {
	const double *base, *new;	/* ascending */
	size_t n_base, n_new;
	double sigma_between;	/* null sd of W for a shift between differences */
};

/*
 * The continuity-corrected normal score of the rank-sum test at the rank
 * statistic @w with null sd @sigma, less @zq: R's wdiff().
 */
static double score(const struct shifted_test *st, double w, double sigma,
		    double zq)
{
	double dz = w - (double)st->n_new * (double)st->n_base / 2;
	double correction = dz > 0 ? 0.5 : dz < 0 ? -0.5 : 0;

	return (dz - correction) / sigma - zq;
}

static struct shifted_rank shifted_rank(const struct shifted_test *st, double shift)
{
	struct rank_sum rs;

	rank_sum_sorted(st->new, st->n_new, shift, st->base, st->n_base, &rs);
	return (struct shifted_rank){
		rs.w, rank_sum_sigma(st->n_new, st->n_base, rs.tie_sum),
	};
}

/*
 * 0-based rank among the sorted differences of the end point R's root()
 * finds for @zq, given R's wdiff at the smallest difference mumin (@at_min)
 * and the largest, mumax (@at_max), which R checks first: 0 when wdiff is
 * already <= 0 at mumin, n - 1 when it is still >= 0 at mumax.
 *
 * For a shift d strictly between two adjacent distinct differences, no
 * shifted new value ties a base value, so W(d) is the integer number of
 * differences above d and the null sd is that of the within-sample ties
 * alone (sigma_between). The score is non-decreasing in W, so with u the
 * largest W whose score is at most 0, wdiff is <= 0 exactly on the gaps
 * above the (n - u)-th smallest difference and > 0 below it: that
 * difference is where the sign changes, and where R's uniroot converges
 * (to within its tolerance).
 */
static long long approximate_rank(const struct shifted_test *st, long long n,
				  double zq, struct shifted_rank at_min,
				  struct shifted_rank at_max)
{
	double sigma = st->sigma_between;
	long long u;

	if (score(st, at_min.w, at_min.sigma, zq) <= 0)
		return 0;
	if (score(st, at_max.w, at_max.sigma, zq) >= 0)
		return n - 1;
	/* solve roughly, then step to the exact boundary of the integer W */
	u = llround((double)n / 2 + zq * sigma);
	if (u < 0)
		u = 0;
	if (u > n)
		u = n;
	while (u < n && score(st, (double)(u + 1), sigma, zq) <= 0)
		u++;
	while (u >= 0 && score(st, (double)u, sigma, zq) > 0)
		u--;
	/* u == -1: positive on every gap, the change is at the largest */
	if (u < 0)
		return n - 1;
	if (u >= n)
		return 0;
	return n - u - 1;
}

/*
 * The ranks of the approximate interval's ends into @rank; false when R
 * has none. @ties: whether any two values of both samples together are
 * equal (without, neither sample has ties of its own to count).
 */
static bool approximate_ranks(struct shifted_test *st, struct diff_matrix *m, double alpha,
			      bool ties, unsigned long long *rank)
{
	long long n = (long long)st->n_base * (long long)st->n_new;
	double zq = qnorm(alpha / 2, 0, 1, 0, 0);
	double mumin = diff_at(m, st->n_base - 1, 0);
	double mumax = diff_at(m, 0, st->n_new - 1);
	struct rank_sum base_ties = { 0 }, new_ties = { 0 };
	struct shifted_rank at_min, at_max;

	if (ties) {
		rank_sum_sorted(st->base, st->n_base, 0, NULL, 0, &base_ties);
		rank_sum_sorted(st->new, st->n_new, 0, NULL, 0, &new_ties);
	}
	st->sigma_between = rank_sum_sigma(st->n_new, st->n_base,
					   base_ties.tie_sum + new_ties.tie_sum);

	/* R stops when every value ties at an end point (then sigma is 0) */
	at_min = shifted_rank(st, mumin);
	at_max = shifted_rank(st, mumax);
	if (at_min.sigma == 0 || at_max.sigma == 0)
		return false;
	rank[0] = (unsigned long long)approximate_rank(st, n, zq, at_min, at_max);
	rank[1] = (unsigned long long)approximate_rank(st, n, -zq, at_min, at_max);
	return true;
}

/* The ranks of the exact interval's ends into @rank. */
static bool exact_ranks(const struct diff_matrix *m, double alpha, unsigned long long *rank)
{
	unsigned long long n = (unsigned long long)m->n_base * m->n_new;
	double qu = qwilcox(alpha / 2, (double)m->n_new, (double)m->n_base, 1, 0);
	unsigned long long upper;

	/* R's indices are 1-based: c(diffs[qu], diffs[n - qu + 1]) */
	if (qu < 1)
		qu = 1;
	upper = (unsigned long long)qu;
	rank[0] = upper - 1;
	rank[1] = n - upper;
	return true;
}

/*
 * The difference ranked just below @d, the @k-th (0-based, k >= 1): @d
 * again when it fills rank k - 1 too, else the largest difference below
 * it, which is in one sweep the largest of each row's last one below.
 */
static double difference_before(struct diff_matrix *m, double d,
				unsigned long long k)
{
	unsigned long long n_below, n_upto;
	double before = -INFINITY;

	if (m->small)
		return select_formed(m, k - 1);
	count_pivot(m, d, m->below_low, m->upto_low, &n_below, &n_upto);
	if (n_below < k)
		return d;
	for (size_t i = 0; i < m->n_base; i++)
		if (m->below_low[i])
			before = fmax(before, diff_at(m, i, m->below_low[i] - 1));
	return before;
}

static double median_difference(struct diff_matrix *m, double *scratch,
				unsigned long long *cumulative)
{
	unsigned long long n = (unsigned long long)m->n_base * m->n_new;
	double upper = select_difference(m, n / 2, scratch, cumulative);

	if (n % 2)
		return upper;
	return stats_midpoint(difference_before(m, upper, n / 2), upper);
}

/* Both samples sorted (copies, unless they came sorted) and the selection's working memory. */
struct hl_work {
	struct diff_matrix m;
	bool copies;
	unsigned long long *cumulative;
	double *scratch;
};

static void hl_work_init(struct hl_work *w, const double *base, size_t n_base,
			 const double *new, size_t n_new, bool sorted)
{
	size_t rows = n_base;

	w->m = (struct diff_matrix){ .n_base = n_base, .n_new = n_new };
	w->copies = !sorted;
	w->m.base = sorted ? base : sorted_doubles(base, n_base);
	w->m.new = sorted ? new : sorted_doubles(new, n_new);
	w->m.lo = xreallocarray(NULL, 6 * rows, sizeof(size_t));
	w->m.hi = w->m.lo + rows;
	w->m.below_low = w->m.hi + rows;
	w->m.upto_low = w->m.below_low + rows;
	w->m.below_high = w->m.upto_low + rows;
	w->m.upto_high = w->m.below_high + rows;
	w->cumulative = xreallocarray(NULL, rows, sizeof(*w->cumulative));
	w->scratch = xreallocarray(NULL, n_base + n_new + 2 * PIVOT_SAMPLE,
				   sizeof(*w->scratch));
	w->m.sample = w->scratch + n_base + n_new + PIVOT_SAMPLE;
	rng_seed(&w->m.rng, PIVOT_SEED);
	w->m.small = (unsigned long long)n_base * n_new <= HL_ALL_MAX;
}

static void hl_work_free(struct hl_work *w)
{
	free(w->m.all);
	free(w->scratch);
	free(w->cumulative);
	free(w->m.lo);
	if (w->copies) {
		free((double *)w->m.base);
		free((double *)w->m.new);
	}
}

double hl_difference_kth(const double *base, size_t n_base,
			 const double *new, size_t n_new, unsigned long long k)
{
	struct hl_work w;
	double d;

	/* differences with a NaN or an infinity have no order (inf - inf is NaN) */
	if (!stats_all_finite2(base, n_base, new, n_new))
		return NAN;
	hl_work_init(&w, base, n_base, new, n_new, false);
	if (w.m.small)
		form_band(&w.m, &k, 1);
	d = select_difference(&w.m, k, w.scratch, w.cumulative);
	hl_work_free(&w);
	return d;
}

static void estimate(const double *base, size_t n_base, const double *new, size_t n_new,
		     bool sorted, double level, struct hl_result *r)
{
	unsigned long long n = (unsigned long long)n_base * n_new, ranks[4];
	struct hl_work w;
	struct shifted_test st;
	struct rank_sum rs;
	bool interval;

	r->shift = r->low = r->high = NAN;
	r->exact = false;
	if (n_base == 0 || n_new == 0 || !(level > 0 && level < 1) ||
	    !stats_all_finite2(base, n_base, new, n_new))
		return;

	hl_work_init(&w, base, n_base, new, n_new, sorted);
	st = (struct shifted_test){ w.m.base, w.m.new, n_base, n_new, 0 };
	rank_sum_sorted(st.new, n_new, 0, st.base, n_base, &rs);
	r->exact = n_new < HL_EXACT_LIMIT && n_base < HL_EXACT_LIMIT && !rs.ties;
	/* the interval's ranks, then the median's: every one before any is selected */
	interval = r->exact ? exact_ranks(&w.m, 1 - level, ranks) :
			      approximate_ranks(&st, &w.m, 1 - level, rs.ties, ranks);
	if (!interval)
		ranks[0] = ranks[1] = n / 2;
	ranks[2] = n / 2;
	ranks[3] = n % 2 ? n / 2 : n / 2 - 1;
	if (w.m.small)
		form_band(&w.m, ranks, 4);
	r->shift = median_difference(&w.m, w.scratch, w.cumulative);
	if (interval) {
		r->low = select_difference(&w.m, ranks[0], w.scratch, w.cumulative);
		r->high = select_difference(&w.m, ranks[1], w.scratch, w.cumulative);
	}
	hl_work_free(&w);
}

void hl_estimate(const double *base, size_t n_base,
		 const double *new, size_t n_new, double level,
		 struct hl_result *r)
{
	estimate(base, n_base, new, n_new, false, level, r);
}

void hl_estimate_sorted(const double *base, size_t n_base,
			const double *new, size_t n_new, double level,
			struct hl_result *r)
{
	estimate(base, n_base, new, n_new, true, level, r);
}
