// SPDX-License-Identifier: GPL-2.0
/*
 * Plans: the benchmarks a run executes. -p lists expand to one benchmark
 * per combination, repeats dropped; a plan is stored with its batch as
 * JSON so that --resume runs exactly what is missing.
 */
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor/monitor.h"
#include "runner/metric_names.h"
#include "runner/plan.h"
#include "runner/plan_given.h"
#include "store/store.h"
#include "util/array.h"
#include "util/strbuf.h"
#include "util/list.h"
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
		json_object_set_new(obj, w->params[i].name, json_string(param_text(&values[i])));
	s = json_dumps(obj, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(obj);
	return s;
}

static int add_value(const char *item, size_t len, void *arg)
{
	struct expansion *e = arg;

	e->values = xreallocarray(e->values, e->nr_values + 1, sizeof(char *));
	e->values[e->nr_values++] = xstrndup(item, len);
	return 0;
}

static bool names_string_param(const struct workload *w, const char *key, size_t len)
{
	for (size_t i = 0; i < w->nr_params; i++)
		if (w->params[i].type == PARAM_STRING && strlen(w->params[i].name) == len &&
		    !strncmp(w->params[i].name, key, len))
			return true;
	return false;
}

static void split_values(struct expansion *e, const struct workload *w, const char *assignment)
{
	const char *eq = strchr(assignment, '=');

	if (!eq || names_string_param(w, assignment, (size_t)(eq - assignment))) {
		/* Not KEY=VALUE (validation names it), or text taken whole. */
		e->key = xstrdup("");
		e->values = xmalloc(sizeof(char *));
		e->values[0] = xstrdup(assignment);
		e->nr_values = 1;
		return;
	}
	e->key = xmalloc((size_t)(eq - assignment) + 2);
	memcpy(e->key, assignment, (size_t)(eq - assignment) + 1);
	e->key[eq - assignment + 1] = '\0';
	comma_list_each(eq + 1, add_value, e);
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

static void plan_item_release(struct plan_item *item)
{
	free(item->params_json);
	workload_release_params(item->workload, item->values);
}

static int add_item(struct plan *plan, const struct workload *w, char **assignments,
		    size_t n, struct error *err)
{
	struct plan_item item;

	memset(&item, 0, sizeof(item));
	item.workload = w;
	item.iterations = item.warmup = -1;
	item.timeout = -1;
	if (workload_parse_params(w, assignments, n, item.values, &item.needs, err))
		return -1;
	if (metric_names_check(&item, NULL, err)) {
		workload_release_params(w, item.values);
		return -1;
	}
	if (plan->nr_items >= PLAN_MAX_ITEMS) {
		workload_release_params(w, item.values);
		return error_set(err, EXIT_USAGE, "the plan has more than %d benchmarks "
				 "(sweep fewer values)", PLAN_MAX_ITEMS);
	}
	item.params_json = params_to_json(w, item.values);
	plan->items = xreallocarray(plan->items, plan->nr_items + 1, sizeof(item));
	plan->items[plan->nr_items++] = item;
	return 0;
}

/* Order indices into @items by parameters, then position (qsort_r). */
static int item_index_cmp(const void *a, const void *b, void *items)
{
	const struct plan_item *item = items;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = strcmp(item[i].params_json, item[j].params_json);

	return c ? c : (i > j) - (i < j);
}

/*
 * Drop the repeats among items[first..]: one workload, so the same
 * parameters are the same benchmark. A value listed twice, or percent
 * values that truncate to the same count on a small machine (50%,100% of
 * one CPU), would otherwise run it twice. The first of each stays, in order.
 */
static void drop_repeats(struct plan *plan, size_t first)
{
	size_t n = plan->nr_items - first, kept = first;
	size_t *order;
	bool *repeat;

	if (n < 2)
		return;
	order = xcalloc(n, sizeof(*order));
	repeat = xcalloc(n, sizeof(*repeat));
	for (size_t i = 0; i < n; i++)
		order[i] = first + i;
	qsort_r(order, n, sizeof(*order), item_index_cmp, plan->items);
	for (size_t i = 1; i < n; i++)
		if (!strcmp(plan->items[order[i]].params_json,
			    plan->items[order[i - 1]].params_json))
			repeat[order[i] - first] = true;
	for (size_t i = first; i < plan->nr_items; i++) {
		if (repeat[i - first])
			plan_item_release(&plan->items[i]);
		else
			plan->items[kept++] = plan->items[i];
	}
	plan->nr_items = kept;
	free(order);
	free(repeat);
}

int plan_add(struct plan *plan, const struct workload *w, char *const *assignments,
	     size_t nr_assignments, struct error *err)
{
	return plan_add_given(plan, w, assignments, nr_assignments, NULL, err);
}

int plan_add_given(struct plan *plan, const struct workload *w, char *const *assignments,
		   size_t nr_assignments, const struct plan_given *given, struct error *err)
{
	struct error why = { 0 };
	size_t first = plan->nr_items;
	struct expansion *ex = xcalloc(nr_assignments ? nr_assignments : 1, sizeof(*ex));
	char **current = xcalloc(nr_assignments ? nr_assignments : 1, sizeof(char *));
	size_t *index = xcalloc(nr_assignments ? nr_assignments : 1, sizeof(size_t));
	int rc = 0;

	if (w->nr_params > WORKLOAD_MAX_PARAMS) {
		rc = error_set(err, EXIT_INTERNAL, "workload %s has too many parameters", w->name);
		goto out;
	}
	for (size_t i = 0; i < nr_assignments; i++)
		split_values(&ex[i], w, assignments[i]);

	/* Odometer over the value lists: the last key varies fastest. */
	for (;;) {
		size_t k;

		for (size_t i = 0; i < nr_assignments; i++) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_addstr(&sb, ex[i].key);
			strbuf_addstr(&sb, ex[i].values[index[i]]);
			current[i] = strbuf_detach(&sb);
		}
		rc = add_item(plan, w, current, nr_assignments, given ? &why : err);
		for (size_t i = 0; i < nr_assignments; i++)
			free(current[i]);
		if (rc && given)
			plan_given_error(given, assignments, &why, err);
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
	if (!rc)
		drop_repeats(plan, first);
out:
	expansions_release(ex, nr_assignments);
	free(current);
	free(index);
	return rc;
}

const struct plan_option plan_options[] = {
	{ "monitors", "monitors", PLAN_OPTION_STRING, offsetof(struct plan, monitors), 0 },
	{ "retries", "retries", PLAN_OPTION_INT, offsetof(struct plan, retries), 0 },
	{ "cpus", "cpus", PLAN_OPTION_STRING, offsetof(struct plan, cpus), 0 },
	{ "knobs", "knob", PLAN_OPTION_LIST, offsetof(struct plan, knobs),
	  offsetof(struct plan, nr_knobs) },
	{ "profile_iterations", "profile-iterations", PLAN_OPTION_INT,
	  offsetof(struct plan, profile_iterations), 0 },
	{ "profile_frequency", "profile-frequency", PLAN_OPTION_INT,
	  offsetof(struct plan, profile_frequency), 0 },
	{ "rerun_disturbed", "rerun-disturbed", PLAN_OPTION_INT,
	  offsetof(struct plan, rerun_disturbed), 0 },
	{ "iterations", "iterations", PLAN_OPTION_INT, offsetof(struct plan, iterations), 0 },
	{ "warmup", "warmup", PLAN_OPTION_INT, offsetof(struct plan, warmup), 0 },
	{ "timeout", "timeout", PLAN_OPTION_NUMBER, offsetof(struct plan, timeout), 0 },
	{ "shuffle", "shuffle", PLAN_OPTION_FLAG, offsetof(struct plan, shuffle), 0 },
	{ "max_interference", "max-interference", PLAN_OPTION_NUMBER,
	  offsetof(struct plan, max_interference), 0 },
	{ "quiet_wait", "quiet-wait", PLAN_OPTION_NUMBER, offsetof(struct plan, quiet_wait), 0 },
	{ NULL, NULL, 0, 0, 0 },
};
_Static_assert(ARRAY_SIZE(plan_options) - 1 <= sizeof(((struct plan *)0)->given) * CHAR_BIT,
	       "a bit of plan->given for each row");

/* The fields of @o in @plan: a string's, an int's, a list's and its count. */
static char **string_of(const struct plan *plan, const struct plan_option *o)
{
	return (char **)((char *)plan + o->offset);
}

static int *int_of(const struct plan *plan, const struct plan_option *o)
{
	return (int *)((char *)plan + o->offset);
}

static double *number_of(const struct plan *plan, const struct plan_option *o)
{
	return (double *)((char *)plan + o->offset);
}

static bool *flag_of(const struct plan *plan, const struct plan_option *o)
{
	return (bool *)((char *)plan + o->offset);
}

static char ***list_of(const struct plan *plan, const struct plan_option *o)
{
	return (char ***)((char *)plan + o->offset);
}

static size_t *count_of(const struct plan *plan, const struct plan_option *o)
{
	return (size_t *)((char *)plan + o->count_offset);
}

/* @o's bit in plan->given. */
static unsigned int given_bit(const struct plan_option *o)
{
	return 1u << (o - plan_options);
}

bool plan_option_given(const struct plan *plan, const struct plan_option *o)
{
	if (plan->given & given_bit(o))
		return true;
	switch (o->kind) {
	case PLAN_OPTION_STRING:
		return *string_of(plan, o) != NULL;
	case PLAN_OPTION_INT:
		return *int_of(plan, o) != 0;
	case PLAN_OPTION_NUMBER:
		return *number_of(plan, o) != 0;
	case PLAN_OPTION_FLAG:
		return *flag_of(plan, o);
	case PLAN_OPTION_LIST:
		return *count_of(plan, o) != 0;
	}
	return false;
}

void plan_option_add(struct plan *plan, const struct plan_option *o, const char *value)
{
	char ***list = list_of(plan, o);
	size_t *nr = count_of(plan, o);

	*list = xreallocarray(*list, *nr + 1, sizeof(char *));
	(*list)[(*nr)++] = xstrdup(value);
	plan->given |= given_bit(o);
}

/* No option of run gives a negative number: these say "not given" while they parse. */
#define INT_UNSET INT_MIN
#define NUMBER_UNSET (-HUGE_VAL)

void plan_options_unset(struct plan *plan)
{
	for (const struct plan_option *o = plan_options; o->key; o++) {
		if (o->kind == PLAN_OPTION_INT)
			*int_of(plan, o) = INT_UNSET;
		else if (o->kind == PLAN_OPTION_NUMBER)
			*number_of(plan, o) = NUMBER_UNSET;
	}
}

/*
 * Whether an option set @o since plan_options_unset(); a number none set
 * goes back to 0, "not given".
 */
static bool option_was_set(struct plan *plan, const struct plan_option *o)
{
	switch (o->kind) {
	case PLAN_OPTION_INT:
		if (*int_of(plan, o) != INT_UNSET)
			return true;
		*int_of(plan, o) = 0;
		return false;
	case PLAN_OPTION_NUMBER:
		if (*number_of(plan, o) != NUMBER_UNSET)
			return true;
		*number_of(plan, o) = 0;
		return false;
	default:
		return plan_option_given(plan, o);
	}
}

void plan_options_mark(struct plan *plan)
{
	for (const struct plan_option *o = plan_options; o->key; o++)
		if (option_was_set(plan, o))
			plan->given |= given_bit(o);
}

const struct plan_option *plan_option_find(const char *key)
{
	for (const struct plan_option *o = plan_options; o->key; o++)
		if (!strcmp(o->key, key))
			return o;
	return NULL;
}

static void option_release(struct plan *plan, const struct plan_option *o)
{
	switch (o->kind) {
	case PLAN_OPTION_STRING:
		free(*string_of(plan, o));
		*string_of(plan, o) = NULL;
		break;
	case PLAN_OPTION_INT:
		*int_of(plan, o) = 0;
		break;
	case PLAN_OPTION_NUMBER:
		*number_of(plan, o) = 0;
		break;
	case PLAN_OPTION_FLAG:
		*flag_of(plan, o) = false;
		break;
	case PLAN_OPTION_LIST:
		for (size_t i = 0; i < *count_of(plan, o); i++)
			free((*list_of(plan, o))[i]);
		free(*list_of(plan, o));
		*list_of(plan, o) = NULL;
		*count_of(plan, o) = 0;
		break;
	}
}

void plan_release(struct plan *plan)
{
	for (size_t i = 0; i < plan->nr_items; i++)
		plan_item_release(&plan->items[i]);
	free(plan->items);
	plan->items = NULL;
	plan->nr_items = 0;
	for (const struct plan_option *o = plan_options; o->key; o++)
		option_release(plan, o);
	plan->given = 0;
}

void plan_item_describe(const struct plan_item *item, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < item->workload->nr_params && used < len; i++) {
		const char *text = param_text(&item->values[i]);
		const char *quote = strpbrk(text, " \t") || !*text ? "'" : "";

		used += (size_t)snprintf(buf + used, len - used, "%s%s=%s%s%s", i ? " " : "",
					 item->workload->params[i].name, quote, text, quote);
	}
}

