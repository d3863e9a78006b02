// SPDX-License-Identifier: GPL-2.0
/*
 * Sweeps found in a comparison's rows (sweeps.h). A row belongs to the
 * sweep of key K when its value of K is a number; the other parameters,
 * the workload and the metric (its name, unit and direction:
 * results/metric_key.h) name the sweep. Rows come in any order; the
 * points of a sweep are sorted by value.
 */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/sweeps.h"
#include "stats/mean_ci.h"
#include "stats/summary.h"
#include "results/metric_key.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* "k=v ..." of @params without @skip */
static char *others(json_t *params, const char *skip)
{
	struct strbuf sb = STRBUF_INIT;
	const char *key;
	json_t *v;

	json_object_foreach(params, key, v)
		if (strcmp(key, skip))
			strbuf_addf(&sb, "%s%s=%s", sb.len ? " " : "", key,
				    json_is_string(v) ? json_string_value(v) : "?");
	return strbuf_detach(&sb);
}

static bool number_of(json_t *v, double *x)
{
	const char *s = json_is_string(v) ? json_string_value(v) : NULL;
	char *end;

	if (!s || !*s)
		return false;
	*x = strtod(s, &end);
	return !*end && isfinite(*x);
}

static struct sweep *find_sweep(struct sweep **sweeps, size_t *nr, const struct compare_row *row,
				const char *key, const char *fixed)
{
	struct sweep *s;

	for (size_t i = 0; i < *nr; i++) {
		s = &(*sweeps)[i];
		if (!strcmp(s->workload, row->workload) && !strcmp(s->key, key) &&
		    !strcmp(s->fixed, fixed) && result_metric_same(s->metric, row->metric))
			return s;
	}
	*sweeps = xreallocarray(*sweeps, *nr + 1, sizeof(**sweeps));
	s = &(*sweeps)[(*nr)++];
	memset(s, 0, sizeof(*s));
	s->workload = row->workload;
	s->metric = row->metric;
	s->key = xstrdup(key);
	s->fixed = xstrdup(fixed);
	return s;
}

static void add_point(struct sweep *s, const struct comparison *cmp, size_t row, double x,
		      double level)
{
	struct sweep_point *p;

	s->points = xreallocarray(s->points, s->nr_points + 1, sizeof(*s->points));
	p = &s->points[s->nr_points++];
	p->row = row;
	p->x = x;
	p->mean = xcalloc(cmp->nr_runs, sizeof(double));
	p->low = xcalloc(cmp->nr_runs, sizeof(double));
	p->high = xcalloc(cmp->nr_runs, sizeof(double));
	for (size_t r = 0; r < cmp->nr_runs; r++) {
		const struct compare_cell *c = &cmp->rows[row].cells[r];

		p->mean[r] = c->nr_samples ? stats_mean(c->samples, c->nr_samples) : NAN;
		mean_ci(c->samples, c->nr_samples, level, &p->low[r], &p->high[r]);
	}
}

static int compare_points(const void *a, const void *b)
{
	double x = ((const struct sweep_point *)a)->x, y = ((const struct sweep_point *)b)->x;

	return x < y ? -1 : x > y;
}

static void point_release(struct sweep_point *p)
{
	free(p->mean);
	free(p->low);
	free(p->high);
}

size_t comparison_sweeps(const struct comparison *cmp, double level, struct sweep **out)
{
	struct sweep *sweeps = NULL;
	size_t nr = 0, kept = 0;

	for (size_t i = 0; i < cmp->nr_rows; i++) {
		const struct compare_row *row = &cmp->rows[i];
		json_t *params = json_loads(row->params ? row->params : "{}", 0, NULL);
		const char *key;
		json_t *v;
		double x;

		json_object_foreach(params, key, v) {
			char *fixed;

			if (!number_of(v, &x))
				continue;
			fixed = others(params, key);
			add_point(find_sweep(&sweeps, &nr, row, key, fixed), cmp, i, x, level);
			free(fixed);
		}
		json_decref(params);
	}
	for (size_t i = 0; i < nr; i++) {
		if (sweeps[i].nr_points < 2) {
			sweeps_release(&sweeps[i], 1);
			continue;
		}
		qsort(sweeps[i].points, sweeps[i].nr_points, sizeof(*sweeps[i].points),
		      compare_points);
		sweeps[kept++] = sweeps[i];
	}
	*out = sweeps;
	return kept;
}

void sweeps_release(struct sweep *sweeps, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		for (size_t j = 0; j < sweeps[i].nr_points; j++)
			point_release(&sweeps[i].points[j]);
		free(sweeps[i].points);
		free(sweeps[i].key);
		free(sweeps[i].fixed);
	}
}
