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

static bool matches(const struct result_batch *batch, const void *arg)
{
	const char *pattern = arg, *id = result_batch_env(batch, "machine.id");

	return !fnmatch(pattern, batch_machine_name(batch), FNM_NOESCAPE) ||
	       (id && !fnmatch(pattern, id, FNM_NOESCAPE));
}

size_t machines_keep_matching(struct result_set *set, const char *pattern)
{
	result_set_keep(set, matches, pattern);
	return set->nr_batches;
}

/* Whether @keys[i] is one of the keys before it. */
static bool seen_before(char *const *keys, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(keys[j], keys[i]))
			return true;
	return false;
}

size_t machines_count(const struct result_set *set, char *names, size_t len)
{
	char **keys = xcalloc(set->nr_batches + 1, sizeof(*keys));
	size_t n = 0, used = 0;

	if (names && len)
		names[0] = '\0';
	for (size_t i = 0; i < set->nr_batches; i++) {
		keys[i] = batch_machine_key(&set->batches[i]);
		if (seen_before(keys, i))
			continue;
		if (names && used < len)
			used += (size_t)snprintf(names + used, len - used, "%s%s", n ? ", " : "",
						 batch_machine_name(&set->batches[i]));
		n++;
	}
	for (size_t i = 0; i < set->nr_batches; i++)
		free(keys[i]);
	free(keys);
	return n;
}

int machines_choose(struct result_set *set, const char *name, const char *pattern, bool pool,
		    const char *who, struct error *err)
{
	char names[256];
	size_t n;

	if (pattern && !machines_keep_matching(set, pattern))
		return error_set(err, EXIT_USAGE, "%s: run '%.64s' has no batch from a machine "
				 "matching '%.64s' (see 'schedperf runs' for its machines)", who,
				 name, pattern);
	n = machines_count(set, names, sizeof(names));
	if (n < 2 || pool)
		return 0;
	return error_set(err, EXIT_USAGE, "%s: run '%.64s' has batches from %zu machines (%s): "
			 "their samples are not pooled (choose one with --machine PATTERN, or "
			 "give --pool-machines)", who, name, n, names);
}
