// SPDX-License-Identifier: GPL-2.0
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/plan.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Refuse plans that would take days before anything starts. */
#define PLAN_MAX_ITEMS 100000

struct expansion {
	char *key;		/* "key=" prefix, with the '=' */
	char **values;
	size_t nr_values;
};

static char *params_to_json(const struct workload *w, const struct param_value *values)
{
	json_t *obj = json_object();
	char *s;

	for (size_t i = 0; i < w->nr_params; i++)
		json_object_set_new(obj, w->params[i].name, json_string(values[i].text));
	s = json_dumps(obj, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(obj);
	return s;
}

static void split_values(struct expansion *e, const char *assignment)
{
	const char *eq = strchr(assignment, '=');
	const char *p;

	if (!eq) {
		/* Not KEY=VALUE: keep it whole so validation names it. */
		e->key = xstrdup("");
		e->values = xmalloc(sizeof(char *));
		e->values[0] = xstrdup(assignment);
		e->nr_values = 1;
		return;
	}
	e->key = xmalloc((size_t)(eq - assignment) + 2);
	memcpy(e->key, assignment, (size_t)(eq - assignment) + 1);
	e->key[eq - assignment + 1] = '\0';
	p = eq + 1;
	for (;;) {
		size_t len = strcspn(p, ",");

		e->values = xreallocarray(e->values, e->nr_values + 1, sizeof(char *));
		e->values[e->nr_values] = xmalloc(len + 1);
		memcpy(e->values[e->nr_values], p, len);
		e->values[e->nr_values][len] = '\0';
		e->nr_values++;
		if (!p[len])
			break;
		p += len + 1;
	}
}

static void expansions_release(struct expansion *ex, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < ex[i].nr_values; j++)
			free(ex[i].values[j]);
		free(ex[i].values);
		free(ex[i].key);
	}
	free(ex);
}

static int add_item(struct plan *plan, const struct workload *w, char **assignments,
		    size_t n, struct error *err)
{
	struct plan_item item;

	memset(&item, 0, sizeof(item));
	item.workload = w;
	if (workload_parse_params(w, assignments, n, item.values, &item.needs, err))
		return -1;
	if (plan->nr_items >= PLAN_MAX_ITEMS)
		return error_set(err, EXIT_USAGE, "the plan has more than %d benchmarks "
				 "(sweep fewer values)", PLAN_MAX_ITEMS);
	item.params_json = params_to_json(w, item.values);
	plan->items = xreallocarray(plan->items, plan->nr_items + 1, sizeof(item));
	plan->items[plan->nr_items++] = item;
	return 0;
}

int plan_add(struct plan *plan, const struct workload *w, char *const *assignments,
	     size_t nr_assignments, struct error *err)
{
	struct expansion *ex = xcalloc(nr_assignments ? nr_assignments : 1, sizeof(*ex));
	char **current = xcalloc(nr_assignments ? nr_assignments : 1, sizeof(char *));
	size_t *index = xcalloc(nr_assignments ? nr_assignments : 1, sizeof(size_t));
	int rc = 0;

	if (w->nr_params > PLAN_MAX_PARAMS) {
		rc = error_set(err, EXIT_INTERNAL, "workload %s has too many parameters", w->name);
		goto out;
	}
	for (size_t i = 0; i < nr_assignments; i++)
		split_values(&ex[i], assignments[i]);

	/* Odometer over the value lists: the last key varies fastest. */
	for (;;) {
		size_t k;

		for (size_t i = 0; i < nr_assignments; i++) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_addstr(&sb, ex[i].key);
			strbuf_addstr(&sb, ex[i].values[index[i]]);
			current[i] = strbuf_detach(&sb);
		}
		rc = add_item(plan, w, current, nr_assignments, err);
		for (size_t i = 0; i < nr_assignments; i++)
			free(current[i]);
		if (rc)
			break;
		for (k = nr_assignments; k > 0; k--) {
			if (++index[k - 1] < ex[k - 1].nr_values)
				break;
			index[k - 1] = 0;
		}
		if (k == 0)
			break;
	}
out:
	expansions_release(ex, nr_assignments);
	free(current);
	free(index);
	return rc;
}

void plan_release(struct plan *plan)
{
	for (size_t i = 0; i < plan->nr_items; i++)
		free(plan->items[i].params_json);
	free(plan->items);
	plan->items = NULL;
	plan->nr_items = 0;
}

void plan_item_describe(const struct plan_item *item, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < item->workload->nr_params && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", i ? " " : "",
					 item->workload->params[i].name, item->values[i].text);
}
