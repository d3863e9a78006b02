/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_ANALYSIS_MACHINES_H
#define SCHEDPERF_ANALYSIS_MACHINES_H

#include <stdbool.h>
#include <stddef.h>

#include "store/results.h"
#include "util/error.h"

/*
 * The machine each batch ran on, as its environment recorded it: its
 * machine id (/etc/machine-id) and its host name, so that machines cloned
 * from one image (one machine id) are still two, as the store's --replace
 * and --resume tell them (util/machine.h). Two machines' samples are never
 * pooled as one sample unless the user asks (--pool-machines): a faster
 * CPU is not a better kernel.
 */

/* The name people know the batch's machine by: its host name, or "unknown". */
const char *batch_machine_name(const struct result_batch *batch);
/* What tells the batch's machine from another: "ID/HOST" (machine_key()), malloc()ed. */
char *batch_machine_key(const struct result_batch *batch);

/*
 * Keep only the batches of @set whose machine matches @pattern (its host
 * name or its id; * and ? as in the shell). Returns how many are left.
 */
size_t machines_keep_matching(struct result_set *set, const char *pattern);

/*
 * How many machines the batches of @set ran on; @names (may be NULL)
 * gets their names, ", "-separated, cut at @len.
 */
size_t machines_count(const struct result_set *set, char *names, size_t len);

/*
 * The batches of run @name (in @set) that a comparison of it uses
 * (compare, report): those of the machines @pattern matches (all when
 * NULL). A run left with batches of several machines is refused unless
 * @pool: its samples would be pooled as if one machine had made them.
 * Returns 0, or -1 with @err (EXIT_USAGE) starting with @who ("compare").
 */
int machines_choose(struct result_set *set, const char *name, const char *pattern, bool pool,
		    const char *who, struct error *err);

#endif
