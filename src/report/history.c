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
#include "util/numfmt.h"
#include "util/strbuf.h"
#include "util/utf8.h"

char *history_series_title(const struct history_series *s)
{
	struct strbuf sb = STRBUF_INIT;
	char *params = params_display(s->params), *title;

	strbuf_addf(&sb, "%s%s%s: %s", s->workload, *params ? " " : "", params,
		    s->metric->name);
	if (s->metric->unit && *s->metric->unit)
		strbuf_addf(&sb, " (%s, %s is better)", s->metric->unit,
			    better_name(s->metric->better));
	else
		strbuf_addf(&sb, " (%s is better)", better_name(s->metric->better));
	if (s->machine_label)
		strbuf_addf(&sb, " on %s", s->machine_label);
	if (s->cpus)
		strbuf_addf(&sb, " pinned to CPUs %s", s->cpus);
	free(params);
	/* a host name is the machine's to choose: escaped, as every value shown */
	title = utf8_escaped(strbuf_str(&sb));
	strbuf_release(&sb);
	return title;
}

static void text_number(FILE *out, int width, double v)
{
	if (isfinite(v))
		fprintf(out, " %*.6g", width, v);
	else
		fprintf(out, " %*s", width, "-");
}

/*
 * The columns of a point's run as the text shows it: its name escaped (a
 * store another program wrote may hold a control character in it), and *
 * when a batch of it is incomplete.
 */
static size_t run_shown_length(const struct history_point *p)
{
	char *shown = utf8_escaped(p->run);
	size_t len = utf8_columns(shown) + p->incomplete;

	free(shown);
	return len;
}

/* The width of the run column: the longest name (at most RUN_NAME_MAX), at least "run". */
static int run_width(const struct history_series *s)
{
	size_t w = 3;

	for (size_t i = 0; i < s->nr_points; i++)
		if (run_shown_length(&s->points[i]) > w)
			w = run_shown_length(&s->points[i]);
	return (int)w;
}

/*
 * A point's start as the text shows it: escaped, as its run's name (import
 * refuses a control character in it, a store another program wrote may not).
 */
static char *started_shown(const struct history_point *p)
{
	return utf8_escaped(p->started ? p->started : "-");
}

/*
 * The width of the started column: a time of a whole second (an import's)
 * has 20 characters, one that run recorded 27 (its microseconds).
 */
static int started_width(const struct history_series *s)
{
	size_t w = 20;

	for (size_t i = 0; i < s->nr_points; i++) {
		char *shown = started_shown(&s->points[i]);

		if (utf8_columns(shown) > w)
			w = utf8_columns(shown);
		free(shown);
	}
	return (int)w;
}

static void point_label(FILE *out, const struct history *h, const struct history_point *p,
			int width, int started_w)
{
	char *shown = utf8_escaped(p->run);
	size_t len = utf8_columns(shown) + p->incomplete;	/* run_shown_length()'s */

	fprintf(out, "  %s%s%*s", shown, p->incomplete ? "*" : "",
		len < (size_t)width ? width - (int)len : 0, "");
	free(shown);
	if (h->by == HISTORY_BY_BATCH)
		fprintf(out, " %6lld", (long long)p->batch);
	shown = started_shown(p);
	len = utf8_columns(shown);
	fprintf(out, "  %s%*s", shown, len < (size_t)started_w ? started_w - (int)len : 0, "");
	free(shown);
}

