/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_REPORT_H
#define SCHEDPERF_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/comparison.h"
#include "analysis/profile_diff.h"
#include "report/output.h"
#include "results/results.h"
#include "store/store.h"

#include <jansson.h>

/*
 * Reports turn stored results and the analysed comparison model
 * (analysis/comparison.h) into text for people and JSON for machines.
 * schedperf's own numbers and verdicts come from the model; a style that
 * reproduces another tool computes that tool's figures (its means, marks
 * and which rows it hides) from the cell's samples with stats/, as the
 * tool does, and shows schedperf's verdict apart from them.
 */

/*
 * "key=value key=value" from a benchmark's canonical params JSON, control
 * characters as \xHH (util/utf8.h): for every text, markdown, CSV and
 * HTML line that shows parameters.
 */
char *params_display(const char *params_json);

/*
 * The parameters as a style's label: "key=value" joined by @sep (',' for
 * MMTests' operations, '/' for benchstat's names and LKP's axes), with
 * '%', a space and @sep in a key or value percent-encoded as %25, %20 and
 * %2C or %2F, so that the tool, which splits its columns at white space and
 * its parameters at @sep, reads back the same parameters:
 * "cmd=/bin/sleep%200.3" in MMTests, "cmd=%2Fbin%2Fsleep%200.3" in benchstat.
 */
char *params_label(const char *params_json, char sep);

/*
 * "WORKLOAD PARAMS", then " on CPUs LIST" when @batch's workload was held
 * to CPUs (its knob.cpus, else its cgroup's cpuset.cpus), malloc'd: how
 * run and show name a benchmark of a batch.
 */
char *benchmark_label(const struct result_batch *batch, const struct result_benchmark *b);

/* One line per workload metric of a batch: mean, spread, n. */
void report_batch_summary(FILE *out, const struct result_batch *batch);

/* How disturbed the measured iterations of a batch, or of one benchmark, were. */
#define DISTURBANCE_ALL ((size_t)-1)
#define DISTURBANCE_CULPRITS 3
struct disturbance {
	size_t measured;	/* measured iterations with interference measured */
	size_t disturbed;	/* of which disturbed */
	size_t reruns;		/* of which disturbed and run again */
	double median_share;	/* of the CPU time available, over the disturbed; NAN if none */
	char culprits[DISTURBANCE_CULPRITS][96];	/* "name (pid N)", most CPU first */
	size_t nr_culprits;
};

/* Of benchmark @bench of @batch, or of all with DISTURBANCE_ALL. */
void disturbance_summarize(const struct result_batch *batch, size_t bench,
			   struct disturbance *d);
/* "12/30 iterations disturbed, median 31 % of CPU taken by others: stress-ng (pid 4242)" */
void disturbance_describe(const struct disturbance *d, char *buf, size_t len);

/*
 * A style shapes the table for people (text and markdown): mmtests,
 * mmtests-classic, lkp, benchstat. A format is what compare writes: text,
 * markdown, csv, json (report/output.h: the formats' records are a
 * struct comparison, @how a struct compare_render). Each is one row of a
 * table in formats.c, so that a new one is a file that renders and a row
 * that names it (doc/design.md).
 */
struct compare_render;

struct compare_style {
	struct registry_name id;
	/* The whole comparison as aligned text; ANSI colours when how->color. */
	void (*text)(FILE *out, const struct comparison *cmp, const struct compare_render *how);
	/*
	 * In markdown: what the value columns hold, what the change column
	 * is, and run @r's value and change (r > 0) in @row. Each is the
	 * figure of the style's text table, from the computation that table
	 * makes, so that a row's change is that of the values beside it.
	 */
	const char *md_heading;
	const char *md_change_note;
	void (*md_value)(FILE *out, const struct comparison *cmp, const struct compare_row *row,
			 size_t r);
	void (*md_change)(FILE *out, const struct comparison *cmp, const struct compare_row *row,
			  size_t r);
};

