/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_REPORT_HISTORY_H
#define SCHEDPERF_REPORT_HISTORY_H

#include <stdio.h>

#include "analysis/history.h"
#include "report/output.h"

/*
 * What history and detect write: the series of analysis/history.h as
 * text, JSON or CSV, and their change points as text or JSON. Every number
 * comes from the model; nothing is computed here.
 */

/* A series' heading: "messaging groups=2: seconds (lower is better)". */
char *history_series_title(const struct history_series *s);

/*
 * The formats of history (text, json, csv) and of detect (text, json):
 * records a struct history, how NULL (report/output.h).
 */
extern const struct output_format history_formats[];
extern const struct output_format detect_formats[];

void report_history_text(FILE *out, const void *history, const void *how);
void report_history_json(FILE *out, const void *history, const void *how);
void report_history_csv(FILE *out, const void *history, const void *how);
void report_detect_text(FILE *out, const void *history, const void *how);
/* A list of series, each with its change_points (schedperf-detect/1). */
void report_detect_json(FILE *out, const void *history, const void *how);

#endif
