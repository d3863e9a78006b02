// SPDX-License-Identifier: GPL-2.0
/*
 * Which machine a batch ran on (analysis/machines.h), from the keys that
 * the environment records with every batch: machine.id and
 * machine.hostname. Nothing is stored twice: the environment is the
 * record, and these functions read it.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/machines.h"
#include "util/machine.h"
#include "util/xalloc.h"

const char *batch_machine_name(const struct result_batch *batch)
{
	const char *host = result_batch_env(batch, "machine.hostname");

	return host ? host : "unknown";
}

char *batch_machine_key(const struct result_batch *batch)
{
	return machine_key(result_batch_env(batch, "machine.id"),
			   result_batch_env(batch, "machine.hostname"));
}

/* Batch indices by host name, then machine key. */
static int compare_host_key(const void *pa, const void *pb, void *arg)
{
	const struct machine_of *m = arg;
	const struct machine_of *a = &m[*(const size_t *)pa], *b = &m[*(const size_t *)pb];
	int c = strcmp(a->host ? a->host : "", b->host ? b->host : "");

	return c ? c : strcmp(a->key, b->key);
}

/* The host group m[order[from..to)]: its machines apart, and no-id batches joined. */
static void settle_host(struct machine_of *m, const size_t *order, size_t from, size_t to)
{
	const struct machine_of *only = NULL;
	size_t nr = 0;

	for (size_t i = from; i < to; i++) {
		const struct machine_of *x = &m[order[i]];

		if (x->id && (!only || strcmp(only->key, x->key))) {
			only = x;
			nr++;
		}
	}
	for (size_t i = from; i < to; i++) {
		struct machine_of *x = &m[order[i]];

		if (!x->id && nr == 1) {
			free(x->key);
			x->key = xstrdup(only->key);
			x->id = only->id;
		}
	}
	for (size_t i = from; i < to; i++)
		m[order[i]].shared_host = nr > 1;
}

struct machine_of *machines_of(const struct result_set *set)
{
	size_t n = set->nr_batches, *order = xcalloc(n + 1, sizeof(*order));
	struct machine_of *m = xcalloc(n + 1, sizeof(*m));

	for (size_t i = 0; i < n; i++) {
		const char *id = result_batch_env(&set->batches[i], "machine.id");

		m[i].id = id && *id ? id : NULL;
		m[i].host = result_batch_env(&set->batches[i], "machine.hostname");
		m[i].key = batch_machine_key(&set->batches[i]);
		order[i] = i;
	}
	qsort_r(order, n, sizeof(*order), compare_host_key, m);
	for (size_t from = 0, to; from < n; from = to) {
		const char *host = m[order[from]].host ? m[order[from]].host : "";

		for (to = from + 1; to < n && !strcmp(host, m[order[to]].host ?
							  m[order[to]].host : ""); to++)
			;
		settle_host(m, order, from, to);
	}
	free(order);
	return m;
}

void machines_of_free(struct machine_of *m, size_t n)
{
	for (size_t i = 0; m && i < n; i++)
		free(m[i].key);
	free(m);
}

char *machine_of_label(const struct machine_of *m)
{
	const char *host = m->host ? m->host : "unknown";

	if (!m->shared_host)
		return xstrdup(host);
	if (!m->id)
		return xasprintf("%s (no machine id)", host);
	return xasprintf("%s (%.*s)", host, MACHINE_ID_SHOWN, m->id);
}

/*
 * Whether @pattern can name a machine id by its start, as runs and compare
 * show it: no wildcard and at least the MACHINE_ID_SHOWN characters shown,
 * so that a short word ("lab") is never taken for an id's start.
 */
static bool id_prefix(const char *pattern)
{
	return !strpbrk(pattern, "*?[") && strlen(pattern) >= MACHINE_ID_SHOWN;
}

void machine_pattern_init(struct machine_pattern *mp, const char *pattern)
{
	memset(mp, 0, sizeof(*mp));
	mp->pattern = pattern;
}

