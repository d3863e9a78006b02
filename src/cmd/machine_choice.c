// SPDX-License-Identifier: GPL-2.0
/* Which machines' batches a comparison uses (machine_choice.h). */
#include "analysis/machines.h"
#include "cmd/cmd.h"
#include "cmd/machine_choice.h"

int choose_machines(const char *cmd, const char *name, struct result_set *set,
		    const char *pattern, bool pool)
{
	char names[256];
	size_t n;

	if (pattern && !machines_keep_matching(set, pattern))
		return die_code(EXIT_USAGE, "%s: run '%.64s' has no batch from a machine "
				"matching '%.64s' (see 'schedperf runs' for its machines)", cmd,
				name, pattern);
	n = machines_count(set, names, sizeof(names));
	if (n < 2 || pool)
		return 0;
	return die_code(EXIT_USAGE, "%s: run '%.64s' has batches from %zu machines (%s): "
			"their samples are not pooled (choose one with --machine PATTERN, or "
			"give --pool-machines)", cmd, name, n, names);
}
