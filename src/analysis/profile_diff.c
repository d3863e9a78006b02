// SPDX-License-Identifier: GPL-2.0
/*
 * Profiles of runs pooled benchmark by benchmark, and their differences
 * (profile_diff.h). A benchmark's symbols are gathered from every profile
 * of every run into one sorted key list, so that each profile is folded in
 * with one binary search per symbol.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/profile_diff.h"
#include "util/utf8.h"
#include "util/xalloc.h"

const char *spread_verdict_name(enum spread_verdict v)
{
	switch (v) {
	case SPREAD_UNKNOWN:
		return "unknown";
	case SPREAD_WITHIN:
		return "within";
	case SPREAD_BEYOND:
		return "beyond";
	case SPREAD_NONE:
		break;
	}
	return NULL;
}

/* One profile of a benchmark, and the run it belongs to. */
struct taken {
	const struct result_profile *profile;
	size_t run;
};

struct bench_profiles {
	const char *workload, *params;
	struct taken *taken;
	size_t nr_taken;
};

struct symbol_key {
	const char *name, *dso;
};

static int key_compare(const void *a, const void *b)
{
	const struct symbol_key *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : strcmp(x->dso, y->dso);
}

static struct bench_profiles *bench_find(struct bench_profiles **list, size_t *nr,
					 const struct result_benchmark *b)
{
	struct bench_profiles *bp;

	for (size_t i = 0; i < *nr; i++)
		if (!strcmp((*list)[i].workload, b->workload) &&
		    !strcmp((*list)[i].params, b->params))
			return &(*list)[i];
	*list = xreallocarray(*list, *nr + 1, sizeof(**list));
	bp = &(*list)[(*nr)++];
	memset(bp, 0, sizeof(*bp));
	bp->workload = b->workload;
	bp->params = b->params;
	return bp;
}

static bool wanted(const char *const *workloads, const char *workload)
{
	if (!workloads)
		return true;
	for (; *workloads; workloads++)
		if (utf8_names(*workloads, workload))
			return true;
	return false;
}

/* Every profile with samples, per benchmark, the first run's benchmarks first. */
static struct bench_profiles *gather(const struct compare_run *runs, size_t nr_runs,
				     const char *const *workloads, size_t *nr_empty,
				     size_t *nr_failed, size_t *nr)
{
	struct bench_profiles *list = NULL;

	*nr = 0;
	for (size_t r = 0; r < nr_runs; r++)
		for (size_t i = 0; i < runs[r].set.nr_batches; i++)
			for (size_t k = 0; k < runs[r].set.batches[i].nr_benchmarks; k++) {
				const struct result_benchmark *b =
					&runs[r].set.batches[i].benchmarks[k];
				struct bench_profiles *bp;

				if (wanted(workloads, b->workload))
					nr_failed[r] += b->nr_failed;
				if (!b->nr_profiles || !wanted(workloads, b->workload))
					continue;
				bp = bench_find(&list, nr, b);
				for (size_t p = 0; p < b->nr_profiles; p++) {
					if (!b->profiles[p].total) {
						nr_empty[r]++;
						continue;
					}
					bp->taken = xreallocarray(bp->taken, bp->nr_taken + 1,
								  sizeof(*bp->taken));
					bp->taken[bp->nr_taken++] = (struct taken){ &b->profiles[p], r };
				}
			}
	return list;
}

static struct symbol_key *collect_keys(const struct bench_profiles *bp, size_t *nr)
{
	struct symbol_key *keys = NULL;
	size_t n = 0, kept = 0;

	for (size_t t = 0; t < bp->nr_taken; t++)
		n += bp->taken[t].profile->nr_symbols;
	keys = xcalloc(n ? n : 1, sizeof(*keys));
	n = 0;
	for (size_t t = 0; t < bp->nr_taken; t++) {
		const struct result_profile *p = bp->taken[t].profile;

		for (size_t s = 0; s < p->nr_symbols; s++)
			keys[n++] = (struct symbol_key){ p->symbols[s].name, p->symbols[s].dso };
	}
	qsort(keys, n, sizeof(*keys), key_compare);
	for (size_t i = 0; i < n; i++)
		if (!kept || key_compare(&keys[kept - 1], &keys[i]))
			keys[kept++] = keys[i];
	*nr = kept;
	return keys;
}

/* Running statistics of one share over one run's profiles. */
struct accumulator {
	double sum, min, max;
	size_t seen;		/* profiles in which the symbol had samples */
};

