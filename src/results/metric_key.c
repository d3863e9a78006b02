// SPDX-License-Identifier: GPL-2.0
/*
 * The identity of a metric across batches and runs (metric_key.h): name,
 * unit and direction, one definition for every place that pairs them.
 */
#include <string.h>

#include "results/metric_key.h"
#include "util/hash.h"

static const char *text(const char *s)
{
	return s ? s : "";
}

int metric_key_cmp(const struct metric_key *a, const struct metric_key *b)
{
	int c;

	if ((c = strcmp(text(a->name), text(b->name))) ||
	    (c = strcmp(text(a->unit), text(b->unit))))
		return c;
	return (a->better > b->better) - (a->better < b->better);
}

unsigned int metric_key_differences(const struct metric_key *a, const struct metric_key *b)
{
	return (strcmp(text(a->name), text(b->name)) ? METRIC_KEY_NAME : 0) |
	       (strcmp(text(a->unit), text(b->unit)) ? METRIC_KEY_UNIT : 0) |
	       (a->better != b->better ? METRIC_KEY_BETTER : 0);
}

uint64_t metric_key_hash(uint64_t h, const struct metric_key *k)
{
	unsigned char better = k->better == BETTER_HIGHER;

	/* each text with its NUL, so that "ab"+"c" and "a"+"bc" differ */
	h = fnv1a(h, text(k->name), strlen(text(k->name)) + 1);
	h = fnv1a(h, text(k->unit), strlen(text(k->unit)) + 1);
	return fnv1a(h, &better, 1);
}
