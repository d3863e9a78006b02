/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_ANALYSIS_MACHINES_H
#define SCHEDPERF_ANALYSIS_MACHINES_H

#include <stdbool.h>
#include <stddef.h>

#include "results/results.h"
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

/* The machine of one batch of a set, told apart from the set's others. */
struct machine_of {
	char *key;		/* "ID/HOST", malloc()ed */
	const char *id;		/* NULL: none recorded, and none taken from its host */
	const char *host;	/* NULL: none recorded */
	bool shared_host;	/* another machine of the set has this host name */
};

/*
 * The machine of each batch of @set (an array of set->nr_batches): its
 * batch_machine_key(), except that a batch that recorded no machine id
 * (stores from before machine ids were recorded) takes the key of the one
 * machine of its host name in @set when there is exactly one, so that an
 * upgraded machine's history is not split in two; with two or more it
 * stays apart, for it cannot be told whose it is. Free with
 * machines_of_free().
 */
struct machine_of *machines_of(const struct result_set *set);
void machines_of_free(struct machine_of *m, size_t n);

/* How many characters of a machine id a label shows: "h (3f2a9c01)". */
#define MACHINE_ID_SHOWN 8

/*
 * @m's name for people, malloc()ed: its host name ("unknown" when none),
 * followed, when another machine of the set has that host name, by the
 * start of its machine id: "h (3f2a9c01)", or "h (no machine id)".
 */
char *machine_of_label(const struct machine_of *m);

/*
 * A command's --machine PATTERN over all the batches it reads: it matches
 * a machine's host name or id (* ? [ as in the shell), or, when it has
 * none of * ? [ and at least MACHINE_ID_SHOWN characters, as runs and
 * compare show an id, the ids it starts; but not when a batch read has it
 * as its host name or whole id: then it is that machine. Ambiguity and
 * that exact match are decided over every batch the command reads (all
 * of compare's runs), so that runs, compare and report agree.
 */
struct machine_pattern {
	const char *pattern;		/* NULL: every machine */
	bool exact;			/* a batch read has it as host name or whole id */
	const char *first, *second;	/* two machine ids it starts (NULL: none) */
};

void machine_pattern_init(struct machine_pattern *mp, const char *pattern);
/* Take the batches of @set into account; @mp points into @set until checked. */
void machine_pattern_read(struct machine_pattern *mp, const struct result_set *set);
/*
 * An id's start that starts two machine ids read names no one machine:
 * -1 with @err (EXIT_USAGE) starting with @who, naming two of the ids.
 */
int machine_pattern_check(const struct machine_pattern *mp, const char *who,
			  struct error *err);

/* Keep only the batches of @set whose machine @mp matches; how many are left. */
size_t machines_keep_matching(struct result_set *set, const struct machine_pattern *mp);

/*
 * machines_keep_matching() for a command's --machine @pattern (NULL: keep
 * every batch): a pattern that leaves none of the batches @set had, or an
 * id's start that starts two machines' ids, is a mistake, not an answer,
 * so -1 with @err (EXIT_USAGE) starting with @who ("history"). An empty
 * @set (an empty store) is no fault of the pattern: 0, and the command
 * says what it says of an empty store.
 */
int machines_select(struct result_set *set, const char *pattern, const char *who,
		    struct error *err);

/*
 * How many machines the batches of @set ran on (machines_of()); @names (may
 * be NULL) gets their machine_of_label()s, ", "-separated, cut at @len.
 */
size_t machines_count(const struct result_set *set, char *names, size_t len);

/*
 * The batches of run @name (in @set) that a comparison of it uses
 * (compare, report): those of the machines @mp matches (all when its
 * pattern is NULL), read and checked over all the runs compared. A run
 * left with batches of several machines is refused unless @pool: its
 * samples would be pooled as if one machine had made them.
 * Returns 0, or -1 with @err (EXIT_USAGE) starting with @who ("compare").
 */
int machines_choose(struct result_set *set, const char *name,
		    const struct machine_pattern *mp, bool pool, const char *who,
		    struct error *err);

#endif
