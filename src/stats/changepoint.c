// SPDX-License-Identifier: GPL-2.0
/*
 * Change points, Hunter's way (changepoint.h). Three steps:
 *
 *   1. E-divisive: in an interval, the candidate is the split that
 *      maximises the energy distance between the values before it and a
 *      stretch after it; it is kept when Hunter's t-test of the two sides
 *      is significant, and the search goes on in the pieces.
 *   2. Split: E-divisive runs on overlapping windows (half a window apart,
 *      restarting at the last change point found) at a relaxed p-value,
 *      so that a long series neither costs O(n^2) per candidate nor hides
 *      a change among many; the union is the "weak" change points.
 *   3. Merge: the weakest of them (largest p, or once every p passes, the
 *      smallest magnitude) is dropped while it fails the thresholds, and
 *      its two neighbours are tested again against their new neighbours.
 *
 * Hunter and Otava re-test the right neighbour and the one after it in
 * step 3; the left neighbour is the other one whose sides change, so this
 * re-tests the left and the right one.
 */
#ifndef MATHLIB_STANDALONE
#define MATHLIB_STANDALONE	/* Rmath without R itself */
#endif
#include <Rmath.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "stats/changepoint.h"
#include "stats/summary.h"
#include "util/xalloc.h"

void change_point_options_init(struct change_point_options *opts)
{
	opts->max_pvalue = 0.001;
	opts->min_magnitude = 0;
	opts->window = 50;
}

/*
 * Mean and the standard deviation with divisor n (0 for fewer than two) of
 * @x, the squares taken in units of 2^e that keep them within a double.
 */
static void side_moments(const double *x, size_t n, double *mean, double *sd)
{
	int e = stats_scale_exponent(x, n);
	double ss = 0, m;

	*mean = stats_mean(x, n);
	if (n < 2) {
		*sd = 0;
		return;
	}
	m = e ? ldexp(*mean, -e) : *mean;
	for (size_t i = 0; i < n; i++) {
		double d = (e ? ldexp(x[i], -e) : x[i]) - m;

		ss += d * d;
	}
	*sd = ldexp(sqrt(ss / (double)n), e);	/* at most max |x|: within a double */
}

/* The sides' moments times 2^@e. */
static void sides_scale(struct change_point_sides *s, int e)
{
	s->mean_before = ldexp(s->mean_before, e);
	s->mean_after = ldexp(s->mean_after, e);
	s->stddev_before = ldexp(s->stddev_before, e);
	s->stddev_after = ldexp(s->stddev_after, e);
}

/* Hunter's p from the moments of the sides. */
static double sides_p(size_t n_before, size_t n_after, const struct change_point_sides *s)
{
	double df, pooled, se;

	if (n_before + n_after <= 2)
		return 1;
	df = (double)(n_before + n_after - 2);
	pooled = ((double)(n_before - 1) * s->stddev_before * s->stddev_before +
		  (double)(n_after - 1) * s->stddev_after * s->stddev_after) / df;
	se = sqrt(pooled * (1 / (double)n_before + 1 / (double)n_after));
	if (se == 0)
		/* constant sides: different means are certain, equal ones say nothing */
		return s->mean_before == s->mean_after ? 1 : 0;
	return 2 * pt(-fabs((s->mean_before - s->mean_after) / se), df, 1, 0);
}

void change_point_sides_test(const double *before, size_t n_before,
			     const double *after, size_t n_after,
			     struct change_point_sides *s)
{
	/*
	 * Each side's moments in units of its own power of two: in one unit
	 * for both, a side of values far below the other's would underflow
	 * its squares to a spread of 0 (1, 3, 2 after values near 1.5e308).
	 * The t statistic takes them in one unit, where the squares of both
	 * stay within a double and one that underflows there is below 2^-1074
	 * of the other side's or of a difference of the means of 2^-2 or more:
	 * a |t| beyond 2^500, whose p is below 1e-150 (0 from five values on)
	 * and 0 here.
	 */
	int e = stats_scale_exponent2(before, n_before, after, n_after);
	struct change_point_sides joint;

	side_moments(before, n_before, &s->mean_before, &s->stddev_before);
	side_moments(after, n_after, &s->mean_after, &s->stddev_after);
	joint = *s;
	sides_scale(&joint, -e);
	s->p = sides_p(n_before, n_after, &joint);
}

/* Scratch space for the candidate search of an interval of up to n values. */
struct edivisive_work {
	double *cross;		/* cross[tau]: sum |z_i - z_j|, i < tau <= j < kappa */
	double *within_after;	/* within_after[tau]: sum |z_j - z_k|, tau <= j < k < kappa */
	double *within_before;	/* within_before[tau]: sum |z_i - z_k|, i < k < tau */
	double *prefix;		/* prefix[t]: sum |z_i - z_(kappa-1)|, i < t */
	double *scaled;		/* a piece's values in units of its own power of two */
};

