/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_WORKLOAD_EXEC_HELPER_H
#define SCHEDPERF_WORKLOAD_EXEC_HELPER_H

#include <stddef.h>

#include "util/error.h"
#include "workload/workload.h"

#define EXEC_HELPER_NAME "schedperf-exec-helper"

/*
 * Find the helper program that process-creation workloads execute: in
 * $SCHEDPERF_LIBEXEC when set, else next to the running binary, else in
 * the installed libexec directory. Fills @path and returns 0, or -1 with
 * EXIT_ENV naming where it looked.
 */
int exec_helper_find(char *path, size_t len, struct error *err);

/*
 * A workload's ready() when every iteration executes the helper: whether
 * exec_helper_find() finds it, so that a run refused for it stores nothing.
 */
int exec_helper_ready(const struct param_value *values, struct error *err);

#endif
