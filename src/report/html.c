// SPDX-License-Identifier: GPL-2.0
/*
 * The HTML report (report/html.h): one self-contained page, readable
 * offline and in mail archives. No script, no external URL, no font: the
 * style is inline, the charts are SVG drawn by gnuplot (report/gnuplot.c)
 * and inlined, and a Content-Security-Policy forbids the page any request.
 * Every number comes from the models: the comparison exactly as compare
 * analyses it, the sweeps of analysis/sweeps.c, the history and change
 * points of analysis/history.c. Every name is escaped, here and in the
 * gnuplot script.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/gnuplot.h"
#include "report/history.h"
#include "report/html.h"
#include "report/report.h"
#include "util/array.h"
#include "util/numfmt.h"
#include "util/strbuf.h"
#include "util/utf8.h"
#include "util/xalloc.h"

#define NO_CHART SIZE_MAX

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
	"#7f7f7f",
};
#define NR_COLORS ARRAY_SIZE(palette)

/* Which chart shows what; NO_CHART where none. */
struct charts {
	size_t *distribution, *order;	/* per row */
	size_t *sweep;			/* per sweep */
	size_t *history;		/* per series */
};

/*
 * A name or value in the page: what text, markdown and CSV show as \xHH
 * (control characters, bytes not UTF-8) and \uHHHH (C1 and reordering
 * marks) shown so here too (util/utf8.h), for a page copied to a terminal
 * or a mail must not carry an escape sequence, and a C0 control is an
 * HTML parse error; then HTML's own characters as references.
 */
static void html_text(FILE *out, const char *raw)
{
	char *shown = utf8_escaped(raw ? raw : "");

	for (const char *s = shown; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fputc(*s, out); break;
		}
	}
	free(shown);
}

/* Lines of text in a <pre>: each as html_text() writes it, the line breaks kept. */
static void html_lines(FILE *out, const char *text)
{
	char *copy = xstrdup(text ? text : ""), *line = copy;

	for (char *end; (end = strchr(line, '\n')); line = end + 1) {
		*end = '\0';
		html_text(out, line);
		fputc('\n', out);
	}
	html_text(out, line);
	free(copy);
}

/* @v to @digits significant digits, or a percent change with @pct; "-" when undefined */
static void html_number(FILE *out, double v, int digits, bool pct)
{
	char change[32];

	if (!isfinite(v))
		fputc('-', out);
	else if (pct)
		fprintf(out, "%s %%", format_change(change, sizeof(change), v, 2));
	else
		fprintf(out, "%.*g", digits, v);
}

/*
 * gnuplot takes values beyond some 9e307 for undefined, and cannot draw
 * a range of subnormal ones: a chart whose values reach above 1e300, or
 * all stay below 1e-300, is drawn in units of 1eK, which its axis says.
 */
struct chart_unit {
	int exp10;		/* K; 0 in the metric's own unit */
	double half, rest;	/* each value is multiplied by both: 10^-K in two steps */
};

static void chart_unit_add(double *largest, double v)
{
	if (isfinite(v) && fabs(v) > *largest)
		*largest = fabs(v);
}

static struct chart_unit chart_unit(double largest)
{
	struct chart_unit u = { 0, 1, 1 };

	if (largest > 1e300 || (largest > 0 && largest < 1e-300)) {
		u.exp10 = (int)floor(log10(largest));
		/* 10^-K itself may be beyond a double */
		u.half = pow(10, -(u.exp10 / 2));
		u.rest = pow(10, -(u.exp10 - u.exp10 / 2));
	}
	return u;
}

static double in_unit(const struct chart_unit *u, double v)
{
	return u->exp10 ? v * u->half * u->rest : v;
}