static void accumulate(struct accumulator *a, double v)
{
	if (!a->seen || v < a->min)
		a->min = v;
	if (!a->seen || v > a->max)
		a->max = v;
	a->sum += v;
	a->seen++;
}

/* A profile that did not see the symbol gave it a share of 0. */
static struct share_stats finish(const struct accumulator *a, size_t nr_profiles)
{
	struct share_stats s = { NAN, NAN, NAN };

	if (!nr_profiles)
		return s;
	s.mean = a->sum / (double)nr_profiles;
	s.min = a->seen < nr_profiles ? fmin(a->seen ? a->min : 0, 0) : a->min;
	s.max = a->seen ? fmax(a->max, a->seen < nr_profiles ? 0 : a->max) : 0;
	return s;
}

static enum spread_verdict spread(const struct share_stats *base, size_t nr_base,
				  const struct share_stats *s, size_t nr)
{
	if (nr_base < 2 || nr < 2)
		return SPREAD_UNKNOWN;
	return s->min > base->max || s->max < base->min ? SPREAD_BEYOND : SPREAD_WITHIN;
}

static void row_alloc(struct profile_symbol_row *row, size_t nr_runs)
{
	row->self = xcalloc(nr_runs, sizeof(*row->self));
	row->children = xcalloc(nr_runs, sizeof(*row->children));
	row->self_spread = xcalloc(nr_runs, sizeof(*row->self_spread));
	row->children_spread = xcalloc(nr_runs, sizeof(*row->children_spread));
}

static void row_release(struct profile_symbol_row *row)
{
	free(row->self);
	free(row->children);
	free(row->self_spread);
	free(row->children_spread);
}

/*
 * Fold one profile into the accumulators of its run: its shares per key
 * first (a name may stand for two functions of one file), then one
 * observation per key.
 */
static void fold_profile(const struct result_profile *p, const struct symbol_key *keys,
			 size_t nr_keys, double *self, double *children,
			 struct accumulator *acc_self, struct accumulator *acc_children)
{
	size_t *touched = xcalloc(p->nr_symbols ? p->nr_symbols : 1, sizeof(*touched));
	size_t nr_touched = 0;

	for (size_t s = 0; s < p->nr_symbols; s++) {
		struct symbol_key key = { p->symbols[s].name, p->symbols[s].dso };
		const struct symbol_key *k = bsearch(&key, keys, nr_keys, sizeof(*keys),
						     key_compare);
		size_t i = (size_t)(k - keys);

		if (self[i] == 0 && children[i] == 0)
			touched[nr_touched++] = i;
		self[i] += 100.0 * (double)p->symbols[s].self / (double)p->total;
		children[i] += 100.0 * (double)p->symbols[s].children / (double)p->total;
	}
	for (size_t t = 0; t < nr_touched; t++) {
		size_t i = touched[t];

		accumulate(&acc_self[i], self[i]);
		accumulate(&acc_children[i], children[i]);
		self[i] = children[i] = 0;
	}
	free(touched);
}

static double row_rank(const struct profile_symbol_row *row, size_t nr_runs)
{
	double rank = 0;

	if (nr_runs == 1)
		return row->children[0].mean + row->self[0].mean * 1e-6;
	for (size_t r = 1; r < nr_runs; r++) {
		double ds = fabs(row->self[r].mean - row->self[0].mean);
		double dc = fabs(row->children[r].mean - row->children[0].mean);

		if (isfinite(ds) && ds > rank)
			rank = ds;
		if (isfinite(dc) && dc > rank)
			rank = dc;
	}
	return rank;
}

