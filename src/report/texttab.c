// SPDX-License-Identifier: GPL-2.0
/*
 * benchstat's texttab (texttab.h): its grid, laid out as its Format does,
 * so that a table's columns and spans come out as benchstat's.
 */
#include <stdlib.h>
#include <string.h>

#include "report/texttab.h"
#include "util/utf8.h"
#include "util/xalloc.h"

void tt_row(struct tt *t)
{
	if (t->nr_cells)
		t->cur_row++;
	t->cur_col = 0;
}

void tt_col(struct tt *t, int col)
{
	t->cur_col = col;
}

/* A cell of @span columns; its margin is " " unless first or empty. */
void tt_span(struct tt *t, int span, const char *value, enum tt_align align,
	     const char *margin)
{
	struct tt_cell *c;

	t->cells = xreallocarray(t->cells, t->nr_cells + 1, sizeof(*t->cells));
	c = &t->cells[t->nr_cells++];
	c->row = t->cur_row;
	c->col = t->cur_col;
	c->span = span;
	c->value = xstrdup(value);
	c->margin = margin ? margin : t->cur_col == 0 || !*value ? "" : " ";
	c->align = align;
	t->cur_col += span;
	if (t->cur_col > t->cols)
		t->cols = t->cur_col;
}

void tt_cell(struct tt *t, const char *value, enum tt_align align, const char *margin)
{
	tt_span(t, 1, value, align, margin);
}

void tt_set_shrink(struct tt *t, int col)
{
	if (col >= t->nr_shrink) {
		t->shrink = xreallocarray(t->shrink, (size_t)col + 1, sizeof(bool));
		memset(t->shrink + t->nr_shrink, 0,
		       (size_t)(col + 1 - t->nr_shrink) * sizeof(bool));
		t->nr_shrink = col + 1;
	}
	t->shrink[col] = true;
}

static bool tt_shrink(const struct tt *t, int col)
{
	return col < t->nr_shrink && t->shrink[col];
}

static int cmp_cells_pos(const void *a, const void *b)
{
	const struct tt_cell *x = a, *y = b;

	if (x->row != y->row)
		return x->row - y->row;
	return x->col - y->col;
}

/* Widen a multi-column cell's stretchable columns, widest first. */
static void tt_fit_span(const struct tt *t, const struct tt_cell *c, int *ws, const int *lmargin)
{
	int w = (int)utf8_runes(c->value) + lmargin[c->col], tw = 0, nr = 0;
	int cols[64];

	for (int col = c->col; col < c->col + c->span; col++)
		tw += ws[col];
	if (tw >= w)
		return;
	for (int col = c->col; col < c->col + c->span; col++) {
		if (tt_shrink(t, col))
			w -= ws[col];
		else if (nr < 64)
			cols[nr++] = col;
	}
	for (int i = 1; i < nr; i++)	/* widest first */
		for (int j = i; j > 0 && ws[cols[j]] > ws[cols[j - 1]]; j--) {
			int tmp = cols[j];

			cols[j] = cols[j - 1];
			cols[j - 1] = tmp;
		}
	for (int i = 0, span = nr; i < nr; i++, span--) {
		int avg = (w + span - 1) / span;

		if (ws[cols[i]] < avg)
			ws[cols[i]] = avg;
		w -= ws[cols[i]];
	}
}

void tt_format(FILE *out, struct tt *t)
{
	int *lmargin = xcalloc((size_t)t->cols + 1, sizeof(int));
	int *ws = xcalloc((size_t)t->cols + 1, sizeof(int));
	int *offs = xcalloc((size_t)t->cols + 2, sizeof(int));
	int row = 0, off = 0;

	for (size_t i = 0; i < t->nr_cells; i++) {
		int m = (int)utf8_runes(t->cells[i].margin);

		if (m > lmargin[t->cells[i].col])
			lmargin[t->cells[i].col] = m;
	}
	for (size_t i = 0; i < t->nr_cells; i++) {
		const struct tt_cell *c = &t->cells[i];
		int w = (int)utf8_runes(c->value) + lmargin[c->col];

		if (c->span == 1 && w > ws[c->col])
			ws[c->col] = w;
	}
	for (int span = 2; span <= t->cols; span++)
		for (size_t i = 0; i < t->nr_cells; i++)
			if (t->cells[i].span == span)
				tt_fit_span(t, &t->cells[i], ws, lmargin);
	for (int i = 0; i < t->cols; i++)
		offs[i + 1] = offs[i] + ws[i];

	qsort(t->cells, t->nr_cells, sizeof(*t->cells), cmp_cells_pos);
	for (size_t i = 0; i < t->nr_cells; i++) {
		const struct tt_cell *c = &t->cells[i];
		int tw, len = (int)utf8_runes(c->value), m = (int)utf8_runes(c->margin);

		if (!*c->value && strspn(c->margin, " ") == strlen(c->margin))
			continue;
		for (; c->row > row; row++, off = 0)
			fputc('\n', out);
		fprintf(out, "%*s%*s%s", offs[c->col] - off, "", lmargin[c->col] - m, "",
			c->margin);
		off = offs[c->col] + lmargin[c->col];
		tw = offs[c->col + c->span] - offs[c->col] - lmargin[c->col];
		if (c->align == TT_RIGHT && tw > len) {
			fprintf(out, "%*s", tw - len, "");
			off += tw - len;
		} else if (c->align == TT_CENTER && (tw - len) / 2 > 0) {
			fprintf(out, "%*s", (tw - len) / 2, "");
			off += (tw - len) / 2;
		}
		fputs(c->value, out);
		off += len;
	}
	if (t->nr_cells)
		fputc('\n', out);
	free(lmargin);
	free(ws);
	free(offs);
}

void tt_release(struct tt *t)
{
	for (size_t i = 0; i < t->nr_cells; i++)
		free(t->cells[i].value);
	free(t->cells);
	free(t->shrink);
}

