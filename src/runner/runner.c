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

#include "monitor/environment.h"
#include "monitor/interference.h"
#include "monitor/monitor.h"
#include "monitor/rusage.h"
#include "runner/cpulist.h"
#include "runner/iteration.h"
#include "runner/knob_journal.h"
#include "runner/limits.h"
#include "runner/metric_names.h"
#include "runner/lock_wait.h"
#include "runner/runner.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

struct progress {
	const struct runner_events *events;
	double start;
	size_t done, total;
};

static void progress_report(struct progress *p, const struct plan *plan, size_t item,
			    int iteration, int nr_iterations)
{
	struct runner_progress now = {
		plan, item, iteration, nr_iterations, p->done, p->total, 0,
	};

	if (!p->events || !p->events->progress)
		return;
	now.elapsed = time_now() - p->start;
	p->events->progress(p->events->ctx, &now);
}

/*
 * The metrics one benchmark stores: the workload's (each measured once per
 * repetition), then rusage's, then the monitors' (once per iteration).
 */
static void describe_benchmark(const struct plan_item *item, struct monitor_set *ms,
			       struct result_benchmark *bench, struct metric_spec *own)
{
	int reps = workload_repetitions(item->workload, item->values);
	const struct workload *w = item->workload;
	size_t nr_workload = workload_metrics(w, item->values, own);
	size_t nr_own = nr_workload + NR_RUSAGE_METRICS;

	memset(bench, 0, sizeof(*bench));
	bench->workload = (char *)w->name;
	bench->params = item->params_json;
	bench->nr_metrics = nr_own + (ms ? monitors_nr_metrics(ms) : 0);
	bench->metrics = xcalloc(bench->nr_metrics, sizeof(*bench->metrics));
	for (size_t i = 0; i < bench->nr_metrics; i++) {
		const struct metric_spec *spec;
		const char *source;

		if (i < nr_workload) {
			spec = &own[i];
			source = "workload";
		} else if (i < nr_own) {
			spec = &rusage_metrics[i - nr_workload];
			source = "rusage";
		} else {
			spec = monitors_metric(ms, i - nr_own);
			source = monitors_metric_source(ms, i - nr_own);
		}
		bench->metrics[i].name = (char *)spec->name;
		bench->metrics[i].unit = (char *)spec->unit;
		bench->metrics[i].better = spec->better;
		bench->metrics[i].source = (char *)source;
		bench->metrics[i].repetitions = i < nr_workload ? (size_t)reps : 1;
	}
}

/*
 * An iteration's values, laid out as iteration_run() fills them (the
 * workload's per repetition, then rusage, then the monitors), as the
 * store's samples: which metric and repetition each one is.
 */
struct iteration_values {
	size_t nr_workload;		/* workload metrics x repetitions */
	size_t nr;			/* every value */
	double *values;
	struct store_sample *samples;
};

static void iteration_values_init(struct iteration_values *iv, size_t nr_metrics,
				  int reps, size_t nr_others, const int64_t *metric_ids)
{
	iv->nr_workload = nr_metrics * (size_t)reps;
	iv->nr = iv->nr_workload + nr_others;
	iv->values = xcalloc(iv->nr, sizeof(double));
	iv->samples = xcalloc(iv->nr, sizeof(*iv->samples));
	for (size_t v = 0; v < iv->nr; v++) {
		bool own = v < iv->nr_workload;
		size_t metric = own ? v % nr_metrics : nr_metrics + v - iv->nr_workload;

		iv->samples[v].metric_id = metric_ids[metric];
		iv->samples[v].rep = own ? (int)(v / nr_metrics) : 0;
	}
}

static void iteration_values_release(struct iteration_values *iv)
{
	free(iv->values);
	free(iv->samples);
}

bool runner_measured_nothing(const struct runner_result *res)
{
	return res->iterations_done && !res->iterations_measured && !res->signal;
}

int runner_item_iterations(const struct plan_item *item, const struct runner_options *opt)
{
	return item->iterations >= 0 ? item->iterations : opt->iterations;
}

