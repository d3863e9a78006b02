/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_MONITOR_SYMBOLS_H
#define SCHEDPERF_MONITOR_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

/*
 * Addresses to function names, for the profile monitor: the kernel's from
 * /proc/kallsyms, a program's or library's from its ELF symbol tables
 * (through libelf; a stripped file's from its separate debug file under
 * /usr/lib/debug/.build-id when one is installed).
 *
 * A symbol is identified by its address in memory: the profile adds up
 * samples per struct symbol *, and every address that no symbol covers in
 * an object maps to that object's one "[unknown]" symbol.
 */

struct symbol {
	uint64_t start, end;	/* [start, end) in the object's addresses */
	const char *name;
	const char *dso;	/* "[kernel.kallsyms]", "[module]", or a file's base name */
};

struct symbol_table {
	struct symbol *symbols;	/* sorted by start, not overlapping */
	size_t nr;
	char *names;		/* every name and dso, NUL-separated */
	struct symbol unknown;	/* what an address no symbol covers maps to */
};

/*
 * Load the text symbols of /proc/kallsyms (or @path, for tests). Returns 1
 * with @table filled, 0 when the file gives no addresses (all zero: the
 * kernel hides them from this user, kernel.kptr_restrict), -1 with @err when
 * it cannot be read.
 */
int kallsyms_load(struct symbol_table *table, const char *path, struct error *err);

/* The symbol of @table covering @addr: table->unknown when none does. */
const struct symbol *symbol_table_find(const struct symbol_table *table, uint64_t addr);
void symbol_table_release(struct symbol_table *table);

/*
 * An ELF file mapped into the profiled processes: its symbols, found by the
 * offset in the file that an address maps to (processes map a shared
 * library anywhere, so the file offset is what identifies code).
 */
struct dso;

/*
 * The objects a profile met, by path, each loaded once on first use and
 * kept for the whole run (a benchmark's iterations map the same files).
 */
struct dso_cache;

struct dso_cache *dso_cache_new(void);
void dso_cache_free(struct dso_cache *cache);
/* The object at @path (not read until dso_find_symbol() needs it). */
struct dso *dso_cache_get(struct dso_cache *cache, const char *path);
/* The symbol covering @offset in @dso's file: the dso's "[unknown]" when none does. */
const struct symbol *dso_find_symbol(struct dso *dso, uint64_t offset);

#endif
