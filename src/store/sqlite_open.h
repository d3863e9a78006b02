/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STORE_SQLITE_OPEN_H
#define SCHEDPERF_STORE_SQLITE_OPEN_H

/*
 * Opening and closing an SQLite store (sqlite_open.c). The caller, store.c,
 * sets the handle's backend: this file never names the operations table.
 */

#include "store/backend.h"

int sqlite_open(const char *location, enum store_access access, struct store **out,
		struct error *err);
void sqlite_close(struct store *st);
int sqlite_inspect(const char *location, struct store **out, int *version, struct error *err);

#endif
