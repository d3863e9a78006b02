// SPDX-License-Identifier: GPL-2.0
/*
 * History and its change points rendered (report/history.h): aligned
 * text for people, JSON and CSV for machines. Undefined numbers are "-"
 * in text, null in JSON and empty in CSV.
 */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/history.h"
#include "report/report.h"
#include "util/json_write.h"
#include "util/strbuf.h"

char *history_series_title(const struct history_series *s)
{
	struct strbuf sb = STRBUF_INIT;
	char *params = params_display(s->params);

	strbuf_addf(&sb, "%s%s%s: %s", s->workload, *params ? " " : "", params,
		    s->metric->name);
	if (s->metric->unit && *s->metric->unit)
		strbuf_addf(&sb, " (%s, %s is better)", s->metric->unit,
			    better_name(s->metric->better));
	else
		strbuf_addf(&sb, " (%s is better)", better_name(s->metric->better));
	if (s->machine)
		strbuf_addf(&sb, " on %s", s->machine);
	free(params);
	return strbuf_detach(&sb);
}

static void text_number(FILE *out, int width, double v)
{
	if (isfinite(v))
		fprintf(out, " %*.6g", width, v);
	else
		fprintf(out, " %*s", width, "-");
}

/* The width of the run column: the longest name, at least "run". */
static int run_width(const struct history_series *s)
{
	size_t w = 3;

	for (size_t i = 0; i < s->nr_points; i++)
		if (strlen(s->points[i].run) > w)
			w = strlen(s->points[i].run);
	return w > 64 ? 64 : (int)w;
}

static void point_label(FILE *out, const struct history *h, const struct history_point *p,
			int width)
{
	fprintf(out, "  %-*s", width, p->run);
	if (h->by == HISTORY_BY_BATCH)
		fprintf(out, " %6lld", (long long)p->batch);
	fprintf(out, "  %-20s", p->started ? p->started : "-");
}

void report_history_text(FILE *out, const struct history *h)
{
	for (size_t i = 0; i < h->nr_series; i++) {
		const struct history_series *s = &h->series[i];
		char *title = history_series_title(s);
		int w = run_width(s);

		fprintf(out, "%s%s\n", i ? "\n" : "", title);
		free(title);
		fprintf(out, "  %-*s%s  %-20s %6s %12s %12s %12s %12s %12s\n", w, "run",
			h->by == HISTORY_BY_BATCH ? "  batch" : "", "started", "n", "mean",
			"median", "stddev", "ci_low", "ci_high");
		for (size_t j = 0; j < s->nr_points; j++) {
			const struct history_point *p = &s->points[j];

			point_label(out, h, p, w);
			fprintf(out, " %6zu", p->nr_samples);
			text_number(out, 12, p->mean);
			text_number(out, 12, p->median);
			text_number(out, 12, p->stddev);
			text_number(out, 12, p->ci_low);
			text_number(out, 12, p->ci_high);
			fputc('\n', out);
		}
	}
	if (!h->nr_series)
		fputs("no series: the store has no run with such a benchmark and metric\n", out);
	else
		fprintf(out, "\nci: the %g %% t interval of the mean\n", h->level * 100);
}

