// SPDX-License-Identifier: GPL-2.0
/*
 * Hoare's quickselect with a median-of-three pivot. The median of three
 * also places sentinels at both ends, so the scans need no bounds checks.
 */
#include "stats/select.h"

static void swap(double *a, double *b)
{
	double t = *a;

	*a = *b;
	*b = t;
}

double select_kth(double *x, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2, i = lo, j = hi;
		double pivot;

		if (x[mid] < x[lo])
			swap(&x[mid], &x[lo]);
		if (x[hi] < x[lo])
			swap(&x[hi], &x[lo]);
		if (x[hi] < x[mid])
			swap(&x[hi], &x[mid]);
		pivot = x[mid];
		/* afterwards x[lo..j] <= pivot <= x[i..hi], j < i */
		while (i <= j) {
			while (x[i] < pivot)
				i++;
			while (x[j] > pivot)
				j--;
			if (i <= j) {
				swap(&x[i], &x[j]);
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			break;	/* between j and i: equal to the pivot, in place */
	}
	return x[k];
}