/* "metric (unit)" for an axis; "metric (unit) / 1e308" in units of 1e308 */
static char *axis_title(const struct result_metric *m, const struct chart_unit *u)
{
	const char *unit = m->unit && *m->unit ? m->unit : "no unit";
	char *s;
	int rc = u->exp10 ? asprintf(&s, "%s (%s) / 1e%d", m->name, unit, u->exp10) :
			    asprintf(&s, "%s (%s)", m->name, unit);

	if (rc < 0)
		abort();
	return s;
}

/* The unit of the charts of a row: all its samples. */
static struct chart_unit row_unit(const struct compare_row *row, size_t nr_runs)
{
	double largest = 0;

	for (size_t r = 0; r < nr_runs; r++)
		for (size_t k = 0; k < row->cells[r].nr_samples; k++)
			chart_unit_add(&largest, row->cells[r].samples[k]);
	return chart_unit(largest);
}

static char *row_title(const struct compare_row *row)
{
	char *params = params_display(row->params), *s;

	if (asprintf(&s, "%s%s%s", row->workload, *params ? " " : "", params) < 0)
		abort();
	free(params);
	return s;
}

static void plot_color(FILE *script, size_t r)
{
	fprintf(script, " lc rgb '%s'", palette[r % NR_COLORS]);
}

/*
 * Each run's samples of row @i as gnuplot reads them (x = its place,
 * jittered; the value; the iteration), NULL for a run without samples;
 * free with free_row_data().
 *
 * The charts give them to gnuplot inline ('-', each ended by a line "e"),
 * once a plot clause reads them, rather than as a data block of each run
 * ($run0, $run1 ...): gnuplot finds a named block by a walk of all its
 * variables, so that a report of thousands of runs spent most of gnuplot's
 * time (quadratic in the runs) finding them. The data are the same, and
 * so is every chart but for the hidden <title> of a plot of the
 * distribution chart, gnuplot's own words for its source ("'-' using 1:2").
 */
static char **row_data(const struct comparison *cmp, size_t i, const struct chart_unit *u)
{
	const struct compare_row *row = &cmp->rows[i];
	char **data = xcalloc(cmp->nr_runs + 1, sizeof(*data));

	for (size_t r = 0; r < cmp->nr_runs; r++) {
		const struct compare_cell *c = &row->cells[r];
		struct strbuf sb = STRBUF_INIT;

		if (!c->nr_samples)
			continue;
		for (size_t k = 0; k < c->nr_samples; k++)
			strbuf_addf(&sb, "%.17g %.17g %zu\n",
				    (double)(r + 1) + (fmod((double)k * 0.618034, 1.0) - 0.5) * 0.3,
				    in_unit(u, c->samples[k]), k + 1);
		strbuf_addstr(&sb, "e\n");
		data[r] = strbuf_detach(&sb);
	}
	return data;
}

static void free_row_data(char **data, size_t nr_runs)
{
	for (size_t r = 0; r < nr_runs; r++)
		free(data[r]);
	free(data);
}

/* Points of each run at x = its place, jittered, and a box per run. */
static size_t chart_distribution(struct gnuplot *gp, const struct comparison *cmp, size_t i,
				 char *const *data)
{
	const struct compare_row *row = &cmp->rows[i];
	struct chart_unit u = row_unit(row, cmp->nr_runs);
	char *title = row_title(row), *y = axis_title(row->metric, &u);
	FILE *s = gp->script;
	size_t n = gnuplot_chart(gp, 560, 360, title, "run", y);
	bool first = true;

	free(title);
	free(y);
	fputs("set style boxplot nooutliers\nset style fill empty\nset xtics (", s);
	for (size_t r = 0; r < cmp->nr_runs; r++) {
		fputs(r ? ", " : "", s);
		gnuplot_tic_label(s, cmp->runs[r].name);
		fprintf(s, " %zu", r + 1);
	}
	fprintf(s, ")\nset xrange [0.5:%zu.5]\nset key off\nplot", cmp->nr_runs);
	for (size_t r = 0; r < cmp->nr_runs; r++) {
		if (!data[r])
			continue;
		fprintf(s, "%s '-' using (%zu):2 with boxplot lw 1.5", first ? "" : ",", r + 1);
		plot_color(s, r);
		fputs(", '-' using 1:2 with points pt 7 ps 0.5", s);
		plot_color(s, r);
		first = false;
	}
	fputs(first ? " NaN notitle\n" : "\n", s);
	for (size_t r = 0; r < cmp->nr_runs; r++)
		if (data[r]) {
			fputs(data[r], s);	/* the box's */
			fputs(data[r], s);	/* the points' */
		}
	return n;
}