void plan_set_overrides(struct plan *plan, size_t first, int iterations, int warmup,
			double timeout)
{
	for (size_t i = first; i < plan->nr_items; i++) {
		plan->items[i].iterations = iterations;
		plan->items[i].warmup = warmup;
		plan->items[i].timeout = timeout;
	}
}

void plan_shuffle(struct plan *plan, unsigned long seed)
{
	/* A small LCG is plenty to pick an order; it only has to be repeatable. */
	unsigned long long state = seed ? seed : 1;

	for (size_t i = plan->nr_items; i > 1; i--) {
		struct plan_item swap;
		size_t j;

		state = state * 6364136223846793005ULL + 1442695040888963407ULL;
		j = (size_t)((state >> 33) % i);
		swap = plan->items[i - 1];
		plan->items[i - 1] = plan->items[j];
		plan->items[j] = swap;
	}
}

static json_t *option_json(const struct plan *plan, const struct plan_option *o)
{
	json_t *list;

	switch (o->kind) {
	case PLAN_OPTION_STRING:
		return json_string(*string_of(plan, o));
	case PLAN_OPTION_INT:
		return json_integer(*int_of(plan, o));
	case PLAN_OPTION_NUMBER:
		return json_real(*number_of(plan, o));
	case PLAN_OPTION_FLAG:
		return json_boolean(*flag_of(plan, o));
	case PLAN_OPTION_LIST:
		list = json_array();
		for (size_t i = 0; i < *count_of(plan, o); i++)
			json_array_append_new(list, json_string((*list_of(plan, o))[i]));
		return list;
	}
	return json_null();
}