static void work_init(struct edivisive_work *w, size_t n)
{
	w->cross = xcalloc(n + 1, sizeof(double));
	w->within_after = xcalloc(n + 1, sizeof(double));
	w->within_before = xcalloc(n + 1, sizeof(double));
	w->prefix = xcalloc(n + 1, sizeof(double));
	w->scaled = xcalloc(n + 1, sizeof(double));
}

static void work_release(struct edivisive_work *w)
{
	free(w->cross);
	free(w->within_after);
	free(w->within_before);
	free(w->prefix);
	free(w->scaled);
}

/*
 * q(X, Y) for X = z[0..tau), Y = z[tau..kappa): with nx = |X|, ny = |Y|,
 * 2/(nx+ny) sum|X-Y| - 2 ny/((nx+ny)(nx-1)) sum_pairs|X-X|
 * - 2 nx/((nx+ny)(ny-1)) sum_pairs|Y-Y| (a side of one value has no pairs).
 */
static double qhat_at(const struct edivisive_work *w, size_t tau, size_t kappa)
{
	double nx = (double)tau, ny = (double)(kappa - tau), len = (double)kappa;
	double q = 2 / len * w->cross[tau];

	if (tau > 1)
		q -= 2 * ny / (len * (nx - 1)) * w->within_before[tau];
	if (kappa - tau > 1)
		q -= 2 * nx / (len * (ny - 1)) * w->within_after[tau];
	return q;
}

/*
 * O(n^2) time, O(n) space: kappa grows one value at a time, and the sums of
 * every tau take that value's distances to the ones before it, whose
 * prefix sums give each tau its share at once.
 */
static size_t candidate(const double *z, size_t n, struct edivisive_work *w,
			double *qhat)
{
	size_t best_tau = 1;
	double best = -INFINITY;

	memset(w->cross, 0, (n + 1) * sizeof(double));
	memset(w->within_after, 0, (n + 1) * sizeof(double));
	w->within_before[0] = w->within_before[1] = 0;
	for (size_t kappa = 2; kappa <= n; kappa++) {
		double newest = z[kappa - 1], all;

		w->prefix[0] = 0;
		for (size_t i = 0; i + 1 < kappa; i++)
			w->prefix[i + 1] = w->prefix[i] + fabs(z[i] - newest);
		all = w->prefix[kappa - 1];
		for (size_t tau = 0; tau < kappa; tau++) {
			w->cross[tau] += w->prefix[tau];
			w->within_after[tau] += all - w->prefix[tau];
		}
		w->within_before[kappa] = w->within_after[0];
		for (size_t tau = 1; tau < kappa; tau++) {
			double q = qhat_at(w, tau, kappa);

			if (q > best || (q == best && tau < best_tau)) {
				best = q;
				best_tau = tau;
			}
		}
	}
	*qhat = best;
	return best_tau;
}

size_t edivisive_candidate(const double *z, size_t n, double *qhat)
{
	struct edivisive_work w;
	size_t tau;

	work_init(&w, n);
	tau = candidate(z, n, &w, qhat);
	work_release(&w);
	return tau;
}

/* Windows overlap: a change point found twice is kept once. */
static void add_distinct(size_t *found, size_t *nr, size_t index)
{
	for (size_t i = 0; i < *nr; i++)
		if (found[i] == index)
			return;
	found[(*nr)++] = index;
}

/* A piece of a window between change points, with its best split. */
struct piece {
	size_t start, end;	/* [start, end) */
	size_t tau;		/* absolute index of its candidate; 0: none */
	double qhat;		/* in units of 2^qexp */
	int qexp;
};

/*
 * The energy distances sum differences of values, which overflow near the
 * largest double and vanish below the smallest: each piece is searched in
 * units of its own power of two (exact, and the same split), so that a
 * piece of values near 1e-300 after one near 1e308 still finds its change.
 */
static void piece_set(struct piece *p, size_t start, size_t end, const double *x,
		      struct edivisive_work *w)
{
	const double *z = x + start;

	p->start = start;
	p->end = end;
	p->tau = 0;
	p->qhat = -INFINITY;
	p->qexp = 0;
	if (end - start <= 1)
		return;
	p->qexp = stats_scale_exponent(z, end - start);
	if (p->qexp) {
		for (size_t i = 0; i < end - start; i++)
			w->scaled[i] = ldexp(z[i], -p->qexp);
		z = w->scaled;
	}
	p->tau = start + candidate(z, end - start, w, &p->qhat);
}

/* Whether @a's candidate is better than @b's, their q in their units. */
static bool qhat_above(const struct piece *a, const struct piece *b)
{
	int e = a->qexp > b->qexp ? a->qexp : b->qexp;

	if (a->qexp == b->qexp)
		return a->qhat > b->qhat;
	/* in the larger unit: one that underflows there is below 2^-1074 of it */
	return ldexp(a->qhat, a->qexp - e) > ldexp(b->qhat, b->qexp - e);
}

/*
 * E-divisive in x[0..n): split the piece with the best candidate while its
 * test passes @max_pvalue. Appends the change points to @found (absolute
 * indexes: @offset added), returns the largest one found, or 0.
 */
