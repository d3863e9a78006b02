/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STORE_POSTGRES_OPEN_H
#define SCHEDPERF_STORE_POSTGRES_OPEN_H

/*
 * Opening and closing a PostgreSQL store (postgres_open.c). The caller,
 * store.c, sets the handle's backend: this file never names the
 * operations table.
 */

#include "store/backend.h"

int pg_open(const char *location, enum store_access access, struct store **out,
	    struct error *err);
void pg_close(struct store *st);
int pg_inspect(const char *location, struct store **out, int *version, struct error *err);

#endif
