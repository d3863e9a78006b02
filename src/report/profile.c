// SPDX-License-Identifier: GPL-2.0
/*
 * CPU profiles for people and for CI: 'show --profile' (one run's top
 * symbols) and 'compare --profile' (the symbols whose share moved most),
 * from the model analysis/profile_diff.c builds. Shares are percent of a
 * profile's samples, changes percentage points.
 */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>

#include "report/report.h"
#include "util/json_write.h"

/* The marks of a change against the first run; see the legend below. */
static char spread_mark(enum spread_verdict v)
{
	switch (v) {
	case SPREAD_BEYOND:
		return '*';
	case SPREAD_WITHIN:
		return ' ';
	case SPREAD_UNKNOWN:
		return '?';
	case SPREAD_NONE:
		break;
	}
	return ' ';
}

static void print_run_info(FILE *out, const char *label, const struct profile_run_info *info)
{
	size_t timed = info->nr_profiles - info->nr_extra;

	if (!info->nr_profiles) {
		fprintf(out, "    %s: no profile\n", label);
		return;
	}
	fprintf(out, "    %s: %zu profile%s of ", label, info->nr_profiles,
		info->nr_profiles == 1 ? "" : "s");
	if (timed && info->nr_extra)
		fprintf(out, "%zu timed and %zu extra iterations", timed, info->nr_extra);
	else
		fprintf(out, "%s iterations", info->nr_extra ? "extra (untimed)" : "timed");
	fprintf(out, ", %s, %llu samples", info->event ? info->event : "?",
		(unsigned long long)info->samples);
	if (info->lost)
		fprintf(out, ", %llu lost", (unsigned long long)info->lost);
	fputc('\n', out);
}

static void print_share(FILE *out, const struct share_stats *s)
{
	if (isnan(s->mean))
		fprintf(out, " %7s", "-");
	else
		fprintf(out, " %7.2f", s->mean);
}

static void print_change(FILE *out, const struct share_stats *base, const struct share_stats *s,
			 enum spread_verdict v)
{
	double change = s->mean - base->mean;

	if (isnan(change))
		fprintf(out, " %8s ", "-");
	else
		fprintf(out, " %+8.2f%c", change, spread_mark(v));
}

/* Each block (children, then self): a column per run, a change column after each but the first. */
static void print_heading(FILE *out, const char *const *names, size_t nr_runs)
{
	const char *const what[] = { "children %", "self %" };
	int width = (int)(8 * nr_runs + 10 * (nr_runs - 1));

	fputs("   ", out);
	for (int k = 0; k < 2; k++)
		fprintf(out, "%s%*s", k ? " " : "", width, what[k]);
	fputs("\n   ", out);
	for (int k = 0; k < 2; k++) {
		fputs(k ? " " : "", out);
		for (size_t r = 0; r < nr_runs; r++) {
			fprintf(out, " %7.7s", names[r]);
			if (r)
				fprintf(out, " %9s", "change");
		}
	}
	fputs("  symbol\n", out);
}

static void print_rows(FILE *out, const struct profile_bench *pb, const char *const *names,
		       size_t nr_runs)
{
	print_heading(out, names, nr_runs);
	for (size_t i = 0; i < pb->nr_rows; i++) {
		const struct profile_symbol_row *row = &pb->rows[i];

		fputs("   ", out);
		for (size_t r = 0; r < nr_runs; r++) {
			print_share(out, &row->children[r]);
			if (r)
				print_change(out, &row->children[0], &row->children[r],
					     row->children_spread[r]);
		}
		fputs(" ", out);
		for (size_t r = 0; r < nr_runs; r++) {
			print_share(out, &row->self[r]);
			if (r)
				print_change(out, &row->self[0], &row->self[r],
					     row->self_spread[r]);
		}
		fprintf(out, "  %s  %s\n", row->name, row->dso);
	}
}

