/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STORE_POSTGRES_LIB_H
#define SCHEDPERF_STORE_POSTGRES_LIB_H

#include "util/error.h"

/*
 * libpq, loaded on first use (lib.c): 0, or -1 with @err
 * (EXIT_ENV) naming @location when it cannot be loaded.
 */
int pg_library_load(const char *location, struct error *err);
/* Unmap libpq in a child that will never use a store again. */
void pg_library_forget(void);

#endif
