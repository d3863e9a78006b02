// SPDX-License-Identifier: GPL-2.0
/*
 * The runs of a store (runs_formats[], report.h): each name with its
 * batches, benchmarks, samples and disturbed iterations, as a table for
 * people or as JSON. The samples and disturbed iterations are the counts
 * the store made (STORE_COUNTS), not read.
 */
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/machines.h"
#include "report/report.h"
#include "util/json_write.h"
#include "util/utf8.h"
#include "util/xalloc.h"

static int benchmark_cmp(const void *pa, const void *pb)
{
	const struct result_benchmark *a = *(const struct result_benchmark *const *)pa;
	const struct result_benchmark *b = *(const struct result_benchmark *const *)pb;
	int c = strcmp(a->workload, b->workload);

	return c ? c : strcmp(a->params, b->params);
}

/*
 * The runs of @set: its batches' indexes gathered by name, each run's in
 * start order, the runs in the order of their first batches (the batches
 * come sorted by start time).
 */
struct run_group {
	const size_t *at;	/* indexes in set->batches */
	size_t nr;
};

struct runs_order {
	size_t *at;
	struct run_group *runs;
	size_t nr_runs;
};

static int by_name_cmp(const void *pa, const void *pb, void *set)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	const struct result_batch *batches = ((const struct result_set *)set)->batches;
	int c = strcmp(batches[a].name, batches[b].name);

	return c ? c : (a > b) - (a < b);
}

static int by_first_cmp(const void *pa, const void *pb)
{
	size_t a = ((const struct run_group *)pa)->at[0];
	size_t b = ((const struct run_group *)pb)->at[0];

	return (a > b) - (a < b);
}

static struct runs_order runs_order(const struct result_set *set)
{
	struct runs_order o = { xreallocarray(NULL, set->nr_batches + 1, sizeof(*o.at)),
				xreallocarray(NULL, set->nr_batches + 1, sizeof(*o.runs)), 0 };

	for (size_t i = 0; i < set->nr_batches; i++)
		o.at[i] = i;
	qsort_r(o.at, set->nr_batches, sizeof(*o.at), by_name_cmp, (void *)set);
	for (size_t i = 0; i < set->nr_batches; i++) {
		if (!i || strcmp(set->batches[o.at[i - 1]].name, set->batches[o.at[i]].name))
			o.runs[o.nr_runs++] = (struct run_group){ &o.at[i], 0 };
		o.runs[o.nr_runs - 1].nr++;
	}
	qsort(o.runs, o.nr_runs, sizeof(*o.runs), by_first_cmp);
	return o;
}

static void runs_order_release(struct runs_order *o)
{
	free(o->at);
	free(o->runs);
}

/*
 * The benchmarks of run @r: each workload with its parameters once,
 * however many batches ran it or entries of a suite listed it (compare's
 * rows are the same, a metric each).
 */
static size_t run_benchmarks(const struct result_set *set, const struct run_group *r)
{
	const struct result_benchmark **all = NULL;
	size_t n = 0, distinct = 0;

	for (size_t i = 0; i < r->nr; i++) {
		const struct result_batch *b = &set->batches[r->at[i]];

		all = xreallocarray(all, n + b->nr_benchmarks + 1, sizeof(*all));
		for (size_t k = 0; k < b->nr_benchmarks; k++)
			all[n++] = &b->benchmarks[k];
	}
	if (n)
		qsort(all, n, sizeof(*all), benchmark_cmp);
	for (size_t i = 0; i < n; i++)
		distinct += !i || benchmark_cmp(&all[i - 1], &all[i]);
	free(all);
	return distinct;
}

/* The machine id @b recorded, in full; null when it recorded none. */
static json_t *machine_id_json(const struct result_batch *b)
{
	const char *id = result_batch_env(b, "machine.id");

	return id && *id ? json_string(id) : json_null();
}

