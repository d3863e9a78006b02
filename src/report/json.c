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
#include "util/utf8.h"

static void pair(struct json_writer *w, const char *key, double low, double high)
{
	jw_key(w, key);
	jw_array(w);
	jw_number(w, NULL, low);
	jw_number(w, NULL, high);
	jw_close(w);
}

static void integer(struct json_writer *w, const char *key, long long v)
{
	jw_key(w, key);
	jw_integer(w, v);
}

static void string(struct json_writer *w, const char *key, const char *s)
{
	jw_key(w, key);
	jw_string(w, s);
}

/* The keys a non-baseline run adds: tests, intervals, verdict, caveats. */
static void against_baseline(struct json_writer *w, const struct comparison *cmp,
			     const struct cell_stats *st, size_t r)
{
	const char *keys[COMPARE_MAX_CAVEATS];
	size_t n = comparison_caveats(cmp, r, keys, ARRAY_SIZE(keys));

	jw_number(w, "p_welch", st->p_welch);
	jw_number(w, "p_mwu", st->p_mwu);
	jw_number(w, "p_adjusted", st->p_adjusted);
	pair(w, "ratio_ci", st->ratio_low, st->ratio_high);
	jw_number(w, "hl_shift", st->hl_shift);
	pair(w, "hl_ci", st->hl_low, st->hl_high);
	jw_number(w, "mde_pct", st->mde_pct);
	jw_key(w, "verdict");
	if (st->verdict == VERDICT_NONE)
		jw_null(w);
	else
		jw_string(w, verdict_name(st->verdict));
	string(w, "tested_on", st->batched ? "batch means" : "samples");
	jw_number(w, "p_batch", st->p_batch);
	jw_number(w, "batch_spread", st->batch_spread);
	jw_key(w, "within_batch_spread");
	jw_bool(w, st->within_spread);
	jw_key(w, "too_few_samples");
	jw_bool(w, st->too_few);
	jw_key(w, "env_caveats");
	jw_array(w);
	for (size_t i = 0; i < n && i < ARRAY_SIZE(keys); i++)
		jw_string(w, keys[i]);
	jw_close(w);
}

static void env_json(struct json_writer *w, const struct comparison *cmp)
{
	jw_key(w, "environment_differences");
	jw_array(w);
	for (size_t i = 0; i < cmp->nr_env_diffs; i++) {
		const struct env_difference *d = &cmp->env_diffs[i];

		jw_object(w);
		string(w, "key", d->key);
		jw_key(w, "values");
		jw_object(w);
		for (size_t r = 0; r < cmp->nr_runs; r++) {
			jw_key(w, cmp->runs[r].name);
			if (d->values[r])
				jw_string(w, d->values[r]);
			else
				jw_null(w);
		}
		jw_close(w);
		jw_key(w, "moves_results");
		jw_bool(w, d->moves_results);
		jw_close(w);
	}
	jw_close(w);
}

static void cell_json(struct json_writer *w, const struct comparison *cmp,
		      const struct compare_row *row, size_t r)
{
	const struct summary *s = &row->cells[r].summary;
	bool higher = row->metric->better == BETTER_HIGHER;

	jw_object(w);
	string(w, "name", cmp->runs[r].name);
	integer(w, "n", (long long)s->n);
	jw_number(w, "min", s->min);
	jw_number(w, "max", s->max);
	jw_number(w, "amean", s->amean);
	jw_number(w, "hmean", s->hmean);
	jw_number(w, "gmean", s->gmean);
	jw_number(w, "median", s->median);
	jw_number(w, "stddev", s->stddev);
	jw_number(w, "coeffvar", s->coeffvar);
	for (int i = 0; i < SUMMARY_NR_BMEANS; i++) {
		char key[16];

		snprintf(key, sizeof(key), "bmean_%d", summary_bmean_percents[i]);
		jw_number(w, key, s->bmean[i]);
	}
	pair(w, "median_ci", row->cells[r].stats.median_low, row->cells[r].stats.median_high);
	integer(w, "batches", (long long)compare_cell_batches(&row->cells[r]));
	jw_number(w, "between_batch_share", row->cells[r].between_share);
	integer(w, "disturbed", (long long)row->cells[r].nr_disturbed);
	integer(w, "excluded", (long long)row->cells[r].nr_excluded);
	if (r > 0) {
		const struct summary *base = &row->cells[0].summary;

		jw_number(w, "pct_change", summary_pct_change(
			compare_headline(base, row->metric->better),
			compare_headline(s, row->metric->better), higher));
		against_baseline(w, cmp, &row->cells[r].stats, r);
	}
	jw_close(w);
}

