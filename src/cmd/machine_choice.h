/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_CMD_MACHINE_CHOICE_H
#define SCHEDPERF_CMD_MACHINE_CHOICE_H

#include <stdbool.h>

#include "store/results.h"

/*
 * The batches of run @name (in @set) that the commands comparing it
 * (compare, report) use: those of the machines @pattern matches (all when
 * NULL). A run left with batches of several machines is refused unless
 * @pool: its samples would be pooled as if one machine had made them.
 * Returns 0 or the exit code, the error printed, naming @cmd.
 */
int choose_machines(const char *cmd, const char *name, struct result_set *set,
		    const char *pattern, bool pool);

#endif
