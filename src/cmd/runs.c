// SPDX-License-Identifier: GPL-2.0
/* schedperf runs: the runs in the store, with their batches. */
#include <getopt.h>
#include <stdbool.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "analysis/machines.h"
#include "cmd/cmd.h"
#include "report/report.h"
#include "store/store.h"
#include "util/json_write.h"

static const struct cmd_usage runs_usage = {
	"usage: schedperf runs [--machine PATTERN] [--format text|json]\n"
	"\n"
	"List the runs in the store: each name with its batches (start time, the\n"
	"machine it ran on and whether every planned iteration completed), its\n"
	"benchmarks and samples. JSON: [{\"name\", \"batches\": [{\"id\",\n"
	"\"started\", \"machine\", \"complete\", \"disturbed\"}], \"samples\",\n"
	"\"disturbed\"}]; disturbed counts measured iterations that other tasks\n"
	"disturbed (see 'schedperf run --max-interference').\n",
	NULL,
};

static size_t batch_samples(const struct result_batch *b)
{
	size_t n = 0;

	for (size_t i = 0; i < b->nr_benchmarks; i++)
		for (size_t m = 0; m < b->benchmarks[i].nr_metrics; m++)
			if (!strcmp(b->benchmarks[i].metrics[m].source, "workload"))
				n += b->benchmarks[i].metrics[m].nr_samples;
	return n;
}

static size_t batch_disturbed(const struct result_batch *b)
{
	struct disturbance d;

	disturbance_summarize(b, DISTURBANCE_ALL, &d);
	return d.disturbed;
}

/* Batches come sorted by start time; a run's batches are gathered by name. */
static bool name_seen(const struct result_set *set, size_t upto, const char *name)
{
	for (size_t i = 0; i < upto; i++)
		if (!strcmp(set->batches[i].name, name))
			return true;
	return false;
}

static void print_json(const struct result_set *set)
{
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
			json_object_set_new(bo, "complete", json_boolean(b->complete));
			json_object_set_new(bo, "disturbed",
					    json_integer((json_int_t)batch_disturbed(b)));
			json_array_append_new(batches, bo);
			samples += batch_samples(b);
			disturbed += batch_disturbed(b);
		}
		json_object_set_new(run, "name", json_string(name));
		json_object_set_new(run, "batches", batches);
		json_object_set_new(run, "samples", json_integer((json_int_t)samples));
		json_object_set_new(run, "disturbed", json_integer((json_int_t)disturbed));
		json_array_append_new(list, run);
	}
	json_write(stdout, list, 2);
	putchar('\n');
	json_decref(list);
}

static void print_text(const struct result_set *set)
{
	if (!set->nr_batches) {
		printf("no runs in the store yet (start one with 'schedperf run --suite quick')\n");
		return;
	}
	printf("%-32s %8s %10s %8s %10s\n", "NAME", "BATCHES", "BENCHMARKS", "SAMPLES",
	       "DISTURBED");
	for (size_t i = 0; i < set->nr_batches; i++) {
		const char *name = set->batches[i].name;
		size_t batches = 0, benchmarks = 0, samples = 0, disturbed = 0;

		if (name_seen(set, i, name))
			continue;
		for (size_t j = i; j < set->nr_batches; j++) {
			if (strcmp(set->batches[j].name, name))
				continue;
			batches++;
			benchmarks += set->batches[j].nr_benchmarks;
			samples += batch_samples(&set->batches[j]);
			disturbed += batch_disturbed(&set->batches[j]);
		}
		printf("%-32s %8zu %10zu %8zu %10zu\n", name, batches, benchmarks, samples,
		       disturbed);
		for (size_t j = i; j < set->nr_batches; j++) {
			const struct result_batch *b = &set->batches[j];

			if (strcmp(b->name, name))
				continue;
			printf("    batch %-6lld %s  %-10s  %s", (long long)b->id, b->started,
			       b->complete ? "complete" : "incomplete", batch_machine_name(b));
			if (batch_disturbed(b))
				printf(", %zu disturbed", batch_disturbed(b));
			putchar('\n');
		}
	}
}

int cmd_runs(int argc, char **argv)
{
	static const char *const text_or_json[] = { "text", "json", NULL };
	struct result_set set = { NULL, 0 };
	struct store *st = NULL;
	struct error err = { 0 };
	const char *format = "text", *machine = NULL;
	const struct cmd_option options[] = {
		OPT_STRING(0, "machine", &machine, "PATTERN", "only the batches of the "
			   "machines whose host name or machine id PATTERN matches (* and ?)"),
		OPT_STRING(0, "format", &format, "FORMAT", "text (default) or json"),
		OPT_END(),
	};
	int code = EXIT_OK;

	if (parse_options(argc, argv, options, &runs_usage, &code))
		return code;
	if ((code = command_check_format("runs", format, text_or_json)))
		return code;
	if (optind < argc)
		return command_usage_error("runs", "unexpected argument '%.64s'", argv[optind]);
	if (store_open_existing(global.db, &st, &err) ||
	    store_load(st, NULL, STORE_SAMPLES | STORE_ITERATIONS, &set, &err)) {
		code = error_report(&err);
		goto out;
	}
	if (machine && set.nr_batches && !machines_keep_matching(&set, machine) &&
	    strcmp(format, "json"))
		printf("no batch in the store ran on a machine matching '%s'\n", machine);
	else if (!strcmp(format, "json"))
		print_json(&set);
	else
		print_text(&set);
out:
	result_set_release(&set);
	store_close(st);
	return code;
}
