// SPDX-License-Identifier: GPL-2.0
/*
 * An ab's verdict (ab.h): the lines people read, and the JSON object that
 * --format json prints and a job keeps.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/ab.h"
#include "util/numfmt.h"
#include "util/utf8.h"

static const char *const side_names[2] = { "a", "b" };

void report_ab_head(FILE *out, const struct ab_verdict *v, const char *end)
{
	fprintf(out, "ab %s: a = ", v->workload);
	for (int s = 0; s < 2; s++) {
		for (size_t i = 0; i < v->nr_specs[s]; i++) {
			/* a value may hold a newline or an escape: one line, as \xHH */
			char *spec = utf8_escaped(v->specs[s][i]);

			fprintf(out, "%s%s", i ? "," : "", spec);
			free(spec);
		}
		fputs(s ? "" : ", b = ", out);
	}
	fprintf(out, "\nmetric %s (%s%s%s is better), alpha %g, margin %g%%%s", v->metric, v->unit,
		*v->unit ? ", " : "", better_name(v->better), v->alpha, v->margin_pct, end);
}

/*
 * The interval's words: its ends, "unbounded" for one the first blocks
 * have not bounded yet (no infinite percent), or that word alone.
 */
static void interval_text(char *buf, size_t len, const struct ab_verdict *v)
{
	char lo[32], hi[32];

	if (!isfinite(v->ci_low_pct) && !isfinite(v->ci_high_pct))
		snprintf(buf, len, "unbounded");
	else
		snprintf(buf, len, "%s .. %s", format_pct(lo, sizeof(lo), v->ci_low_pct, 2, "unbounded"),
			 format_pct(hi, sizeof(hi), v->ci_high_pct, 2, "unbounded"));
}

static void ab_text(FILE *out, const void *records, const void *how)
{
	const struct ab_verdict *v = records;
	const char *name = v->name;
	char ci[80], est[32];

	report_ab_head(out, v, "\n");
	interval_text(ci, sizeof(ci), v);
	if (!v->blocks)
		fprintf(out, "verdict: %s: %s\n", v->verdict, v->samples[0] || v->samples[1] ?
			"no block measured both sides" : "no sample was measured");
	else if (v->direction)
		fprintf(out, "verdict: different: b is %s than a by %.2f%% (interval %s; + is "
			"better)\n", v->direction, fabs(v->estimate_pct), ci);
	else
		fprintf(out, "verdict: %s: b vs a %s (interval %s; + is better)\n", v->verdict,
			format_pct(est, sizeof(est), v->estimate_pct, 2, "unknown"), ci);
	fprintf(out, "samples: %zu a, %zu b in %zu blocks (seed %d), %.1f s; stopped: %s\n",
		v->samples[0], v->samples[1], v->blocks, v->seed, v->seconds, v->reason);
	if (v->runs_kept)
		fprintf(out, "runs: %s-a and %s-b (schedperf compare %s-a %s-b)\n", name, name,
			name, name);
	else
		fputs("runs: none kept: nothing was measured\n", out);
}

static json_t *number_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

char *ab_verdict_json(const struct ab_verdict *v, int compact)
{
	json_t *obj = json_object(), *runs = json_array();
	char *text;

	json_object_set_new(obj, "verdict", json_string(v->verdict));
	json_object_set_new(obj, "direction", v->direction ? json_string(v->direction) :
			    json_null());
	json_object_set_new(obj, "estimate_pct", number_or_null(v->estimate_pct));
	json_object_set_new(obj, "ci_pct", json_pack("[oo]", number_or_null(v->ci_low_pct),
						       number_or_null(v->ci_high_pct)));
	json_object_set_new(obj, "samples_a", json_integer((json_int_t)v->samples[0]));
	json_object_set_new(obj, "samples_b", json_integer((json_int_t)v->samples[1]));
	json_object_set_new(obj, "reason", json_string(v->reason));
	json_object_set_new(obj, "blocks", json_integer((json_int_t)v->blocks));
	json_object_set_new(obj, "seconds", json_real(v->seconds));
	json_object_set_new(obj, "metric", json_string(v->metric));
	json_object_set_new(obj, "better", json_string(better_name(v->better)));
	json_object_set_new(obj, "alpha", json_real(v->alpha));
	json_object_set_new(obj, "margin_pct", json_real(v->margin_pct));
	json_object_set_new(obj, "seed", json_integer(v->seed));
	for (int i = 0; i < 2 && v->runs_kept; i++)
		json_array_append_new(runs, json_sprintf("%s-%s", v->name, side_names[i]));
	json_object_set_new(obj, "runs", runs);
	text = json_dumps(obj, JSON_REAL_PRECISION(6) | (compact ? JSON_COMPACT : 0));
	json_decref(obj);
	return text;
}

static void ab_json(FILE *out, const void *records, const void *how)
{
	char *text = ab_verdict_json(records, 0);

	fprintf(out, "%s\n", text);
	free(text);
}

const struct output_format ab_formats[] = {
	{ { "text", NULL }, ab_text, false },
	{ { "json", NULL }, ab_json, true },
	{ { NULL, NULL }, NULL, false },
};