int runner_item_warmup(const struct plan_item *item, const struct runner_options *opt)
{
	return item->warmup >= 0 ? item->warmup : opt->warmup;
}

/* Where a benchmark starts: from scratch, or where a resumed batch left it. */
static int benchmark_start(struct store *st, const struct runner_options *opt,
			   int64_t batch_id, size_t index, const struct result_benchmark *bench,
			   int64_t *bench_id, int64_t *metric_ids,
			   struct benchmark_progress *progress, struct error *err)
{
	struct lock_wait w = LOCK_WAIT(st, opt->events, "the benchmark it starts");
	int found = 1;	/* 1: not in the store (yet) */

	while (opt->resume_batch &&
	       (found = store_benchmark_progress(st, batch_id, index, bench, bench_id,
						 metric_ids, progress, err)) < 0)
		if (!lock_wait_again(&w))
			return -1;
	if (!found)
		return 0;
	memset(progress, 0, sizeof(*progress));
	while (store_benchmark_add(st, batch_id, bench, bench_id, metric_ids, err))
		if (!lock_wait_again(&w))
			return -1;
	return 0;
}

/* A benchmark of a batch, ready to run iterations one at a time. */
struct runner_bench {
	struct store *st;
	int64_t batch_id;
	const struct plan_item *item;
	const struct runner_options *opt;
	struct iteration_config cfg;	/* cfg.interference: this benchmark's own */
	struct iteration_values iv;
	struct metric_spec *own;	/* the workload's metrics of this benchmark */
	struct result_benchmark bench;
	int64_t bench_id, *metric_ids;
	struct benchmark_progress done;	/* what a resumed batch had already */
	int seq;
	bool last_disturbed;		/* the iteration seq - 1 was, and succeeded */
	int slot, nr_slots;		/* the planned iteration run_slot() runs, of them */
};

/* iteration_config.started: the store learns the group before the workload runs. */
static int record_tasks(void *ctx, pid_t group, struct error *err)
{
	const struct runner_bench *rb = ctx;
	struct lock_wait w = LOCK_WAIT(rb->st, rb->opt->events,
				       "the process group of the iteration it starts");

	while (store_batch_tasks(rb->st, rb->batch_id, group, err))
		if (!lock_wait_again(&w))
			return -1;
	return 0;
}

int runner_bench_open(struct store *st, int64_t batch_id, size_t index,
		      const struct plan_item *item, const struct runner_options *opt,
		      struct monitor_set *ms, struct runner_bench **out, struct error *err)
{
	const struct workload *w = item->workload;
	size_t nr_others = NR_RUSAGE_METRICS + (ms ? monitors_nr_metrics(ms) : 0);
	struct runner_bench *rb = xcalloc(1, sizeof(*rb));

	rb->st = st;
	rb->batch_id = batch_id;
	rb->item = item;
	rb->opt = opt;
	rb->cfg.timeout = item->timeout >= 0 ? item->timeout : opt->timeout;
	rb->cfg.cpus = opt->cpus;
	rb->cfg.workdir = opt->workdir;
	rb->cfg.task = opt->task;
	rb->cfg.monitors = ms;
	rb->cfg.started = record_tasks;
	rb->cfg.ctx = rb;
	/* Unreadable /proc/stat: interference is not measured, the run goes on. */
	rb->cfg.interference = interference_open(opt->cpus, opt->max_interference);
	rb->own = xcalloc(w->nr_metrics, sizeof(*rb->own));
	rb->metric_ids = xcalloc(w->nr_metrics + nr_others, sizeof(int64_t));
	describe_benchmark(item, ms, &rb->bench, rb->own);
	*out = rb;
	if (benchmark_start(st, opt, batch_id, index, &rb->bench, &rb->bench_id,
			    rb->metric_ids, &rb->done, err))
		return -1;
	iteration_values_init(&rb->iv, rb->bench.nr_metrics - nr_others,
			      workload_repetitions(w, item->values), nr_others, rb->metric_ids);
	rb->seq = rb->done.next_seq;
	return 0;
}

