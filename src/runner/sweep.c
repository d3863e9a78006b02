// SPDX-License-Identifier: GPL-2.0
/*
 * Sweep generators. Each reproduces the point list of the tool it is named
 * after, so that a result can be set beside MMTests' or LKP's at the same
 * thread counts:
 *
 * - stride is MMTests' threads_large_stride (shellpack_src/bin/
 *   rewrite-shellpack): seq MIN 3 8, seq 12 9 32, seq 48 31 MAX above 32;
 *   seq MIN 2 8, seq 12 6 MAX above 8; seq MIN 2 MAX otherwise; MAX appended
 *   when missing; points below MIN dropped (so MIN itself only appears when
 *   it lies on the grid or is at most 8). schedperf adds one rule MMTests
 *   does not have: when MAX exceeds 8 x CPUs, the 31-wide stride would leave
 *   the region around the CPU count empty, so 2 x CPUs .. MAX in eighths is
 *   added.
 * - percent is LKP's params/nr_threads rule: ($1.to_f * nr_cpu / 100).to_i,
 *   a truncation, not a rounding.
 * - topology is MMTests' topology walk: the sizes at which tasks must spill
 *   from an SMT core to an LLC, a node, the machine, then overcommit.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/sweep.h"
#include "util/array.h"
#include "util/list.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "workload/workload.h"

/* No workload runs more tasks than this; larger values are typing errors. */
#define SWEEP_MAX_VALUE 10000000L

static const char generators[] = "pow2, stride, topology, or percentages such as 200%";

struct range {
	long min, max;
};

/* Digits with at most one '.', as LKP's /(\d+(?:\.\d+)?)%$/. */
static int is_decimal(const char *s, size_t len)
{
	int dot = 0;

	if (!len || s[0] == '.' || s[len - 1] == '.')
		return 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '.' && !dot++)
			continue;
		if (!isdigit((unsigned char)s[i]))
			return 0;
	}
	return 1;
}

int sweep_resolve_value(const char *text, int cpus, const char *where, long *out,
			struct error *err)
{
	size_t len = strlen(text);
	char suffix = len ? text[len - 1] : '\0';
	double factor, value;

	if (len && is_decimal(text, len) && !strchr(text, '.')) {
		value = strtod(text, NULL);
		goto done;
	}
	if ((suffix != '%' && suffix != 'x') || !is_decimal(text, len - 1))
		return error_set(err, EXIT_USAGE, "bad count '%.64s' of %s: expected a whole "
				 "number, N%% of the CPUs or Nx the CPUs (e.g. 8, 200%%, 4x)",
				 text, where);
	factor = strtod(text, NULL);
	/* LKP computes in floating point and truncates; so do we, in the same order. */
	value = suffix == '%' ? factor * cpus / 100 : factor * cpus;
	if (value < 1)
		return error_set(err, EXIT_USAGE, "bad count '%.64s' of %s: it is %g of %d "
				 "CPU%s, less than 1 (give a larger share)", text, where,
				 suffix == '%' ? factor * cpus / 100 : factor * cpus,
				 cpus, cpus == 1 ? "" : "s");
done:
	if (value > SWEEP_MAX_VALUE)
		return error_set(err, EXIT_USAGE, "bad count '%.64s' of %s: larger than %ld "
				 "(give at most %ld)", text, where, SWEEP_MAX_VALUE,
				 SWEEP_MAX_VALUE);
	*out = (long)value;
	return 0;
}

int sweep_check_key(const struct workload *w, const char *spec, struct error *err)
{
	const char *eq = strchr(spec, '=');
	const struct param_spec *p = eq ? workload_find_param(w, spec, (size_t)(eq - spec)) :
				     NULL;

	if (p && p->type == PARAM_CHOICE)
		return error_set(err, EXIT_USAGE, "bad sweep '%.64s': parameter '%s' is a choice, "
				 "and a sweep makes counts (give its values as a list: -p %s=A,B)",
				 spec, p->name, p->name);
	if (p && p->type != PARAM_INT)
		return error_set(err, EXIT_USAGE, "bad sweep '%.64s': parameter '%s' is text, and "
				 "a sweep makes counts (give it with -p %s=VALUE)", spec, p->name,
				 p->name);
	return 0;
}

static int add_point(struct sweep_points *p, long v, const char *gen, struct error *err)
{
	if (p->nr == SWEEP_MAX_POINTS)
		return error_set(err, EXIT_USAGE, "bad sweep '%.64s': more than %d points "
				 "(give a smaller MAX)", gen, SWEEP_MAX_POINTS);
	p->value[p->nr++] = v;
	return 0;
}

