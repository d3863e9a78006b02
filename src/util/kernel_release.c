// SPDX-License-Identifier: GPL-2.0
/* The one check of a kernel release (kernel_release.h). */
#include <string.h>

#include "util/kernel_release.h"
#include "util/utf8.h"

const char *kernel_release_problem(const char *release)
{
	if (!utf8_valid(release))
		return "is not valid UTF-8";
	if (!*release || strlen(release) > KERNEL_RELEASE_MAX)
		return "must have 1 to 255 bytes, a character beyond ASCII taking 2 to 4 in UTF-8";
	if (!utf8_plain(release))
		return "contains control characters, or marks such as U+202E that reorder a line";
	/* a kernel's modules are in /lib/modules/RELEASE: one directory's name */
	if (strchr(release, '/'))
		return "contains '/', which no kernel's release (the name of its directory in "
		       "/lib/modules) can";
	return NULL;
}