void runner_bench_close(struct runner_bench *rb)
{
	if (!rb)
		return;
	free(rb->bench.metrics);
	free(rb->metric_ids);
	free(rb->own);
	iteration_values_release(&rb->iv);
	interference_close(rb->cfg.interference);
	free(rb);
}

const double *runner_bench_values(const struct runner_bench *rb)
{
	return rb->iv.values;
}

/* What the store keeps of an iteration's times and interference; @culprits backs info->culprits. */
static void iteration_info(const struct iteration_outcome *outcome,
			   struct result_culprit *culprits, struct result_iteration *info)
{
	const struct interference *in = &outcome->interference;

	memset(info, 0, sizeof(*info));
	info->started = outcome->started;
	info->ended = outcome->ended;
	info->cpu_taken = in->taken;
	info->cpu_steal = in->steal;
	info->cpu_available = in->available;
	info->disturbed = in->disturbed;
	info->culprits = culprits;
	info->nr_culprits = in->nr_culprits;
	for (size_t i = 0; i < in->nr_culprits; i++) {
		culprits[i].name = (char *)in->culprits[i].name;
		culprits[i].pid = in->culprits[i].pid;
		culprits[i].cpu = in->culprits[i].cpu;
	}
}

/*
 * The profile of the iteration that just ended, stored with the benchmark
 * when @keep (a measured iteration that succeeded), else thrown away.
 */
static int profile_store(struct runner_bench *rb, struct monitor_set *ms, int seq, bool extra,
			 bool keep, struct error *err)
{
	struct result_profile *p = monitors_take_profile(ms);
	struct lock_wait w = LOCK_WAIT(rb->st, rb->opt->events,
				       "the profile of the iteration just measured");
	int rc = 0;

	if (!p)
		return 0;
	p->seq = seq;
	p->extra = extra;
	while (keep && (rc = store_profile_add(rb->st, rb->bench_id, p, err)) &&
	       lock_wait_again(&w))
		;
	result_profile_release(p);
	free(p);
	return rc;
}

/*
 * Commit a measured iteration, waiting for a write lock held past the busy
 * timeout (runner/lock_wait.h): only a signal loses it.
 */
static int commit_iteration(struct runner_bench *rb, bool warmup,
			    const struct iteration_outcome *outcome,
			    const struct result_iteration *info, struct error *err)
{
	struct lock_wait w = LOCK_WAIT(rb->st, rb->opt->events, "the iteration just measured");

	while (store_iteration_add(rb->st, rb->bench_id, rb->seq, warmup,
				   outcome->failed ? outcome->failure : NULL, info,
				   rb->iv.samples, outcome->failed ? 0 : rb->iv.nr, err))
		if (!lock_wait_again(&w))
			return -1;
	rb->seq++;
	return 0;
}

/*
 * One planned iteration: up to 1 + retries attempts, each stored (a failed
 * attempt with its reason). Returns 1 when it succeeded, 0 when every
 * attempt failed, -1 on an error that stops the run. A disturbed attempt is
 * stored, marked, and run again up to rerun_disturbed times. @had: the
 * attempts of this slot a resumed batch has already (NULL: none), which
 * count against both budgets.
 */
static int run_slot(struct runner_bench *rb, bool warmup, const struct open_slot *had,
		    struct runner_result *result, struct error *err)
{
	const struct workload *w = rb->item->workload;
	const struct runner_options *opt = rb->opt;
	struct iteration_values *iv = &rb->iv;
	double *values = iv->values;
	struct iteration_outcome outcome;
	int reruns = had ? had->reruns : 0;

