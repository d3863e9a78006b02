// SPDX-License-Identifier: GPL-2.0
#include "util/swapped_ends.h"
#include "util/xalloc.h"

char *swapped_ends_said(const char *bad, const char *good, const char *which)
{
	return xasprintf("%s is better than %s, not worse: nothing to bisect as a regression "
			 "(--good and --bad may be swapped: check which %s is which)", bad, good,
			 which);
}
