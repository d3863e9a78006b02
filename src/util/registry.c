// SPDX-License-Identifier: GPL-2.0
/* Tables of named rows (registry.h). */
#include <stdio.h>
#include <string.h>

#include "util/registry.h"

static const struct registry_name *row_at(const void *table, size_t row_size, size_t i)
{
	return (const struct registry_name *)((const char *)table + i * row_size);
}

const void *registry_find(const void *table, size_t row_size, const char *name)
{
	const struct registry_name *r;

	for (size_t i = 0; (r = row_at(table, row_size, i))->name; i++)
		if (!strcmp(r->name, name))
			return r;
	return NULL;
}

char *registry_names(char *buf, size_t len, const void *table, size_t row_size,
		     const char *sep, const char *last, int helps)
{
	const struct registry_name *r;
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; (r = row_at(table, row_size, i))->name && used < len; i++) {
		const char *between = !i ? "" : row_at(table, row_size, i + 1)->name ? sep : last;
		const char *help = helps ? r->help : NULL;

		if (helps && !i)
			used += (size_t)snprintf(buf + used, len - used, "%s (default%s%s)", r->name,
						 help ? ", " : "", help ? help : "");
		else
			used += (size_t)snprintf(buf + used, len - used, "%s%s%s%s%s", between,
						 r->name, help ? " (" : "", help ? help : "",
						 help ? ")" : "");
	}
	return buf;
}
