// SPDX-License-Identifier: GPL-2.0
/*
 * A bisection's report from its stored record (experiment/bisection.h,
 * doc/design.md "Bisection"): text for the terminal, markdown for a mail
 * to LKML, or the record itself as JSON. Every number comes from the
 * record, so that `bisect --show` prints what the bisection printed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "util/numfmt.h"
#include "util/swapped_ends.h"
#include "util/utf8.h"
#include "util/xalloc.h"

static const char *str(const json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return s ? s : "";
}

/*
 * A text of the record (a commit's subject, a reason, git's words) for a
 * line of text: the record keeps it as it is, a control character in it
 * would rewrite the terminal's line, so it is shown as \xHH.
 */
static const char *shown(const json_t *obj, const char *key, char *buf, size_t len)
{
	utf8_escape(buf, len, str(obj, key));
	return buf;
}

/*
 * The @i-th string of @array (the commits left when only skipped ones are,
 * the -p options): "" where a record edited outside schedperf has another value.
 */
static const char *nth_string(const json_t *array, size_t i)
{
	const char *s = json_string_value(json_array_get(array, i));

	return s ? s : "";
}

static double num(const json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/*
 * A number of the record for a line: "missing" where the record has none
 * (one edited outside schedperf), never "nan".
 */
static const char *num_shown(const json_t *obj, const char *key, bool seconds, char *buf,
			     size_t len)
{
	double v = num(obj, key);

	if (isnan(v))
		return "missing";
	if (seconds)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%g", v);
	return buf;
}

/* An integer of the record, "missing" where it has none. */
static const char *int_shown(const json_t *obj, const char *key, char *buf, size_t len)
{
	json_t *v = json_object_get(obj, key);

	if (!json_is_integer(v))
		return "missing";
	snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	return buf;
}

/* A field every record has, "missing" where it has not. */
static const char *said(const json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return s ? s : "missing";
}

/*
 * Whether the ends' measurement showed bad better than good, the whole of
 * its interval on the better side (the pair stops as soon as bad is shown
 * not worse, so this is said only where the ends were that far apart):
 * the words bisect-step says of such runs, malloc'd; else NULL.
 */
static char *swapped_said(const json_t *r)
{
	json_t *ends = json_object_get(r, "ends");
	json_t *low = json_array_get(json_object_get(ends, "ci_pct"), 0);
	char *bad, *good, *text;

	if (strcmp(str(ends, "verdict"), "not worse") || !json_is_number(low) ||
	    !(json_number_value(low) > 0))
		return NULL;
	bad = xasprintf("bad %.12s", said(r, "bad"));
	good = xasprintf("good %.12s", said(r, "good"));
	text = swapped_ends_said(bad, good, "commit");
	free(good);
	free(bad);
	return text;
}

/* What a block of a measurement is: a kernel bisection's is a round of boots. */
static const char *blocks_word(const json_t *r)
{
	return strcmp(str(r, "target"), "kernel") ? "blocks" : "rounds of boots";
}

/* An end of a change's interval: "-21.3 %", or "unbounded" when the samples set none. */
static void change_end(FILE *out, const json_t *end)
{
	char pct[32];

	if (json_is_number(end))
		fprintf(out, "%s %%", format_change(pct, sizeof(pct), json_number_value(end), 1));
	else
		fputs("unbounded", out);
}

/*
 * "-19.8 % [-21.3 %, -18.4 %]", or "-" when the record has no change; an
 * interval of a record from before it had one is left out.
 */
static void change(FILE *out, const json_t *obj)
{
	json_t *ci = json_object_get(obj, "ci_pct");
	char pct[32];

	if (!isfinite(num(obj, "change_pct"))) {
		fputs("-", out);
		return;
	}
	fprintf(out, "%s %%", format_change(pct, sizeof(pct), num(obj, "change_pct"), 1));
	if (json_array_size(ci) != 2)
		return;
	fputs(" [", out);
	change_end(out, json_array_get(ci, 0));
	fputs(", ", out);
	change_end(out, json_array_get(ci, 1));
	fputc(']', out);
}

/* The chance that the culprit is right: every decided step right, by the union bound. */
static double chance_right(const json_t *steps, size_t *decided)
{
	double wrong = 0;
	size_t i;
	json_t *step;

	*decided = 0;
	json_array_foreach(steps, i, step) {
		if (!strcmp(str(step, "verdict"), "skip"))
			continue;
		(*decided)++;
		wrong += num(step, "error_bound");
	}
	return fmax(0, 1 - wrong);
}

static void text_header(FILE *out, const json_t *r)
{
	json_t *ends = json_object_get(r, "ends"), *params = json_object_get(r, "params");
	char alpha[32], margin[32], id[32], *repo = utf8_escaped(said(r, "repo"));

	fprintf(out, "bisection %s of %s on %s: %s", int_shown(r, "id", id, sizeof(id)), repo,
		said(r, "machine"), said(r, "workload"));
	free(repo);
	/* a -p value may hold a line break (a command's script): escaped */
	for (size_t i = 0; i < json_array_size(params); i++) {
		char *param = utf8_escaped(nth_string(params, i));

		fprintf(out, " %s", param);
		free(param);
	}
	fprintf(out, "\nmetric %s (%s is better); alpha %s per step, margin %s %%, seed %s\n",
		said(r, "metric"), said(r, "better"),
		num_shown(r, "alpha", false, alpha, sizeof(alpha)),
		num_shown(r, "margin_pct", false, margin, sizeof(margin)),
		int_shown(r, "seed", id, sizeof(id)));
	if (json_object_get(r, "kernels"))
		fprintf(out, "kernels of %s booted and measured on %s (of %s), %lld iterations "
			"a boot\n", str(r, "repo"), *str(r, "machine_host") ?
			str(r, "machine_host") : "-", str(r, "machine_pattern"),
			(long long)json_integer_value(json_object_get(r, "boot_iterations")));
	fprintf(out, "good %.12s, bad %.12s", said(r, "good"), said(r, "bad"));
	if (ends) {
		fputs(": bad against good ", out);
		change(out, ends);
		fprintf(out, ", %s, %lld %s, %s s", said(ends, "verdict"),
			(long long)json_integer_value(json_object_get(ends, "blocks")),
			blocks_word(r), num_shown(ends, "seconds", true, margin, sizeof(margin)));
	}
	fputc('\n', out);
}

/* The kernel release a commit was built as, in a kernel bisection's record. */
static const char *kernel_of(const json_t *record, const json_t *step)
{
	return json_string_value(json_object_get(json_object_get(record, "kernels"),
						 str(step, "commit")));
}

static void text_steps(FILE *out, const json_t *record, const json_t *steps)
{
	size_t i;
	json_t *step;

	if (!json_array_size(steps))
		return;
	fprintf(out, "\n%4s  %-12s  %-7s  %-29s  %8s  %6s  %7s  %s\n", "step", "commit",
		"verdict", "change against good", "position", "blocks", "seconds", "subject");
	json_array_foreach(steps, i, step) {
		char cell[64], position[16] = "-", seconds[16] = "-", text[1024];
		FILE *mem = fmemopen(cell, sizeof(cell), "w");

		if (mem) {
			change(mem, step);
			fclose(mem);
		} else {
			snprintf(cell, sizeof(cell), "-");
		}
		if (isfinite(num(step, "position")))
			snprintf(position, sizeof(position), "%.2f", num(step, "position"));
		if (isfinite(num(step, "seconds")))
			snprintf(seconds, sizeof(seconds), "%.1f", num(step, "seconds"));
		fprintf(out, "%4zu  %.12s  %-7s  %-29s  %8s  %6lld  %7s  %s\n", i + 1,
			str(step, "commit"), str(step, "verdict"), cell, position,
			(long long)json_integer_value(json_object_get(step, "blocks")), seconds,
			shown(step, "subject", text, sizeof(text)));
		if (kernel_of(record, step))
			fprintf(out, "%4s  kernel %s\n", "", kernel_of(record, step));
		if (strcmp(str(step, "reason"), "decided"))
			fprintf(out, "%4s  %s\n", "", shown(step, "reason", text, sizeof(text)));
	}
}

/*
 * A build that sat well between the ends: the regression may come in
 * parts, and the culprit found may be only one of them.
 */
static void between(FILE *out, const json_t *steps)
{
	size_t i;
	json_t *step;

	json_array_foreach(steps, i, step) {
		double position = num(step, "position");

		if (!(position > 0.25 && position < 0.75))
			continue;
		fprintf(out, "  but step %zu's build (%.12s) measured %.2f of the way from good "
			"to bad: the regression may come in parts, of which this is one\n",
			i + 1, str(step, "commit"), position);
	}
}

static void text_result(FILE *out, const json_t *r)
{
	json_t *culprit = json_object_get(r, "culprit"), *conf = json_object_get(r, "confirmation");
	const char *result = str(r, "result");
	char text[1024];
	size_t decided;
	double right = chance_right(json_object_get(r, "steps"), &decided);

	fputc('\n', out);
	if (json_object_get(r, "error"))
		fprintf(out, "stopped by an error: %s\n", shown(r, "error", text, sizeof(text)));
	if (!*result && json_is_true(json_object_get(r, "abandoned"))) {
		fprintf(out, "abandoned while %s: a later bisection of the repository was "
			"started\n", said(r, "phase"));
		return;
	}
	if (!*result) {
		fprintf(out, "unfinished, %s (schedperf bisect --resume goes on)\n",
			said(r, "phase"));
		return;
	}
	if (!strcmp(result, "nothing to bisect")) {
		json_t *ends = json_object_get(r, "ends");
		char *swapped = swapped_said(r);

		if (swapped)
			fprintf(out, "%s\n", swapped);
		else if (!strcmp(str(ends, "verdict"), "unknown"))
			fprintf(out, "nothing to bisect: good and bad were not shown to differ "
				"within the cap (%s); give a larger --max-samples or --max-time to "
				"tell them apart\n", shown(ends, "reason", text, sizeof(text)));
		else
			fprintf(out, "nothing to bisect: bad is not worse than good by more than "
				"the margin (%s %%)\n",
				num_shown(r, "margin_pct", false, text, sizeof(text)));
		free(swapped);
		return;
	}
	if (!strcmp(result, "only skipped commits left")) {
		fputs("only skipped commits left: the first bad commit is one of", out);
		for (size_t i = 0; i < json_array_size(json_object_get(r, "candidates")); i++)
			fprintf(out, " %.12s", nth_string(json_object_get(r, "candidates"), i));
		fputc('\n', out);
		return;
	}
	fprintf(out, "culprit %.12s %s\n", str(culprit, "commit"),
		shown(culprit, "subject", text, sizeof(text)));
	if (conf && !strcmp(str(conf, "verdict"), "not measured")) {
		fprintf(out, "  against its parent %.12s: %s, not measured: %s\n",
			str(culprit, "parent"), result, shown(conf, "reason", text, sizeof(text)));
	} else if (conf) {
		fprintf(out, "  against its parent %.12s: ", str(culprit, "parent"));
		change(out, conf);
		fprintf(out, ", %s (%s, %lld %s, %s s)\n", result, said(conf, "verdict"),
			(long long)json_integer_value(json_object_get(conf, "blocks")),
			blocks_word(r), num_shown(conf, "seconds", true, text, sizeof(text)));
	}
	fprintf(out, "  chance that it is the first bad commit: at least %.3f (%zu steps "
		"decided)\n", right, decided);
	between(out, json_object_get(r, "steps"));
}

static void md_header(FILE *out, const json_t *r)
{
	json_t *ends = json_object_get(r, "ends");
	char alpha[32];

	fputs("**schedperf bisect** of ", out);
	md_text(out, said(r, "workload"));
	for (size_t i = 0; i < json_array_size(json_object_get(r, "params")); i++) {
		fputc(' ', out);
		md_text(out, nth_string(json_object_get(r, "params"), i));
	}
	fputs(" on ", out);
	md_text(out, *str(r, "machine_host") ? str(r, "machine_host") : said(r, "machine"));
	fprintf(out, ", metric %s (%s is better), alpha %s per step\n\n", said(r, "metric"),
		said(r, "better"), num_shown(r, "alpha", false, alpha, sizeof(alpha)));
	fprintf(out, "good `%.12s`, bad `%.12s`", said(r, "good"), said(r, "bad"));
	if (ends) {
		fputs(": bad against good ", out);
		change(out, ends);
		fprintf(out, " (%s)", str(ends, "verdict"));
	}
	fputs("\n\n", out);
}

static void md_steps(FILE *out, const json_t *record, const json_t *steps)
{
	size_t i;
	json_t *step;

	if (!json_array_size(steps))
		return;
	fputs("| step | commit | verdict | change against good | position | blocks | "
	      "seconds | subject |\n|---:|---|---|---|---:|---:|---:|---|\n", out);
	json_array_foreach(steps, i, step) {
		fprintf(out, "| %zu | `%.12s` | %s | ", i + 1, str(step, "commit"),
			str(step, "verdict"));
		change(out, step);
		fputs(" | ", out);
		md_number(out, num(step, "position"), MD_G3);
		fprintf(out, " | %lld | ", (long long)json_integer_value(
			json_object_get(step, "blocks")));
		if (isfinite(num(step, "seconds")))
			fprintf(out, "%.1f", num(step, "seconds"));
		else
			fputc('-', out);
		fputs(" | ", out);
		md_text(out, str(step, "subject"));
		if (strcmp(str(step, "reason"), "decided")) {
			fputs(" (", out);
			md_text(out, str(step, "reason"));
			fputc(')', out);
		}
		if (kernel_of(record, step)) {
			fputs(" (", out);
			md_text(out, kernel_of(record, step));
			fputc(')', out);
		}
		fputs(" |\n", out);
	}
	fputc('\n', out);
}

static void md_result(FILE *out, const json_t *r)
{
	json_t *culprit = json_object_get(r, "culprit"), *conf = json_object_get(r, "confirmation");
	const char *result = str(r, "result");
	size_t decided;
	double right = chance_right(json_object_get(r, "steps"), &decided);

	if (!strcmp(result, "only skipped commits left")) {
		json_t *candidates = json_object_get(r, "candidates");

		fprintf(out, "**Result:** %s: the first bad commit is one of", result);
		for (size_t i = 0; i < json_array_size(candidates); i++)
			fprintf(out, " `%.12s`", nth_string(candidates, i));
		fputs("\n", out);
		return;
	}
	if (!*result && json_is_true(json_object_get(r, "abandoned"))) {
		fprintf(out, "**Result:** abandoned while %s\n", said(r, "phase"));
		return;
	}
	if (!*result || !strcmp(result, "nothing to bisect")) {
		char *swapped = *result ? swapped_said(r) : NULL;

		fprintf(out, "**Result:** %s\n", swapped ? swapped : *result ? result :
			"unfinished");
		free(swapped);
		return;
	}
	fprintf(out, "**Culprit:** `%.12s` ", str(culprit, "commit"));
	md_text(out, str(culprit, "subject"));
	if (conf) {
		fprintf(out, " — against its parent `%.12s`: ", str(culprit, "parent"));
		change(out, conf);
		fprintf(out, ", %s", result);
	}
	fprintf(out, "; the chance that it is the first bad commit is at least %.3f (%zu "
		"steps decided).\n", right, decided);
}

/* The record itself, less the process that worked on it. */
static void bisection_json(FILE *out, const void *records, const void *how)
{
	json_t *copy = json_deep_copy(records);

	json_object_del(copy, "writer");
	json_dumpf(copy, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10) | JSON_SORT_KEYS);
	json_decref(copy);
	fputc('\n', out);
}