static size_t edivisive_window(const double *x, size_t n, size_t offset,
			       double max_pvalue, struct edivisive_work *w,
			       size_t *found, size_t *nr_found)
{
	struct piece *pieces = xcalloc(n, sizeof(*pieces));
	size_t nr = 1, last = 0;

	piece_set(&pieces[0], 0, n, x, w);
	for (;;) {
		struct change_point_sides sides;
		struct piece *best = NULL;

		for (size_t i = 0; i < nr; i++)
			if (pieces[i].tau && (!best || qhat_above(&pieces[i], best)))
				best = &pieces[i];
		if (!best)
			break;
		change_point_sides_test(x + best->start, best->tau - best->start,
					x + best->tau, best->end - best->tau, &sides);
		if (!(sides.p <= max_pvalue))
			break;
		add_distinct(found, nr_found, offset + best->tau);
		if (best->tau > last)
			last = best->tau;
		/* the piece becomes its left part; its right part goes after it */
		memmove(best + 2, best + 1, (size_t)(pieces + nr - best - 1) * sizeof(*best));
		nr++;
		piece_set(best + 1, best->tau, best->end, x, w);
		piece_set(best, best->start, best->tau, x, w);
	}
	free(pieces);
	return last ? offset + last : 0;
}

static int compare_index(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* Hunter's relaxed threshold for the split step. */
static double first_pass_pvalue(double p)
{
	if (p < 0.05)
		return p * 10;
	return p < 0.5 ? p * 2 : p;
}

/* The weak change points of x[0..n), sorted, into @found (room for n). */
static size_t split(const double *x, size_t n, const struct change_point_options *opts,
		    size_t *found)
{
	size_t window = opts->window < CHANGE_POINT_MIN_WINDOW ? CHANGE_POINT_MIN_WINDOW :
			opts->window, step = window / 2;
	size_t width = window < n ? window : n, nr = 0;
	struct edivisive_work w;

	work_init(&w, width);
	for (size_t start = 0; start < n;) {
		size_t end = start + window < n ? start + window : n;
		size_t last = edivisive_window(x + start, end - start, start,
					       first_pass_pvalue(opts->max_pvalue), &w,
					       found, &nr);

		start = last > start + step ? last : start + step;
	}
	work_release(&w);
	qsort(found, nr, sizeof(*found), compare_index);
	return nr;
}

static double magnitude(const struct change_point_sides *s)
{
	double forward = s->mean_before == 0 ? 0 : s->mean_after / s->mean_before - 1;
	double backward = s->mean_after == 0 ? 0 : s->mean_before / s->mean_after - 1;

	return fmax(fabs(forward), fabs(backward));
}

/* Test cps[i] between its neighbours (or the ends of the series). */
static void retest(const double *x, size_t n, struct change_point *cps, size_t nr, size_t i)
{
	size_t from = i ? cps[i - 1].index : 0, to = i + 1 < nr ? cps[i + 1].index : n;
	size_t at = cps[i].index;

	change_point_sides_test(x + from, at - from, x + at, to - at, &cps[i].sides);
	cps[i].magnitude = magnitude(&cps[i].sides);
}

/* The change point to drop next, or nr when every one passes. */
static size_t weakest(const struct change_point *cps, size_t nr,
		      const struct change_point_options *opts)
{
	size_t worst = 0;

	for (size_t i = 1; i < nr; i++)
		if (cps[i].sides.p > cps[worst].sides.p)
			worst = i;
	if (cps[worst].sides.p >= opts->max_pvalue)
		return worst;
	for (size_t i = 1; i < nr; i++)
		if (cps[i].magnitude < cps[worst].magnitude)
			worst = i;
	return cps[worst].magnitude > opts->min_magnitude ? nr : worst;
}

static size_t merge(const double *x, size_t n, struct change_point *cps, size_t nr,
		    const struct change_point_options *opts)
{
	size_t drop;

	while (nr && (drop = weakest(cps, nr, opts)) < nr) {
		memmove(cps + drop, cps + drop + 1, (nr - drop - 1) * sizeof(*cps));
		nr--;
		if (drop > 0)
			retest(x, n, cps, nr, drop - 1);
		if (drop < nr)
			retest(x, n, cps, nr, drop);
	}
	return nr;
}

size_t change_points_detect(const double *x, size_t n,
			    const struct change_point_options *opts,
			    struct change_point **out)
{
	/*
	 * Near the largest or the smallest double, each piece's candidates are
	 * searched in its own unit (piece_set()) and each side's moments taken
	 * in its own (change_point_sides_test()): the steps take the values.
	 */
	size_t *found, nr;
	struct change_point *cps;

	*out = NULL;
	if (n < 3)
		return 0;
	found = xcalloc(n, sizeof(*found));
	nr = split(x, n, opts, found);
	cps = xcalloc(nr ? nr : 1, sizeof(*cps));
	for (size_t i = 0; i < nr; i++)
		cps[i].index = found[i];
	free(found);
	for (size_t i = 0; i < nr; i++)
		retest(x, n, cps, nr, i);
	nr = merge(x, n, cps, nr, opts);
	if (!nr) {
		free(cps);
		return 0;
	}
	*out = cps;
	return nr;
}