static int row_compare(const void *a, const void *b)
{
	const struct profile_symbol_row *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank > y->rank ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void build_bench(struct profile_bench *pb, const struct bench_profiles *bp,
			size_t nr_runs, size_t top)
{
	size_t nr_keys;
	struct symbol_key *keys = collect_keys(bp, &nr_keys);
	size_t cells = nr_keys ? nr_keys : 1;
	double *self = xcalloc(cells, sizeof(double)), *children = xcalloc(cells, sizeof(double));
	struct accumulator *acc = xcalloc(2 * cells * nr_runs, sizeof(*acc));

	pb->workload = bp->workload;
	pb->params = bp->params;
	pb->runs = xcalloc(nr_runs, sizeof(*pb->runs));
	for (size_t t = 0; t < bp->nr_taken; t++) {
		const struct result_profile *p = bp->taken[t].profile;
		struct profile_run_info *info = &pb->runs[bp->taken[t].run];
		struct accumulator *run_acc = acc + 2 * cells * bp->taken[t].run;

		if (!info->nr_profiles)
			info->event = p->event;
		info->nr_profiles++;
		info->nr_extra += p->extra;
		info->samples += p->samples;
		info->lost += p->lost;
		fold_profile(p, keys, nr_keys, self, children, run_acc, run_acc + cells);
	}
	pb->rows = xcalloc(cells, sizeof(*pb->rows));
	pb->nr_rows = nr_keys;
	for (size_t i = 0; i < nr_keys; i++) {
		struct profile_symbol_row *row = &pb->rows[i];

		row->name = keys[i].name;
		row->dso = keys[i].dso;
		row_alloc(row, nr_runs);
		for (size_t r = 0; r < nr_runs; r++) {
			const struct accumulator *run_acc = acc + 2 * cells * r;
			size_t n = pb->runs[r].nr_profiles;

			row->self[r] = finish(&run_acc[i], n);
			row->children[r] = finish(&run_acc[cells + i], n);
			if (!r)
				continue;
			row->self_spread[r] = spread(&row->self[0], pb->runs[0].nr_profiles,
						     &row->self[r], n);
			row->children_spread[r] = spread(&row->children[0],
							 pb->runs[0].nr_profiles,
							 &row->children[r], n);
		}
		row->rank = row_rank(row, nr_runs);
	}
	qsort(pb->rows, pb->nr_rows, sizeof(*pb->rows), row_compare);
	if (top && pb->nr_rows > top) {
		for (size_t i = top; i < pb->nr_rows; i++)
			row_release(&pb->rows[i]);
		pb->nr_rows = top;
	}
	free(acc);
	free(self);
	free(children);
	free(keys);
}

void profile_diff_build(struct profile_diff *d, const struct compare_run *runs,
			size_t nr_runs, size_t top, const char *const *workloads)
{
	size_t nr, *nr_empty = xcalloc(nr_runs ? nr_runs : 1, sizeof(*nr_empty));
	size_t *nr_failed = xcalloc(nr_runs ? nr_runs : 1, sizeof(*nr_failed));
	struct bench_profiles *list = gather(runs, nr_runs, workloads, nr_empty, nr_failed, &nr);

	memset(d, 0, sizeof(*d));
	d->nr_runs = nr_runs;
	d->nr_empty = nr_empty;
	d->nr_failed = nr_failed;
	d->benches = xcalloc(nr ? nr : 1, sizeof(*d->benches));
	d->nr_benches = nr;
	for (size_t i = 0; i < nr; i++) {
		build_bench(&d->benches[i], &list[i], nr_runs, top);
		free(list[i].taken);
	}
	free(list);
}

void profile_diff_release(struct profile_diff *d)
{
	for (size_t i = 0; i < d->nr_benches; i++) {
		for (size_t k = 0; k < d->benches[i].nr_rows; k++)
			row_release(&d->benches[i].rows[k]);
		free(d->benches[i].rows);
		free(d->benches[i].runs);
	}
	free(d->benches);
	for (size_t i = 0; i < d->nr_strings; i++)
		free(d->strings[i]);
	free(d->strings);
	free(d->nr_empty);
	free(d->nr_failed);
	memset(d, 0, sizeof(*d));
}

void profile_diff_why_none(const struct profile_diff *d, size_t r, const char *name,
			   bool profiled, char *buf, size_t len)
{
	size_t n = d->nr_empty[r];

	if (!n && profiled && d->nr_failed[r])
		snprintf(buf, len, "has no profile: it ran with a profile monitor, but each "
			 "iteration profiled failed, and a failed one keeps none (see "
			 "'schedperf show %.64s' for why they failed)", name);
	else if (!n && profiled)
		snprintf(buf, len, "has no profile: it ran with a profile monitor, which "
			 "took none (this user or kernel may not sample: the run said why)");
	else if (!n)
		snprintf(buf, len, "has no profile (run it with --monitors profile)");
	else
		snprintf(buf, len, "has %zu profile%s with not one sample in %s: its "
			 "iterations were shorter than the time between samples (raise "
			 "--profile-frequency, or the workload's length)", n, n == 1 ? "" : "s",
			 n == 1 ? "it" : "them");
}

bool profile_diff_has_run(const struct profile_diff *d, size_t r)
{
	for (size_t i = 0; i < d->nr_benches; i++)
		if (d->benches[i].runs[r].nr_profiles)
			return true;
	return false;
}