/* @o's value in a stored plan, where it is one of its kind. */
static void option_from_json(struct plan *plan, const struct plan_option *o, json_t *v)
{
	size_t i;
	json_t *item;

	switch (o->kind) {
	case PLAN_OPTION_STRING:
		if (!json_is_string(v))
			return;
		*string_of(plan, o) = xstrdup(json_string_value(v));
		break;
	case PLAN_OPTION_INT:
		if (!json_is_integer(v))
			return;
		*int_of(plan, o) = (int)json_integer_value(v);
		break;
	case PLAN_OPTION_NUMBER:
		if (!json_is_number(v))
			return;
		*number_of(plan, o) = json_number_value(v);
		break;
	case PLAN_OPTION_FLAG:
		if (!json_is_boolean(v))
			return;
		*flag_of(plan, o) = json_is_true(v);
		break;
	case PLAN_OPTION_LIST:
		if (!json_is_array(v))
			return;
		json_array_foreach(v, i, item)
			if (json_is_string(item))
				plan_option_add(plan, o, json_string_value(item));
		break;
	}
	/* absent (an older plan) is not given; present is, its 0 too */
	plan->given |= given_bit(o);
}

char *plan_to_json(const struct plan *plan)
{
	json_t *doc = json_object(), *list = json_array();
	char *s;

	for (size_t i = 0; i < plan->nr_items; i++) {
		const struct plan_item *item = &plan->items[i];
		json_t *obj = json_object();

		json_object_set_new(obj, "workload", json_string(item->workload->name));
		json_object_set_new(obj, "params", json_loads(item->params_json, 0, NULL));
		if (item->iterations >= 0)
			json_object_set_new(obj, "iterations", json_integer(item->iterations));
		if (item->warmup >= 0)
			json_object_set_new(obj, "warmup", json_integer(item->warmup));
		if (item->timeout >= 0)
			json_object_set_new(obj, "timeout", json_real(item->timeout));
		json_array_append_new(list, obj);
	}
	json_object_set_new(doc, "benchmarks", list);
	for (const struct plan_option *o = plan_options; o->key; o++)
		if (plan_option_given(plan, o))
			json_object_set_new(doc, o->key, option_json(plan, o));
	s = json_dumps(doc, JSON_COMPACT);
	json_decref(doc);
	return s;
}

