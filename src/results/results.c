// SPDX-License-Identifier: GPL-2.0
/*
 * Result sets in memory: batches, benchmarks, metrics and samples, built
 * by the store and the runner and released in one call.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/results.h"
#include "util/utf8.h"
#include "util/xalloc.h"

/*
 * Append one zeroed element to an array; with @alloc (NULL: grown one at a
 * time) its room is doubled, for those that grow to many thousands (a
 * batch's benchmarks, a benchmark's iterations, a metric's values), so that
 * reading a store or an import does not copy them over and over.
 */
static void *grow(void *array, size_t *nr, size_t *alloc, size_t size)
{
	char *p = array;

	if (!alloc)
		p = xreallocarray(p, *nr + 1, size);
	else if (*nr == *alloc)
		p = xreallocarray(p, *alloc = *alloc ? 2 * *alloc : 4, size);
	memset(p + *nr * size, 0, size);
	(*nr)++;
	return p;
}

/* Append a zeroed element to array @a of @nr (@alloc as grow()'s); its address. */
#define APPEND(a, nr, alloc) ((a) = grow((a), &(nr), (alloc), sizeof(*(a))), &(a)[(nr) - 1])

struct result_batch *result_set_add_batch(struct result_set *set)
{
	return APPEND(set->batches, set->nr_batches, NULL);
}

struct result_benchmark *result_batch_add_benchmark(struct result_batch *batch)
{
	return APPEND(batch->benchmarks, batch->nr_benchmarks, &batch->alloc_benchmarks);
}

struct result_metric *result_benchmark_add_metric(struct result_benchmark *bench)
{
	return APPEND(bench->metrics, bench->nr_metrics, NULL);
}

void result_batch_add_env(struct result_batch *batch, const char *key, const char *value)
{
	struct env_entry *e = APPEND(batch->env, batch->nr_env, NULL);

	e->key = utf8_kept(key);
	e->value = utf8_kept(value);
}

void result_metric_add_sample(struct result_metric *m, double value, bool warmup)
{
	size_t room = m->alloc_samples;

	if (warmup) {
		*APPEND(m->warmup, m->nr_warmup, &m->alloc_warmup) = value;
		return;
	}
	*APPEND(m->samples, m->nr_samples, &m->alloc_samples) = value;
	if (m->disturbed && m->alloc_samples != room)
		m->disturbed = xreallocarray(m->disturbed, m->alloc_samples, sizeof(bool));
	if (m->disturbed)
		m->disturbed[m->nr_samples - 1] = false;
}

void result_metric_mark_disturbed(struct result_metric *m)
{
	if (!m->nr_samples)
		return;
	if (!m->disturbed)
		m->disturbed = xcalloc(m->alloc_samples, sizeof(bool));
	m->disturbed[m->nr_samples - 1] = true;
}

void result_metric_drop_samples(struct result_metric *m)
{
	free(m->samples);
	free(m->disturbed);
	free(m->warmup);
	m->samples = m->warmup = NULL;
	m->disturbed = NULL;
	m->nr_samples = m->nr_warmup = m->alloc_samples = m->alloc_warmup = 0;
}

struct result_iteration *result_benchmark_add_iteration(struct result_benchmark *bench)
{
	struct result_iteration *it = APPEND(bench->iterations, bench->nr_iterations,
					  &bench->alloc_iterations);

	it->cpu_taken = it->cpu_steal = it->cpu_available = NAN;
	it->started = it->ended = NAN;
	return it;
}

void result_iteration_add_culprit(struct result_iteration *it, const char *name,
				  int64_t pid, double cpu)
{
	struct result_culprit *c = APPEND(it->culprits, it->nr_culprits, NULL);

	c->name = xstrdup(name);
	c->pid = pid;
	c->cpu = cpu;
}

void result_benchmark_drop_iterations(struct result_benchmark *bench)
{
	for (size_t i = 0; i < bench->nr_iterations; i++) {
		for (size_t c = 0; c < bench->iterations[i].nr_culprits; c++)
			free(bench->iterations[i].culprits[c].name);
		free(bench->iterations[i].culprits);
	}
	free(bench->iterations);
	bench->iterations = NULL;
	bench->nr_iterations = bench->alloc_iterations = 0;
}

/* samples_read() asks the store the same of each iteration (store/iterations.c). */
bool result_benchmark_has_interference(const struct result_benchmark *bench)
{
	for (size_t i = 0; i < bench->nr_iterations; i++) {
		const struct result_iteration *it = &bench->iterations[i];

		if (!isnan(it->cpu_taken) || !isnan(it->started) || it->disturbed || it->rerun ||
		    it->nr_culprits)
			return true;
	}
	return false;
}

struct result_profile *result_benchmark_add_profile(struct result_benchmark *bench)
{
	return APPEND(bench->profiles, bench->nr_profiles, NULL);
}

