// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>

#include "util/numfmt.h"

void format_shortest(char *buf, size_t len, double v)
{
	for (int digits = 1; digits < 17; digits++) {
		snprintf(buf, len, "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			return;
	}
	snprintf(buf, len, "%.17g", v);
}
