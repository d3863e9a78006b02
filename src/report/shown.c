// SPDX-License-Identifier: GPL-2.0
/*
 * The names of results as text, markdown and CSV show them. run and import
 * refuse a name that would not show as it is on one line, but a store
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

/* @s escaped in place when it would not show as it is; a plain one is kept. */
static void shown(char **s)
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

		shown(&batch->name);
		shown(&batch->started);
		for (size_t j = 0; j < batch->nr_benchmarks; j++) {
			struct result_benchmark *b = &batch->benchmarks[j];

			shown(&b->workload);
			for (size_t k = 0; k < b->nr_failed; k++)
				shown(&b->failures[k]);
			for (size_t k = 0; k < b->nr_metrics; k++) {
				shown(&b->metrics[k].name);
				shown(&b->metrics[k].unit);
				shown(&b->metrics[k].source);
			}
		}
	}
}