void report_profile_text(FILE *out, const void *diff, const void *run_names)
{
	const struct profile_diff *d = diff;
	const char *const *names = run_names;

	for (size_t i = 0; i < d->nr_benches; i++) {
		const struct profile_bench *pb = &d->benches[i];
		char *params = params_display(pb->params);

		fprintf(out, "%s%s %s\n", i ? "\n" : "", pb->workload, params);
		free(params);
		for (size_t r = 0; r < d->nr_runs; r++)
			print_run_info(out, names[r], &pb->runs[r]);
		print_rows(out, pb, names, d->nr_runs);
	}
	if (d->nr_runs > 1 && d->nr_benches)
		fprintf(out, "\nShares are percent of samples, each run's mean over its profiles; "
			"a change is in\npercentage points against %s: * beyond the "
			"iteration-to-iteration spread\n(the ranges do not overlap), ? fewer "
			"than two profiles a side to tell.\n", names[0]);
}

static json_t *number(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *share_json(const struct share_stats *s)
{
	json_t *obj = json_object();

	json_object_set_new(obj, "mean", number(s->mean));
	json_object_set_new(obj, "min", number(s->min));
	json_object_set_new(obj, "max", number(s->max));
	return obj;
}

static json_t *symbol_json(const struct profile_symbol_row *row, size_t nr_runs,
			   const char *const *names)
{
	json_t *obj = json_object(), *runs = json_array();

	json_object_set_new(obj, "symbol", json_string(row->name));
	json_object_set_new(obj, "dso", json_string(row->dso));
	for (size_t r = 0; r < nr_runs; r++) {
		json_t *cell = json_object();

		json_object_set_new(cell, "name", json_string(names[r]));
		json_object_set_new(cell, "self_pct", share_json(&row->self[r]));
		json_object_set_new(cell, "children_pct", share_json(&row->children[r]));
		if (r) {
			json_object_set_new(cell, "self_change_pp",
					    number(row->self[r].mean - row->self[0].mean));
			json_object_set_new(cell, "children_change_pp",
					    number(row->children[r].mean - row->children[0].mean));
			json_object_set_new(cell, "self_spread",
					    json_string(spread_verdict_name(row->self_spread[r])));
			json_object_set_new(cell, "children_spread",
					    json_string(spread_verdict_name(
						    row->children_spread[r])));
		}
		json_array_append_new(runs, cell);
	}
	json_object_set_new(obj, "runs", runs);
	return obj;
}

static json_t *run_info_json(const struct profile_run_info *info, const char *name)
{
	json_t *obj = json_object();

	json_object_set_new(obj, "name", json_string(name));
	json_object_set_new(obj, "profiles", json_integer((json_int_t)info->nr_profiles));
	json_object_set_new(obj, "extra_iterations", json_integer((json_int_t)info->nr_extra));
	json_object_set_new(obj, "event", info->event ? json_string(info->event) : json_null());
	json_object_set_new(obj, "samples", json_integer((json_int_t)info->samples));
	json_object_set_new(obj, "lost", json_integer((json_int_t)info->lost));
	return obj;
}

void report_profile_json(FILE *out, const void *diff, const void *run_names)
{
	const struct profile_diff *d = diff;
	const char *const *names = run_names;
	json_t *doc = json_object(), *benches = json_array();

	json_object_set_new(doc, "schema", json_string("schedperf-profile/1"));
	json_object_set_new(doc, "baseline", json_string(names[0]));
	for (size_t i = 0; i < d->nr_benches; i++) {
		const struct profile_bench *pb = &d->benches[i];
		json_t *obj = json_object(), *runs = json_array(), *symbols = json_array();
		json_t *params = json_loads(pb->params, 0, NULL);

		json_object_set_new(obj, "workload", json_string(pb->workload));
		json_object_set_new(obj, "params", params ? params : json_object());
		for (size_t r = 0; r < d->nr_runs; r++)
			json_array_append_new(runs, run_info_json(&pb->runs[r], names[r]));
		json_object_set_new(obj, "runs", runs);
		for (size_t k = 0; k < pb->nr_rows; k++)
			json_array_append_new(symbols, symbol_json(&pb->rows[k], d->nr_runs, names));
		json_object_set_new(obj, "symbols", symbols);
		json_array_append_new(benches, obj);
	}
	json_object_set_new(doc, "benchmarks", benches);
	json_write(out, doc, 2);
	fputc('\n', out);
	json_decref(doc);
}

const struct output_format profile_formats[] = {
	{ { "text", NULL }, report_profile_text, false },
	{ { "json", "schedperf-profile/1" }, report_profile_json, true },
	{ { NULL, NULL }, NULL, false },
};