void report_history_text(FILE *out, const void *records, const void *how)
{
	const struct history *h = records;
	bool incomplete = false;

	for (size_t i = 0; i < h->nr_series; i++) {
		const struct history_series *s = &h->series[i];
		char *title = history_series_title(s);
		int w = run_width(s), started_w = started_width(s);

		fprintf(out, "%s%s\n", i ? "\n" : "", title);
		free(title);
		fprintf(out, "  %-*s%s  %-*s %6s %12s %12s %12s %12s %12s\n", w, "run",
			h->by == HISTORY_BY_BATCH ? "  batch" : "", started_w, "started", "n",
			"mean", "median", "stddev", "ci_low", "ci_high");
		for (size_t j = 0; j < s->nr_points; j++) {
			const struct history_point *p = &s->points[j];

			point_label(out, h, p, w, started_w);
			fprintf(out, " %6zu", p->nr_samples);
			text_number(out, 12, p->mean);
			text_number(out, 12, p->median);
			text_number(out, 12, p->stddev);
			text_number(out, 12, p->ci_low);
			text_number(out, 12, p->ci_high);
			fputc('\n', out);
			incomplete |= p->incomplete;
		}
	}
	if (!h->nr_series) {
		fputs("no series: the store has no run with such a benchmark and metric\n", out);
		return;
	}
	fprintf(out, "\nci: the %g %% t interval of the mean\n", h->level * 100);
	if (incomplete)
		fputs("*: a batch of the run is incomplete (cut short, or running still): its "
		      "iterations stored are in the point\n", out);
}

static void string_or_null(struct json_writer *w, const char *key, const char *s)
{
	jw_key(w, key);
	if (s)
		jw_string(w, s);
	else
		jw_null(w);
}

/* The fields every series has in JSON, in its object. */
static void series_json(struct json_writer *w, const struct history_series *s)
{
	jw_key(w, "workload");
	jw_string(w, s->workload);
	jw_json_text(w, "params", s->params);
	jw_key(w, "metric");
	jw_string(w, s->metric->name);
	jw_key(w, "unit");
	jw_string(w, s->metric->unit ? s->metric->unit : "");
	jw_key(w, "better");
	jw_string(w, better_name(s->metric->better));
	string_or_null(w, "machine", s->machine);
	string_or_null(w, "machine_id", s->machine_id);
	string_or_null(w, "cpus", s->cpus);
}

static void point_json_label(struct json_writer *w, const struct history *h,
			     const struct history_point *p)
{
	jw_key(w, "run");
	jw_string(w, p->run);
	jw_key(w, "batch");
	if (h->by == HISTORY_BY_BATCH)
		jw_integer(w, (long long)p->batch);
	else
		jw_null(w);
	string_or_null(w, "started", p->started);
}

static void point_json(struct json_writer *w, const struct history *h,
		       const struct history_point *p)
{
	jw_object(w);
	point_json_label(w, h, p);
	jw_key(w, "n");
	jw_integer(w, (long long)p->nr_samples);
	jw_key(w, "incomplete");
	jw_bool(w, p->incomplete);
	jw_number(w, "mean", p->mean);
	jw_number(w, "median", p->median);
	jw_number(w, "stddev", p->stddev);
	jw_key(w, "ci");
	jw_array(w);
	jw_number(w, NULL, p->ci_low);
	jw_number(w, NULL, p->ci_high);
	jw_close(w);
	jw_close(w);
}

/*
 * Written as they are made: a history's tree held every point a second
 * time (1.8 GB for 1,000,000 points) and cost more than its writing.
 */
static void dump(FILE *out, struct json_writer *w)
{
	json_writer_end(w);
	fputc('\n', out);
}

void report_history_json(FILE *out, const void *records, const void *how)
{
	const struct history *h = records;
	struct json_writer *w = json_writer_new(out, 2);

	jw_object(w);
	jw_key(w, "schema");
	jw_string(w, "schedperf-history/1");
	jw_key(w, "by");
	jw_string(w, history_by_name(h->by));
	jw_key(w, "order");
	jw_string(w, history_order_name(h->order));
	jw_key(w, "level");
	jw_real(w, h->level);
	jw_key(w, "series");
	jw_array(w);
	for (size_t i = 0; i < h->nr_series; i++) {
		const struct history_series *s = &h->series[i];

		jw_object(w);
		series_json(w, s);
		jw_key(w, "points");
		jw_array(w);
		for (size_t j = 0; j < s->nr_points; j++)
			point_json(w, h, &s->points[j]);
		jw_close(w);
		jw_close(w);
	}
	jw_close(w);
	jw_close(w);
	dump(out, w);
}