/* The samples of each run in iteration order: drift and warm-up show. */
static size_t chart_order(struct gnuplot *gp, const struct comparison *cmp, size_t i,
			  char *const *data)
{
	const struct compare_row *row = &cmp->rows[i];
	struct chart_unit u = row_unit(row, cmp->nr_runs);	/* as row_data() holds them */
	char *title = row_title(row), *y = axis_title(row->metric, &u);
	FILE *s = gp->script;
	size_t n = gnuplot_chart(gp, 560, 360, title, "sample (in iteration order)", y);
	bool first = true;

	free(title);
	free(y);
	fputs("set key outside bottom center horizontal\nplot", s);
	for (size_t r = 0; r < cmp->nr_runs; r++) {
		if (!data[r])
			continue;
		fprintf(s, "%s '-' using 3:2 title ", first ? "" : ",");
		gnuplot_string(s, cmp->runs[r].name);
		fputs(" with linespoints pt 7 ps 0.5", s);
		plot_color(s, r);
		first = false;
	}
	fputs(first ? " NaN notitle\n" : "\n", s);
	for (size_t r = 0; r < cmp->nr_runs; r++)
		if (data[r])
			fputs(data[r], s);
	return n;
}

static struct chart_unit sweep_unit(const struct sweep *sw, size_t nr_runs)
{
	double largest = 0;

	for (size_t k = 0; k < sw->nr_points; k++)
		for (size_t r = 0; r < nr_runs; r++) {
			chart_unit_add(&largest, sw->points[k].mean[r]);
			chart_unit_add(&largest, sw->points[k].low[r]);
			chart_unit_add(&largest, sw->points[k].high[r]);
		}
	return chart_unit(largest);
}

static size_t chart_sweep(struct gnuplot *gp, const struct comparison *cmp,
			  const struct sweep *sw)
{
	struct chart_unit u = sweep_unit(sw, cmp->nr_runs);
	char *title, *y = axis_title(sw->metric, &u);
	FILE *s = gp->script;
	size_t n;
	bool first = true;

	if (asprintf(&title, "%s%s%s: %s against %s", sw->workload, *sw->fixed ? " " : "",
		     sw->fixed, sw->metric->name, sw->key) < 0)
		abort();
	n = gnuplot_chart(gp, 720, 420, title, sw->key, y);
	free(title);
	free(y);
	fputs("set key outside bottom center horizontal\nplot", s);
	for (size_t r = 0; r < cmp->nr_runs; r++) {
		fprintf(s, "%s '-' using 1:2:3:4 title ", first ? "" : ",");
		gnuplot_string(s, cmp->runs[r].name);
		fputs(" with yerrorlines pt 7 ps 0.6", s);
		plot_color(s, r);
		first = false;
	}
	fputc('\n', s);
	/* inline, as row_data() says why */
	for (size_t r = 0; r < cmp->nr_runs; r++) {
		for (size_t k = 0; k < sw->nr_points; k++) {
			const struct sweep_point *p = &sw->points[k];

			if (isfinite(p->mean[r]))
				fprintf(s, "%.17g %.17g %.17g %.17g\n", p->x,
					in_unit(&u, p->mean[r]), in_unit(&u,
					isfinite(p->low[r]) ? p->low[r] : p->mean[r]), in_unit(&u,
					isfinite(p->high[r]) ? p->high[r] : p->mean[r]));
		}
		fputs("e\n", s);
	}
	return n;
}