/* seq FROM STEP TO, keeping points of at least @min. */
static int add_seq(struct sweep_points *p, long from, long step, long to, long min,
		   const char *gen, struct error *err)
{
	for (long v = from; v <= to; v += step)
		if (v >= min && add_point(p, v, gen, err))
			return -1;
	return 0;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

static void sort_unique(struct sweep_points *p)
{
	size_t n = 0;

	qsort(p->value, p->nr, sizeof(long), cmp_long);
	for (size_t i = 0; i < p->nr; i++)
		if (!n || p->value[n - 1] != p->value[i])
			p->value[n++] = p->value[i];
	p->nr = n;
}

static int gen_pow2(const struct range *r, struct sweep_points *p, const char *gen,
		    struct error *err)
{
	if (r->min < 1)
		return error_set(err, EXIT_USAGE, "bad sweep '%.64s': pow2 starts at 1 or more "
				 "(doubling 0 never grows)", gen);
	for (long v = r->min; v <= r->max; v *= 2)
		if (add_point(p, v, gen, err))
			return -1;
	if (p->value[p->nr - 1] != r->max)
		return add_point(p, r->max, gen, err);
	return 0;
}

static int gen_stride(const struct range *r, int cpus, struct sweep_points *p,
		      const char *gen, struct error *err)
{
	long min = r->min, max = r->max;
	int rc;

	if (max > 32)
		rc = add_seq(p, min, 3, 8, min, gen, err) ||
		     add_seq(p, 12, 9, 32, min, gen, err) ||
		     add_seq(p, 48, 31, max, min, gen, err);
	else if (max > 8)
		rc = add_seq(p, min, 2, 8, min, gen, err) ||
		     add_seq(p, 12, 6, max, min, gen, err);
	else
		rc = add_seq(p, min, 2, max, min, gen, err);
	if (rc)
		return -1;
	if (!p->nr || p->value[p->nr - 1] != max)
		if (add_point(p, max, gen, err))
			return -1;
	if (max > 8L * cpus) {
		long step = (max - 2L * cpus) / 8;

		if (add_seq(p, 2L * cpus, step > 0 ? step : 1, max, min, gen, err))
			return -1;
	}
	sort_unique(p);
	return 0;
}

static int gen_topology(const struct range *r, const struct topology *topo,
			struct sweep_points *p, const char *gen, struct error *err)
{
	long level[] = { topo->smt, topo->llc, topo->node, topo->cpus,
			 2L * topo->cpus, 4L * topo->cpus };

	for (size_t i = 0; i < ARRAY_SIZE(level); i++)
		if (level[i] >= r->min && level[i] <= r->max)
			p->value[p->nr++] = level[i];
	sort_unique(p);
	if (!p->nr)
		return error_set(err, EXIT_USAGE, "bad sweep '%.64s': no topology level (SMT %d, "
				 "LLC %d, node %d, machine %d, 2x, 4x) lies within %ld..%ld (widen "
				 "MIN..MAX, or list the values)",
				 gen, topo->smt, topo->llc, topo->node, topo->cpus,
				 r->min, r->max);
	return 0;
}

struct list_points {
	int cpus;
	struct sweep_points *points;
	const char *gen;
	struct error *err;
	char where[96];		/* "sweep 'GEN'", for a value's error */
};

static void sweep_where(char *where, size_t len, const char *gen)
{
	snprintf(where, len, "sweep '%.64s'", gen);
}

/* One value of a list: resolved, added unless already there; empty ones skipped. */
static int list_point(const char *item, size_t len, void *arg)
{
	struct list_points *lp = arg;
	char *value;
	long n;
	size_t i;
	int rc;

	if (!len)
		return 0;
	value = xstrndup(item, len);
	rc = sweep_resolve_value(value, lp->cpus, lp->where, &n, lp->err);
	free(value);
	for (i = 0; !rc && i < lp->points->nr && lp->points->value[i] != n; i++)
		;
	if (!rc && i == lp->points->nr)
		rc = add_point(lp->points, n, lp->gen, lp->err);
	return rc;
}

/* "P%,Q%,N,...": each resolved, the order kept, repeats dropped. */
static int gen_list(const char *list, int cpus, struct sweep_points *p, const char *gen,
		    struct error *err)
{
	struct list_points lp = { cpus, p, gen, err, "" };
	int rc;

	sweep_where(lp.where, sizeof(lp.where), gen);
	rc = comma_list_each(list, list_point, &lp);

	if (!rc && !p->nr)
		rc = error_set(err, EXIT_USAGE, "bad sweep '%.64s': no values (give at least "
			       "one, e.g. 1,2,4)", gen);
	return rc;
}

static int parse_bound(const char *text, size_t len, int cpus, long *out, const char *gen,
		       struct error *err)
{
	char buf[64], where[96];

	if (!len || len >= sizeof(buf))
		return error_set(err, EXIT_USAGE, "bad sweep '%.64s': expected MIN..MAX (give "
				 "both bounds, e.g. 2..4x)", gen);
	memcpy(buf, text, len);
	buf[len] = '\0';
	sweep_where(where, sizeof(where), gen);
	return sweep_resolve_value(buf, cpus, where, out, err);
}

static int parse_range(const char *text, int cpus, struct range *r, const char *gen,
		       struct error *err)
{
	const char *dots = strstr(text, "..");

	if (!dots)
		return error_set(err, EXIT_USAGE, "bad sweep '%.64s': expected MIN..MAX after "
				 "':' (give both bounds, e.g. 2..4x)", gen);
	if (parse_bound(text, (size_t)(dots - text), cpus, &r->min, gen, err) ||
	    parse_bound(dots + 2, strlen(dots + 2), cpus, &r->max, gen, err))
		return -1;
	if (r->min > r->max)
		return error_set(err, EXIT_USAGE, "bad sweep '%.64s': MIN %ld is above MAX %ld "
				 "(give the smaller first: %ld..%ld)", gen, r->min, r->max,
				 r->max, r->min);
	return 0;
}

/* @label is what errors quote: the generator, or the whole KEY=GEN argument. */
static int points_of(const char *gen, const char *label, const struct topology *topo,
		     struct sweep_points *out, struct error *err)
{
	const char *colon = strchr(gen, ':');
	size_t name_len = colon ? (size_t)(colon - gen) : strlen(gen);
	struct range r = { 1, 4L * topo->cpus };

	out->nr = 0;
	if (name_len && (isdigit((unsigned char)gen[0]) || memchr(gen, '%', name_len))) {
		if (colon)
			return error_set(err, EXIT_USAGE, "bad sweep '%.64s': a list of values "
					 "takes no MIN..MAX (give the values alone, e.g. "
					 "50%%,100%%)", label);
		return gen_list(gen, topo->cpus, out, label, err);
	}
	if (colon && parse_range(colon + 1, topo->cpus, &r, label, err))
		return -1;
	if (name_len == 4 && !strncmp(gen, "pow2", 4))
		return gen_pow2(&r, out, label, err);
	if (name_len == 6 && !strncmp(gen, "stride", 6))
		return gen_stride(&r, topo->cpus, out, label, err);
	if (name_len == 8 && !strncmp(gen, "topology", 8))
		return gen_topology(&r, topo, out, label, err);
	return error_set(err, EXIT_USAGE, "bad sweep '%.64s': unknown generator '%.*s' "
			 "(known: %s)", label, (int)(name_len < 32 ? name_len : 32), gen,
			 generators);
}

int sweep_points(const char *gen, const struct topology *topo,
		 struct sweep_points *out, struct error *err)
{
	return points_of(gen, gen, topo, out, err);
}

char *sweep_expand(const char *spec, const struct topology *topo, struct error *err)
{
	const char *eq = strchr(spec, '=');
	struct sweep_points points;
	struct strbuf sb = STRBUF_INIT;

	if (!eq || eq == spec || !eq[1]) {
		error_set(err, EXIT_USAGE, "bad sweep '%.64s': expected KEY=GENERATOR[:MIN..MAX] "
			  "such as threads=stride:2..4x (generators: %s)", spec, generators);
		return NULL;
	}
	if (points_of(eq + 1, spec, topo, &points, err))
		return NULL;
	strbuf_add(&sb, spec, (size_t)(eq - spec) + 1);
	for (size_t i = 0; i < points.nr; i++)
		strbuf_addf(&sb, "%s%ld", i ? "," : "", points.value[i]);
	return strbuf_detach(&sb);
}

/* An assignment being resolved: "KEY=" and the values so far. */
struct resolving {
	struct strbuf sb;
	size_t nr_items;
	int cpus;
	struct error *err;
	char where[96];		/* "parameter 'KEY'", for a value's error */
};

/* A value is machine-relative when it is a decimal followed by '%' or 'x'. */
static int is_relative(const char *v, size_t len)
{
	return len > 1 && (v[len - 1] == '%' || v[len - 1] == 'x') && is_decimal(v, len - 1);
}

/* One value of an assignment, after a comma unless it is the first. */
static int resolve_item(const char *item, size_t len, void *arg)
{
	struct resolving *r = arg;
	char value[64];
	long n;

	if (r->nr_items++)
		strbuf_addch(&r->sb, ',');
	if (!is_relative(item, len) || len >= sizeof(value)) {
		strbuf_add(&r->sb, item, len);
		return 0;
	}
	memcpy(value, item, len);
	value[len] = '\0';
	if (sweep_resolve_value(value, r->cpus, r->where, &n, r->err))
		return -1;
	strbuf_addf(&r->sb, "%ld", n);
	return 0;
}

char *sweep_resolve_assignment(const char *assignment, int cpus, struct error *err)
{
	const char *eq = strchr(assignment, '=');
	struct resolving r = { STRBUF_INIT, 0, cpus, err, "" };

	if (!eq)
		return xstrdup(assignment);	/* validation names it later */
	snprintf(r.where, sizeof(r.where), "parameter '%.*s'",
		 (int)((eq - assignment) > 64 ? 64 : eq - assignment), assignment);
	strbuf_add(&r.sb, assignment, (size_t)(eq - assignment) + 1);
	if (comma_list_each(eq + 1, resolve_item, &r)) {
		strbuf_release(&r.sb);
		return NULL;
	}
	return strbuf_detach(&r.sb);
}
