// SPDX-License-Identifier: GPL-2.0
/*
 * History (history.h): the stored batches grouped into points (a run name,
 * or each batch), the points ordered once, then every (workload, params,
 * metric) of every batch, the metric by name, unit and direction
 * (results/metric_key.h), filed under its series in one pass through a hash
 * table, so that thousands of runs of hundreds of benchmarks cost a sort
 * and not a quadratic search.
 */
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/history.h"
#include "analysis/machines.h"
#include "stats/mean_ci.h"
#include "stats/sort.h"
#include "stats/summary.h"
#include "results/metric_key.h"
#include "util/hash.h"
#include "util/utf8.h"
#include "util/version.h"
#include "util/xalloc.h"

void history_options_init(struct history_options *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->level = 0.95;
}

const char *history_by_name(enum history_by by)
{
	return by == HISTORY_BY_BATCH ? "batch" : "run";
}

const char *history_order_name(enum history_order order)
{
	static const char *const names[] = { "started", "name", "version" };

	return names[order];
}

/*
 * A point before it has samples: a run name on one machine (on every
 * machine when they are pooled) under one pinning, or one batch. A run
 * name is often shared by machines (the kernel release), and each
 * machine's series is dated and ordered by that machine's batches alone.
 */
struct group {
	const char *run;
	const char *setting;	/* its batches' setting_key() */
	int64_t batch;
	const char *started;
	bool incomplete;	/* a batch of it is not complete */
	size_t rank;		/* its place in the order asked for */
};

/* Some samples of one batch for a series, until the points are made. */
struct entry {
	size_t group;
	size_t order;		/* its place among its series' entries: batches in start order */
	const double *samples;
	size_t nr_samples;
};

struct series_build {
	struct history_series *series;
	const char *setting;	/* its batches' setting_key() */
	struct entry *entries;
	size_t nr_entries, alloc_entries;
};

/*
 * Samples kept for the points, in blocks that never move, so that an
 * entry's pointer stays good while batches come and go (history_add_batch()).
 */
struct sample_block {
	struct sample_block *next;
	size_t used, size;
	double v[];
};

#define SAMPLE_BLOCK 65536	/* doubles: half a megabyte */

struct history_builder {
	const struct history_options *opts;
	const struct result_set *set;
	struct sample_block *blocks;	/* the newest first */
	struct machine_of *machines;	/* machines_of(set) */
	char **settings;	/* setting_key() of each batch of set */
	struct group *groups;
	size_t nr_groups;
	struct series_build *series;
	size_t nr_series, alloc_series;
	size_t *slots;		/* hash table of series index + 1; 0 = empty */
	size_t nr_slots;
	size_t *group_of;	/* group_of[i]: batch i's group */
	size_t nr_unsampled;
};

static int compare_started(const struct group *a, const struct group *b)
{
	int c = strcmp(a->started ? a->started : "", b->started ? b->started : "");

	return c ? c : strcmp(a->run, b->run);
}

static int compare_groups(const void *pa, const void *pb, void *arg)
{
	const struct history_options *opts = arg;
	const struct group *a = *(const struct group *const *)pa;
	const struct group *b = *(const struct group *const *)pb;
	int c;

	switch (opts->order) {
	case HISTORY_ORDER_NAME:
		c = strcmp(a->run, b->run);
		break;
	case HISTORY_ORDER_VERSION:
		c = version_compare(a->run, b->run);
		break;
	default:
		c = compare_started(a, b);
		break;
	}
	if (!c)
		c = compare_started(a, b);
	return c ? c : (a->batch > b->batch) - (a->batch < b->batch);
}

/*
 * What keeps a batch's samples apart from another's of the same benchmark:
 * its machine ("ID/HOST", machines_of(); none when machines are pooled)
 * and the CPUs it was pinned to (result_batch_cpus(): --cpus, cpus: or a
 * cgroup's cpuset; none when unpinned), for a pinned run does not measure
 * what an unpinned one does.
 */
static char *setting_key(const struct history_options *opts, const struct machine_of *machine,
			 const struct result_batch *batch)
{
	const char *cpus = result_batch_cpus(batch);

	return xasprintf("%s\n%s", opts->pool_machines ? "" : machine->key, cpus ? cpus : "");
}

static const char *setting_of(const struct history_builder *b, const struct result_batch *batch)
{
	return b->settings[batch - b->set->batches];
}