/* A series over the runs, its change points as dashed lines. */
static struct chart_unit history_unit(const struct history_series *hs)
{
	double largest = 0;

	for (size_t k = 0; k < hs->nr_points; k++) {
		chart_unit_add(&largest, hs->points[k].mean);
		chart_unit_add(&largest, hs->points[k].ci_low);
		chart_unit_add(&largest, hs->points[k].ci_high);
	}
	return chart_unit(largest);
}

static size_t chart_history(struct gnuplot *gp, const struct history_series *hs)
{
	struct chart_unit u = history_unit(hs);
	char *title = history_series_title(hs), *y = axis_title(hs->metric, &u);
	FILE *s = gp->script;
	size_t n = gnuplot_chart(gp, 900, 400, title, "run (in history order)", y);

	free(title);
	free(y);
	fputs("$points << EOD\n", s);
	for (size_t k = 0; k < hs->nr_points; k++) {
		const struct history_point *p = &hs->points[k];

		fprintf(s, "%zu %.17g %.17g %.17g\n", k, in_unit(&u, p->mean),
			in_unit(&u, isfinite(p->ci_low) ? p->ci_low : p->mean),
			in_unit(&u, isfinite(p->ci_high) ? p->ci_high : p->mean));
	}
	fputs("EOD\n", s);
	if (hs->nr_points <= 40) {
		fputs("set xtics rotate by -45 (", s);
		for (size_t k = 0; k < hs->nr_points; k++) {
			fputs(k ? ", " : "", s);
			gnuplot_tic_label(s, hs->points[k].run);
			fprintf(s, " %zu", k);
		}
		fputs(")\n", s);
	}
	for (size_t k = 0; k < hs->nr_changes; k++)
		fprintf(s, "set arrow from %g, graph 0 to %g, graph 1 nohead dt 2 lw 2 "
			"lc rgb '%s'\n", (double)hs->changes[k].cp.index - 0.5,
			(double)hs->changes[k].cp.index - 0.5,
			hs->changes[k].regression ? "#d62728" : "#2ca02c");
	fprintf(s, "set xrange [-0.5:%zu.5]\nset key outside bottom center horizontal\n"
		"plot $points using 1:2:3:4 with yerrorlines pt 7 ps 0.6 lc rgb '#1f77b4' "
		"title 'mean and its interval', NaN with lines dt 2 lw 2 lc rgb '#d62728' "
		"title 'regression', NaN with lines dt 2 lw 2 lc rgb '#2ca02c' "
		"title 'improvement'\n", hs->nr_points ? hs->nr_points - 1 : 0);
	return n;
}

static bool row_has_samples(const struct compare_row *row, size_t nr_runs)
{
	for (size_t r = 0; r < nr_runs; r++)
		if (row->cells[r].nr_samples)
			return true;
	return false;
}

static size_t *no_charts(size_t n)
{
	size_t *c = xcalloc(n + 1, sizeof(*c));

	for (size_t i = 0; i < n; i++)
		c[i] = NO_CHART;
	return c;
}

static int draw_charts(const struct html_input *in, struct gnuplot *gp, struct charts *ch,
		       struct error *err)
{
	const struct comparison *cmp = in->cmp;

	if (gnuplot_start(gp, err))
		return -1;
	for (size_t i = 0; i < cmp->nr_rows; i++) {
		/* a row of failed iterations only has nothing to draw (gnuplot refuses it) */
		struct chart_unit u;
		char **data;

		if (!row_has_samples(&cmp->rows[i], cmp->nr_runs))
			continue;
		u = row_unit(&cmp->rows[i], cmp->nr_runs);
		data = row_data(cmp, i, &u);
		ch->distribution[i] = chart_distribution(gp, cmp, i, data);
		ch->order[i] = chart_order(gp, cmp, i, data);
		free_row_data(data, cmp->nr_runs);
	}
	for (size_t i = 0; i < in->nr_sweeps; i++)
		ch->sweep[i] = chart_sweep(gp, cmp, &in->sweeps[i]);
	for (size_t i = 0; in->history && i < in->history->nr_series; i++)
		if (in->history->series[i].nr_points)
			ch->history[i] = chart_history(gp, &in->history->series[i]);
	return gnuplot_finish(gp, err);
}

