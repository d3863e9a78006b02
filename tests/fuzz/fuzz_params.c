// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the command line's parameter and sweep parsing. The
 * input is split at newlines: the first line picks the workload (by index
 * into the registry, so every schema is reached) and the CPU count; each
 * further line is a "-p KEY=V,..." assignment, or with a leading '~' a
 * "--sweep KEY=GEN[:MIN..MAX]". Whatever the input, parsing must either
 * succeed or fill the error; never crash, leak or read out of bounds.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runner/plan.h"
#include "runner/sweep.h"
#include "monitor/topology.h"
#include "workload/workload.h"

#define MAX_LINES 8

static size_t nr_workloads(void)
{
	size_t n = 0;

	while (workloads[n])
		n++;
	return n;
}

/* libFuzzer calls it; declared for -Wmissing-prototypes of make tests */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text, *line, *save = NULL;
	char *assignments[MAX_LINES];
	size_t nr = 0, nr_w = nr_workloads();
	const struct workload *w;
	struct plan plan = { 0 };
	struct topology topo;
	struct error err = { 0 };
	unsigned int pick, cpus;

	if (size < 2 || size > 4096)
		return 0;
	pick = data[0];
	cpus = 1 + data[1] % 64;
	topology_assume(&topo, (int)cpus);
	topo.smt = 1 + data[1] % 2;
	w = workloads[pick % nr_w];

	text = malloc(size - 1);
	memcpy(text, data + 2, size - 2);
	text[size - 2] = '\0';

	for (line = strtok_r(text, "\n", &save); line && nr < MAX_LINES;
	     line = strtok_r(NULL, "\n", &save)) {
		char *out;

		if (line[0] == '~') {
			struct sweep_points points;

			sweep_points(line + 1, &topo, &points, &err);
			out = sweep_expand(line + 1, &topo, &err);
		} else {
			long value;

			sweep_resolve_value(line, (int)cpus, "parameter 'x'", &value, &err);
			out = sweep_resolve_assignment(line, (int)cpus, &err);
		}
		if (out)
			assignments[nr++] = out;
	}

	{
		struct param_value values[WORKLOAD_MAX_PARAMS];
		struct workload_needs needs;

		if (!workload_parse_params(w, assignments, nr, values, &needs, &err))
			workload_release_params(w, values);
	}
	if (!plan_add(&plan, w, assignments, nr, &err)) {
		char *json = plan_to_json(&plan);
		struct plan again = { 0 };

		if (json && plan_from_json(json, &again, &err) == 0)
			plan_release(&again);
		free(json);
	}
	plan_release(&plan);
	for (size_t i = 0; i < nr; i++)
		free(assignments[i]);
	free(text);
	return 0;
}
