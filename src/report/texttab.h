/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_REPORT_TEXTTAB_H
#define SCHEDPERF_REPORT_TEXTTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * The layout of golang.org/x/perf's cmd/benchstat/internal/texttab, which
 * benchstat's tables are drawn with: cells on a grid, a cell spanning
 * columns, margins, and columns that give their width to a spanning cell.
 */
enum tt_align { TT_LEFT, TT_CENTER, TT_RIGHT };

struct tt_cell {
	int row, col, span;
	char *value;
	const char *margin;
	enum tt_align align;
};

struct tt {
	struct tt_cell *cells;
	size_t nr_cells;
	int cols, cur_row, cur_col;
	bool *shrink;
	int nr_shrink;
};

void tt_row(struct tt *t);
void tt_col(struct tt *t, int col);
/* A cell of @span columns; its margin is " " unless first or empty. */
void tt_span(struct tt *t, int span, const char *value, enum tt_align align,
	     const char *margin);
void tt_cell(struct tt *t, const char *value, enum tt_align align, const char *margin);
void tt_set_shrink(struct tt *t, int col);
void tt_format(FILE *out, struct tt *t);
void tt_release(struct tt *t);

#endif
