// SPDX-License-Identifier: GPL-2.0
/* The names of a metric's direction, as stored and as JSON carries them. */
#include <string.h>

#include "util/better.h"

const char *better_name(enum better better)
{
	return better == BETTER_HIGHER ? "higher" : "lower";
}

int better_parse(const char *s, enum better *out)
{
	if (!strcmp(s, "higher"))
		*out = BETTER_HIGHER;
	else if (!strcmp(s, "lower"))
		*out = BETTER_LOWER;
	else
		return -1;
	return 0;
}