static void put_chart(FILE *out, const struct gnuplot *gp, size_t n, const char *what)
{
	char *svg = n == NO_CHART ? NULL : gnuplot_svg(gp, n);

	if (!svg)
		return;
	fprintf(out, "<figure class=\"chart\" data-chart=\"%s\">", what);
	fputs(svg, out);
	fputs("</figure>\n", out);
	free(svg);
}

static const char style[] =
	"body{font-family:sans-serif;margin:1.5em;color:#222;max-width:1200px}"
	"table{border-collapse:collapse;margin:0.5em 0}"
	"th,td{border:1px solid #ccc;padding:0.2em 0.5em;text-align:right}"
	"th{background:#f0f0f0}td.name,th.name{text-align:left}"
	".better{color:#1a7f1a;font-weight:bold}.worse{color:#c01010;font-weight:bold}"
	".caveat{color:#a05a00}.note{background:#fff4d0;padding:0.5em;border:1px solid #e0c060}"
	"figure.chart{display:inline-block;margin:0.3em}"
	"figure.chart svg{max-width:100%;height:auto}"
	"pre{background:#f7f7f7;padding:0.5em;overflow-x:auto}";

static void head(FILE *out, const struct comparison *cmp)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>schedperf report: ", out);
	for (size_t r = 0; r < cmp->nr_runs; r++) {
		fputs(r ? " vs " : "", out);
		html_text(out, cmp->runs[r].name);
	}
	fprintf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n", style);
}

