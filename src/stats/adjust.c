// SPDX-License-Identifier: GPL-2.0
/*
 * Holm and Benjamini–Hochberg step-down and step-up adjustments, written
 * as R's p.adjust writes them (sort, scale by rank, running max or min,
 * cap at 1) so that values agree with R to the last bit.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "stats/adjust.h"
#include "util/xalloc.h"

struct ranked_p {
	double p;
	size_t index;
};

/* ascending p; equal p in input order, so the result never depends on qsort */
static int cmp_ranked_p(const void *a, const void *b)
{
	const struct ranked_p *x = a, *y = b;

	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

static void holm(struct ranked_p *sorted, size_t m)
{
	double running_max = 0;

	/* the i-th smallest (0-based) of m is compared with alpha / (m - i) */
	for (size_t i = 0; i < m; i++) {
		double scaled = (double)(m - i) * sorted[i].p;

		if (scaled > running_max)
			running_max = scaled;
		sorted[i].p = fmin(1, running_max);
	}
}

static void benjamini_hochberg(struct ranked_p *sorted, size_t m)
{
	double running_min = INFINITY;

	/* from the largest down: the i-th smallest (1-based) scales by m / i */
	for (size_t i = m; i-- > 0;) {
		double scaled = (double)m / (double)(i + 1) * sorted[i].p;

		if (scaled < running_min)
			running_min = scaled;
		sorted[i].p = fmin(1, running_min);
	}
}

void p_adjust(const double *p, double *adjusted, size_t n,
	      enum p_adjust_method method)
{
	struct ranked_p *sorted;
	size_t m = 0, i;

	if (adjusted != p)
		memmove(adjusted, p, n * sizeof(*adjusted));
	for (i = 0; i < n; i++)
		m += !isnan(p[i]);
	/* R returns a family of one (or none) unchanged */
	if (method == P_ADJUST_NONE || m <= 1)
		return;

	sorted = xreallocarray(NULL, m, sizeof(*sorted));
	m = 0;
	for (i = 0; i < n; i++)
		if (!isnan(adjusted[i]))
			sorted[m++] = (struct ranked_p){ adjusted[i], i };
	qsort(sorted, m, sizeof(*sorted), cmp_ranked_p);

	if (method == P_ADJUST_HOLM)
		holm(sorted, m);
	else
		benjamini_hochberg(sorted, m);
	for (i = 0; i < m; i++)
		adjusted[sorted[i].index] = sorted[i].p;
	free(sorted);
}

int p_adjust_method_parse(const char *name, enum p_adjust_method *method)
{
	if (!strcasecmp(name, "none"))
		*method = P_ADJUST_NONE;
	else if (!strcasecmp(name, "holm"))
		*method = P_ADJUST_HOLM;
	else if (!strcasecmp(name, "bh"))
		*method = P_ADJUST_BH;
	else
		return -1;
	return 0;
}