void result_profile_add_symbol(struct result_profile *p, const char *name, const char *dso,
			       uint64_t self, uint64_t children)
{
	struct result_profile_symbol *sym = APPEND(p->symbols, p->nr_symbols, NULL);

	sym->name = utf8_kept(name);
	sym->dso = utf8_kept(dso);
	sym->self = self;
	sym->children = children;
}

void result_profile_release(struct result_profile *p)
{
	for (size_t i = 0; i < p->nr_symbols; i++) {
		free(p->symbols[i].name);
		free(p->symbols[i].dso);
	}
	free(p->symbols);
	free(p->event);
	free(p->scope);
	memset(p, 0, sizeof(*p));
}

size_t result_metric_repetitions(const struct result_metric *m)
{
	return m->repetitions ? m->repetitions : 1;
}

double result_metric_value(const struct result_metric *m, bool warmup, size_t k, size_t r)
{
	size_t at = k * result_metric_repetitions(m) + r;

	if (warmup)
		return at < m->nr_warmup ? m->warmup[at] : NAN;
	return at < m->nr_samples ? m->samples[at] : NAN;
}

size_t result_metric_iterations(const struct result_metric *m, bool warmup)
{
	size_t reps = result_metric_repetitions(m);

	return ((warmup ? m->nr_warmup : m->nr_samples) + reps - 1) / reps;
}

void result_benchmark_filled(const struct result_benchmark *bench, size_t *nr_warmup,
			     size_t *nr_measured)
{
	*nr_warmup = *nr_measured = 0;
	for (size_t i = 0; i < bench->nr_metrics; i++) {
		const struct result_metric *m = &bench->metrics[i];

		if (result_metric_iterations(m, true) > *nr_warmup)
			*nr_warmup = result_metric_iterations(m, true);
		if (result_metric_iterations(m, false) > *nr_measured)
			*nr_measured = result_metric_iterations(m, false);
	}
}

static int env_cmp(const void *a, const void *b)
{
	return strcmp(((const struct env_entry *)a)->key, ((const struct env_entry *)b)->key);
}

void result_batch_sort_env(struct result_batch *batch)
{
	if (batch->nr_env)
		qsort(batch->env, batch->nr_env, sizeof(*batch->env), env_cmp);
}

const char *result_batch_env(const struct result_batch *batch, const char *key)
{
	for (size_t i = 0; i < batch->nr_env; i++)
		if (!strcmp(batch->env[i].key, key))
			return batch->env[i].value;
	return NULL;
}

const char *result_batch_cpus(const struct result_batch *batch)
{
	const char *cpus = result_batch_env(batch, "knob.cpus");

	return cpus ? cpus : result_batch_env(batch, "knob.cgroup.cpuset.cpus");
}

static void metric_release(struct result_metric *m)
{
	free(m->name);
	free(m->unit);
	free(m->source);
	result_metric_drop_samples(m);
}

void result_benchmark_add_failure(struct result_benchmark *bench, const char *reason)
{
	*APPEND(bench->failures, bench->nr_failed, NULL) = xstrdup(reason);
}

static void benchmark_release(struct result_benchmark *b)
{
	for (size_t i = 0; i < b->nr_failed; i++)
		free(b->failures[i]);
	free(b->failures);
	for (size_t i = 0; i < b->nr_metrics; i++)
		metric_release(&b->metrics[i]);
	result_benchmark_drop_iterations(b);
	for (size_t i = 0; i < b->nr_profiles; i++)
		result_profile_release(&b->profiles[i]);
	free(b->profiles);
	free(b->metrics);
	free(b->workload);
	free(b->params);
}

void result_batch_drop_benchmarks(struct result_batch *batch)
{
	for (size_t i = 0; i < batch->nr_benchmarks; i++)
		benchmark_release(&batch->benchmarks[i]);
	free(batch->benchmarks);
	batch->benchmarks = NULL;
	batch->nr_benchmarks = batch->alloc_benchmarks = 0;
}

static void batch_release(struct result_batch *batch)
{
	result_batch_drop_benchmarks(batch);
	for (size_t i = 0; i < batch->nr_env; i++) {
		free(batch->env[i].key);
		free(batch->env[i].value);
	}
	free(batch->env);
	free(batch->name);
	free(batch->started);
}

void result_set_keep(struct result_set *set,
		     bool (*keep)(const struct result_batch *batch, const void *arg),
		     const void *arg)
{
	size_t kept = 0;

	for (size_t i = 0; i < set->nr_batches; i++) {
		if (!keep(&set->batches[i], arg)) {
			batch_release(&set->batches[i]);
			continue;
		}
		if (kept != i)
			set->batches[kept] = set->batches[i];
		kept++;
	}
	set->nr_batches = kept;
}

void result_set_release(struct result_set *set)
{
	for (size_t i = 0; i < set->nr_batches; i++)
		batch_release(&set->batches[i]);
	free(set->batches);
	set->batches = NULL;
	set->nr_batches = 0;
}