	outcome.metrics = values;
	outcome.monitor_values = values + iv->nr_workload + NR_RUSAGE_METRICS;
	for (int attempt = had ? had->failed : 0; attempt <= opt->retries;) {
		struct result_iteration info;
		struct result_culprit culprits[INTERFERENCE_MAX_CULPRITS];

		if (opt->quiet_wait > 0)
			interference_wait_quiet(rb->cfg.interference, opt->quiet_wait);
		if (iteration_run(w, rb->item->values, &rb->cfg, &outcome, err))
			return -1;
		iteration_info(&outcome, culprits, &info);
		info.rerun = !outcome.failed && info.disturbed && reruns < opt->rerun_disturbed;
		memcpy(values + iv->nr_workload, outcome.rusage, sizeof(outcome.rusage));
		/* A workload that divided by zero measured nothing: absent, not infinite. */
		for (size_t i = 0; i < iv->nr_workload; i++)
			if (!isfinite(values[i]))
				values[i] = NAN;
		for (size_t i = 0; i < iv->nr; i++)
			iv->samples[i].value = values[i];
		if (outcome.failed && opt->events && opt->events->iteration_failed) {
			struct runner_attempt at = { rb->slot, rb->nr_slots, attempt + 1,
						     opt->retries + 1 };

			opt->events->iteration_failed(opt->events->ctx, rb->item, &at,
						      outcome.failure);
		}
		if (commit_iteration(rb, warmup, &outcome, &info, err))
			return -1;
		/*
		 * Counted as soon as it is stored, before its profile: a profile
		 * that cannot be stored stops the run with the iteration in the
		 * store, and a caller taking it back (runner_bench_drop_last())
		 * goes by these counts.
		 */
		result->iterations_done++;
		result->iterations_failed += outcome.failed;
		result->iterations_measured += !warmup && !outcome.failed;
		result->iterations_disturbed += !outcome.failed && info.disturbed;
		rb->last_disturbed = !outcome.failed && info.disturbed;
		if (profile_store(rb, rb->cfg.monitors, rb->seq - 1, false,
				  !warmup && !outcome.failed, err))
			return -1;
		if (info.rerun) {
			reruns++;
			continue;
		}
		if (!outcome.failed) {
			result->planned_done++;
			return 1;
		}
		snprintf(result->last_failure, sizeof(result->last_failure), "%s",
			 outcome.failure);
		attempt++;
	}
	result->planned_done++;
	result->planned_failed++;
	return 0;
}

int runner_bench_iteration(struct runner_bench *rb, bool warmup, struct runner_result *result,
			   struct error *err)
{
	rb->slot = rb->seq + 1;
	rb->nr_slots = 0;	/* the caller decides how many: none planned */
	return run_slot(rb, warmup, NULL, result, err);
}

int runner_bench_drop_last(struct runner_bench *rb, struct runner_result *result,
			   struct error *err)
{
	struct lock_wait w = LOCK_WAIT(rb->st, rb->opt->events, "a lone sample's deletion");

	if (!rb->seq)
		return 0;
	/* as the iteration's commit, past the busy timeout: only a signal ends the wait */
	while (store_iteration_drop(rb->st, rb->bench_id, rb->seq - 1, err))
		if (!lock_wait_again(&w))
			return -1;
	rb->seq--;
	result->iterations_done--;
	result->iterations_measured--;
	result->iterations_disturbed -= rb->last_disturbed;
	return 0;
}

/*
 * The extra iterations of --profile-iterations, after the measured ones:
 * only the profiling monitors watch them, and only their profiles are
 * stored (a failed one leaves none).
 */
static int run_profile_iterations(struct runner_bench *rb, struct monitor_set *profiling,
				  int count, struct error *err)
{
	struct iteration_config profiled = rb->cfg;
	struct iteration_outcome outcome;

	profiled.monitors = profiling;
	outcome.metrics = rb->iv.values;
	outcome.monitor_values = rb->iv.values + rb->iv.nr_workload + NR_RUSAGE_METRICS;
	for (int k = 0; k < count; k++) {
		if (iteration_run(rb->item->workload, rb->item->values, &profiled, &outcome, err) ||
		    profile_store(rb, profiling, k, true, !outcome.failed, err))
			return -1;
	}
	return 0;
}

static int run_benchmark(struct store *st, const struct plan *plan, size_t index,
			 const struct runner_options *opt, struct monitor_set *ms,
			 struct monitor_set *profiling, struct progress *progress,
			 struct runner_result *result, struct error *err)
{
	const struct plan_item *item = &plan->items[index];
	struct runner_bench *rb = NULL;
	int warmup = runner_item_warmup(item, opt);
	int total = warmup + runner_item_iterations(item, opt), rc = -1;
	struct open_slot had = { 0 };
	bool ran = false, resumed;

