/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_REPORT_HISTORY_H
#define SCHEDPERF_REPORT_HISTORY_H

#include <stdio.h>

#include "analysis/history.h"

/*
 * What history and detect write: the series of analysis/history.h as
 * text, JSON or CSV, and their change points as text or JSON. Every number
 * comes from the model; nothing is computed here.
 */

/* A series' heading: "messaging groups=2: seconds (lower is better)". */
char *history_series_title(const struct history_series *s);

void report_history_text(FILE *out, const struct history *h);
void report_history_json(FILE *out, const struct history *h);
void report_history_csv(FILE *out, const struct history *h);

void report_detect_text(FILE *out, const struct history *h);
/* A list of series, each with its change_points (schedperf-detect/1). */
void report_detect_json(FILE *out, const struct history *h);

#endif
