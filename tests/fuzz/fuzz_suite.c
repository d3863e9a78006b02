// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: suite files (schedperf-suite(5)). Arbitrary YAML is
 * parsed on a small fixed machine, and every entry that parses is planned,
 * as `run --suite FILE --dry-run` would.
 */
#include <stdint.h>

#include "runner/plan.h"
#include "runner/suite_file.h"
#include "monitor/topology.h"

/* libFuzzer calls it; declared for -Wmissing-prototypes of make tests */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct suite suite = { 0 };
	struct topology topo;
	struct error err = { 0 };

	if (size > 16384)
		return 0;
	topology_assume(&topo, 4);
	if (suite_parse(&suite, "fuzz.yaml", (const char *)data, size, &topo, &err) == 0) {
		struct plan plan = { 0 };

		for (size_t i = 0; i < suite.nr_entries; i++)
			if (suite_entry_plan(&suite, &suite.entries[i], &plan, &err))
				break;
		plan_release(&plan);
	}
	suite_release(&suite);
	return 0;
}