	if (runner_bench_open(st, result->batch_id, index, item, opt, ms, &rb, err))
		goto out;
	progress->done += (size_t)(rb->done.warmup_done + rb->done.measured_done);
	/* The slot a resumed batch was cut short in goes on with what it had used. */
	resumed = opt->resume_batch && rb->done.next_seq > 0;
	if (resumed && store_benchmark_open_slot(st, rb->bench_id, opt->retries, &had, err))
		goto out;

	for (int slot = 0; slot < total; slot++) {
		bool is_warmup = slot < warmup;

		/* Resuming: the slots already filled are skipped, the rest run. */
		if (is_warmup ? slot < rb->done.warmup_done : slot - warmup < rb->done.measured_done)
			continue;
		progress_report(progress, plan, index, slot + 1, total);
		rb->slot = slot + 1;
		rb->nr_slots = total;
		if (run_slot(rb, is_warmup, had.warmup == is_warmup ? &had : NULL, result,
			     err) < 0)
			goto out;
		if (had.warmup == is_warmup)
			memset(&had, 0, sizeof(had));
		progress->done++;
		ran = true;
	}
	/* A resumed benchmark whose iterations had all run has had its extra ones too. */
	if (profiling && ran && run_profile_iterations(rb, profiling, plan->profile_iterations, err))
		goto out;
	rc = 0;
out:
	runner_bench_close(rb);
	return rc;
}

static void max_needs(const struct plan *plan, struct workload_needs *needs,
		      long *memory_kb)
{
	needs->fds = needs->tasks = 0;
	*memory_kb = 0;
	for (size_t i = 0; i < plan->nr_items; i++) {
		const struct plan_item *item = &plan->items[i];
		long kb = item->workload->memory_kb ? item->workload->memory_kb(item->values) : 0;

		if (item->needs.fds > needs->fds)
			needs->fds = item->needs.fds;
		if (item->needs.tasks > needs->tasks)
			needs->tasks = item->needs.tasks;
		if (kb > *memory_kb)
			*memory_kb = kb;
	}
}

/* Start the batch, or take over the one being resumed. */
/* The knobs of the tasks and their cgroups (lines "KIND=VALUE") as knob.KIND. */
static void mark_task_knobs(struct result_batch *batch, const char *lines)
{
	while (lines && *lines) {
		size_t len = strcspn(lines, "\n"), eq = strcspn(lines, "=");
		char key[128];

		if (eq < len) {
			char *value = xstrndup(lines + eq + 1, len - eq - 1);

			snprintf(key, sizeof(key), "knob.%.*s", (int)eq, lines);
			result_batch_add_env(batch, key, value);
			free(value);
		}
		lines += len + (lines[len] == '\n');
	}
}

/*
 * The CPUs its tasks are pinned to as knob.cpus, whichever command pinned
 * them (run's --cpus, an ab side's cpus:), in one spelling: the iteration
 * fails rather than run elsewhere (iteration.c).
 */
static void mark_cpus(struct result_batch *batch, const cpu_set_t *cpus)
{
	char *list;

	if (!cpus)
		return;
	list = cpulist_format(cpus);
	result_batch_add_env(batch, "knob.cpus", list);
	free(list);
}

/* The batch of run opt->name for @plan, appended to @set: its environment as it is now. */
static void make_batch(const struct runner_options *opt, struct result_set *set)
{
	struct result_batch *batch = result_set_add_batch(set);
	char started[64];

	time_iso8601(started, sizeof(started));
	batch->name = xstrdup(opt->name);
	batch->started = xstrdup(started);
	environment_collect(batch);
	knob_journal_mark(batch);
	mark_task_knobs(batch, opt->knob_env);
	mark_cpus(batch, opt->cpus);
	/* the store keeps other batches out of an experiment's runs (store/runs.c) */
	if (opt->experiment)
		result_batch_add_env(batch, "experiment", opt->experiment);
}