void machine_pattern_read(struct machine_pattern *mp, const struct result_set *set)
{
	size_t len;

	if (!mp->pattern || !id_prefix(mp->pattern))
		return;
	len = strlen(mp->pattern);
	for (size_t i = 0; i < set->nr_batches; i++) {
		const char *id = result_batch_env(&set->batches[i], "machine.id");
		const char *host = result_batch_env(&set->batches[i], "machine.hostname");

		if ((host && !strcmp(host, mp->pattern)) || (id && !strcmp(id, mp->pattern)))
			mp->exact = true;
		if (!id || strncmp(id, mp->pattern, len))
			continue;
		if (!mp->first)
			mp->first = id;
		else if (!mp->second && strcmp(id, mp->first))
			mp->second = id;
	}
}

/*
 * Whether @mp matches an id by its start: not when a batch read is
 * exactly what it says, a host name (Docker's are 12 hex digits) or a
 * whole id; that machine is meant, not every id it starts.
 */
static bool by_prefix(const struct machine_pattern *mp)
{
	return id_prefix(mp->pattern) && !mp->exact;
}

int machine_pattern_check(const struct machine_pattern *mp, const char *who,
			  struct error *err)
{
	if (!mp->pattern || !by_prefix(mp) || !mp->second)
		return 0;
	return error_set(err, EXIT_USAGE, "%s: --machine '%.64s' is the start of more than one "
			 "machine id (%.64s, %.64s): give more of the id of the machine you mean "
			 "(see 'schedperf runs --format json' for whole ids)", who, mp->pattern,
			 mp->first, mp->second);
}

static bool matches(const struct result_batch *batch, const void *arg)
{
	const struct machine_pattern *mp = arg;
	const char *pattern = mp->pattern, *id = result_batch_env(batch, "machine.id");

	return !fnmatch(pattern, batch_machine_name(batch), FNM_NOESCAPE) ||
	       (id && !fnmatch(pattern, id, FNM_NOESCAPE)) ||
	       (id && by_prefix(mp) && !strncmp(id, pattern, strlen(pattern)));
}

size_t machines_keep_matching(struct result_set *set, const struct machine_pattern *mp)
{
	if (mp->pattern)
		result_set_keep(set, matches, mp);
	return set->nr_batches;
}

int machines_select(struct result_set *set, const char *pattern, const char *who,
		    struct error *err)
{
	struct machine_pattern mp;

	if (!pattern || !set->nr_batches)
		return 0;
	machine_pattern_init(&mp, pattern);
	machine_pattern_read(&mp, set);
	if (machine_pattern_check(&mp, who, err))
		return -1;
	if (machines_keep_matching(set, &mp))
		return 0;
	return error_set(err, EXIT_USAGE, "%s: no stored batch ran on a machine matching "
			 "'%.64s' (see 'schedperf runs' for the machines)", who, pattern);
}

/* Whether @m[i] is one of the machines before it. */
static bool seen_before(const struct machine_of *m, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(m[j].key, m[i].key))
			return true;
	return false;
}

size_t machines_count(const struct result_set *set, char *names, size_t len)
{
	struct machine_of *m = machines_of(set);
	size_t n = 0, used = 0;

	if (names && len)
		names[0] = '\0';
	for (size_t i = 0; i < set->nr_batches; i++) {
		char *label;

		if (seen_before(m, i))
			continue;
		label = machine_of_label(&m[i]);
		if (names && used < len)
			used += (size_t)snprintf(names + used, len - used, "%s%s", n ? ", " : "",
						 label);
		free(label);
		n++;
	}
	machines_of_free(m, set->nr_batches);
	return n;
}

int machines_choose(struct result_set *set, const char *name,
		    const struct machine_pattern *mp, bool pool, const char *who,
		    struct error *err)
{
	char names[256];
	size_t n;

	if (mp->pattern && !machines_keep_matching(set, mp))
		return error_set(err, EXIT_USAGE, "%s: run '%.64s' has no batch from a machine "
				 "matching '%.64s' (see 'schedperf runs' for its machines)", who,
				 name, mp->pattern);
	n = machines_count(set, names, sizeof(names));
	if (n < 2 || pool)
		return 0;
	return error_set(err, EXIT_USAGE, "%s: run '%.64s' has batches from %zu machines (%s): "
			 "their samples are not pooled (choose one with --machine PATTERN, or "
			 "give --pool-machines)", who, name, n, names);
}