static json_t *number(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* The fields every series has in JSON. */
static json_t *series_json(const struct history_series *s)
{
	json_t *obj = json_object(), *params = json_loads(s->params ? s->params : "{}", 0, NULL);

	json_object_set_new(obj, "workload", json_string(s->workload));
	json_object_set_new(obj, "params", params ? params : json_object());
	json_object_set_new(obj, "metric", json_string(s->metric->name));
	json_object_set_new(obj, "unit", json_string(s->metric->unit ? s->metric->unit : ""));
	json_object_set_new(obj, "better", json_string(better_name(s->metric->better)));
	json_object_set_new(obj, "machine", s->machine ? json_string(s->machine) : json_null());
	return obj;
}

static void point_json_label(json_t *obj, const struct history *h,
			     const struct history_point *p)
{
	json_object_set_new(obj, "run", json_string(p->run));
	json_object_set_new(obj, "batch", h->by == HISTORY_BY_BATCH ?
			    json_integer(p->batch) : json_null());
	json_object_set_new(obj, "started", p->started ? json_string(p->started) : json_null());
}

static json_t *point_json(const struct history *h, const struct history_point *p)
{
	json_t *obj = json_object(), *ci = json_array();

	point_json_label(obj, h, p);
	json_object_set_new(obj, "n", json_integer((json_int_t)p->nr_samples));
	json_object_set_new(obj, "mean", number(p->mean));
	json_object_set_new(obj, "median", number(p->median));
	json_object_set_new(obj, "stddev", number(p->stddev));
	json_array_append_new(ci, number(p->ci_low));
	json_array_append_new(ci, number(p->ci_high));
	json_object_set_new(obj, "ci", ci);
	return obj;
}

static void dump(FILE *out, json_t *doc)
{
	json_write(out, doc, 2);
	fputc('\n', out);
	json_decref(doc);
}

void report_history_json(FILE *out, const struct history *h)
{
	json_t *doc = json_object(), *list = json_array();

	json_object_set_new(doc, "schema", json_string("schedperf-history/1"));
	json_object_set_new(doc, "by", json_string(history_by_name(h->by)));
	json_object_set_new(doc, "order", json_string(history_order_name(h->order)));
	json_object_set_new(doc, "level", json_real(h->level));
	for (size_t i = 0; i < h->nr_series; i++) {
		const struct history_series *s = &h->series[i];
		json_t *obj = series_json(s), *points = json_array();

		for (size_t j = 0; j < s->nr_points; j++)
			json_array_append_new(points, point_json(h, &s->points[j]));
		json_object_set_new(obj, "points", points);
		json_array_append_new(list, obj);
	}
	json_object_set_new(doc, "series", list);
	dump(out, doc);
}

void report_history_csv(FILE *out, const struct history *h)
{
	fputs("workload,params,metric,unit,better,run,batch,started,n,mean,median,stddev,"
	      "ci_low,ci_high,machine\n", out);
	for (size_t i = 0; i < h->nr_series; i++) {
		const struct history_series *s = &h->series[i];
		char *params = params_display(s->params);

		for (size_t j = 0; j < s->nr_points; j++) {
			const struct history_point *p = &s->points[j];

			csv_text(out, s->workload);
			fputc(',', out);
			csv_text(out, params);
			fputc(',', out);
			csv_text(out, s->metric->name);
			fputc(',', out);
			csv_text(out, s->metric->unit ? s->metric->unit : "");
			fprintf(out, ",%s,", better_name(s->metric->better));
			csv_text(out, p->run);
			fputc(',', out);
			if (h->by == HISTORY_BY_BATCH)
				fprintf(out, "%lld", (long long)p->batch);
			fprintf(out, ",%s,%zu", p->started ? p->started : "", p->nr_samples);
			csv_number(out, p->mean);
			csv_number(out, p->median);
			csv_number(out, p->stddev);
			csv_number(out, p->ci_low);
			csv_number(out, p->ci_high);
			fputc(',', out);
			csv_text(out, s->machine ? s->machine : "");
			fputc('\n', out);
		}
		free(params);
	}
}

static const char *change_kind(const struct history_change *c)
{
	return c->regression ? "regression" : "improvement";
}

void report_detect_text(FILE *out, const struct history *h)
{
	size_t nr_changes = 0, nr_with = 0;

	for (size_t i = 0; i < h->nr_series; i++) {
		const struct history_series *s = &h->series[i];
		char *title;

		if (!s->nr_changes)
			continue;
		title = history_series_title(s);
		fprintf(out, "%s%s, %zu points\n", nr_with++ ? "\n" : "", title, s->nr_points);
		free(title);
		for (size_t j = 0; j < s->nr_changes; j++) {
			const struct history_change *c = &s->changes[j];
			const struct history_point *p = &s->points[c->cp.index];

			fprintf(out, "  at %s", p->run);
			if (h->by == HISTORY_BY_BATCH)
				fprintf(out, " batch %lld", (long long)p->batch);
			fprintf(out, " (point %zu): %.6g +- %.3g -> %.6g +- %.3g, ", c->cp.index,
				c->cp.sides.mean_before, c->cp.sides.stddev_before,
				c->cp.sides.mean_after, c->cp.sides.stddev_after);
			/* no percent of a mean of 0 */
			if (isfinite(c->pct_change))
				fprintf(out, "%+.2f %%", c->pct_change);
			else
				fputs("no percent (from 0)", out);
			fprintf(out, ", %s, p = %.3g\n", change_kind(c), c->cp.sides.p);
			nr_changes++;
		}
	}
	if (nr_with)
		fputc('\n', out);
	if (!nr_changes)
		fprintf(out, "no change point in %zu series\n", h->nr_series);
	else
		fprintf(out, "%zu change point%s in %zu of %zu series (+- : stddev of the "
			"points between change points; %% positive = better)\n", nr_changes,
			nr_changes == 1 ? "" : "s", nr_with, h->nr_series);
}

static json_t *change_json(const struct history *h, const struct history_series *s,
			   const struct history_change *c)
{
	json_t *obj = json_object();

	point_json_label(obj, h, &s->points[c->cp.index]);
	json_object_set_new(obj, "index", json_integer((json_int_t)c->cp.index));
	json_object_set_new(obj, "mean_before", number(c->cp.sides.mean_before));
	json_object_set_new(obj, "mean_after", number(c->cp.sides.mean_after));
	json_object_set_new(obj, "stddev_before", number(c->cp.sides.stddev_before));
	json_object_set_new(obj, "stddev_after", number(c->cp.sides.stddev_after));
	json_object_set_new(obj, "pct_change", number(c->pct_change));
	json_object_set_new(obj, "kind", json_string(change_kind(c)));
	json_object_set_new(obj, "p", number(c->cp.sides.p));
	return obj;
}

void report_detect_json(FILE *out, const struct history *h)
{
	json_t *list = json_array();

	for (size_t i = 0; i < h->nr_series; i++) {
		const struct history_series *s = &h->series[i];
		json_t *obj = series_json(s), *changes = json_array();

		json_object_set_new(obj, "points", json_integer((json_int_t)s->nr_points));
		for (size_t j = 0; j < s->nr_changes; j++)
			json_array_append_new(changes, change_json(h, s, &s->changes[j]));
		json_object_set_new(obj, "change_points", changes);
		json_array_append_new(list, obj);
	}
	dump(out, list);
}
