// SPDX-License-Identifier: GPL-2.0
/* The one check of a run name's blanks (blank_name.h). */
#include <stddef.h>

#include "util/blank_name.h"
#include "util/utf8.h"

const char *blank_name_problem(const char *name, const char **fix)
{
	if (!utf8_blank_at_ends(name))
		return NULL;
	if (utf8_blank(name)) {
		*fix = "give a name with a visible character";
		return "is blank: it would show as no name at all";
	}
	*fix = "give it without the spaces";
	return "begins or ends with a space: it would look like a name without it";
}
