// SPDX-License-Identifier: GPL-2.0
/*
 * Wilcoxon rank sums with mid-ranks for ties. The values of both samples
 * are sorted together once; W is then the sum of x's ranks less its
 * minimum possible value, which equals the number of pairs x > y plus half
 * the tied pairs (the Mann–Whitney U of x).
 */
#include <math.h>
#include <stdlib.h>

#include "stats/ranksum.h"
#include "util/xalloc.h"

struct ranked {
	double value;
	bool from_x;
};

static int cmp_ranked(const void *a, const void *b)
{
	double va = ((const struct ranked *)a)->value;
	double vb = ((const struct ranked *)b)->value;

	return (va > vb) - (va < vb);
}

void rank_sum(const double *x, size_t nx, double shift,
	      const double *y, size_t ny, struct rank_sum *r)
{
	size_t n = nx + ny, i, j, k;
	struct ranked *all = xreallocarray(NULL, n ? n : 1, sizeof(*all));
	double rank_sum_x = 0;

	for (i = 0; i < nx; i++)
		all[i] = (struct ranked){ x[i] - shift, true };
	for (i = 0; i < ny; i++)
		all[nx + i] = (struct ranked){ y[i], false };
	qsort(all, n, sizeof(*all), cmp_ranked);

	r->tie_sum = 0;
	r->ties = false;
	for (i = 0; i < n; i = j) {
		double t, mid_rank;

		for (j = i + 1; j < n && all[j].value == all[i].value; j++)
			;
		/* positions i..j-1 hold ranks i+1..j; each gets their mean */
		t = (double)(j - i);
		mid_rank = (double)(i + 1 + j) / 2;
		for (k = i; k < j; k++)
			if (all[k].from_x)
				rank_sum_x += mid_rank;
		if (j - i > 1) {
			r->ties = true;
			r->tie_sum += t * t * t - t;
		}
	}
	r->w = rank_sum_x - (double)nx * (double)(nx + 1) / 2;
	free(all);
}

double rank_sum_sigma(size_t nx, size_t ny, double tie_sum)
{
	double m = (double)nx, n = (double)ny;
	double var = (m * n / 12) * ((m + n + 1) - tie_sum / ((m + n) * (m + n - 1)));

	/* all values tied makes var 0, possibly -0 or a rounding below it */
	return var > 0 ? sqrt(var) : 0;
}