/* What decided the verdicts, so that a CI log can be reproduced. */
/* Per run: its batches and its samples from disturbed iterations, in the rows shown. */
static void runs_json(struct json_writer *w, const struct comparison *cmp)
{
	jw_key(w, "runs");
	jw_array(w);
	for (size_t r = 0; r < cmp->nr_runs; r++) {
		size_t disturbed = 0, excluded = 0, samples = 0;

		for (size_t i = 0; i < cmp->nr_rows; i++) {
			const struct compare_cell *c = &cmp->rows[i].cells[r];

			disturbed += c->nr_disturbed;
			excluded += c->nr_excluded;
			samples += c->nr_samples + c->nr_excluded;
		}
		/* json_pack() refused the whole object for a name not UTF-8 */
		if (!utf8_valid(cmp->runs[r].name))
			continue;
		jw_object(w);
		string(w, "name", cmp->runs[r].name);
		integer(w, "batches", (long long)cmp->runs[r].set.nr_batches);
		integer(w, "incomplete_batches", (long long)compare_run_incomplete(&cmp->runs[r]));
		integer(w, "samples", (long long)samples);
		integer(w, "disturbed", (long long)disturbed);
		integer(w, "excluded", (long long)excluded);
		jw_close(w);
	}
	jw_close(w);
}

static void settings_json(struct json_writer *w, const struct comparison *cmp)
{
	static const char *const adjust[] = { "none", "holm", "bh" };
	const struct compare_options *o = &cmp->opts;

	jw_key(w, "settings");
	jw_object(w);
	jw_number(w, "alpha", o->alpha);
	jw_number(w, "confidence", cmp->level);
	jw_number(w, "margin_pct", o->margin * 100);
	string(w, "adjust", adjust[o->adjust]);
	string(w, "test", "welch");
	integer(w, "resamples", (long long)o->resamples);
	/* JSON integers are signed 64-bit here: larger seeds as text */
	jw_key(w, "seed");
	if (o->seed <= INT64_MAX) {
		jw_integer(w, (long long)o->seed);
	} else {
		char seed[32];

		snprintf(seed, sizeof(seed), "%llu", (unsigned long long)o->seed);
		jw_string(w, seed);
	}
	jw_close(w);
}

/*
 * Written as it is made: the tree of a comparison of many rows cost as
 * much as some of its statistics.
 */
void report_compare_json(FILE *out, const void *records, const void *render)
{
	const struct comparison *cmp = records;
	struct json_writer *w = json_writer_new(out, 2);

	jw_object(w);
	string(w, "schema", "schedperf-compare/1");
	string(w, "baseline", cmp->runs[0].name);
	settings_json(w, cmp);
	runs_json(w, cmp);
	env_json(w, cmp);
	jw_key(w, "rows");
	jw_array(w);
	for (size_t i = 0; i < cmp->nr_rows; i++) {
		const struct compare_row *row = &cmp->rows[i];

		jw_object(w);
		string(w, "workload", row->workload);
		jw_json_text(w, "params", row->params);
		string(w, "metric", row->metric->name);
		string(w, "unit", row->metric->unit);
		string(w, "better", better_name(row->metric->better));
		jw_key(w, "runs");
		jw_array(w);
		for (size_t r = 0; r < cmp->nr_runs; r++)
			cell_json(w, cmp, row, r);
		jw_close(w);
		jw_close(w);
	}
	jw_close(w);
	jw_close(w);
	json_writer_end(w);
	fputc('\n', out);
}
