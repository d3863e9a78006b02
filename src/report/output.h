/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_REPORT_OUTPUT_H
#define SCHEDPERF_REPORT_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "util/registry.h"

/*
 * The one output seam: every command that prints records (compare,
 * history, detect, runs, jobs, ab, bisect) chooses its format by name from
 * the table of that kind of record, and never names a format itself. Each
 * row is a format's name and words for --help (a registry row,
 * util/registry.h), the function that writes the records in it, and
 * whether it is for machines. The first row is the default. A new format
 * of a kind of record is its writer and its row (doc/design.md, "Output
 * formats and styles"); the command's --format (cli/options.h) and its
 * help, its usage line and its error read the table.
 */
struct output_format {
	struct registry_name id;
	/*
	 * Write @records (what the table's kind is, as its declaration says)
	 * onto @out; @how is what else that kind needs, or NULL.
	 */
	void (*write)(FILE *out, const void *records, const void *how);
	/*
	 * csv and json: every figure, for a program to read; nothing that
	 * only people read (the notes text adds), and --quiet hides nothing.
	 */
	bool for_machines;
};

#endif