/* Batches by run name and setting, so that each group's are together. */
static int compare_batch_names(const void *pa, const void *pb, void *arg)
{
	const struct result_batch *a = *(const struct result_batch *const *)pa;
	const struct result_batch *b = *(const struct result_batch *const *)pb;
	int c = strcmp(a->name, b->name);

	if (!c)
		c = strcmp(setting_of(arg, a), setting_of(arg, b));
	return c ? c : (a < b ? -1 : a > b);
}

/* One group per batch or per run name; group_of[i] is batch i's. */
static void make_groups(struct history_builder *b, const struct result_set *set, size_t *group_of)
{
	const struct result_batch **by_name = xcalloc(set->nr_batches + 1, sizeof(*by_name));
	struct group **order = xcalloc(set->nr_batches + 1, sizeof(*order));

	b->groups = xcalloc(set->nr_batches + 1, sizeof(*b->groups));
	for (size_t i = 0; i < set->nr_batches; i++)
		by_name[i] = &set->batches[i];
	if (b->opts->by == HISTORY_BY_RUN)
		qsort_r(by_name, set->nr_batches, sizeof(*by_name), compare_batch_names, b);
	for (size_t i = 0; i < set->nr_batches; i++) {
		const struct result_batch *batch = by_name[i];
		const char *setting = setting_of(b, batch);
		struct group *g = b->nr_groups ? &b->groups[b->nr_groups - 1] : NULL;

		if (!g || b->opts->by == HISTORY_BY_BATCH || strcmp(g->run, batch->name) ||
		    strcmp(g->setting, setting)) {
			g = &b->groups[b->nr_groups++];
			g->run = batch->name;
			g->setting = setting;
			g->batch = b->opts->by == HISTORY_BY_BATCH ? batch->id : 0;
			g->started = batch->started;
		} else if (batch->started && (!g->started ||
					      strcmp(batch->started, g->started) < 0)) {
			g->started = batch->started;
		}
		g->incomplete |= !batch->complete;
		group_of[batch - set->batches] = (size_t)(g - b->groups);
	}
	for (size_t i = 0; i < b->nr_groups; i++)
		order[i] = &b->groups[i];
	qsort_r(order, b->nr_groups, sizeof(*order), compare_groups, (void *)b->opts);
	for (size_t i = 0; i < b->nr_groups; i++)
		order[i]->rank = i;
	free(order);
	free(by_name);
}

static bool name_listed(const char *const *list, const char *name)
{
	if (!list || !*list)
		return true;
	for (; *list; list++)
		if (utf8_names(*list, name))
			return true;
	return false;
}

/*
 * Whether @given, KEY=VALUE, names the parameter @key of string @value:
 * each half as stored or as shown (utf8_names()), as --workload and
 * --metric take a name. A key may hold '=' (import takes any text), so
 * every '=' of @given is tried as the one between them.
 */
static bool param_named(const char *given, const char *key, const char *value)
{
	for (const char *eq = strchr(given, '='); eq; eq = strchr(eq + 1, '=')) {
		char *k = xstrndup(given, (size_t)(eq - given));
		bool same = utf8_names(k, key) && utf8_names(eq + 1, value);

		free(k);
		if (same)
			return true;
	}
	return false;
}

bool params_match(const char *const *filter, const char *params_json)
{
	json_t *params;
	bool match = true;

	if (!filter || !*filter)
		return true;
	params = json_loads(params_json ? params_json : "{}", 0, NULL);
	for (; match && *filter; filter++) {
		const char *key;
		json_t *value;

		match = false;
		json_object_foreach(params, key, value)
			if (json_is_string(value) &&
			    param_named(*filter, key, json_string_value(value))) {
				match = true;
				break;
			}
	}
	json_decref(params);
	return match;
}

/* The terminating NUL included, so that "ab"+"c" != "a"+"bc". */
static uint64_t hash_bytes(uint64_t h, const char *s)
{
	return fnv1a(h, s, strlen(s) + 1);
}

/*
 * What a series is: a benchmark and metric under one setting_key(); the
 * metric is its name, unit and direction, so that "m" in s and "m" in ms
 * are two series, never one with a change point between them.
 */
struct series_key {
	const char *setting;
	const char *workload, *params;
	struct metric_key metric;
};

