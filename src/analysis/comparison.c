// SPDX-License-Identifier: GPL-2.0
/*
 * The comparison model: rows keyed by (workload, params, metric), the
 * metric by name, unit and direction (results/metric_key.h), one cell per
 * run with that run's samples pooled over its batches. Built by one
 * sort rather than nested searches, so a thousand benchmarks stay fast.
 */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/comparison.h"
#include "analysis/history.h"
#include "stats/batches.h"
#include "stats/sort.h"
#include "results/metric_key.h"
#include "util/utf8.h"
#include "util/xalloc.h"

struct occurrence {
	const char *workload;
	const char *params;	/* the key's: less the ignored parameters */
	const char *full_params;	/* the benchmark's */
	const struct result_metric *metric;
	size_t run;
	size_t batch;		/* its index in the run's set */
	size_t seq;		/* order of appearance, for stable output */
};

/* By key: workload, params, then the metric as metric_key_cmp() orders it. */
static int key_cmp(const struct occurrence *a, const struct occurrence *b)
{
	struct metric_key ka = metric_key_of(a->metric), kb = metric_key_of(b->metric);
	int c;

	if ((c = strcmp(a->workload, b->workload)) || (c = strcmp(a->params, b->params)))
		return c;
	return metric_key_cmp(&ka, &kb);
}

