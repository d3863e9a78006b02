// SPDX-License-Identifier: GPL-2.0
/*
 * Quickselect with a median-of-three pivot and a partition without
 * branches. The values a comparison selects from (bootstrap ratios,
 * pairwise differences) come in random order, so a partition that
 * branches on each comparison mispredicts half of them: that was most of
 * the selection's time. Here every value is swapped into place whichever
 * side it falls on, and only the count of the smaller side moves.
 *
 * When the pivot leaves nearly every value at or above it (ties: all the
 * ratios of a constant sample are one), a second pass sets the values
 * equal to it apart, so that ties cost a pass, not a pass per value.
 */
#include "stats/select.h"

#define SMALL	16	/* ranges this short are sorted by insertion */

static void swap(double *a, double *b)
{
	double t = *a;

	*a = *b;
	*b = t;
}

/*
 * Lomuto's partition of x[lo .. hi - 1] around @pivot, the values below
 * it (@or_equal: not above it) first; returns where the others start.
 * Each value is swapped with the first of the others whatever it is: a
 * value of the others then trades places with one of them.
 */
#define DEFINE_PARTITION(name, below)						\
static size_t name(double *x, size_t lo, size_t hi, double pivot)		\
{										\
	size_t j = lo;								\
										\
	for (size_t i = lo; i < hi; i++) {					\
		double v = x[i];						\
										\
		x[i] = x[j];							\
		x[j] = v;							\
		j += below;							\
	}									\
	return j;								\
}
DEFINE_PARTITION(partition_below, v < pivot)
DEFINE_PARTITION(partition_upto, !(v > pivot))

static void insertion_sort(double *x, size_t lo, size_t hi)
{
	for (size_t i = lo + 1; i < hi; i++) {
		double v = x[i];
		size_t j = i;

		for (; j > lo && x[j - 1] > v; j--)
			x[j] = x[j - 1];
		x[j] = v;
	}
}

/* The median of x[lo], x[mid] and x[hi - 1], left at x[hi - 1]. */
static double median_of_three(double *x, size_t lo, size_t hi)
{
	size_t mid = lo + (hi - lo) / 2, last = hi - 1;

	if (x[mid] < x[lo])
		swap(&x[mid], &x[lo]);
	if (x[last] < x[lo])
		swap(&x[last], &x[lo]);
	if (x[last] < x[mid])
		swap(&x[last], &x[mid]);
	swap(&x[mid], &x[last]);
	return x[last];
}

double select_kth(double *x, size_t n, size_t k)
{
	size_t lo = 0, hi = n;

	while (hi - lo > SMALL) {
		size_t last = hi - 1, j, e;
		double pivot = median_of_three(x, lo, hi);

		/* x[lo .. j - 1] < pivot <= x[j .. last - 1], the pivot at x[last] */
		j = partition_below(x, lo, last, pivot);
		swap(&x[j], &x[last]);
		if (k < j) {
			hi = j;
			continue;
		}
		e = j + 1;
		/* ties with the pivot, or a poor split: the values equal to it apart */
		if (k > j && (hi - j) * 8 > (hi - lo) * 7)
			e = partition_upto(x, j + 1, hi, pivot);
		if (k < e)
			return x[k];
		lo = e;
	}
	insertion_sort(x, lo, hi);
	return x[k];
}