static void runs_json(FILE *out, const void *records, const void *how)
{
	const struct result_set *set = records;
	struct runs_order o = runs_order(set);
	json_t *list = json_array();

	for (size_t i = 0; i < o.nr_runs; i++) {
		const struct run_group *r = &o.runs[i];
		json_t *run = json_object(), *batches = json_array();
		size_t samples = 0, disturbed = 0;

		for (size_t j = 0; j < r->nr; j++) {
			const struct result_batch *b = &set->batches[r->at[j]];
			json_t *bo = json_object();

			json_object_set_new(bo, "id", json_integer(b->id));
			json_object_set_new(bo, "started", json_string(b->started));
			json_object_set_new(bo, "machine", json_string(batch_machine_name(b)));
			json_object_set_new(bo, "machine_id", machine_id_json(b));
			json_object_set_new(bo, "complete", json_boolean(b->complete));
			json_object_set_new(bo, "disturbed",
					    json_integer((json_int_t)b->nr_disturbed));
			json_array_append_new(batches, bo);
			samples += b->nr_samples;
			disturbed += b->nr_disturbed;
		}
		json_object_set_new(run, "name", json_string(set->batches[r->at[0]].name));
		json_object_set_new(run, "batches", batches);
		json_object_set_new(run, "benchmarks",
				    json_integer((json_int_t)run_benchmarks(set, r)));
		json_object_set_new(run, "samples", json_integer((json_int_t)samples));
		json_object_set_new(run, "disturbed", json_integer((json_int_t)disturbed));
		json_array_append_new(list, run);
	}
	runs_order_release(&o);
	json_write(out, list, 2);
	fputc('\n', out);
	json_decref(list);
}

/*
 * The widths of the text's columns over every batch shown: the names (at
 * least 32 characters, escaped as shown), and the start times, of 20
 * characters when imported to the second, 27 when run stored them.
 */
struct runs_widths {
	int name, started;
};

static struct runs_widths runs_widths(const struct result_set *set)
{
	struct runs_widths w = { 32, 20 };

	for (size_t i = 0; i < set->nr_batches; i++) {
		char *shown = utf8_escaped(set->batches[i].name);
		char *started_shown = utf8_escaped(set->batches[i].started);
		int len = (int)utf8_columns(shown), started = (int)utf8_columns(started_shown);

		w.name = len > w.name ? len : w.name;
		w.started = started > w.started ? started : w.started;
		free(shown);
		free(started_shown);
	}
	return w;
}

/*
 * The batches of run @r, each with its machine named as compare names it
 * when it refuses two (machine_of_label() of @m): the host name, and the
 * start of the machine id when another machine shown has the same host
 * name.
 */
static void run_batches_text(FILE *out, const struct result_set *set, const struct machine_of *m,
			     const struct run_group *r, int started_w)
{
	for (size_t j = 0; j < r->nr; j++) {
		const struct result_batch *b = &set->batches[r->at[j]];
		char *label, *machine, *started;
		int pad;

		label = machine_of_label(&m[r->at[j]]);
		/* a host name is the machine's to choose: escaped, as every value shown */
		machine = utf8_escaped(label);
		/* and a start a store another program wrote: import refuses such a one */
		started = utf8_escaped(b->started);
		pad = started_w - (int)utf8_columns(started);
		fprintf(out, "    batch %-6lld %s%*s  %-10s  %s", (long long)b->id, started,
			pad > 0 ? pad : 0, "", b->complete ? "complete" : "incomplete", machine);
		free(started);
		free(machine);
		free(label);
		if (b->nr_disturbed)
			fprintf(out, ", %zu disturbed", b->nr_disturbed);
		fputc('\n', out);
	}
}

static void runs_text(FILE *out, const void *records, const void *how)
{
	const struct result_set *set = records;
	struct machine_of *m;
	struct runs_widths w;
	struct runs_order o;

	if (!set->nr_batches) {
		fputs("no runs in the store yet (start one with 'schedperf run --suite quick')\n",
		      out);
		return;
	}
	m = machines_of(set);
	w = runs_widths(set);
	o = runs_order(set);
	fprintf(out, "%-*s %8s %10s %8s %10s\n", w.name, "NAME", "BATCHES", "BENCHMARKS",
		"SAMPLES", "DISTURBED");
	for (size_t i = 0; i < o.nr_runs; i++) {
		const struct run_group *r = &o.runs[i];
		size_t samples = 0, disturbed = 0;
		char *shown;

		for (size_t j = 0; j < r->nr; j++) {
			samples += set->batches[r->at[j]].nr_samples;
			disturbed += set->batches[r->at[j]].nr_disturbed;
		}
		/* a name from a store older than utf8_plain()'s check may hold anything */
		shown = utf8_escaped(set->batches[r->at[0]].name);
		fprintf(out, "%s%*s %8zu %10zu %8zu %10zu\n", shown,
			w.name - (int)utf8_columns(shown), "", r->nr, run_benchmarks(set, r),
			samples, disturbed);
		free(shown);
		run_batches_text(out, set, m, r, w.started);
	}
	runs_order_release(&o);
	machines_of_free(m, set->nr_batches);
}

const struct output_format runs_formats[] = {
	{ { "text", NULL }, runs_text, false },
	{ { "json", NULL }, runs_json, true },
	{ { NULL, NULL }, NULL, false },
};
