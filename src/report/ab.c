// SPDX-License-Identifier: GPL-2.0
/*
 * An ab's verdict (ab.h): the lines people read, and the JSON object that
 * --format json prints and a job keeps; and a dry run's plan, in the same
 * two formats.
 */
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/ab.h"
#include "util/db_hint.h"
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
		/* the size without its sign, which "better" or "worse" says */
		fprintf(out, "verdict: different: b is %s than a by %s%% (interval %s; + is "
			"better)\n", v->direction,
			format_change(est, sizeof(est), fabs(v->estimate_pct), 2) + 1, ci);
	else
		fprintf(out, "verdict: %s: b vs a %s (interval %s; + is better)\n", v->verdict,
			format_pct(est, sizeof(est), v->estimate_pct, 2, "unknown"), ci);
	fprintf(out, "samples: %zu a, %zu b in %zu blocks (seed %d), %.1f s; stopped: %s\n",
		v->samples[0], v->samples[1], v->blocks, v->seed, v->seconds, v->reason);
	if (v->runs_kept) {
		char *db = db_hint(v->db, false);

		fprintf(out, "runs: %s-a and %s-b (schedperf compare %s-a %s-b%s%s%s)\n", name,
			name, name, name, v->params_differ && *v->params_differ ?
			" --ignore-param " : "", v->params_differ ? v->params_differ : "", db);
		free(db);
	} else {
		fputs("runs: none kept: nothing was measured\n", out);
	}
}

static json_t *number_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* @obj as one line of text (to be freed), and @obj freed. */
static char *dumped(json_t *obj, int compact)
{
	char *text = json_dumps(obj, JSON_REAL_PRECISION(6) | (compact ? JSON_COMPACT : 0));

	json_decref(obj);
	return text;
}

char *ab_verdict_json(const struct ab_verdict *v, int compact)
{
	json_t *obj = json_object(), *runs = json_array();

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
	return dumped(obj, compact);
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

/* ------------------------------------------------------------ a dry run */

static void plan_text(FILE *out, const void *records, const void *how)
{
	const struct ab_plan *p = records;
	const char *name = p->head.name;

	report_ab_head(out, &p->head, ", ");
	if (p->max_samples < INT_MAX)
		fprintf(out, "at most %d blocks%s", p->max_samples, p->max_time > 0 ? " or " : "");
	if (p->max_time > 0)
		fprintf(out, "%s%g s", p->max_samples < INT_MAX ? "" : "at most ", p->max_time);
	if (p->seed_given)
		fprintf(out, ", seed %d", p->head.seed);
	if (p->timeout > 0)
		fprintf(out, ", an iteration killed after %g s", p->timeout);
	fputc('\n', out);
	for (int i = 0; i < 2; i++)
		fprintf(out, "%s: %s %s%s%s\n", side_names[i], p->head.workload, p->params_json[i],
			p->cpus[i] ? " on CPUs " : "", p->cpus[i] ? p->cpus[i] : "");
	for (size_t i = 0; i < p->nr_settings; i++) {
		const struct ab_plan_setting *m = &p->settings[i];
		char *setting = utf8_escaped(m->name), *value[2];

		for (int s = 0; s < 2; s++)
			value[s] = utf8_escaped(m->value[s] ? m->value[s] : "(as it is)");
		fprintf(out, "setting %s %s: a %s, b %s\n", m->kind, setting, value[0], value[1]);
		free(setting);
		free(value[0]);
		free(value[1]);
	}
	fprintf(out, "runs: %s-a and %s-b; dry run: nothing was run, read or changed\n", name,
		name);
}

/* Side @i of the plan: its SPECs, its benchmark's parameters, its CPUs. */
static json_t *plan_side(const struct ab_plan *p, int i)
{
	json_t *side = json_object(), *specs = json_array();

	for (size_t k = 0; k < p->head.nr_specs[i]; k++)
		json_array_append_new(specs, json_string(p->head.specs[i][k]));
	json_object_set_new(side, "specs", specs);
	json_object_set_new(side, "params", json_loads(p->params_json[i], 0, NULL));
	json_object_set_new(side, "cpus", p->cpus[i] ? json_string(p->cpus[i]) : json_null());
	return side;
}

/* A setting the sides change, with each side's value, null where left as it is. */
static json_t *plan_setting(const struct ab_plan_setting *m)
{
	json_t *setting = json_object();

	json_object_set_new(setting, "kind", json_string(m->kind));
	json_object_set_new(setting, "name", json_string(m->name));
	for (int s = 0; s < 2; s++)
		json_object_set_new(setting, side_names[s], m->value[s] ? json_string(m->value[s]) :
				    json_null());
	return setting;
}

/* The verdict's keys where they say the same thing, and what only a plan has. */
static void plan_json(FILE *out, const void *records, const void *how)
{
	const struct ab_plan *p = records;
	json_t *obj = json_object(), *settings = json_array(), *runs = json_array();
	char *text;

	json_object_set_new(obj, "dry_run", json_true());
	json_object_set_new(obj, "workload", json_string(p->head.workload));
	for (int i = 0; i < 2; i++)
		json_object_set_new(obj, side_names[i], plan_side(p, i));
	for (size_t i = 0; i < p->nr_settings; i++)
		json_array_append_new(settings, plan_setting(&p->settings[i]));
	json_object_set_new(obj, "settings", settings);
	json_object_set_new(obj, "metric", json_string(p->head.metric));
	json_object_set_new(obj, "unit", json_string(p->head.unit));
	json_object_set_new(obj, "better", json_string(better_name(p->head.better)));
	json_object_set_new(obj, "alpha", json_real(p->head.alpha));
	json_object_set_new(obj, "margin_pct", json_real(p->head.margin_pct));
	json_object_set_new(obj, "max_samples", p->max_samples < INT_MAX ?
			    json_integer(p->max_samples) : json_null());
	json_object_set_new(obj, "max_time", p->max_time > 0 ? json_real(p->max_time) :
			    json_null());
	json_object_set_new(obj, "seed", p->seed_given ? json_integer(p->head.seed) : json_null());
	json_object_set_new(obj, "timeout", p->timeout > 0 ? json_real(p->timeout) : json_null());
	for (int i = 0; i < 2; i++)
		json_array_append_new(runs, json_sprintf("%s-%s", p->head.name, side_names[i]));
	json_object_set_new(obj, "runs", runs);
	text = dumped(obj, 0);
	fprintf(out, "%s\n", text);
	free(text);
}

const struct output_format ab_plan_formats[] = {
	{ { "text", NULL }, plan_text, false },
	{ { "json", NULL }, plan_json, true },
	{ { NULL, NULL }, NULL, false },
};
