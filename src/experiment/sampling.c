// SPDX-License-Identifier: GPL-2.0
/*
 * Sampling one benchmark at a time into its own run, for ab's two sides,
 * bisect-step's build and a bisection's commits: the runner's batch and
 * benchmark handles (runner/runner.h) with the metric the sequential
 * procedure decides on.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment/sampling.h"
#include "monitor/interference.h"
#include "runner/iteration.h"
#include "runner/lock_wait.h"
#include "util/strbuf.h"
#include "util/timeutil.h"
#include "util/utf8.h"
#include "util/xalloc.h"

static int pick_metric(struct sample_side *side, const char *name, struct error *err)
{
	const struct plan_item *item = &side->plan.items[0];
	const struct workload *w = item->workload;
	struct metric_spec *specs = xcalloc(w->nr_metrics, sizeof(*specs));
	size_t n = workload_metrics(w, item->values, specs), i;
	char names[512], shown[96];
	size_t used = 0;

	for (i = 0; i < n && name && strcmp(specs[i].name, name); i++)
		;
	if (i == n) {
		names[0] = '\0';
		for (size_t j = 0; j < n && used < sizeof(names); j++)
			used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s",
						 j ? ", " : "", specs[j].name);
		free(specs);
		/* as the options' messages show a value: escaped, never raw */
		utf8_escape(shown, sizeof(shown), name ? name : "");
		return error_set(err, EXIT_USAGE, "--metric %s: the %s benchmark has no such "
				 "metric (give one of %s)", shown, w->name, names);
	}
	side->metric = i;
	side->metric_name = specs[i].name;
	side->metric_unit = specs[i].unit;
	side->better = specs[i].better;
	free(specs);
	return 0;
}

int side_prepare(struct sample_side *side, const struct workload *w, char *const *assignments,
		 size_t nr, const char *metric, struct error *err)
{
	if (plan_add(&side->plan, w, assignments, nr, err))
		return -1;
	if (side->plan.nr_items != 1)
		return error_set(err, EXIT_USAGE, "a comma list makes %zu benchmarks: give each "
				 "parameter one value (a side compares one benchmark)",
				 side->plan.nr_items);
	return pick_metric(side, metric, err);
}

/* A note of the runner, said as the command says its own, after its status line. */
static void side_note(void *ctx, const char *text)
{
	const struct sample_side *side = ctx;

	sampling_end(side->sampling);
	sampling_note(side->sampling, "schedperf: %s", text);
}

/* The runner's options of a side sampled into run @name. */
static void side_options(struct sample_side *side, const char *name,
			 const struct sequential_options *so,
			 const struct sampling_events *events)
{
	side->run_name = xstrdup(name);
	side->opt.name = side->run_name;
	side->sampling = events;
	side->events = (struct runner_events){ .note = side_note, .ctx = side };
	side->opt.events = events ? &side->events : NULL;
	side->opt.iterations = 1;
	side->opt.timeout = so->timeout;
	side->opt.max_interference = INTERFERENCE_DEFAULT_MAX_PCT / 100;
}

int side_open(struct sample_side *side, struct store *st, const char *name,
	      const struct sequential_options *so, const struct sampling_events *events,
	      struct monitor_set *ms, struct error *err)
{
	side_options(side, name, so, events);
	if (runner_batch_open(st, &side->plan, &side->opt, &side->result, err))
		return -1;
	return runner_bench_open(st, side->result.batch_id, 0, &side->plan.items[0],
				 &side->opt, ms, &side->bench, err);
}

int side_batch(struct sample_side *side, const char *name, const struct sequential_options *so,
	       const struct sampling_events *events, struct result_set *set, struct error *err)
{
	side_options(side, name, so, events);
	/* the runs are the experiment's own: the store keeps other batches out */
	side->opt.experiment = "ab";
	return runner_batch_make(&side->plan, &side->opt, set, err);
}

int sides_open(struct sample_side *const *sides, struct store *st, struct result_set *set,
	       struct monitor_set *ms, struct error *err)
{
	const struct plan *plans[BLOCK_MAX_SIDES] = { NULL };
	struct runner_result *results[BLOCK_MAX_SIDES] = { NULL };
	size_t n = set->nr_batches;

