// SPDX-License-Identifier: GPL-2.0
/*
 * schedperf-compare/1: the comparison as JSON for CI. Undefined statistics
 * are null, never NaN (which JSON cannot carry).
 */
#include <jansson.h>
#include <math.h>
#include <stdint.h>

#include "report/report.h"
#include "util/array.h"
#include "util/json_write.h"

static json_t *number(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *pair(double low, double high)
{
	json_t *a = json_array();

	json_array_append_new(a, number(low));
	json_array_append_new(a, number(high));
	return a;
}

/* The keys a non-baseline run adds: tests, intervals, verdict, caveats. */
static void against_baseline(json_t *obj, const struct comparison *cmp,
			     const struct cell_stats *st, size_t r)
{
	const char *keys[COMPARE_MAX_CAVEATS];
	size_t n = comparison_caveats(cmp, r, keys, ARRAY_SIZE(keys));
	json_t *caveats = json_array();

	json_object_set_new(obj, "p_welch", number(st->p_welch));
	json_object_set_new(obj, "p_mwu", number(st->p_mwu));
	json_object_set_new(obj, "p_adjusted", number(st->p_adjusted));
	json_object_set_new(obj, "ratio_ci", pair(st->ratio_low, st->ratio_high));
	json_object_set_new(obj, "hl_shift", number(st->hl_shift));
	json_object_set_new(obj, "hl_ci", pair(st->hl_low, st->hl_high));
	json_object_set_new(obj, "mde_pct", number(st->mde_pct));
	json_object_set_new(obj, "verdict", st->verdict == VERDICT_NONE ? json_null() :
			    json_string(verdict_name(st->verdict)));
	json_object_set_new(obj, "tested_on", json_string(st->batched ? "batch means" :
							  "samples"));
	json_object_set_new(obj, "p_batch", number(st->p_batch));
	json_object_set_new(obj, "batch_spread", number(st->batch_spread));
	json_object_set_new(obj, "within_batch_spread", json_boolean(st->within_spread));
	for (size_t i = 0; i < n && i < ARRAY_SIZE(keys); i++)
		json_array_append_new(caveats, json_string(keys[i]));
	json_object_set_new(obj, "env_caveats", caveats);
}

static json_t *env_json(const struct comparison *cmp)
{
	json_t *diffs = json_array();

	for (size_t i = 0; i < cmp->nr_env_diffs; i++) {
		const struct env_difference *d = &cmp->env_diffs[i];
		json_t *obj = json_object(), *values = json_object();

		for (size_t r = 0; r < cmp->nr_runs; r++)
			json_object_set_new(values, cmp->runs[r].name, d->values[r] ?
					    json_string(d->values[r]) : json_null());
		json_object_set_new(obj, "key", json_string(d->key));
		json_object_set_new(obj, "values", values);
		json_object_set_new(obj, "moves_results", json_boolean(d->moves_results));
		json_array_append_new(diffs, obj);
	}
	return diffs;
}

static json_t *cell_json(const struct comparison *cmp, const struct compare_row *row, size_t r)
{
	const struct summary *s = &row->cells[r].summary;
	bool higher = row->metric->better == BETTER_HIGHER;
	json_t *obj = json_object();

	json_object_set_new(obj, "name", json_string(cmp->runs[r].name));
	json_object_set_new(obj, "n", json_integer((json_int_t)s->n));
	json_object_set_new(obj, "min", number(s->min));
	json_object_set_new(obj, "max", number(s->max));
	json_object_set_new(obj, "amean", number(s->amean));
	json_object_set_new(obj, "hmean", number(s->hmean));
	json_object_set_new(obj, "gmean", number(s->gmean));
	json_object_set_new(obj, "median", number(s->median));
	json_object_set_new(obj, "stddev", number(s->stddev));
	json_object_set_new(obj, "coeffvar", number(s->coeffvar));
	for (int i = 0; i < SUMMARY_NR_BMEANS; i++) {
		char key[16];

		snprintf(key, sizeof(key), "bmean_%d", summary_bmean_percents[i]);
		json_object_set_new(obj, key, number(s->bmean[i]));
	}
	json_object_set_new(obj, "median_ci", pair(row->cells[r].stats.median_low,
						   row->cells[r].stats.median_high));
	json_object_set_new(obj, "batches",
			    json_integer((json_int_t)compare_cell_batches(&row->cells[r])));
	json_object_set_new(obj, "between_batch_share", number(row->cells[r].between_share));
	json_object_set_new(obj, "disturbed", json_integer((json_int_t)row->cells[r].nr_disturbed));
	json_object_set_new(obj, "excluded", json_integer((json_int_t)row->cells[r].nr_excluded));
	if (r > 0) {
		const struct summary *base = &row->cells[0].summary;

		json_object_set_new(obj, "pct_change", number(summary_pct_change(
			compare_headline(base, row->metric->better),
			compare_headline(s, row->metric->better), higher)));
		against_baseline(obj, cmp, &row->cells[r].stats, r);
	}
	return obj;
}

/* What decided the verdicts, so that a CI log can be reproduced. */
/* Per run: its batches and its samples from disturbed iterations, in the rows shown. */
static json_t *runs_json(const struct comparison *cmp)
{
	json_t *runs = json_array();

	for (size_t r = 0; r < cmp->nr_runs; r++) {
		size_t disturbed = 0, excluded = 0, samples = 0;

		for (size_t i = 0; i < cmp->nr_rows; i++) {
			const struct compare_cell *c = &cmp->rows[i].cells[r];

			disturbed += c->nr_disturbed;
			excluded += c->nr_excluded;
			samples += c->nr_samples + c->nr_excluded;
		}
		json_array_append_new(runs, json_pack("{s:s, s:I, s:I, s:I, s:I}",
						      "name", cmp->runs[r].name,
						      "batches", (json_int_t)cmp->runs[r].set.nr_batches,
						      "samples", (json_int_t)samples,
						      "disturbed", (json_int_t)disturbed,
						      "excluded", (json_int_t)excluded));
	}
	return runs;
}

static json_t *settings_json(const struct comparison *cmp)
{
	static const char *const adjust[] = { "none", "holm", "bh" };
	const struct compare_options *o = &cmp->opts;
	json_t *obj = json_object();

	json_object_set_new(obj, "alpha", number(o->alpha));
	json_object_set_new(obj, "confidence", number(cmp->level));
	json_object_set_new(obj, "margin_pct", number(o->margin * 100));
	json_object_set_new(obj, "adjust", json_string(adjust[o->adjust]));
	json_object_set_new(obj, "test", json_string("welch"));
	json_object_set_new(obj, "resamples", json_integer((json_int_t)o->resamples));
	/* JSON integers are signed 64-bit here: larger seeds as text */
	json_object_set_new(obj, "seed", o->seed <= INT64_MAX ? json_integer((json_int_t)o->seed) :
			    json_sprintf("%llu", (unsigned long long)o->seed));
	return obj;
}

void report_compare_json(FILE *out, const struct comparison *cmp,
			 const struct compare_render *how)
{
	json_t *doc = json_object(), *rows = json_array();

	json_object_set_new(doc, "schema", json_string("schedperf-compare/1"));
	json_object_set_new(doc, "baseline", json_string(cmp->runs[0].name));
	json_object_set_new(doc, "settings", settings_json(cmp));
	json_object_set_new(doc, "runs", runs_json(cmp));
	json_object_set_new(doc, "environment_differences", env_json(cmp));
	for (size_t i = 0; i < cmp->nr_rows; i++) {
		const struct compare_row *row = &cmp->rows[i];
		json_t *obj = json_object(), *runs = json_array();
		json_t *params = json_loads(row->params, 0, NULL);

		json_object_set_new(obj, "workload", json_string(row->workload));
		json_object_set_new(obj, "params", params ? params : json_object());
		json_object_set_new(obj, "metric", json_string(row->metric->name));
		json_object_set_new(obj, "unit", json_string(row->metric->unit));
		json_object_set_new(obj, "better", json_string(better_name(row->metric->better)));
		for (size_t r = 0; r < cmp->nr_runs; r++)
			json_array_append_new(runs, cell_json(cmp, row, r));
		json_object_set_new(obj, "runs", runs);
		json_array_append_new(rows, obj);
	}
	json_object_set_new(doc, "rows", rows);
	json_write(out, doc, 2);
	fputc('\n', out);
	json_decref(doc);
}