static uint64_t series_hash(const struct series_key *k)
{
	uint64_t h = FNV1A_INIT;

	h = hash_bytes(h, k->setting);
	h = hash_bytes(h, k->workload);
	h = hash_bytes(h, k->params ? k->params : "");
	return metric_key_hash(h, &k->metric);
}

static bool series_is(const struct series_build *sb, const struct series_key *k)
{
	const struct history_series *s = sb->series;
	struct metric_key metric = metric_key_of(s->metric);

	return !strcmp(sb->setting, k->setting) && !strcmp(s->workload, k->workload) &&
	       metric_key_same(&metric, &k->metric) &&
	       !strcmp(s->params ? s->params : "", k->params ? k->params : "");
}

static void rehash(struct history_builder *b)
{
	free(b->slots);
	b->nr_slots = b->nr_slots ? b->nr_slots * 2 : 64;
	b->slots = xcalloc(b->nr_slots, sizeof(*b->slots));
	for (size_t i = 0; i < b->nr_series; i++) {
		const struct series_build *sb = &b->series[i];
		struct series_key k = { sb->setting, sb->series->workload,
					sb->series->params, metric_key_of(sb->series->metric) };
		size_t at = series_hash(&k) & (b->nr_slots - 1);

		while (b->slots[at])
			at = (at + 1) & (b->nr_slots - 1);
		b->slots[at] = i + 1;
	}
}

/* What a series shows of its metric, its own copy. */
static struct result_metric *metric_copy(const struct result_metric *m)
{
	struct result_metric *copy = xcalloc(1, sizeof(*copy));

	copy->name = xstrdup(m->name);
	copy->unit = m->unit ? xstrdup(m->unit) : NULL;
	copy->source = m->source ? xstrdup(m->source) : NULL;
	copy->better = m->better;
	copy->repetitions = m->repetitions;
	return copy;
}

static struct series_build *series_find(struct history_builder *b,
					const struct result_batch *batch,
					const struct result_benchmark *bench,
					const struct result_metric *metric)
{
	bool pooled = b->opts->pool_machines;
	struct series_key k = { setting_of(b, batch), bench->workload, bench->params,
				metric_key_of(metric) };
	struct series_build *sb;
	size_t at;

	if (2 * (b->nr_series + 1) > b->nr_slots)
		rehash(b);
	at = series_hash(&k) & (b->nr_slots - 1);
	for (; b->slots[at]; at = (at + 1) & (b->nr_slots - 1)) {
		sb = &b->series[b->slots[at] - 1];
		if (series_is(sb, &k))
			return sb;
	}
	if (b->nr_series == b->alloc_series) {
		b->alloc_series = b->alloc_series ? 2 * b->alloc_series : 16;
		b->series = xreallocarray(b->series, b->alloc_series, sizeof(*b->series));
	}
	sb = &b->series[b->nr_series];
	memset(sb, 0, sizeof(*sb));
	sb->setting = k.setting;
	sb->series = xcalloc(1, sizeof(*sb->series));
	if (!pooled) {
		const struct machine_of *m = &b->machines[batch - b->set->batches];

		sb->series->machine = m->host;
		sb->series->machine_id = m->id;
		sb->series->machine_label = m->host ? machine_of_label(m) : NULL;
	}
	sb->series->cpus = result_batch_cpus(batch);
	/* its own: the batch's benchmarks are released before the next is read */
	sb->series->workload = xstrdup(bench->workload);
	sb->series->params = bench->params ? xstrdup(bench->params) : NULL;
	sb->series->metric = metric_copy(metric);
	b->slots[at] = ++b->nr_series;
	return sb;
}

/* A copy of @m's samples that outlives its batch. */
static const double *keep_samples(struct history_builder *b, const struct result_metric *m)
{
	struct sample_block *block = b->blocks;
	double *kept;

	if (!block || block->size - block->used < m->nr_samples) {
		size_t size = m->nr_samples > SAMPLE_BLOCK ? m->nr_samples : SAMPLE_BLOCK;

		block = xmalloc(sizeof(*block) + size * sizeof(*block->v));
		*block = (struct sample_block){ b->blocks, 0, size };
		b->blocks = block;
	}
	kept = block->v + block->used;
	memcpy(kept, m->samples, m->nr_samples * sizeof(*kept));
	block->used += m->nr_samples;
	return kept;
}