static int item_from_json(json_t *obj, struct plan *plan, struct error *err)
{
	json_t *params = json_object_get(obj, "params"), *v;
	const struct workload *w;
	char **assignments;
	const char *key;
	size_t n = 0;
	int rc;

	/* run's plans count their iterations; an ab's or a step's samples until a verdict */
	if (!json_is_integer(json_object_get(obj, "iterations")))
		return error_set(err, EXIT_USAGE, "the batch is a side of an ab or a bisect-step, "
				 "which samples until a verdict: run --resume has no iterations to "
				 "finish (run the ab or the bisect-step again)");
	w = workload_find(json_string_value(json_object_get(obj, "workload")) ?: "");
	if (!w || !json_is_object(params))
		return error_set(err, EXIT_USAGE, "the stored plan names a workload this "
				 "schedperf does not have (resume with the schedperf that started it)");
	assignments = xcalloc(json_object_size(params) + 1, sizeof(char *));
	json_object_foreach(params, key, v) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "%s=%s", key, json_string_value(v) ?: "");
		assignments[n++] = strbuf_detach(&sb);
	}
	rc = plan_add(plan, w, assignments, n, err);
	if (!rc) {
		struct plan_item *item = &plan->items[plan->nr_items - 1];

		if ((v = json_object_get(obj, "iterations")))
			item->iterations = (int)json_integer_value(v);
		if ((v = json_object_get(obj, "warmup")))
			item->warmup = (int)json_integer_value(v);
		if ((v = json_object_get(obj, "timeout")))
			item->timeout = json_number_value(v);
	}
	for (size_t i = 0; i < n; i++)
		free(assignments[i]);
	free(assignments);
	return rc;
}