static void runs_table(FILE *out, const struct comparison *cmp)
{
	fputs("<h1>schedperf report</h1>\n<p>Generated by schedperf " SCHEDPERF_VERSION
	      ". The first run is the baseline; a percent change is positive when better, "
	      "whichever way the metric goes.</p>\n<table><tr><th class=\"name\">run</th>"
	      "<th>batches</th><th class=\"name\">first started</th></tr>\n", out);
	for (size_t r = 0; r < cmp->nr_runs; r++) {
		const struct result_set *set = &cmp->runs[r].set;

		fputs("<tr><td class=\"name\">", out);
		html_text(out, cmp->runs[r].name);
		fprintf(out, "</td><td>%zu</td><td class=\"name\">", set->nr_batches);
		html_text(out, set->nr_batches ? set->batches[0].started : "");
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
}

static void environment(FILE *out, const struct comparison *cmp)
{
	fputs("<h2 id=\"environment\">Environment</h2>\n", out);
	if (!cmp->nr_env_diffs) {
		fputs("<p>No environment key differs between the runs.</p>\n", out);
	} else {
		fputs("<p>Keys whose values differ between the runs; <span class=\"caveat\">!"
		      "</span> marks a key known to move results, and every verdict of a run "
		      "that differs from the baseline in one says so.</p>\n<table><tr>"
		      "<th class=\"name\">key</th>", out);
		for (size_t r = 0; r < cmp->nr_runs; r++) {
			fputs("<th class=\"name\">", out);
			html_text(out, cmp->runs[r].name);
			fputs("</th>", out);
		}
		fputs("</tr>\n", out);
		for (size_t i = 0; i < cmp->nr_env_diffs; i++) {
			const struct env_difference *d = &cmp->env_diffs[i];

			fprintf(out, "<tr><td class=\"name%s\">%s", d->moves_results ?
				" caveat" : "", d->moves_results ? "! " : "");
			html_text(out, d->key);
			fputs("</td>", out);
			for (size_t r = 0; r < cmp->nr_runs; r++) {
				fputs("<td class=\"name\">", out);
				html_text(out, d->values[r] ? d->values[r] : "(unset)");
				fputs("</td>", out);
			}
			fputs("</tr>\n", out);
		}
		fputs("</table>\n", out);
	}
	for (size_t r = 0; r < cmp->nr_runs; r++) {
		const struct result_set *set = &cmp->runs[r].set;
		const struct result_batch *b = set->nr_batches ? &set->batches[0] : NULL;

		if (!b)
			continue;
		fputs("<details><summary>the environment of ", out);
		html_text(out, cmp->runs[r].name);
		fputs(" (its first batch)</summary><table>\n", out);
		for (size_t k = 0; k < b->nr_env; k++) {
			fputs("<tr><td class=\"name\">", out);
			html_text(out, b->env[k].key);
			fputs("</td><td class=\"name\">", out);
			html_text(out, b->env[k].value);
			fputs("</td></tr>\n", out);
		}
		fputs("</table></details>\n", out);
	}
}

static void verdict_cell(FILE *out, const struct comparison *cmp,
			 const struct compare_row *row, size_t r)
{
	char verdict[128];
	enum verdict v = row->cells[r].stats.verdict;

	format_verdict(verdict, sizeof(verdict), cmp, row, r, v);
	fprintf(out, "<td class=\"name %s\">", v == VERDICT_BETTER ? "better" :
		v == VERDICT_WORSE ? "worse" : "");
	html_text(out, verdict);
	fputs("</td>", out);
}

static void comparison_table(FILE *out, const struct comparison *cmp)
{
	fputs("<h2 id=\"comparison\">Comparison</h2>\n<p>Per run: the headline (Hmean when "
	      "higher is better, else Amean) &plusmn; stddev (n); per run against the "
	      "baseline: its change and compare's verdict.</p>\n<table><tr>"
	      "<th class=\"name\">benchmark</th><th class=\"name\">metric</th>", out);
	for (size_t r = 0; r < cmp->nr_runs; r++) {
		fputs("<th>", out);
		html_text(out, cmp->runs[r].name);
		fputs(r ? "</th><th>change</th><th class=\"name\">verdict</th>" : "</th>", out);
	}
	fputs("</tr>\n", out);
	for (size_t i = 0; i < cmp->nr_rows; i++) {
		const struct compare_row *row = &cmp->rows[i];
		char *title = row_title(row);

		fprintf(out, "<tr><td class=\"name\"><a href=\"#row%zu\">", i);
		html_text(out, title);
		fputs("</a></td><td class=\"name\">", out);
		html_text(out, row->metric->name);
		fputs(" (", out);
		/* another metric of its name (another unit or direction): say its unit too */
		if (comparison_metric_name_shared(cmp, row->metric) && *row->metric->unit) {
			html_text(out, row->metric->unit);
			fputs(", ", out);
		}
		fprintf(out, "%s)</td>", row->metric->better == BETTER_HIGHER ? "higher is better" :
			"lower is better");
		free(title);
		for (size_t r = 0; r < cmp->nr_runs; r++) {
			const struct compare_cell *c = &row->cells[r];

			fputs("<td>", out);
			html_number(out, compare_headline(&c->summary, row->metric->better), 6, false);
			fputs(" &plusmn; ", out);
			html_number(out, c->summary.stddev, 3, false);
			fprintf(out, " (%zu)</td>", c->nr_samples);
			if (!r)
				continue;
			fputs("<td>", out);
			html_number(out, headline_change(row, r), 0, true);
			fputs("</td>", out);
			verdict_cell(out, cmp, row, r);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

/* compare's own text, as `schedperf compare` prints it */
static void compare_text(FILE *out, const struct comparison *cmp, const char *db)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (!mem)
		return;
	report_compare_text(mem, cmp, &(struct compare_render){ &compare_styles[0], false,
								 false, false, db });
	fclose(mem);
	fputs("<details><summary>the same comparison as <code>schedperf compare</code> "
	      "prints it</summary><pre>", out);
	html_lines(out, text);
	fputs("</pre></details>\n", out);
	free(text);
}

static void benchmarks(FILE *out, const struct comparison *cmp, const struct gnuplot *gp,
		       const struct charts *ch)
{
	fputs("<h2 id=\"benchmarks\">Benchmarks</h2>\n", out);
	for (size_t i = 0; i < cmp->nr_rows; i++) {
		const struct result_metric *m = cmp->rows[i].metric;
		char *title = row_title(&cmp->rows[i]);

		fprintf(out, "<h3 id=\"row%zu\">", i);
		html_text(out, title);
		fputs(": ", out);
		html_text(out, m->name);
		if (comparison_metric_name_shared(cmp, m)) {
			fputs(" (", out);
			if (*m->unit) {
				html_text(out, m->unit);
				fputs(", ", out);
			}
			fprintf(out, "%s is better)", better_name(m->better));
		}
		fputs("</h3>\n", out);
		free(title);
		put_chart(out, gp, ch->distribution[i], "distribution");
		put_chart(out, gp, ch->order[i], "order");
	}
}

static void sweeps(FILE *out, const struct html_input *in, const struct gnuplot *gp,
		   const struct charts *ch)
{
	if (!in->nr_sweeps)
		return;
	fputs("<h2 id=\"sweeps\">Sweeps</h2>\n<p>The mean of each run against the swept "
	      "parameter, with the t interval of the mean.</p>\n", out);
	for (size_t i = 0; i < in->nr_sweeps; i++)
		put_chart(out, gp, ch->sweep[i], "sweep");
}

static void history(FILE *out, const struct history *h, const struct gnuplot *gp,
		    const struct charts *ch)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem;

	fputs("<h2 id=\"history\">History</h2>\n<p>Every stored run as a point of each "
	      "series (the mean and its interval), change points as dashed lines: red a "
	      "regression, green an improvement.</p>\n", out);
	for (size_t i = 0; i < h->nr_series; i++)
		put_chart(out, gp, ch->history[i], "history");
	if (!(mem = open_memstream(&text, &len)))
		return;
	report_detect_text(mem, h, NULL);
	fclose(mem);
	fputs("<pre>", out);
	html_lines(out, text);
	fputs("</pre>\n", out);
	free(text);
}

int report_html(FILE *out, const struct html_input *in, struct error *err)
{
	const struct comparison *cmp = in->cmp;
	size_t nr_series = in->history ? in->history->nr_series : 0;
	struct charts ch = {
		no_charts(cmp->nr_rows), no_charts(cmp->nr_rows), no_charts(in->nr_sweeps),
		no_charts(nr_series),
	};
	struct gnuplot gp = { 0 };
	bool plots = gnuplot_available();
	int code = 0;

	if (plots && draw_charts(in, &gp, &ch, err)) {
		code = -1;
		goto out;
	}
	head(out, cmp);
	runs_table(out, cmp);
	if (!plots)
		fputs("<p class=\"note\">gnuplot was not found on PATH: this report has no "
		      "charts (install gnuplot, e.g. apt-get install gnuplot-nox, and run "
		      "schedperf report again).</p>\n", out);
	environment(out, cmp);
	comparison_table(out, cmp);
	compare_text(out, cmp, in->db);
	sweeps(out, in, &gp, &ch);
	benchmarks(out, cmp, &gp, &ch);
	if (in->history)
		history(out, in->history, &gp, &ch);
	fputs("</body>\n</html>\n", out);
out:
	gnuplot_cleanup(&gp);
	free(ch.distribution);
	free(ch.order);
	free(ch.sweep);
	free(ch.history);
	return code;
}