void report_history_csv(FILE *out, const void *records, const void *how)
{
	const struct history *h = records;
	fputs("workload,params,metric,unit,better,run,batch,started,n,mean,median,stddev,"
	      "ci_low,ci_high,machine,cpus,machine_id,incomplete\n", out);
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
			csv_text(out, s->metric->unit);
			fprintf(out, ",%s,", better_name(s->metric->better));
			csv_text(out, p->run);
			fputc(',', out);
			if (h->by == HISTORY_BY_BATCH)
				fprintf(out, "%lld", (long long)p->batch);
			fputc(',', out);
			csv_text(out, p->started);
			fprintf(out, ",%zu", p->nr_samples);
			csv_number(out, p->mean);
			csv_number(out, p->median);
			csv_number(out, p->stddev);
			csv_number(out, p->ci_low);
			csv_number(out, p->ci_high);
			fputc(',', out);
			csv_text(out, s->machine);
			fputc(',', out);
			csv_text(out, s->cpus);
			fputc(',', out);
			csv_text(out, s->machine_id);
			fprintf(out, ",%d\n", p->incomplete);
		}
		free(params);
	}
}

static const char *change_kind(const struct history_change *c)
{
	return c->regression ? "regression" : "improvement";
}

void report_detect_text(FILE *out, const void *records, const void *how)
{
	const struct history *h = records;
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
			char *shown = utf8_escaped(p->run), pct[32];

			fprintf(out, "  at %s", shown);
			free(shown);
			if (h->by == HISTORY_BY_BATCH)
				fprintf(out, " batch %lld", (long long)p->batch);
			fprintf(out, " (point %zu): %.6g +- %.3g -> %.6g +- %.3g, ", c->cp.index,
				c->cp.sides.mean_before, c->cp.sides.stddev_before,
				c->cp.sides.mean_after, c->cp.sides.stddev_after);
			/* no percent of a mean of 0; a huge one as compare prints it */
			if (isfinite(c->pct_change))
				fprintf(out, "%s %%", format_change(pct, sizeof(pct),
								    c->pct_change, 2));
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

static void change_json(struct json_writer *w, const struct history *h,
			const struct history_series *s, const struct history_change *c)
{
	jw_object(w);
	point_json_label(w, h, &s->points[c->cp.index]);
	jw_key(w, "index");
	jw_integer(w, (long long)c->cp.index);
	jw_number(w, "mean_before", c->cp.sides.mean_before);
	jw_number(w, "mean_after", c->cp.sides.mean_after);
	jw_number(w, "stddev_before", c->cp.sides.stddev_before);
	jw_number(w, "stddev_after", c->cp.sides.stddev_after);
	jw_number(w, "pct_change", c->pct_change);
	jw_key(w, "kind");
	jw_string(w, change_kind(c));
	jw_number(w, "p", c->cp.sides.p);
	jw_close(w);
}

void report_detect_json(FILE *out, const void *records, const void *how)
{
	const struct history *h = records;
	struct json_writer *w = json_writer_new(out, 2);

	jw_array(w);
	for (size_t i = 0; i < h->nr_series; i++) {
		const struct history_series *s = &h->series[i];

		jw_object(w);
		series_json(w, s);
		jw_key(w, "points");
		jw_integer(w, (long long)s->nr_points);
		jw_key(w, "change_points");
		jw_array(w);
		for (size_t j = 0; j < s->nr_changes; j++)
			change_json(w, h, s, &s->changes[j]);
		jw_close(w);
		jw_close(w);
	}
	jw_close(w);
	dump(out, w);
}

const struct output_format history_formats[] = {
	{ { "text", NULL }, report_history_text, false },
	{ { "json", "schedperf-history/1" }, report_history_json, true },
	{ { "csv", NULL }, report_history_csv, true },
	{ { NULL, NULL }, NULL, false },
};

const struct output_format detect_formats[] = {
	{ { "text", NULL }, report_detect_text, false },
	{ { "json", "a list of series with their change_points" }, report_detect_json, true },
	{ { NULL, NULL }, NULL, false },
};