/* How a comparison is to be rendered. */
struct compare_render {
	const struct compare_style *style;
	bool color;		/* colour verdicts (text on a terminal) */
	bool only_changed;	/* rows were cut to changes: say so when none is left */
	/*
	 * Text: the styles print no verdict line of their own, and below the
	 * tables come a summary line per run and a line per row that
	 * changed, worst first (report_verdict_summary()). What compare
	 * does with --all-metrics or more than COMPARE_SCREEN_ROWS rows,
	 * unless --verbose.
	 */
	bool summarise;
	/*
	 * The store the runs are in, for the command a note below the
	 * tables tells the user to run (db_hint()): without its --db that
	 * command would act on another store.
	 */
	const char *db;
};

/* More rows than this do not fit a screen with their verdicts. */
#define COMPARE_SCREEN_ROWS	20

/*
 * The tables, ended by a NULL name; the first row of each is the default.
 * A format for machines (csv, json) shows the Hodges–Lehmann shift and
 * the minimum detectable effect, which are computed only then.
 */
extern const struct compare_style compare_styles[];
extern const struct output_format compare_formats[];

/* The renderers the tables name. */
void report_compare_mmtests(FILE *out, const struct comparison *cmp,
			    const struct compare_render *how);
void report_compare_mmtests_classic(FILE *out, const struct comparison *cmp,
				    const struct compare_render *how);
void report_compare_lkp(FILE *out, const struct comparison *cmp,
			const struct compare_render *how);
void report_compare_benchstat(FILE *out, const struct comparison *cmp,
			      const struct compare_render *how);
void mmtests_md_value(FILE *out, const struct comparison *cmp, const struct compare_row *row,
		      size_t r);
void mmtests_md_change(FILE *out, const struct comparison *cmp, const struct compare_row *row,
		       size_t r);
void lkp_md_value(FILE *out, const struct comparison *cmp, const struct compare_row *row,
		  size_t r);
void lkp_md_change(FILE *out, const struct comparison *cmp, const struct compare_row *row,
		   size_t r);
void benchstat_md_value(FILE *out, const struct comparison *cmp, const struct compare_row *row,
			size_t r);
void benchstat_md_change(FILE *out, const struct comparison *cmp, const struct compare_row *row,
			 size_t r);

/* The formats' writers: @cmp a struct comparison, @how a struct compare_render. */
void report_compare_text(FILE *out, const void *cmp, const void *how);
void report_compare_markdown(FILE *out, const void *cmp, const void *how);
void report_compare_csv(FILE *out, const void *cmp, const void *how);
void report_compare_json(FILE *out, const void *cmp, const void *how);

/*
 * CPU profiles (report/profile.c): per benchmark each run's profiles, then
 * the symbols' shares, and with more than one run the change against the
 * first, @names[r] naming run r; as text, or as schedperf-profile/1 JSON.
 * profile_formats[] has both: records a struct profile_diff, how the
 * names (const char *const *).
 */
void report_profile_text(FILE *out, const void *diff, const void *run_names);
void report_profile_json(FILE *out, const void *diff, const void *run_names);
extern const struct output_format profile_formats[];

/* What the renderers share. */

/* The environment differences, above every text or markdown table. */
void report_env_differences(FILE *out, const struct comparison *cmp, bool markdown);
/* "worse (!governor differs)" into @buf */
void format_verdict(char *buf, size_t len, const struct comparison *cmp,
		    const struct compare_row *row, size_t r, enum verdict v);
/*
 * schedperf's verdicts of @row under a style's table, apart from the
 * tool's marks: "schedperf: NAME: new worse (!governor differs), other same".
 */
void print_verdict_line(FILE *out, const struct comparison *cmp, const struct compare_row *row,
			const char *name, const struct compare_render *how);
/*
 * In place of those when how->summarise: per run its count of each
 * verdict, then the verdict line of each row that changed, worst first.
 */
void report_verdict_summary(FILE *out, const struct comparison *cmp, bool color);
/*
 * Below the tables: how batches were tested and their share of the
 * variance, that a run has incomplete batches (and the command, on store
 * @db, that finishes them), or that a run with one batch could not show
 * boot-to-boot variation.
 */