static int open_batch(struct store *st, const struct plan *plan,
		      const struct runner_options *opt, struct runner_result *result,
		      struct error *err)
{
	struct lock_wait w = LOCK_WAIT(st, opt->events, opt->resume_batch ?
				       "that it resumes its batch" : "the batch it begins");
	struct result_set set = { NULL, 0 };
	char *plan_json;
	int rc;

	if (opt->resume_batch) {
		result->batch_id = opt->resume_batch;
		while ((rc = store_batch_claim(st, opt->resume_batch, err)) && lock_wait_again(&w))
			;
		return rc;
	}
	plan_json = plan_to_json(plan);
	make_batch(opt, &set);
	while ((rc = store_batch_begin(st, &set.batches[0], opt->replace, plan_json, err)) &&
	       lock_wait_again(&w))
		;
	result->batch_id = rc ? 0 : set.batches[0].id;
	free(plan_json);
	result_set_release(&set);
	return rc;
}

/*
 * Raise the resource limits for @plan's workloads and the monitors, then
 * ask each benchmark's workload whether this machine lets it run at all,
 * and check that the files it writes fit.
 */
static int ensure_limits(const struct plan *plan, struct error *err)
{
	struct workload_needs needs;
	long memory_kb;

	max_needs(plan, &needs, &memory_kb);
	needs.fds += MONITOR_MAX_FDS;
	if (limits_ensure(plan->nr_items ? plan->items[0].workload->name : "run", &needs,
			  memory_kb, err))
		return -1;
	for (size_t i = 0; i < plan->nr_items; i++) {
		const struct plan_item *item = &plan->items[i];

		if (item->workload->ready && item->workload->ready(item->values, err))
			return -1;
		if (item->workload->scratch_kb &&
		    limits_ensure_scratch(item->workload->name,
					  item->workload->scratch_kb(item->values), err))
			return -1;
	}
	return 0;
}

/* The monitors of @plan, opened into @ms, and the metric names they add checked. */
static int open_monitors(const struct plan *plan, struct monitor_set **ms, struct error *err)
{
	struct monitor_options monitor_options = {
		.profile_frequency = plan->profile_frequency,
	};

	if (monitors_open(plan->monitors ? plan->monitors : MONITORS_DEFAULT, &monitor_options,
			  ms, err))
		return -1;
	for (size_t i = 0; i < plan->nr_items; i++)
		if (metric_names_check(&plan->items[i], *ms, err)) {
			monitors_close(*ms);
			*ms = NULL;
			return -1;
		}
	return 0;
}

int runner_preflight(const struct plan *plan, struct error *err)
{
	struct monitor_set *ms;

	if (open_monitors(plan, &ms, err))
		return -1;
	monitors_close(ms);
	return ensure_limits(plan, err);
}

int runner_batch_open(struct store *st, const struct plan *plan,
		      const struct runner_options *opt, struct runner_result *result,
		      struct error *err)
{
	memset(result, 0, sizeof(*result));
	if (ensure_limits(plan, err))
		return -1;
	return open_batch(st, plan, opt, result, err);
}

int runner_batch_make(const struct plan *plan, const struct runner_options *opt,
		      struct result_set *set, struct error *err)
{
	if (ensure_limits(plan, err))
		return -1;
	make_batch(opt, set);
	return 0;
}

int runner_batches_begin_own(struct store *st, struct result_set *set,
			     const struct plan *const *plans, struct runner_result *const *results,
			     const struct runner_events *events, struct error *err)
{
	struct lock_wait w = LOCK_WAIT(st, events, "the batches it begins");
	char **plan_json = xcalloc(set->nr_batches, sizeof(char *));
	int rc;

	for (size_t i = 0; i < set->nr_batches; i++) {
		memset(results[i], 0, sizeof(*results[i]));
		plan_json[i] = plan_to_json(plans[i]);
	}
	while ((rc = store_batches_begin_own(st, set->batches, (const char *const *)plan_json,
					     set->nr_batches, err)) && lock_wait_again(&w))
		;
	for (size_t i = 0; i < set->nr_batches; i++) {
		if (!rc)
			results[i]->batch_id = set->batches[i].id;
		free(plan_json[i]);
	}
	free(plan_json);
	return rc;
}