/*
 * The stored plan @text's options (@options) and benchmarks (@benchmarks)
 * into @plan; "no stored plan" is said by the first step.
 */
static int plan_part_from_json(const char *text, struct plan *plan, bool options,
			       bool benchmarks, struct error *err)
{
	json_t *doc = json_loads(text ? text : "", 0, NULL), *list, *obj;
	size_t i;
	int rc = 0;

	list = json_object_get(doc, "benchmarks");
	if (!json_is_array(list)) {
		json_decref(doc);
		return error_set(err, EXIT_USAGE, "the batch has no stored plan to resume "
				 "(start a new run instead)");
	}
	if (options)
		for (const struct plan_option *o = plan_options; o->key; o++)
			option_from_json(plan, o, json_object_get(doc, o->key));
	if (benchmarks)
		json_array_foreach(list, i, obj) {
			if ((rc = item_from_json(obj, plan, err)))
				break;
		}
	json_decref(doc);
	return rc;
}

int plan_options_from_json(const char *text, struct plan *plan, struct error *err)
{
	return plan_part_from_json(text, plan, true, false, err);
}

int plan_benchmarks_from_json(const char *text, struct plan *plan, struct error *err)
{
	return plan_part_from_json(text, plan, false, true, err);
}

int plan_from_json(const char *text, struct plan *plan, struct error *err)
{
	return plan_part_from_json(text, plan, true, true, err);
}

bool plan_json_profiles(const char *json)
{
	json_t *doc = json ? json_loads(json, 0, NULL) : NULL;
	json_t *extra = json_object_get(doc, "profile_iterations");
	bool profiles = monitors_list_profiles(json_string_value(json_object_get(doc,
									      "monitors"))) ||
			(json_is_integer(extra) && json_integer_value(extra) > 0);

	json_decref(doc);
	return profiles;
}

int plan_batches_profile(struct store *st, const struct result_set *set, bool *profiled,
			 struct error *err)
{
	*profiled = false;
	for (size_t i = 0; i < set->nr_batches && !*profiled; i++) {
		char *plan;

		if (store_batch_plan(st, set->batches[i].id, &plan, err))
			return -1;
		*profiled = plan_json_profiles(plan);
		free(plan);
	}
	return 0;
}
