// SPDX-License-Identifier: GPL-2.0
/*
 * How disturbed a batch (or one benchmark of it) was: how many measured
 * iterations other tasks disturbed, the median share of the CPU time they
 * took from those, and who took the most, summed over them. run prints it
 * at the end, show beside each benchmark, runs as a count.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "stats/summary.h"
#include "util/xalloc.h"

struct culprit_total {
	const char *name;
	int64_t pid;
	double cpu;
};

static int double_cmp(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return a < b ? -1 : a > b;
}

static int total_cmp(const void *pa, const void *pb)
{
	const struct culprit_total *a = pa, *b = pb;

	return a->cpu > b->cpu ? -1 : a->cpu < b->cpu;
}

static void add_culprit(struct culprit_total **totals, size_t *nr,
			const struct result_culprit *c)
{
	for (size_t i = 0; i < *nr; i++) {
		if ((*totals)[i].pid == c->pid && !strcmp((*totals)[i].name, c->name)) {
			(*totals)[i].cpu += c->cpu;
			return;
		}
	}
	*totals = xreallocarray(*totals, *nr + 1, sizeof(**totals));
	(*totals)[(*nr)++] = (struct culprit_total){ c->name, c->pid, c->cpu };
}

static void add_benchmark(const struct result_benchmark *b, struct disturbance *d,
			  double **shares, size_t *nr_shares,
			  struct culprit_total **totals, size_t *nr_totals)
{
	for (size_t i = 0; i < b->nr_iterations; i++) {
		const struct result_iteration *it = &b->iterations[i];

		if (it->warmup)
			continue;
		d->measured++;
		d->reruns += it->rerun;
		if (!it->disturbed)
			continue;
		d->disturbed++;
		if (it->cpu_available > 0 && !isnan(it->cpu_taken)) {
			*shares = xreallocarray(*shares, *nr_shares + 1, sizeof(double));
			(*shares)[(*nr_shares)++] = it->cpu_taken / it->cpu_available;
		}
		for (size_t c = 0; c < it->nr_culprits; c++)
			add_culprit(totals, nr_totals, &it->culprits[c]);
	}
}

void disturbance_summarize(const struct result_batch *batch, size_t bench,
			   struct disturbance *d)
{
	struct culprit_total *totals = NULL;
	double *shares = NULL;
	size_t nr_shares = 0, nr_totals = 0;

	memset(d, 0, sizeof(*d));
	d->median_share = NAN;
	for (size_t i = 0; i < batch->nr_benchmarks; i++)
		if (bench == DISTURBANCE_ALL || bench == i)
			add_benchmark(&batch->benchmarks[i], d, &shares, &nr_shares,
				      &totals, &nr_totals);
	if (nr_shares) {
		qsort(shares, nr_shares, sizeof(double), double_cmp);
		d->median_share = stats_median_sorted(shares, nr_shares);
	}
	if (nr_totals)
		qsort(totals, nr_totals, sizeof(*totals), total_cmp);
	for (size_t i = 0; i < nr_totals && i < DISTURBANCE_CULPRITS; i++) {
		snprintf(d->culprits[i], sizeof(d->culprits[i]), "%s (pid %lld)",
			 totals[i].name, (long long)totals[i].pid);
		d->nr_culprits++;
	}
	free(shares);
	free(totals);
}

void disturbance_describe(const struct disturbance *d, char *buf, size_t len)
{
	size_t used;

	used = (size_t)snprintf(buf, len, "%zu/%zu iterations disturbed", d->disturbed,
				d->measured);
	if (used < len && !isnan(d->median_share))
		used += (size_t)snprintf(buf + used, len - used,
					 ", median %.0f %% of CPU taken by others",
					 d->median_share * 100);
	for (size_t i = 0; i < d->nr_culprits && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : ": ",
					 d->culprits[i]);
	if (d->reruns && used < len)
		snprintf(buf + used, len - used, " (%zu rerun)", d->reruns);
}