void report_comparison_notes(FILE *out, const struct comparison *cmp, const char *db,
			     bool markdown);
/*
 * What a comparison without rows says: that none changed when rows were
 * cut to changes (--only-changed), else that there was nothing to compare.
 */
void report_no_rows(FILE *out, const struct compare_render *how);
/* ANSI colour of a verdict (green better, red worse) when @color, and its reset. */
const char *verdict_color(enum verdict v, bool color);
const char *color_reset(enum verdict v, bool color);
/*
 * Text in markdown, a cell's or a note's: control characters, bytes not
 * UTF-8 and marks that reorder a line escaped as utf8_escaped() escapes
 * them, then '|', backslashes and what a renderer would take for markup
 * escaped (render.c).
 */
void md_text(FILE *out, const char *s);
/*
 * A number in markdown: %.3g, %.4g, %.6g, a whole percent or a signed
 * change; "-" when not finite.
 */
enum md_kind { MD_G3, MD_G4, MD_G6, MD_PCT, MD_CHANGE };
void md_number(FILE *out, double v, enum md_kind kind);
/* The change of run @r's headline against the baseline's, positive = better. */
double headline_change(const struct compare_row *row, size_t r);
/*
 * A CSV text field (NULL: empty), its control characters, bytes not UTF-8
 * and marks that reorder a line escaped as utf8_escaped() escapes them,
 * quoted when it holds a comma or quote, and after a ' when it starts with
 * = + - @ (a formula otherwise).
 */
void csv_text(FILE *out, const char *s);
/*
 * Escape in place, as utf8_escaped() does, every name of @set (run,
 * start, workload, failure, metric, unit, source) that would not show as
 * it is on one line, for a command that prints them as text, markdown or
 * CSV (shown.c); one that writes JSON does not call it.
 */
void report_shown_names(struct result_set *set);
/* The same for the text @s, NULL or plain kept: a name found in another record. */
void report_shown(char **s);
/*
 * The same for every text the jobs' text shows of @jobs and of the
 * journal entries @changed (their originals are shown quoted): a store
 * another program wrote may hold a command, a machine or a reason with a
 * control character, which would break the line of a job.
 */
void report_shown_jobs(struct store_job *jobs, size_t nr, struct knob_original *changed,
		       size_t nr_changed);
/*
 * The same for every name the profiles' text shows of @d (workload,
 * event, symbol, DSO), once it is built: it pools symbols by their names
 * as stored, and the escaped copies are @d's. Before report_shown_names()
 * of its runs, whose names it points to.
 */
void report_shown_profile(struct profile_diff *d);
/*
 * The same for the workloads of @cmp's rows, once it is built and
 * analysed: it pairs rows by the names as stored, so that a text "\x1b"
 * and an escape stay two workloads. Before report_shown_names() of its
 * runs, whose workloads the rows point to.
 */
void report_shown_comparison(struct comparison *cmp);
/* A comma, then @v in full precision (nothing when it is not finite). */
void csv_number(FILE *out, double v);

/*
 * The stored runs (runs_formats[]): records a struct result_set loaded
 * with STORE_COUNTS, each run with its batches, as text or json.
 */
extern const struct output_format runs_formats[];

/*
 * The job queue (jobs_formats[]): records a struct job_listing, the jobs
 * and, for people, the settings an ab changed on a machine and has not
 * put back (the store's copies of the machines' journals).
 */
struct job_listing {
	const struct store_job *jobs;
	size_t nr;
	const struct knob_original *changed;
	size_t nr_changed;
	/* for each changed, what it is now on this machine: "" or "; gone now" ... */
	const char *const *marks;
};

extern const struct output_format jobs_formats[];

/*
 * A bisection's report from its record (experiment/bisection.h):
 * bisection_formats[] writes a json_t record as text, markdown or json;
 * and the stored bisections, one line each.
 */
extern const struct output_format bisection_formats[];
void report_bisection_list(FILE *out, const struct stored_bisection *list, size_t n);

#endif
