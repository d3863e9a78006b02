/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STORE_POSTGRES_PROFILE_H
#define SCHEDPERF_STORE_POSTGRES_PROFILE_H

/* CPU profiles on PostgreSQL (postgres_profile.c). */

#include "store/postgres_stmt.h"

/* backend.h's profile_insert. */
int pg_profile_insert(struct store *st, int64_t bench_id, const struct result_profile *profile,
		      struct error *err);
/* batch_load's part: add the profiles of @batch's benchmarks, whose ids are @bench_ids. */
int pg_profiles_load(struct pg_store *ps, struct result_batch *batch, const int64_t *bench_ids,
		     struct error *err);

#endif
