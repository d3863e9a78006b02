// SPDX-License-Identifier: GPL-2.0
/*
 * What every renderer of a comparison shares: the list of environment
 * differences above the tables, a verdict with its caveats ("worse
 * (!governor differs)") and its colour, and the headline's change.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "util/array.h"
#include "util/db_hint.h"
#include "util/utf8.h"
#include "util/xalloc.h"

double headline_change(const struct compare_row *row, size_t r)
{
	enum better better = row->metric->better;

	return summary_pct_change(compare_headline(&row->cells[0].summary, better),
				  compare_headline(&row->cells[r].summary, better),
				  better == BETTER_HIGHER);
}

void report_no_rows(FILE *out, const struct compare_render *how)
{
	fputs(how->only_changed ? "no changes: no row is better or worse\n" :
	      "no metrics to compare\n", out);
}

const char *verdict_color(enum verdict v, bool color)
{
	if (!color)
		return "";
	return v == VERDICT_BETTER ? "\033[32m" : v == VERDICT_WORSE ? "\033[31m" : "";
}

const char *color_reset(enum verdict v, bool color)
{
	return color && (v == VERDICT_BETTER || v == VERDICT_WORSE) ? "\033[0m" : "";
}

/* Append to @buf what qualifies a verdict, each "; "-separated. */
static size_t add_note(char *buf, size_t len, size_t used, bool *first, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static size_t add_note(char *buf, size_t len, size_t used, bool *first, const char *fmt, ...)
{
	va_list ap;

	if (used >= len)
		return used;
	used += (size_t)snprintf(buf + used, len - used, "%s", *first ? " (" : "; ");
	*first = false;
	if (used >= len)
		return used;
	va_start(ap, fmt);
	used += (size_t)vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
	return used;
}

void format_verdict(char *buf, size_t len, const struct comparison *cmp,
		    const struct compare_row *row, size_t r, enum verdict v)
{
	const struct compare_cell *base = &row->cells[0], *cell = &row->cells[r];
	size_t disturbed = base->nr_disturbed + cell->nr_disturbed;
	size_t excluded = base->nr_excluded + cell->nr_excluded;
	const char *keys[COMPARE_MAX_CAVEATS];
	size_t n = comparison_caveats(cmp, r, keys, ARRAY_SIZE(keys)), used;
	bool first = true;

	used = (size_t)snprintf(buf, len, "%s", verdict_name(v));
	if (v == VERDICT_NONE)
		return;
	/* what a style's table may show as zeros (MMTests' cells of a missing operation) */
	if (!cell->nr_samples)
		used = add_note(buf, len, used, &first, "no samples");
	else if (!base->nr_samples)
		used = add_note(buf, len, used, &first, "no samples in %s", cmp->runs[0].name);
	if (n) {
		/* one note for every key: "!machine,machine-id differ" */
		char env[256];
		size_t e = 0;

		for (size_t i = 0; i < n && i < ARRAY_SIZE(keys) && e < sizeof(env); i++)
			e += (size_t)snprintf(env + e, sizeof(env) - e, "%s%s", i ? "," : "!",
					      env_key_short(keys[i]));
		used = add_note(buf, len, used, &first, "%s %s", env,
				n > 1 ? "differ" : "differs");
	}
	if (disturbed && !excluded)
		used = add_note(buf, len, used, &first, "!disturbed %zu/%zu", disturbed,
				base->nr_samples + cell->nr_samples);
	if (excluded)
		used = add_note(buf, len, used, &first, "%zu disturbed left out", excluded);
	if (cell->stats.within_spread)
		used = add_note(buf, len, used, &first, "within batch spread");
	if (cell->stats.too_few)
		used = add_note(buf, len, used, &first, "too few samples: %.32s has %zu, %d needed",
				base->nr_samples < COMPARE_MIN_SAMPLES ? cmp->runs[0].name :
				cmp->runs[r].name,
				base->nr_samples < COMPARE_MIN_SAMPLES ? base->nr_samples :
				cell->nr_samples, COMPARE_MIN_SAMPLES);
	if (!first && used < len)
		snprintf(buf + used, len - used, ")");
}

/* A side of an ab (its batches' environment has "experiment" "ab", sampling.c's). */
static bool ab_side(const struct compare_run *run)
{
	for (size_t b = 0; b < run->set.nr_batches; b++) {
		const char *kind = result_batch_env(&run->set.batches[b], "experiment");

		if (kind && strcmp(kind, "bisect"))
			return true;
	}
	return false;
}

/*
 * Whether an incomplete batch of @run was sampled until a verdict (a bisect
 * step's, a bisection's): run --resume refuses it, having no iterations
 * left to run.
 */
static bool incomplete_sampled(const struct compare_run *run)
{
	for (size_t b = 0; b < run->set.nr_batches; b++)
		if (!run->set.batches[b].complete && run->set.batches[b].sampled)
			return true;
	return false;
}

static bool one_batch(const struct comparison *cmp, size_t r)
{
	for (size_t i = 0; i < cmp->nr_rows; i++)
		if (compare_cell_batches(&cmp->rows[i].cells[r]) > 1)
			return false;
	return true;
}

/*
 * A markdown cell must not carry a '|', which would end it, nor a trailing
 * backslash, which would escape the '|' that ends it, nor a control
 * character (a return, an escape), which would break or rewrite the row.
 * Nor may a name become markup where the markdown is rendered: a tag or an
 * entity (<script>, &amp;), a code span, a link, emphasis or a strikethrough;
 * each such character is backslash-escaped, as CommonMark allows any ASCII
 * punctuation to be. '_' is markup only next to a non-alphanumeric (or at
 * an end): inside a word (usec_per_op) it stays as it is.
 */
static bool md_markup(const char *s, const char *start)
{
	const unsigned char before = s > start ? (unsigned char)s[-1] : ' ';
	const unsigned char after = (unsigned char)s[1];

	if (strchr("|\\<>&`*[]~", *s))
		return true;
	return *s == '_' && (!(isalnum(before) || before >= 0x80) ||
			     !(isalnum(after) || after >= 0x80));
}

/* Escaped as text shows it first: a newline would end the table's row. */
void md_text(FILE *out, const char *text)
{
	char *s = utf8_escaped(text);

	for (const char *p = s; *p; p++) {
		if (md_markup(p, s))
			fputc('\\', out);
		fputc(*p, out);
	}
	free(s);
}

/*
 * In text, schedperf's own lines below a style's tables are labelled as
 * its verdict lines are (print_verdict_line()), so that the tool's part
 * stays the tool's table alone; markdown sets them apart with its own
 * marks.
 */
#define NOTE_LEAD "schedperf: "

/* A name on one of those lines: as it is in text, escaped as a cell is in markdown. */
static void note_name(FILE *out, const char *s, bool markdown)
{
	if (markdown)
		md_text(out, s);
	else
		fputs(s, out);
}

/* Per run, the samples from disturbed iterations in the rows shown, or left out. */
static void report_disturbed(FILE *out, const struct comparison *cmp, bool markdown)
{
	size_t any = 0;

	for (size_t i = 0; i < cmp->nr_rows; i++)
		for (size_t r = 0; r < cmp->nr_runs; r++)
			any += cmp->rows[i].cells[r].nr_disturbed;
	if (!any)
		return;
	fprintf(out, "%s (other tasks took CPU time from their iterations):",
		markdown ? "\n- Disturbed samples" : NOTE_LEAD "disturbed samples");
	for (size_t r = 0; r < cmp->nr_runs; r++) {
		size_t disturbed = 0, excluded = 0, n = 0;

		for (size_t i = 0; i < cmp->nr_rows; i++) {
			const struct compare_cell *c = &cmp->rows[i].cells[r];

			disturbed += c->nr_disturbed;
			excluded += c->nr_excluded;
			n += c->nr_samples + c->nr_excluded;
		}
		fputs(r ? ", " : " ", out);
		note_name(out, cmp->runs[r].name, markdown);
		fprintf(out, " %zu/%zu%s", disturbed, n, excluded ? " left out" : "");
	}
	fputc('\n', out);
}

/*
 * The command that finishes a run's batch, with the --db of the store
 * compared (a copy of it on another store would find another run, or
 * none), and its name quoted for a shell: printed last and unquoted, as
 * the other messages that suggest it print it.
 */
static void finish_with(FILE *out, const char *name, const char *db, bool markdown)
{
	char *resume = run_resume_command(db, name);

	fputs("(on its machine, finish it with: ", out);
	note_name(out, resume, markdown);
	fputs(")\n", out);
	free(resume);
}

void report_comparison_notes(FILE *out, const struct comparison *cmp, const char *db,
			     bool markdown)
{
	const char *item = markdown ? "- " : NOTE_LEAD "  ";
	bool batched = false;

	for (size_t i = 0; i < cmp->nr_rows && !batched; i++)
		for (size_t r = 1; r < cmp->nr_runs; r++)
			batched |= cmp->rows[i].cells[r].stats.batched;
	if (batched) {
		fprintf(out, "%s\n", markdown ? "\n**Batches** (tested on batch means; share of "
			"the variance between batches)\n" : NOTE_LEAD "batches (tested on batch "
			"means; share of the variance between batches):");
		for (size_t i = 0; i < cmp->nr_rows; i++) {
			const struct compare_row *row = &cmp->rows[i];
			char *params = params_display(row->params);

			fputs(item, out);
			note_name(out, row->workload, markdown);
			fputc(' ', out);
			note_name(out, params, markdown);
			fputc(' ', out);
			note_name(out, row->metric->name, markdown);
			fputc(':', out);
			for (size_t r = 0; r < cmp->nr_runs; r++) {
				const struct compare_cell *c = &row->cells[r];

				fputs(r ? ", " : " ", out);
				note_name(out, cmp->runs[r].name, markdown);
				fprintf(out, " %zu batches", compare_cell_batches(c));
				if (isfinite(c->between_share))
					fprintf(out, " %.0f %%", c->between_share * 100);
			}
			if (cmp->nr_runs > 1 && isfinite(row->cells[1].stats.batch_spread)) {
				fprintf(out, "; spread %.4g ", row->cells[1].stats.batch_spread);
				note_name(out, row->metric->unit, markdown);
			}
			fputc('\n', out);
			free(params);
		}
	}
	report_disturbed(out, cmp, markdown);
	for (size_t r = 0; r < cmp->nr_runs; r++) {
		size_t incomplete = compare_run_incomplete(&cmp->runs[r]);

		if (!incomplete)
			continue;
		fprintf(out, "%snote: run ", markdown ? "\n" : NOTE_LEAD);
		note_name(out, cmp->runs[r].name, markdown);
		fprintf(out, ": %zu of its %zu batches incomplete (cut short, or running still): "
			"only the iterations stored are compared ", incomplete,
			cmp->runs[r].set.nr_batches);
		if (ab_side(&cmp->runs[r])) {
			/* run --resume refuses it: there are no iterations left to run */
			fputs("(an ab's side samples until a verdict, so nothing finishes it: "
			      "run the ab again under another --name)\n", out);
			continue;
		}
		if (incomplete_sampled(&cmp->runs[r])) {
			/* a step cut short is measured again; a bisection goes on */
			fputs("(a bisect step's or a bisection's run samples until a verdict, so "
			      "nothing finishes it: measure the step again, or go on with "
			      "'schedperf bisect --resume')\n", out);
			continue;
		}
		finish_with(out, cmp->runs[r].name, db, markdown);
	}
	for (size_t r = 0; r < cmp->nr_runs; r++) {
		if (!cmp->nr_rows || !one_batch(cmp, r))
			continue;
		fprintf(out, "%snote: run ", markdown ? "\n" : NOTE_LEAD);
		note_name(out, cmp->runs[r].name, markdown);
		fputs(" has one batch: boot-to-boot variation could not be assessed (run it "
		      "again after a reboot under the same name)\n", out);
	}
}

/*
 * " (ms, lower is better)" after a row's name where another row's metric
 * has its name in another unit or direction (comparison_metric_name_shared()),
 * so that the two rows' lines are told apart; else "".
 */
static char *metric_said(const struct comparison *cmp, const struct compare_row *row)
{
	const struct result_metric *m = row->metric;

	if (!comparison_metric_name_shared(cmp, m))
		return xstrdup("");
	return xasprintf(" (%s%s%s is better)", m->unit, *m->unit ? ", " : "",
			 better_name(m->better));
}

static void verdict_line(FILE *out, const struct comparison *cmp, const struct compare_row *row,
			 const char *name, bool color)
{
	char *said;

	if (cmp->nr_runs < 2)
		return;
	said = metric_said(cmp, row);
	fprintf(out, "schedperf: %s%s:", name, said);
	free(said);
	for (size_t r = 1; r < cmp->nr_runs; r++) {
		enum verdict v = row->cells[r].stats.verdict;
		char buf[128];

		format_verdict(buf, sizeof(buf), cmp, row, r, v);
		fprintf(out, "%s %s %s%s%s", r > 1 ? "," : "", cmp->runs[r].name,
			verdict_color(v, color), buf, color_reset(v, color));
	}
	fputc('\n', out);
}

void print_verdict_line(FILE *out, const struct comparison *cmp, const struct compare_row *row,
			const char *name, const struct compare_render *how)
{
	if (!how->summarise)
		verdict_line(out, cmp, row, name, how->color);
}

/* ------------------------------------------------------------ the summary */

static bool verdict_changed(enum verdict v)
{
	return v == VERDICT_BETTER || v == VERDICT_WORSE;
}

/* "b: 3 worse, 1 better, 86 unknown (all disturbed; !governor differs)" */
static void run_summary(FILE *out, const struct comparison *cmp, size_t r)
{
	static const enum verdict order[] = {
		VERDICT_WORSE, VERDICT_BETTER, VERDICT_SAME, VERDICT_UNKNOWN,
	};
	const char *keys[COMPARE_MAX_CAVEATS];
	size_t n = comparison_caveats(cmp, r, keys, ARRAY_SIZE(keys)), disturbed = 0, left_out = 0;
	size_t too_few = 0;
	const char *sep = "";

	fprintf(out, "schedperf: %s:", cmp->runs[r].name);
	for (size_t k = 0; k < ARRAY_SIZE(order); k++) {
		size_t count = 0;

		for (size_t i = 0; i < cmp->nr_rows; i++)
			count += cmp->rows[i].cells[r].stats.verdict == order[k];
		if (!count)
			continue;
		fprintf(out, "%s %zu %s", sep, count, verdict_name(order[k]));
		sep = ",";
	}
	/* as format_verdict() notes them: disturbed, or their samples left out */
	for (size_t i = 0; i < cmp->nr_rows; i++) {
		const struct compare_cell *base = &cmp->rows[i].cells[0];
		const struct compare_cell *cell = &cmp->rows[i].cells[r];

		too_few += cell->stats.too_few;
		if (base->nr_excluded + cell->nr_excluded)
			left_out++;
		else if (base->nr_disturbed + cell->nr_disturbed)
			disturbed++;
	}
	sep = " (";
	if (disturbed == cmp->nr_rows)
		fprintf(out, "%sall disturbed", sep);
	else if (disturbed)
		fprintf(out, "%s%zu disturbed", sep, disturbed);
	if (disturbed)
		sep = "; ";
	if (left_out) {
		fprintf(out, "%s%zu with disturbed samples left out", sep, left_out);
		sep = "; ";
	}
	if (too_few) {
		fprintf(out, "%s%zu with too few samples", sep, too_few);
		sep = "; ";
	}
	for (size_t i = 0; i < n && i < ARRAY_SIZE(keys); i++, sep = ",")
		fprintf(out, "%s%s%s", sep, i ? "" : "!", env_key_short(keys[i]));
	if (n)
		fprintf(out, " %s", n > 1 ? "differ" : "differs");
	fprintf(out, "%s\n", disturbed || left_out || too_few || n ? ")" : "");
}

/* A changed row's place: its worst change against the baseline (percent, + better). */
struct changed_row {
	const struct compare_row *row;
	double worst;
};

/* Worst first; equals in the comparison's order (rows are one array). */
static int worst_first(const void *a, const void *b)
{
	const struct changed_row *x = a, *y = b;

	if (x->worst != y->worst)
		return x->worst < y->worst ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

void report_verdict_summary(FILE *out, const struct comparison *cmp, bool color)
{
	struct changed_row *changed = calloc(cmp->nr_rows + 1, sizeof(*changed));
	size_t nr = 0;

	if (cmp->nr_runs < 2 || !changed) {
		free(changed);
		return;
	}
	for (size_t r = 1; r < cmp->nr_runs; r++)
		run_summary(out, cmp, r);
	for (size_t i = 0; i < cmp->nr_rows; i++) {
		double worst = INFINITY;

		for (size_t r = 1; r < cmp->nr_runs; r++) {
			double change = headline_change(&cmp->rows[i], r);

			if (verdict_changed(cmp->rows[i].cells[r].stats.verdict))
				worst = fmin(worst, isnan(change) ? 0 : change);
		}
		if (worst < INFINITY)
			changed[nr++] = (struct changed_row){ &cmp->rows[i], worst };
	}
	qsort(changed, nr, sizeof(*changed), worst_first);
	for (size_t i = 0; i < nr; i++) {
		const struct compare_row *row = changed[i].row;
		char *params = params_display(row->params);
		char name[512];

		snprintf(name, sizeof(name), "%s%s%s %s", row->workload, *params ? " " : "",
			 params, row->metric->name);
		verdict_line(out, cmp, row, name, color);
		free(params);
	}
	fprintf(out, "schedperf: %s; every row's verdict with --verbose or --format json\n",
		nr ? "the rows above changed, worst first" : "no row is better or worse");
	free(changed);
}

void report_env_differences(FILE *out, const struct comparison *cmp, bool markdown)
{
	if (!cmp->nr_env_diffs)
		return;
	fprintf(out, markdown ? "**Environment differences** (! = known to move results)\n\n"
			      : "Environment differences (! = known to move results)\n");
	for (size_t i = 0; i < cmp->nr_env_diffs; i++) {
		const struct env_difference *d = &cmp->env_diffs[i];

		/* an imported key or value may hold a return or an escape: shown as \xHH */
		char *key = utf8_escaped(d->key);

		fprintf(out, "%s%s", markdown ? "- " : "  ", d->moves_results ? "!" : " ");
		note_name(out, key, markdown);
		fputc(':', out);
		free(key);
		for (size_t r = 0; r < cmp->nr_runs; r++) {
			char *value = utf8_escaped(d->values[r] ? d->values[r] : "(unset)");

			fputs(r ? ", " : " ", out);
			note_name(out, cmp->runs[r].name, markdown);
			fputc('=', out);
			note_name(out, value, markdown);
			free(value);
		}
		fputc('\n', out);
	}
	fputc('\n', out);
}
