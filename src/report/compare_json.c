// SPDX-License-Identifier: GPL-2.0
/*
 * schedperf-compare/1: the comparison as JSON for CI. Undefined statistics
 * are null, never NaN (which JSON cannot carry).
 */
#include <jansson.h>
#include <math.h>

#include "report/report.h"

static json_t *number(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
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
	if (r > 0) {
		const struct summary *base = &row->cells[0].summary;

		json_object_set_new(obj, "pct_change", number(summary_pct_change(
			compare_headline(base, row->metric->better),
			compare_headline(s, row->metric->better), higher)));
	}
	return obj;
}

void report_compare_json(FILE *out, const struct comparison *cmp)
{
	json_t *doc = json_object(), *rows = json_array();

	json_object_set_new(doc, "schema", json_string("schedperf-compare/1"));
	json_object_set_new(doc, "baseline", json_string(cmp->runs[0].name));
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
	json_dumpf(doc, out, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
	fputc('\n', out);
	json_decref(doc);
}