/*
 * Tell the user what the monitors said when they opened, and where the
 * profile is taken: in the measured iterations (its cost falls inside
 * them) or in extra ones.
 */
static void monitor_notes(const struct runner_options *opt, const struct plan *plan,
			  struct monitor_set *ms, struct monitor_set *profiling)
{
	char text[256];

	if (!opt->events || !opt->events->note)
		return;
	for (size_t i = 0; i < monitors_nr_notes(ms); i++)
		opt->events->note(opt->events->ctx, monitors_note(ms, i));
	if (profiling)
		snprintf(text, sizeof(text), "profile: taken in %d extra iteration%s per benchmark, "
			 "after its measured ones, which run unprofiled", plan->profile_iterations,
			 plan->profile_iterations == 1 ? "" : "s");
	else if (monitors_profiling(ms))
		snprintf(text, sizeof(text), "profile: taken in the measured iterations, whose "
			 "times include its cost (--profile-iterations N profiles extra ones "
			 "instead)");
	else
		return;
	opt->events->note(opt->events->ctx, text);
}

/* Mark the batch of @result finished, complete or not, or failed when it measured nothing. */
static int batch_finish(struct store *st, const struct runner_result *result,
			const struct runner_events *events, struct error *err)
{
	struct lock_wait w = LOCK_WAIT(st, events, "the end of its batch");
	int rc;

	while ((rc = result->complete && runner_measured_nothing(result) ?
		     store_batches_finish(st, &result->batch_id, 1, true, false, NULL, err) :
		     store_batch_finish(st, result->batch_id, result->complete, err)) &&
	       lock_wait_again(&w))
		;
	return rc;
}

int runner_execute(struct store *st, const struct plan *plan,
		   const struct runner_options *opt, struct runner_result *result,
		   struct error *err)
{
	struct progress progress = { 0 };
	struct monitor_set *ms = NULL, *profiling = NULL;
	struct runner_options planned = *opt;
	struct error finish_err;
	cpu_set_t cpus;
	int rc = 0;

	memset(result, 0, sizeof(*result));
	/* The plan's own: a resumed batch's missing iterations run as the others did. */
	planned.retries = plan->retries;
	planned.rerun_disturbed = plan->rerun_disturbed;
	if (plan_option_given(plan, plan_option_find("max_interference")))
		planned.max_interference = plan->max_interference / 100;
	planned.quiet_wait = plan->quiet_wait;
	if (plan->cpus) {
		if (cpulist_parse(plan->cpus, "--cpus", &cpus, err))
			return -1;
		planned.cpus = &cpus;
	}
	opt = &planned;
	/* Decided before the batch exists, so a bad --monitors stores nothing. */
	if (open_monitors(plan, &ms, err))
		return -1;
	if (plan->profile_iterations > 0)
		profiling = monitors_split_profiling(ms);
	/* before the batch: a signal ends its begin's wait for the lock too */
	iteration_install_signal_handlers();
	if (runner_batch_open(st, plan, opt, result, err)) {
		monitors_close(profiling);
		monitors_close(ms);
		result->signal = iteration_interrupted();
		return -1;
	}
	monitor_notes(opt, plan, ms, profiling);

	progress.events = opt->events;
	progress.start = time_now();
	for (size_t i = 0; i < plan->nr_items; i++)
		progress.total += (size_t)(runner_item_warmup(&plan->items[i], opt) +
					   runner_item_iterations(&plan->items[i], opt));
	for (size_t i = 0; i < plan->nr_items && !rc; i++)
		rc = run_benchmark(st, plan, i, opt, ms, profiling, &progress, result, err);
	monitors_close(profiling);
	monitors_close(ms);

	result->signal = iteration_interrupted();
	result->complete = !rc;
	if (batch_finish(st, result, opt->events, &finish_err) && !rc) {
		/* Keep the first error: it is the one that explains the stop. */
		*err = finish_err;
		rc = -1;
		/* a signal that ended the finish's wait leaves the batch incomplete */
		result->signal = iteration_interrupted();
	}
	return rc;
}
