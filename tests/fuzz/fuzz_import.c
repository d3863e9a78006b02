// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: schedperf-results/1 import. Arbitrary bytes go through
 * the same validation as `schedperf import`; whatever is accepted is also
 * written back out, since export must cope with anything import lets in.
 */
#include <stdint.h>
#include <stdio.h>

#include "store/interchange.h"
#include "store/results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct result_set set = { NULL, 0 };
	struct error err = { 0 };

	if (interchange_read_buffer("fuzz.json", (const char *)data, size, &set, &err) == 0) {
		FILE *out = fopen("/dev/null", "w");

		if (out) {
			interchange_write(out, &set, &err);
			fclose(out);
		}
	}
	result_set_release(&set);
	return 0;
}