static void bisection_markdown(FILE *out, const void *records, const void *how)
{
	const json_t *record = records;

	md_header(out, record);
	md_steps(out, record, json_object_get(record, "steps"));
	md_result(out, record);
}

static void bisection_text(FILE *out, const void *records, const void *how)
{
	const json_t *record = records;

	text_header(out, record);
	text_steps(out, record, json_object_get(record, "steps"));
	text_result(out, record);
}

const struct output_format bisection_formats[] = {
	{ { "text", NULL }, bisection_text, false },
	{ { "markdown", "for a mail" }, bisection_markdown, false },
	{ { "json", NULL }, bisection_json, true },
	{ { NULL, NULL }, NULL, false },
};

void report_bisection_list(FILE *out, const struct stored_bisection *list, size_t n)
{
	if (!n) {
		fputs("no bisection stored\n", out);
		return;
	}
	fprintf(out, "%4s  %-11s  %-19s  %s\n", "id", "state", "started", "repository: result");
	for (size_t i = 0; i < n; i++) {
		json_t *r = json_loads(list[i].doc, 0, NULL);
		json_t *culprit = json_object_get(r, "culprit");
		char *repo = utf8_escaped(list[i].repo), text[1024];

		fprintf(out, "%4lld  %-11s  %-19.19s  %s: %s", (long long)list[i].id, list[i].state,
			list[i].started, repo, !json_is_object(r) ? "damaged record (not JSON)" :
			*str(r, "result") ? str(r, "result") : str(r, "phase"));
		if (culprit)
			fprintf(out, " %.12s %s", str(culprit, "commit"),
				shown(culprit, "subject", text, sizeof(text)));
		fputc('\n', out);
		json_decref(r);
		free(repo);
	}
}
