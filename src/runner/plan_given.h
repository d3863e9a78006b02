/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_RUNNER_PLAN_GIVEN_H
#define SCHEDPERF_RUNNER_PLAN_GIVEN_H

#include <stddef.h>

#include "util/error.h"

/*
 * What the user typed for the assignments plan_add_given() is handed
 * resolved: -p calls=50% planned as calls=1 on 2 CPUs.
 */
struct plan_given {
	const char *const *text;	/* the first @nr assignments, as typed */
	size_t nr;
	int cpus;			/* the CPUs their shares were resolved on */
};

/*
 * @why, the reason a benchmark of @assignments was refused, into @err with
 * what each parameter of @given that it names was typed as, before its
 * "(how to fix)": "...; -p calls=50% is calls=1 on 2 CPUs (give calls >=
 * threads)". Always -1.
 */
int plan_given_error(const struct plan_given *given, char *const *assignments,
		     const struct error *why, struct error *err);

#endif