	if (n > BLOCK_MAX_SIDES)
		return error_set(err, EXIT_INTERNAL, "%zu sides: at most %d", n, BLOCK_MAX_SIDES);
	for (size_t i = 0; i < n; i++) {
		plans[i] = &sides[i]->plan;
		results[i] = &sides[i]->result;
	}
	if (runner_batches_begin_own(st, set, plans, results, n ? sides[0]->opt.events : NULL,
				     err))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (runner_bench_open(st, sides[i]->result.batch_id, 0, &sides[i]->plan.items[0],
				      &sides[i]->opt, ms, &sides[i]->bench, err))
			return -1;
	return 0;
}

int side_sample(struct sample_side *side, double *value, struct error *err)
{
	int rc = runner_bench_iteration(side->bench, false, &side->result, err);

	if (rc <= 0)
		return rc;
	*value = runner_bench_values(side->bench)[side->metric];
	if (!(*value > 0) || !isfinite(*value)) {
		/* A ratio of logs needs positive values: such a sample decides nothing. */
		snprintf(side->result.last_failure, sizeof(side->result.last_failure),
			 "metric %s measured %g, not a positive number", side->metric_name,
			 *value);
		return 0;
	}
	side->samples++;
	return 1;
}

int side_unsample(struct sample_side *side, struct error *err)
{
	if (runner_bench_drop_last(side->bench, &side->result, err))
		return -1;
	side->samples--;
	return 0;
}

int side_finish(struct sample_side *side, struct store *st, bool complete, struct error *err)
{
	struct lock_wait w = LOCK_WAIT(st, side->opt.events, "the end of its batch");
	int rc = 0;

	while (side->result.batch_id &&
	       (rc = store_batch_finish(st, side->result.batch_id, complete, err)) &&
	       lock_wait_again(&w))
		;
	side_release(side);
	return rc;
}

void side_release(struct sample_side *side)
{
	runner_bench_close(side->bench);
	side->bench = NULL;
	plan_release(&side->plan);
	free(side->run_name);
	side->run_name = NULL;
}

int side_unfail(struct sample_side *side, size_t measured_before, struct error *err)
{
	if (side->result.iterations_measured <= measured_before)
		return 0;
	return runner_bench_drop_last(side->bench, &side->result, err);
}

/* @s's sample of the last block could not be taken back (@why): said. */
static void say_undropped(const struct sample_side *s, const char *who, const char *why)
{
	sampling_end(s->sampling);
	sampling_note(s->sampling, "schedperf: warning: %s: the unpaired sample of run %s's "
		      "last block could not be dropped: %s; it stays, and compare, which pools a "
		      "run's samples, counts it", who, s->run_name, why);
}

int side_unstop(struct sample_side *side, size_t measured_before, const char *who)
{
	struct error uerr = { 0 };

	if (!side_unfail(side, measured_before, &uerr))
		return 0;
	say_undropped(side, who, uerr.msg);
	return -1;
}

int block_unsample(struct sample_side *const *sampled, size_t n, const char *who,
		   struct sample_side **unpaired, struct error *err)
{
	struct error uerr = { 0 };
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		struct sample_side *s = sampled[i];

		if (!side_unsample(s, &uerr))
			continue;
		/* the first error is said at once and kept; the other sides' go all the same */
		if (!rc)
			*err = uerr;
		if (unpaired && !rc)
			*unpaired = s;
		rc = -1;
		say_undropped(s, who, uerr.msg);
	}
	return rc;
}

/* @labels, @n of them, as a list: "x", "x and y", "x, y and z" (each @suffix'd). */
static void add_labels(struct strbuf *sb, const char *const *labels, size_t n,
		       const char *suffix)
{
	for (size_t i = 0; i < n; i++)
		strbuf_addf(sb, "%s%s%s", !i ? "" : i + 1 < n ? ", " : " and ", labels[i], suffix);
}

void block_say_dropped(const struct sampling_events *ev, const char *failure,
		       const char *const *sampled, size_t nr_sampled, const char *const *unrun,
		       size_t nr_unrun)
{
	struct strbuf sb = STRBUF_INIT;

	add_labels(&sb, sampled, nr_sampled, "'s");
	if (nr_sampled)
		strbuf_addf(&sb, " sample%s of it deleted%s", nr_sampled > 1 ? "s" : "",
			    nr_unrun ? ", " : "");
	add_labels(&sb, unrun, nr_unrun, "");
	if (nr_unrun)
		strbuf_addstr(&sb, " not run in it");
	sampling_end(ev);
	sampling_note(ev, "schedperf: warning: %s; its block is dropped%s%s", failure,
		      sb.len ? ", " : "", strbuf_str(&sb));
	strbuf_release(&sb);
}

