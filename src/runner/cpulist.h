/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_RUNNER_CPULIST_H
#define SCHEDPERF_RUNNER_CPULIST_H

#include <sched.h>

#include "util/error.h"
#include "util/list.h"	/* cpulist_format() */

/*
 * Parse a CPU list as the kernel writes them ("0-3,8,10-11") into @set;
 * @what names it in an error ("--cpus"; NULL: the caller does). The form only: what submit may
 * check of a job for another machine.
 */
int cpulist_parse_form(const char *text, const char *what, cpu_set_t *set, struct error *err);

/*
 * cpulist_parse_form(), and that this process may run on every CPU of the
 * list, unless a job is only being checked (job_env.h): then the worker
 * that runs it checks its own CPUs.
 */
int cpulist_parse(const char *text, const char *what, cpu_set_t *set, struct error *err);

#endif