static int occurrence_cmp(const void *pa, const void *pb)
{
	const struct occurrence *a = pa, *b = pb;
	int c = key_cmp(a, b);

	if (c)
		return c;
	if (a->run != b->run)
		return a->run < b->run ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static bool same_key(const struct occurrence *a, const struct occurrence *b)
{
	return !key_cmp(a, b);
}

struct row_order {
	size_t first_seq;
	struct compare_row row;
};

static int row_order_cmp(const void *pa, const void *pb)
{
	const struct row_order *a = pa, *b = pb;

	return a->first_seq < b->first_seq ? -1 : a->first_seq > b->first_seq;
}

/* A string the comparison keeps until comparison_release(). */
static const char *keep_string(struct comparison *cmp, char *s)
{
	cmp->strings = xreallocarray(cmp->strings, cmp->nr_strings + 1, sizeof(char *));
	cmp->strings[cmp->nr_strings++] = s;
	return s;
}

/*
 * @params less the parameters @ignored, canonical as the store keeps
 * them (plan.c: compact, keys sorted); @params itself when it has none.
 */
static const char *params_without(struct comparison *cmp, const char *params,
				   const char *const *ignored)
{
	json_t *obj;
	bool removed = false;
	char *s;

	if (!ignored || !*ignored || !params || !(obj = json_loads(params, 0, NULL)))
		return params;
	for (; *ignored; ignored++)
		removed |= !json_object_del(obj, *ignored);
	s = removed ? json_dumps(obj, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	json_decref(obj);
	return s ? keep_string(cmp, s) : params;
}

static struct occurrence *collect(struct comparison *cmp, const struct compare_run *runs,
				  size_t nr_runs, bool all_metrics, size_t *nr)
{
	struct occurrence *occ = NULL;
	size_t n = 0, alloc = 0;

	for (size_t r = 0; r < nr_runs; r++) {
		const struct result_set *set = &runs[r].set;

		for (size_t b = 0; b < set->nr_batches; b++) {
			const struct result_batch *batch = &set->batches[b];

			for (size_t k = 0; k < batch->nr_benchmarks; k++) {
				const struct result_benchmark *bench = &batch->benchmarks[k];
				const char *params = params_without(cmp, bench->params,
								    cmp->ignored);

				for (size_t m = 0; m < bench->nr_metrics; m++) {
					const struct result_metric *metric = &bench->metrics[m];

					if (!all_metrics && metric->source &&
					    strcmp(metric->source, "workload"))
						continue;
					if (n == alloc) {
						alloc = alloc ? alloc * 2 : 256;
						occ = xreallocarray(occ, alloc, sizeof(*occ));
					}
					occ[n].workload = bench->workload;
					occ[n].params = params;
					occ[n].full_params = bench->params;
					occ[n].metric = metric;
					occ[n].run = r;
					occ[n].batch = b;
					occ[n].seq = n;
					n++;
				}
			}
		}
	}
	*nr = n;
	return occ;
}

/*
 * A batch is a block of the cell's samples. A benchmark its plan lists
 * twice (a suite naming it twice) is one benchmark measured twice in the
 * same batch: its occurrences come one after the other (sorted by seq,
 * which follows the batches) and share the block, so that a cell counts
 * batches, as runs does, and never takes one batch for two.
 */
static void add_samples(struct compare_cell *cell, const struct occurrence *o,
			size_t *last_batch)
{
	const struct result_metric *m = o->metric;

	if (!cell->nr_batches || *last_batch != o->batch) {
		cell->batch_sizes = xreallocarray(cell->batch_sizes, cell->nr_batches + 1,
						  sizeof(size_t));
		cell->batch_sizes[cell->nr_batches++] = 0;
		*last_batch = o->batch;
	}
	cell->batch_sizes[cell->nr_batches - 1] += m->nr_samples;
	if (!m->nr_samples)
		return;
	cell->samples = xreallocarray(cell->samples, cell->nr_samples + m->nr_samples,
				      sizeof(double));
	cell->disturbed = xreallocarray(cell->disturbed, cell->nr_samples + m->nr_samples,
					sizeof(bool));
	memcpy(cell->samples + cell->nr_samples, m->samples, m->nr_samples * sizeof(double));
	for (size_t i = 0; i < m->nr_samples; i++) {
		bool d = m->disturbed && m->disturbed[i];

		cell->disturbed[cell->nr_samples + i] = d;
		cell->nr_disturbed += d;
	}
	cell->nr_samples += m->nr_samples;
}

static void cell_summarize(struct compare_cell *cell, enum better better)
{
	struct batch_components bc;

	free(cell->sorted);
	cell->sorted = cell->nr_samples ? sorted_doubles(cell->samples, cell->nr_samples) : NULL;
	summary_compute_sorted(cell->samples, cell->sorted, cell->nr_samples,
			       better == BETTER_HIGHER, &cell->summary);
	batch_components(cell->samples, cell->batch_sizes, cell->nr_batches, &bc);
	cell->between_share = bc.between_share;
}

size_t compare_cell_batches(const struct compare_cell *c)
{
	size_t n = 0;

	for (size_t b = 0; b < c->nr_batches; b++)
		n += c->batch_sizes[b] > 0;
	return n;
}

bool compare_cells_too_few(const struct compare_cell *base, const struct compare_cell *cell)
{
	return base->nr_samples < COMPARE_MIN_SAMPLES || cell->nr_samples < COMPARE_MIN_SAMPLES;
}

size_t compare_run_incomplete(const struct compare_run *run)
{
	size_t n = 0;

	for (size_t b = 0; b < run->set.nr_batches; b++)
		n += !run->set.batches[b].complete;
	return n;
}

static void cell_exclude_disturbed(struct compare_cell *cell)
{
	size_t out = 0, at = 0;

	for (size_t b = 0; b < cell->nr_batches; b++) {
		size_t kept = 0;

		for (size_t i = at; i < at + cell->batch_sizes[b]; i++) {
			if (cell->disturbed[i])
				continue;
			cell->samples[out] = cell->samples[i];
			cell->disturbed[out++] = false;
			kept++;
		}
		at += cell->batch_sizes[b];
		cell->batch_sizes[b] = kept;
	}
	cell->nr_excluded += cell->nr_samples - out;
	cell->nr_samples = out;
}

void comparison_exclude_disturbed(struct comparison *cmp)
{
	for (size_t i = 0; i < cmp->nr_rows; i++) {
		struct compare_row *row = &cmp->rows[i];

		for (size_t r = 0; r < cmp->nr_runs; r++) {
			if (!row->cells[r].nr_disturbed)
				continue;
			cell_exclude_disturbed(&row->cells[r]);
			cell_summarize(&row->cells[r], row->metric->better);
		}
	}
}

static bool same_params(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/*
 * Occurrence @o joins its row's cell: the first of its run gives the
 * cell's parameters; one of other parameters (two benchmarks made one row
 * by an ignored parameter) is the row's clash.
 */
static void add_occurrence(struct compare_row *row, const struct occurrence *o,
			   size_t *last_batch)
{
	struct compare_cell *cell = &row->cells[o->run];

	if (!cell->params)
		cell->params = o->full_params ? o->full_params : "{}";
	else if (!row->clash && !same_params(cell->params, o->full_params ?
					     o->full_params : "{}")) {
		row->clash = o->full_params;
		row->clash_run = o->run;
	}
	add_samples(cell, o, last_batch);
}

void comparison_build(struct comparison *cmp, const struct compare_run *runs,
		      size_t nr_runs, bool all_metrics)
{
	comparison_build_ignoring(cmp, runs, nr_runs, all_metrics, NULL);
}

void comparison_build_ignoring(struct comparison *cmp, const struct compare_run *runs,
			       size_t nr_runs, bool all_metrics, const char *const *ignored)
{
	struct row_order *rows = NULL;
	struct occurrence *occ;
	size_t nr_occ, nr_rows = 0;

	memset(cmp, 0, sizeof(*cmp));
	cmp->runs = runs;
	cmp->nr_runs = nr_runs;
	cmp->ignored = ignored && *ignored ? ignored : NULL;
	occ = collect(cmp, runs, nr_runs, all_metrics, &nr_occ);
	if (nr_occ)
		qsort(occ, nr_occ, sizeof(*occ), occurrence_cmp);

	for (size_t i = 0; i < nr_occ;) {
		struct row_order *ro;
		size_t j, last_batch = 0;

		rows = xreallocarray(rows, nr_rows + 1, sizeof(*rows));
		ro = &rows[nr_rows++];
		ro->first_seq = occ[i].seq;
		ro->row = (struct compare_row){
			.workload = occ[i].workload, .params = occ[i].params,
			.metric = occ[i].metric,
			.cells = xcalloc(nr_runs, sizeof(struct compare_cell)),
		};
		for (j = i; j < nr_occ && same_key(&occ[i], &occ[j]); j++) {
			if (occ[j].seq < ro->first_seq)
				ro->first_seq = occ[j].seq;
			add_occurrence(&ro->row, &occ[j], &last_batch);
		}
		i = j;
	}
	free(occ);
	if (nr_rows)
		qsort(rows, nr_rows, sizeof(*rows), row_order_cmp);

	cmp->rows = xcalloc(nr_rows ? nr_rows : 1, sizeof(*cmp->rows));
	cmp->nr_rows = nr_rows;
	for (size_t i = 0; i < nr_rows; i++) {
		struct compare_row *row = &cmp->rows[i];

		*row = rows[i].row;
		for (size_t r = 0; r < nr_runs; r++) {
			cell_summarize(&row->cells[r], row->metric->better);
			/* analysed later, if at all: undefined until then */
			row->cells[r].stats = (struct cell_stats){
				.median_low = NAN, .median_high = NAN, .p_welch = NAN,
				.p_mwu = NAN, .p_test = NAN, .p_adjusted = NAN,
				.ratio_low = NAN, .ratio_high = NAN, .hl_shift = NAN,
				.hl_low = NAN, .hl_high = NAN, .mde_pct = NAN,
				.p_batch = NAN, .batch_spread = NAN,
			};
		}
	}
	free(rows);
}

static void row_release(struct compare_row *row, size_t nr_runs)
{
	for (size_t r = 0; r < nr_runs; r++) {
		free(row->cells[r].samples);
		free(row->cells[r].sorted);
		free(row->cells[r].disturbed);
		free(row->cells[r].batch_sizes);
	}
	free(row->cells);
}

void comparison_release(struct comparison *cmp)
{
	for (size_t i = 0; i < cmp->nr_rows; i++)
		row_release(&cmp->rows[i], cmp->nr_runs);
	free(cmp->rows);
	for (size_t i = 0; i < cmp->nr_env_diffs; i++) {
		for (size_t r = 0; r < cmp->nr_runs; r++)
			free(cmp->env_diffs[i].values[r]);
		free(cmp->env_diffs[i].values);
	}
	free(cmp->env_diffs);
	for (size_t i = 0; i < cmp->nr_strings; i++)
		free(cmp->strings[i]);
	free(cmp->strings);
	memset(cmp, 0, sizeof(*cmp));
}

/* Whether @params (canonical JSON) has the key @name. */
static bool params_have(const char *params, const char *name)
{
	json_t *obj = params ? json_loads(params, 0, NULL) : NULL;
	bool has = obj && json_object_get(obj, name);

	json_decref(obj);
	return has;
}

const char *comparison_ignored_unknown(const struct comparison *cmp)
{
	for (const char *const *name = cmp->ignored; name && *name; name++) {
		bool found = false;

		for (size_t r = 0; r < cmp->nr_runs && !found; r++) {
			const struct result_set *set = &cmp->runs[r].set;

			for (size_t b = 0; b < set->nr_batches && !found; b++)
				for (size_t k = 0; k < set->batches[b].nr_benchmarks && !found; k++)
					found = params_have(set->batches[b].benchmarks[k].params,
							    *name);
		}
		if (!found)
			return *name;
	}
	return NULL;
}

const struct compare_row *comparison_clash(const struct comparison *cmp)
{
	for (size_t i = 0; i < cmp->nr_rows; i++)
		if (cmp->rows[i].clash)
			return &cmp->rows[i];
	return NULL;
}

static bool listed(const char *const *names, const char *name)
{
	if (!names || !names[0])
		return true;
	for (; *names; names++)
		if (utf8_names(*names, name))
			return true;
	return false;
}

/* Keep the rows @keep says yes to, in order; free the others. */
static void keep_rows(struct comparison *cmp, bool (*keep)(const struct comparison *,
		      const struct compare_row *, const void *), const void *arg)
{
	size_t out = 0;

	for (size_t i = 0; i < cmp->nr_rows; i++) {
		if (keep(cmp, &cmp->rows[i], arg))
			cmp->rows[out++] = cmp->rows[i];
		else
			row_release(&cmp->rows[i], cmp->nr_runs);
	}
	cmp->nr_rows = out;
}

struct row_filter {
	const char *const *workload_names, *const *metric_names, *const *params;
};

static bool row_selected(const struct comparison *cmp, const struct compare_row *row,
			 const void *arg)
{
	const struct row_filter *f = arg;

	return listed(f->workload_names, row->workload) &&
	       listed(f->metric_names, row->metric->name) && params_match(f->params, row->params);
}

/* The first KEY=VALUE of @params that no row has. */
static const char *unmatched_param(const struct comparison *cmp, const char *const *params)
{
	for (; params && *params; params++) {
		const char *one[] = { *params, NULL };
		size_t i = 0;

		while (i < cmp->nr_rows && !params_match(one, cmp->rows[i].params))
			i++;
		if (i == cmp->nr_rows)
			return *params;
	}
	return NULL;
}

/* The first of @names that no row has: @of gives a row's name. */
static const char *unmatched(const struct comparison *cmp, const char *const *names,
			     const char *(*of)(const struct compare_row *row))
{
	for (; names && *names; names++) {
		size_t i = 0;

		while (i < cmp->nr_rows && !utf8_names(*names, of(&cmp->rows[i])))
			i++;
		if (i == cmp->nr_rows)
			return *names;
	}
	return NULL;
}

static const char *row_workload(const struct compare_row *row)
{
	return row->workload;
}

static const char *row_metric(const struct compare_row *row)
{
	return row->metric->name;
}

const char *comparison_filter(struct comparison *cmp, const char *const *workload_names,
			      const char *const *metric_names, const char *const *params,
			      const char **kind)
{
	struct row_filter f = { workload_names, metric_names, params };
	const char *missing = unmatched(cmp, workload_names, row_workload);

	*kind = "--workload";
	if (!missing) {
		missing = unmatched(cmp, metric_names, row_metric);
		*kind = "--metric";
	}
	if (!missing) {
		missing = unmatched_param(cmp, params);
		*kind = "-p";
	}
	keep_rows(cmp, row_selected, &f);
	return missing;
}

static bool row_changed(const struct comparison *cmp, const struct compare_row *row,
			const void *arg)
{
	for (size_t r = 1; r < cmp->nr_runs; r++)
		if (row->cells[r].stats.verdict == VERDICT_BETTER ||
		    row->cells[r].stats.verdict == VERDICT_WORSE)
			return true;
	return false;
}

void comparison_keep_changed(struct comparison *cmp)
{
	keep_rows(cmp, row_changed, NULL);
}

double compare_headline(const struct summary *s, enum better better)
{
	return better == BETTER_HIGHER ? s->hmean : s->amean;
}

bool comparison_metric_name_shared(const struct comparison *cmp, const struct result_metric *m)
{
	for (size_t i = 0; i < cmp->nr_rows; i++)
		if (!strcmp(cmp->rows[i].metric->name, m->name) &&
		    !result_metric_same(cmp->rows[i].metric, m))
			return true;
	return false;
}
