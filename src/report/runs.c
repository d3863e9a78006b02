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
 * The benchmarks of run @name, from batch @first on: each workload with
 * its parameters once, however many batches ran it or entries of a
 * suite listed it (compare's rows are the same, a metric each).
 */
static size_t run_benchmarks(const struct result_set *set, size_t first, const char *name)
{
	const struct result_benchmark **all = NULL;
	size_t n = 0, distinct = 0;

	for (size_t i = first; i < set->nr_batches; i++) {
		const struct result_batch *b = &set->batches[i];

		if (strcmp(b->name, name))
			continue;
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

/* Batches come sorted by start time; a run's batches are gathered by name. */
static bool name_seen(const struct result_set *set, size_t upto, const char *name)
{
	for (size_t i = 0; i < upto; i++)
		if (!strcmp(set->batches[i].name, name))
			return true;
	return false;
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
	json_t *list = json_array();

	for (size_t i = 0; i < set->nr_batches; i++) {
		const char *name = set->batches[i].name;
		json_t *run, *batches;
		size_t samples = 0, disturbed = 0;

		if (name_seen(set, i, name))
			continue;
		run = json_object();
		batches = json_array();
		for (size_t j = i; j < set->nr_batches; j++) {
			const struct result_batch *b = &set->batches[j];
			json_t *bo;

			if (strcmp(b->name, name))
				continue;
			bo = json_object();
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
		json_object_set_new(run, "name", json_string(name));
		json_object_set_new(run, "batches", batches);
		json_object_set_new(run, "benchmarks",
				    json_integer((json_int_t)run_benchmarks(set, i, name)));
		json_object_set_new(run, "samples", json_integer((json_int_t)samples));
		json_object_set_new(run, "disturbed", json_integer((json_int_t)disturbed));
		json_array_append_new(list, run);
	}
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
 * The batches of run @name, from batch @first on, each with its machine
 * named as compare names it when it refuses two (machine_of_label() of
 * @m): the host name, and the start of the machine id when another
 * machine shown has the same host name.
 */
static void run_batches_text(FILE *out, const struct result_set *set, const struct machine_of *m,
			     size_t first, const char *name, int started_w)
{
	for (size_t j = first; j < set->nr_batches; j++) {
		const struct result_batch *b = &set->batches[j];
		char *label, *machine, *started;
		int pad;

		if (strcmp(b->name, name))
			continue;
		label = machine_of_label(&m[j]);
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

	if (!set->nr_batches) {
		fputs("no runs in the store yet (start one with 'schedperf run --suite quick')\n",
		      out);
		return;
	}
	m = machines_of(set);
	w = runs_widths(set);
	fprintf(out, "%-*s %8s %10s %8s %10s\n", w.name, "NAME", "BATCHES", "BENCHMARKS",
		"SAMPLES", "DISTURBED");
	for (size_t i = 0; i < set->nr_batches; i++) {
		const char *name = set->batches[i].name;
		size_t batches = 0, samples = 0, disturbed = 0;
		char *shown;

		if (name_seen(set, i, name))
			continue;
		for (size_t j = i; j < set->nr_batches; j++) {
			if (strcmp(set->batches[j].name, name))
				continue;
			batches++;
			samples += set->batches[j].nr_samples;
			disturbed += set->batches[j].nr_disturbed;
		}
		/* a name from a store older than utf8_plain()'s check may hold anything */
		shown = utf8_escaped(name);
		fprintf(out, "%s%*s %8zu %10zu %8zu %10zu\n", shown,
			w.name - (int)utf8_columns(shown), "", batches,
			run_benchmarks(set, i, name), samples, disturbed);
		free(shown);
		run_batches_text(out, set, m, i, name, w.started);
	}
	machines_of_free(m, set->nr_batches);
}

const struct output_format runs_formats[] = {
	{ { "text", NULL }, runs_text, false },
	{ { "json", NULL }, runs_json, true },
	{ { NULL, NULL }, NULL, false },
};