void block_say_failed(const struct sampling_events *ev, const char *label, const char *why,
		      const char *const *sampled, size_t nr_sampled, const char *const *unrun,
		      size_t nr_unrun)
{
	char failure[600];

	snprintf(failure, sizeof(failure), "%s: iteration failed: %s", label, why);
	block_say_dropped(ev, failure, sampled, nr_sampled, unrun, nr_unrun);
}

/* The runs of @bs's sides at @order[@from..@to), for a failed block's line. */
static void run_names(const struct block_sampler *bs, const size_t *order, size_t from,
			size_t to, const char **names)
{
	for (size_t k = from; k < to; k++)
		names[k - from] = bs->sides[order[k]]->run_name;
}

int block_sample(struct block_sampler *bs, double *values, size_t *failed, struct error *err)
{
	struct sample_side *sampled[BLOCK_MAX_SIDES];
	const char *done[BLOCK_MAX_SIDES], *unrun[BLOCK_MAX_SIDES];
	size_t order[BLOCK_MAX_SIDES];

	if (bs->nr > BLOCK_MAX_SIDES)
		return error_set(err, EXIT_INTERNAL, "a block of %zu sides: at most %d", bs->nr,
				 BLOCK_MAX_SIDES);
	for (size_t i = 0; i < bs->nr; i++)
		order[i] = i;
	for (size_t i = bs->nr - 1; i > 0; i--) {
		size_t j = (size_t)rng_below(&bs->rng, i + 1), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (size_t k = 0; k < bs->nr; k++) {
		struct sample_side *s = bs->sides[order[k]];
		size_t measured = s->result.iterations_measured;
		struct error uerr = { 0 };
		int rc = side_sample(s, &values[order[k]], err);

		if (rc > 0) {
			sampled[k] = s;
			continue;
		}
		*failed = order[k];
		/*
		 * Stopped (a signal fails the iteration it cuts short): a block
		 * under way keeps no sample, nor what this side stored before it
		 * stopped (a value that is not positive, or one whose profile
		 * could not be stored), and the first error is kept.
		 */
		if (rc < 0 || iteration_interrupted()) {
			side_unstop(s, measured, bs->who);
			block_unsample(sampled, k, bs->who, NULL, &uerr);
			return rc ? -1 : error_set(err, EXIT_ENV, "interrupted");
		}
		/* failed: the block goes, from the store too, with what said so */
		if (side_unfail(s, measured, err) || block_unsample(sampled, k, bs->who, NULL, err))
			return -1;
		run_names(bs, order, 0, k, done);
		run_names(bs, order, k + 1, bs->nr, unrun);
		block_say_failed(s->sampling, s->run_name, s->result.last_failure, done, k, unrun,
				 bs->nr - k - 1);
		return 0;
	}
	return 1;
}

double change_pct(double theta, enum better better)
{
	double ratio = exp(theta);

	return better == BETTER_HIGHER ? (ratio - 1) * 100 : (1 - ratio) * 100;
}

double worse_up(enum better better, double value)
{
	return better == BETTER_HIGHER ? -log(value) : log(value);
}

double worse_up_change_pct(double shift, enum better better)
{
	return change_pct(better == BETTER_HIGHER ? -shift : shift, better);
}

void sampling_begin(const struct sampling_events *ev)
{
	if (ev && ev->begin)
		ev->begin(ev->ctx);
}

void sampling_progress(const struct sampling_events *ev, const char *what, size_t done,
		       size_t cap)
{
	if (ev && ev->progress)
		ev->progress(ev->ctx, what, done, cap);
}

void sampling_end(const struct sampling_events *ev)
{
	if (ev && ev->end)
		ev->end(ev->ctx);
}

void sampling_note(const struct sampling_events *ev, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	if (!ev || !ev->note)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	ev->note(ev->ctx, text);
}

bool sequential_out_of_time(const struct sequential_options *so, double start)
{
	return so->max_time > 0 && time_now() - start >= so->max_time;
}
