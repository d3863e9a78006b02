// SPDX-License-Identifier: GPL-2.0
/*
 * The iteration loop: a batch is opened, each benchmark of the plan is
 * registered with its metrics, and each iteration runs in its own child
 * and is committed the moment it ends. Nothing is measured here while a
 * workload runs: the child times itself, rusage comes from wait4().
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "monitor/environment.h"
#include "monitor/rusage.h"
#include "runner/iteration.h"
#include "runner/limits.h"
#include "runner/runner.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

struct progress {
	bool enabled;
	double start;
	size_t done, total;
};

static void progress_show(struct progress *p, const struct plan *plan, size_t item,
			  int iteration, int nr_iterations)
{
	char params[256];
	double elapsed, remaining;

	if (!p->enabled)
		return;
	elapsed = time_now() - p->start;
	remaining = p->done ? elapsed / (double)p->done * (double)(p->total - p->done) : 0;
	plan_item_describe(&plan->items[item], params, sizeof(params));
	fprintf(stderr, "\r\033[K[%zu/%zu] %s %.60s  iteration %d/%d  %.0fs elapsed, ~%.0fs left",
		item + 1, plan->nr_items, plan->items[item].workload->name, params,
		iteration, nr_iterations, elapsed, remaining);
}

static void progress_end(struct progress *p)
{
	if (p->enabled)
		fputs("\r\033[K", stderr);
}

/* The metric definitions one benchmark stores: the workload's, then rusage's. */
static void describe_benchmark(const struct plan_item *item, struct result_benchmark *bench)
{
	const struct workload *w = item->workload;

	memset(bench, 0, sizeof(*bench));
	bench->workload = (char *)w->name;
	bench->params = item->params_json;
	bench->nr_metrics = w->nr_metrics + NR_RUSAGE_METRICS;
	bench->metrics = xcalloc(bench->nr_metrics, sizeof(*bench->metrics));
	for (size_t i = 0; i < bench->nr_metrics; i++) {
		const struct metric_spec *spec = i < w->nr_metrics ? &w->metrics[i] :
						 &rusage_metrics[i - w->nr_metrics];

		bench->metrics[i].name = (char *)spec->name;
		bench->metrics[i].unit = (char *)spec->unit;
		bench->metrics[i].better = spec->better;
		bench->metrics[i].source = i < w->nr_metrics ? "workload" : "rusage";
	}
}

static int run_benchmark(struct store *st, const struct plan *plan, size_t index,
			 const struct runner_options *opt, struct progress *progress,
			 struct runner_result *result, struct error *err)
{
	const struct plan_item *item = &plan->items[index];
	const struct workload *w = item->workload;
	size_t nr_values = w->nr_metrics + NR_RUSAGE_METRICS;
	struct result_benchmark bench;
	struct iteration_outcome outcome;
	int64_t bench_id, *metric_ids = xcalloc(nr_values, sizeof(int64_t));
	double *values = xcalloc(nr_values, sizeof(double));
	int total = opt->warmup + opt->iterations, rc = -1;

	describe_benchmark(item, &bench);
	if (store_benchmark_add(st, result->batch_id, &bench, &bench_id, metric_ids, err))
		goto out;

	outcome.metrics = values;
	for (int seq = 0; seq < total; seq++) {
		bool warmup = seq < opt->warmup;

		progress_show(progress, plan, index, seq + 1, total);
		if (iteration_run(w, item->values, &outcome, err))
			goto out;
		memcpy(values + w->nr_metrics, outcome.rusage, sizeof(outcome.rusage));
		if (outcome.failed && !opt->quiet) {
			progress_end(progress);
			fprintf(stderr, "schedperf: warning: %s iteration %d failed: %s\n",
				w->name, seq + 1, outcome.failure);
		}
		if (store_iteration_add(st, bench_id, seq, warmup,
					outcome.failed ? outcome.failure : NULL, metric_ids,
					values, outcome.failed ? 0 : nr_values, err))
			goto out;
		progress->done++;
		result->iterations_done++;
		result->iterations_failed += outcome.failed;
	}
	rc = 0;
out:
	free(bench.metrics);
	free(metric_ids);
	free(values);
	return rc;
}

static void max_needs(const struct plan *plan, struct workload_needs *needs)
{
	needs->fds = needs->tasks = 0;
	for (size_t i = 0; i < plan->nr_items; i++) {
		if (plan->items[i].needs.fds > needs->fds)
			needs->fds = plan->items[i].needs.fds;
		if (plan->items[i].needs.tasks > needs->tasks)
			needs->tasks = plan->items[i].needs.tasks;
	}
}

int runner_execute(struct store *st, const struct plan *plan,
		   const struct runner_options *opt, struct runner_result *result,
		   struct error *err)
{
	struct result_set set = { NULL, 0 };
	struct result_batch *batch;
	struct workload_needs needs;
	struct progress progress = { 0 };
	struct error finish_err;
	char started[64];
	int rc = 0;

	memset(result, 0, sizeof(*result));
	max_needs(plan, &needs);
	if (limits_ensure(plan->nr_items ? plan->items[0].workload->name : "run", &needs, err))
		return -1;

	batch = result_set_add_batch(&set);
	time_iso8601(started, sizeof(started));
	batch->name = xstrdup(opt->name);
	batch->started = xstrdup(started);
	environment_collect(batch);
	if (store_batch_begin(st, batch, opt->replace, err)) {
		result_set_release(&set);
		return -1;
	}
	result->batch_id = batch->id;
	result_set_release(&set);

	iteration_install_signal_handlers();
	progress.enabled = !opt->quiet && isatty(STDERR_FILENO);
	progress.start = time_now();
	progress.total = plan->nr_items * (size_t)(opt->warmup + opt->iterations);
	for (size_t i = 0; i < plan->nr_items && !rc; i++)
		rc = run_benchmark(st, plan, i, opt, &progress, result, err);
	progress_end(&progress);

	result->signal = iteration_interrupted();
	result->complete = !rc;
	/* Keep the first error: it is the one that explains the stop. */
	if (store_batch_finish(st, result->batch_id, result->complete, &finish_err) && !rc) {
		*err = finish_err;
		rc = -1;
	}
	return rc;
}