static void add_entry(struct history_builder *b, struct series_build *sb, size_t group,
		      const struct result_metric *m)
{
	if (sb->nr_entries == sb->alloc_entries) {
		sb->alloc_entries = sb->alloc_entries ? 2 * sb->alloc_entries : 8;
		sb->entries = xreallocarray(sb->entries, sb->alloc_entries,
					    sizeof(*sb->entries));
	}
	sb->entries[sb->nr_entries] = (struct entry){ group, sb->nr_entries,
						      keep_samples(b, m), m->nr_samples };
	sb->nr_entries++;
}

/* Whether @opts choose metric @m of @bench, samples or none. */
static bool metric_chosen(const struct history_options *opts,
			  const struct result_benchmark *bench, const struct result_metric *m)
{
	if (!opts->all_metrics && m->source && strcmp(m->source, "workload"))
		return false;
	return name_listed(opts->workloads, bench->workload) &&
	       name_listed(opts->metrics, m->name);
}

static int compare_entries(const void *pa, const void *pb, void *arg)
{
	const struct entry *a = pa, *b = pb;
	const struct group *groups = arg;
	size_t ra = groups[a->group].rank, rb = groups[b->group].rank;

	/*
	 * Batches of one point keep their start order, whatever the addresses
	 * their samples were given, so that a point's sums are the same sums
	 * on every backend.
	 */
	if (ra != rb)
		return ra < rb ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

static void point_stats(struct history_point *p, const double *samples, double level)
{
	double *sorted = sorted_doubles(samples, p->nr_samples);

	p->mean = stats_mean(samples, p->nr_samples);
	p->stddev = stats_stddev(samples, p->nr_samples);
	p->median = stats_median_sorted(sorted, p->nr_samples);
	free(sorted);
	mean_ci(samples, p->nr_samples, level, &p->ci_low, &p->ci_high);
}

/*
 * The entries of a series, in point order, pooled into its points: each
 * point's samples in @pool (grown as they need), which only its summary
 * outlives.
 */
static void make_points(struct series_build *sb, const struct history_builder *b,
			double **pool, size_t *alloc)
{
	struct history_series *s = sb->series;

	qsort_r(sb->entries, sb->nr_entries, sizeof(*sb->entries), compare_entries, b->groups);
	s->points = xcalloc(sb->nr_entries, sizeof(*s->points));
	for (size_t i = 0; i < sb->nr_entries;) {
		const struct group *g = &b->groups[sb->entries[i].group];
		struct history_point *p = &s->points[s->nr_points++];
		size_t j, n = 0;

		for (j = i; j < sb->nr_entries && sb->entries[j].group == sb->entries[i].group; j++)
			n += sb->entries[j].nr_samples;
		p->run = g->run;
		p->batch = g->batch;
		p->started = g->started;
		p->incomplete = g->incomplete;
		if (n > *alloc) {
			*alloc = n;
			*pool = xreallocarray(*pool, n, sizeof(**pool));
		}
		for (; i < j; i++) {
			memcpy(*pool + p->nr_samples, sb->entries[i].samples,
			       sb->entries[i].nr_samples * sizeof(**pool));
			p->nr_samples += sb->entries[i].nr_samples;
		}
		point_stats(p, *pool, b->opts->level);
	}
}

struct history_builder *history_begin(const struct result_set *set,
				      const struct history_options *opts)
{
	struct history_builder *b = xcalloc(1, sizeof(*b));

	b->opts = opts;
	b->set = set;
	b->machines = machines_of(set);
	b->settings = xcalloc(set->nr_batches + 1, sizeof(*b->settings));
	for (size_t i = 0; i < set->nr_batches; i++)
		b->settings[i] = setting_key(opts, &b->machines[i], &set->batches[i]);
	b->group_of = xcalloc(set->nr_batches + 1, sizeof(*b->group_of));
	make_groups(b, set, b->group_of);
	return b;
}

void history_add_batch(struct history_builder *b, size_t at)
{
	const struct history_options *opts = b->opts;
	const struct result_batch *batch = &b->set->batches[at];

	for (size_t j = 0; j < batch->nr_benchmarks; j++) {
		const struct result_benchmark *bench = &batch->benchmarks[j];

		if (!params_match(opts->params, bench->params))
			continue;
		for (size_t k = 0; k < bench->nr_metrics; k++) {
			const struct result_metric *m = &bench->metrics[k];

			if (!metric_chosen(opts, bench, m))
				continue;
			if (!m->nr_samples)
				b->nr_unsampled++;
			else
				add_entry(b, series_find(b, batch, bench, m), b->group_of[at], m);
		}
	}
}

/* What @b holds but the series it made. */
static void builder_free(struct history_builder *b)
{
	while (b->blocks) {
		struct sample_block *next = b->blocks->next;

		free(b->blocks);
		b->blocks = next;
	}
	free(b->series);
	free(b->slots);
	free(b->groups);
	free(b->group_of);
	for (size_t i = 0; i < b->set->nr_batches; i++)
		free(b->settings[i]);
	free(b->settings);
	machines_of_free(b->machines, b->set->nr_batches);
	free(b);
}

/*
 * Moves @b's series into @h, freeing what only the builder used. With
 * @points they get their points made first; without, as on an abort, they
 * are moved as they are, only so that history_release() can free them.
 */
static void take_series(struct history_builder *b, struct history *h, bool points)
{
	double *pool = NULL;
	size_t alloc = 0;

	h->series = xcalloc(b->nr_series + 1, sizeof(*h->series));
	for (size_t i = 0; i < b->nr_series; i++) {
		if (points)
			make_points(&b->series[i], b, &pool, &alloc);
		h->series[h->nr_series++] = *b->series[i].series;
		free(b->series[i].series);
		free(b->series[i].entries);
	}
	free(pool);
}

void history_end(struct history_builder *b, struct history *h)
{
	memset(h, 0, sizeof(*h));
	h->level = b->opts->level;
	h->by = b->opts->by;
	h->order = b->opts->order;
	h->nr_unsampled = b->nr_unsampled;
	take_series(b, h, true);
	builder_free(b);
}

void history_abort(struct history_builder *b)
{
	struct history h = { 0 };

	/* the series made so far, released as a history's, without their points */
	if (!b)
		return;
	take_series(b, &h, false);
	history_release(&h);
	builder_free(b);
}

void history_build(struct history *h, const struct result_set *set,
		   const struct history_options *opts)
{
	struct history_builder *b = history_begin(set, opts);

	for (size_t i = 0; i < set->nr_batches; i++)
		history_add_batch(b, i);
	history_end(b, h);
}

void history_detect(struct history *h, const struct change_point_options *opts)
{
	for (size_t i = 0; i < h->nr_series; i++) {
		struct history_series *s = &h->series[i];
		double *means = xcalloc(s->nr_points + 1, sizeof(*means));
		struct change_point *cps;
		size_t nr;

		for (size_t j = 0; j < s->nr_points; j++)
			means[j] = s->points[j].mean;
		nr = change_points_detect(means, s->nr_points, opts, &cps);
		free(means);
		free(s->changes);
		s->changes = xcalloc(nr + 1, sizeof(*s->changes));
		s->nr_changes = nr;
		for (size_t j = 0; j < nr; j++) {
			struct history_change *c = &s->changes[j];

			c->cp = cps[j];
			c->pct_change = summary_pct_change(cps[j].sides.mean_before,
							   cps[j].sides.mean_after,
							   s->metric->better == BETTER_HIGHER);
			/* by the means, not the percent: there is none from a mean of 0 */
			c->regression = s->metric->better == BETTER_HIGHER ?
					cps[j].sides.mean_after < cps[j].sides.mean_before :
					cps[j].sides.mean_after > cps[j].sides.mean_before;
		}
		free(cps);
	}
}

bool history_newest_is_regression(const struct history *h)
{
	for (size_t i = 0; i < h->nr_series; i++) {
		const struct history_series *s = &h->series[i];

		if (s->nr_changes && s->changes[s->nr_changes - 1].regression)
			return true;
	}
	return false;
}

void history_release(struct history *h)
{
	for (size_t i = 0; i < h->nr_series; i++) {
		struct result_metric *m = h->series[i].metric;

		free(h->series[i].points);
		free(h->series[i].changes);
		free(h->series[i].machine_label);
		free(h->series[i].workload);
		free(h->series[i].params);
		free(m->name);
		free(m->unit);
		free(m->source);
		free(m);
	}
	free(h->series);
	memset(h, 0, sizeof(*h));
}
