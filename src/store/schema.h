/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STORE_SCHEMA_H
#define SCHEDPERF_STORE_SCHEMA_H

/* The store's schema in each dialect, and its history (schema.c). */

#include "store/driver.h"

/*
 * Bring the schema of an open store to STORE_SCHEMA_VERSION: create it in
 * an empty database, or run the migrations it lacks, in one transaction
 * (a store_upgrade_fn). A database that is not a schedperf store, or a
 * store of a newer schema, is refused before anything is written.
 */
int store_schema_upgrade(struct store *st, struct error *err);

#endif
