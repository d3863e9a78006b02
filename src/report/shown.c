// SPDX-License-Identifier: GPL-2.0
/*
 * The names of results as text, markdown and CSV show them, and the texts
 * of the job queue's lines. run and import refuse a name that would not
 * show as it is on one line (submit stores its arguments as JSON), but a store
 * another program wrote (or an old version, or a hand-edited SQLite) may
 * hold one: a newline would break a table's line or a CSV row, an escape
 * sequence would rewrite what the terminal shows. Such a name is escaped
 * once, where a reading command has loaded it, as utf8_escaped() escapes
 * (\xHH, \uHHHH), so that every line that prints it, a style's table, a
 * note or a warning alike, shows the same text. JSON keeps the names as
 * they are: its writer escapes them.
 */
#include <stdlib.h>

#include "report/report.h"
#include "util/utf8.h"
#include "util/xalloc.h"

void report_shown(char **s)
{
	char *escaped;

	if (!*s || utf8_plain(*s))
		return;
	escaped = utf8_escaped(*s);
	free(*s);
	*s = escaped;
}

void report_shown_names(struct result_set *set)
{
	for (size_t i = 0; i < set->nr_batches; i++) {
		struct result_batch *batch = &set->batches[i];

		report_shown(&batch->name);
		report_shown(&batch->started);
		for (size_t j = 0; j < batch->nr_benchmarks; j++) {
			struct result_benchmark *b = &batch->benchmarks[j];

			report_shown(&b->workload);
			for (size_t k = 0; k < b->nr_failed; k++)
				report_shown(&b->failures[k]);
			for (size_t k = 0; k < b->nr_metrics; k++) {
				report_shown(&b->metrics[k].name);
				report_shown(&b->metrics[k].unit);
				report_shown(&b->metrics[k].source);
			}
		}
	}
}

void report_shown_jobs(struct store_job *jobs, size_t nr, struct knob_original *changed,
		       size_t nr_changed)
{
	for (size_t i = 0; i < nr; i++) {
		struct store_job *j = &jobs[i];

		report_shown(&j->state);
		report_shown(&j->command);
		report_shown(&j->args);
		report_shown(&j->machine);
		report_shown(&j->worker);
		report_shown(&j->since);
		report_shown(&j->reason);
		report_shown(&j->kernel);
		report_shown(&j->boot_deadline);
	}
	/* an original's value is shown quoted (report/jobs.c), not here */
	for (size_t i = 0; i < nr_changed; i++) {
		report_shown(&changed[i].kind);
		report_shown(&changed[i].name);
		report_shown(&changed[i].started);
		report_shown(&changed[i].machine);
	}
}

/*
 * @s as shown: itself when plain, else its escaped copy, which @strings
 * keeps: a name a model borrows from the runs stays theirs as stored.
 */
static const char *shown_kept(const char *s, char ***strings, size_t *nr)
{
	char *escaped;

	if (!s || utf8_plain(s))
		return s;
	escaped = utf8_escaped(s);
	*strings = xreallocarray(*strings, *nr + 1, sizeof(**strings));
	(*strings)[(*nr)++] = escaped;
	return escaped;
}

void report_shown_profile(struct profile_diff *d)
{
	for (size_t i = 0; i < d->nr_benches; i++) {
		struct profile_bench *pb = &d->benches[i];

		pb->workload = shown_kept(pb->workload, &d->strings, &d->nr_strings);
		for (size_t r = 0; r < d->nr_runs; r++)
			pb->runs[r].event = shown_kept(pb->runs[r].event, &d->strings,
						       &d->nr_strings);
		for (size_t k = 0; k < pb->nr_rows; k++) {
			pb->rows[k].name = shown_kept(pb->rows[k].name, &d->strings,
						      &d->nr_strings);
			pb->rows[k].dso = shown_kept(pb->rows[k].dso, &d->strings,
						     &d->nr_strings);
		}
	}
}

void report_shown_comparison(struct comparison *cmp)
{
	/* a row's metric is a run's, which report_shown_names() escapes in place */
	for (size_t i = 0; i < cmp->nr_rows; i++)
		cmp->rows[i].workload = shown_kept(cmp->rows[i].workload, &cmp->strings,
						   &cmp->nr_strings);
}
