// SPDX-License-Identifier: GPL-2.0
/*
 * Wilcoxon rank sums with mid-ranks for ties. W is the sum of x's ranks
 * less its minimum possible value, which equals the number of pairs x > y
 * plus half the tied pairs (the Mann–Whitney U of x).
 *
 * The ranks come from merging the two samples in ascending order, so that
 * the Hodges–Lehmann interval, which ranks one pair of samples under
 * several shifts, sorts them once and merges in O(n) per shift.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/ranksum.h"
#include "stats/sort.h"
#include "util/xalloc.h"

/* The number of values from @x[@at] on equal to @value (after @shift). */
static size_t run_of(const double *x, size_t n, size_t at, double shift,
		     double value)
{
	size_t end = at;

	while (end < n && x[end] - shift == value)
		end++;
	return end - at;
}

void rank_sum_sorted(const double *x, size_t nx, double shift,
		     const double *y, size_t ny, struct rank_sum *r)
{
	size_t i = 0, j = 0, placed = 0;
	double rank_sum_x = 0;

	r->tie_sum = 0;
	r->ties = false;
	while (i < nx || j < ny) {
		bool from_x = j == ny || (i < nx && x[i] - shift <= y[j]);
		double value = from_x ? x[i] - shift : y[j];
		size_t tx = run_of(x, nx, i, shift, value);
		size_t ty = run_of(y, ny, j, 0, value);
		double t, mid_rank;

		/* a NaN equals nothing, itself neither: a run of one, or no end */
		if (!tx && !ty)
			*(from_x ? &tx : &ty) = 1;
		/* positions placed .. placed+t-1 hold ranks placed+1 .. placed+t */
		t = (double)(tx + ty);
		mid_rank = (double)placed + (t + 1) / 2;
		rank_sum_x += (double)tx * mid_rank;
		if (tx + ty > 1) {
			r->ties = true;
			r->tie_sum += t * t * t - t;
		}
		i += tx;
		j += ty;
		placed += tx + ty;
	}
	r->w = rank_sum_x - (double)nx * (double)(nx + 1) / 2;
}

void rank_sum(const double *x, size_t nx, double shift,
	      const double *y, size_t ny, struct rank_sum *r)
{
	double *sorted = xreallocarray(NULL, nx + ny ? nx + ny : 1, sizeof(*sorted));

	if (nx)
		memcpy(sorted, x, nx * sizeof(*sorted));
	if (ny)
		memcpy(sorted + nx, y, ny * sizeof(*sorted));
	sort_doubles(sorted, nx);
	sort_doubles(sorted + nx, ny);
	rank_sum_sorted(sorted, nx, shift, sorted + nx, ny, r);
	free(sorted);
}

double rank_sum_sigma(size_t nx, size_t ny, double tie_sum)
{
	double m = (double)nx, n = (double)ny;
	double var = (m * n / 12) * ((m + n + 1) - tie_sum / ((m + n) * (m + n - 1)));

	/* all values tied makes var 0, possibly -0 or a rounding below it */
	return var > 0 ? sqrt(var) : 0;
}
