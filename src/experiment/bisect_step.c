// SPDX-License-Identifier: GPL-2.0
/*
 * A bisect step's measurement (bisect_step.h): the build at hand, under
 * the step's --knob settings, sampled into its run until the sequential
 * rule decides or a cap stops it, its batch finished with the verdict.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment/bisect_step.h"
#include "monitor/monitor.h"
#include "runner/iteration.h"
#include "runner/job_env.h"
#include "runner/knob_guard.h"
#include "runner/lock_wait.h"
#include "util/timeutil.h"

void bisect_step_init(struct bisect_step *b)
{
	knob_session_init(&b->ks, 1, "bisect-step");
}

void bisect_step_release(struct bisect_step *b)
{
	free(b->good.x);
	free(b->bad.x);
	side_release(&b->side);
	knob_session_release(&b->ks);
	knobs_release(&b->knobs);
	free(b->knob_specs);
	free(b->so.params);
}

static void step_init(struct step_outcome *s, const struct bisect_step *b)
{
	memset(s, 0, sizeof(*s));
	seqcs_init(&s->cs, b->so.alpha, 0);
	level_choice_init(&s->lc, b->so.alpha / 2, 0);
	s->error_bound = 1;
}

void step_outcome_release(struct step_outcome *s)
{
	seqcs_release(&s->cs);
	level_choice_release(&s->lc);
}

static enum level_verdict step_add(struct step_outcome *s, const struct bisect_step *b,
				   double x)
{
	seqcs_add(&s->cs, x);
	if (!b->bad.run)
		return margin_decide(&s->cs, b->good.low, b->good.high, b->margin);
	level_choice_add(&s->lc, x - b->good.high, x - b->bad.low);
	return level_choice_decide(&s->lc);
}

#define MAX_FAILURES_IN_A_ROW 3

/*
 * Why the step stopped after MAX_FAILURES_IN_A_ROW iterations that gave no
 * sample: iterations that failed, or that measured the metric as not
 * positive (zero, say), which has no log to compare.
 */
static const char failed_reason[] = "the workload failed";
static const char nonpositive_reason[] = "the metric was not positive";
static const char either_reason[] = "the workload failed or its metric was not positive";

static const char *no_sample_reason(bool failed, bool nonpositive)
{
	return !nonpositive ? failed_reason : !failed ? nonpositive_reason : either_reason;
}

/* Both ends known: the cap ends the step for the side with more evidence. */
static void nearer_at_cap(struct step_outcome *s, const struct bisect_step *b)
{
	if (s->verdict != LEVEL_UNDECIDED || !b->bad.run || !s->reason || s->no_samples ||
	    !b->side.samples)
		return;
	s->verdict = level_choice_nearer(&s->lc, &s->error_bound);
	/* the stored ends' bounds may be wrong too, with alpha/2 */
	s->error_bound = fmin(1, s->error_bound + b->so.alpha / 2);
	if (s->verdict != LEVEL_UNDECIDED)
		s->reason = strcmp(s->reason, "max-time") ? "nearer at max-samples" :
			    "nearer at max-time";
}

static void sample(struct bisect_step *b, struct step_outcome *s,
		   const struct sampling_events *events, struct error *err)
{
	double start = time_now();
	bool failed = false, nonpositive = false;	/* among the failures in a row */
	int failures = 0;

	sampling_begin(events);
	s->reason = "max-samples";
	while (b->side.samples < (size_t)b->so.max_samples) {
		size_t failed_before = b->side.result.iterations_failed;
		double value;
		char what[128];
		int rc;

		if (sequential_out_of_time(&b->so, start)) {
			s->reason = "max-time";
			break;
		}
		rc = side_sample(&b->side, &value, err);
		if (rc < 0) {
			s->reason = NULL;
			break;
		}
		if (!rc) {
			if (b->side.result.iterations_failed > failed_before)
				failed = true;
			else
				nonpositive = true;
			if (++failures < MAX_FAILURES_IN_A_ROW)
				continue;
			s->reason = no_sample_reason(failed, nonpositive);
			s->no_samples = true;
			break;
		}
		failures = 0;
		failed = nonpositive = false;
		s->verdict = step_add(s, b, worse_up(b->side.better, value));
		snprintf(what, sizeof(what), "[bisect-step] %s: %zu samples", b->side.run_name,
			 b->side.samples);
		sampling_progress(events, what, b->side.samples, (size_t)b->so.max_samples);
		if (s->verdict != LEVEL_UNDECIDED) {
			s->reason = "decided";
			s->error_bound = b->so.alpha;
			break;
		}
	}
	sampling_end(events);
	nearer_at_cap(s, b);
}

void step_interval(const struct bisect_step *b, const struct step_outcome *s, double *lo,
		   double *hi)
{
	struct seqcs_interval ci;
	double x, y;

	seqcs_interval(&s->cs, &ci);
	x = worse_up_change_pct(ci.low - b->good.high, b->side.better);
	y = worse_up_change_pct(ci.high - b->good.low, b->side.better);
	*lo = fmin(x, y);
	*hi = fmax(x, y);
}

/* What the --knob SPECs changed put back; -1 with @err when something stays. */
static int put_back(struct bisect_step *b, struct store *st, struct error *err)
{
	if (!b->nr_knob_specs)
		return 0;
	return knob_session_end(&b->ks, st, err);
}

/* The knobs before the store: a value the kernel refuses writes nothing. */
static int open_store(struct bisect_step *b, const char *db, struct store **st,
		      struct monitor_set **ms, struct error *err)
{
	struct error perr = { 0 };

	if ((b->nr_knob_specs && knob_session_start(&b->ks, err)) ||
	    store_open(db, st, err) || job_env_attach(*st, err) ||
	    (b->nr_knob_specs ? knob_session_copy(&b->ks, *st, err) :
	     knob_guard_measure(*st, err)) ||
	    monitors_open(MONITORS_DEFAULT, NULL, ms, err)) {
		put_back(b, *st, &perr);
		store_close(*st);
		*st = NULL;
		return -1;
	}
	return 0;
}

/* The job, if any, is done only with its verdict stored: else it is an error. */
static void finish(struct bisect_step *b, struct store *st, const struct step_hooks *hooks,
		   struct step_outcome *s, struct error *err)
{
	char *result = s->reason ? hooks->result(hooks->ctx, s) : NULL;
	struct lock_wait w = LOCK_WAIT(st, b->side.opt.events, "the end of its batch");
	int rc;

	while ((rc = store_batches_finish(st, &b->side.result.batch_id, 1, s->reason != NULL,
					  true, result, err)) && lock_wait_again(&w))
		;
	if (rc && s->reason)
		s->reason = NULL;
	free(result);
}

int bisect_step_measure(struct bisect_step *b, const char *db, const char *name,
			const struct step_hooks *hooks, struct step_outcome *s,
			struct error *err)
{
	struct monitor_set *ms = NULL;
	struct store *st = NULL;
	struct error perr = { 0 };

	step_init(s, b);
	if (open_store(b, db, &st, &ms, err))
		return -1;
	iteration_install_signal_handlers();
	if (side_open(&b->side, st, name, &b->so, hooks->events, ms, err))
		s->reason = NULL;
	else
		sample(b, s, hooks->events, err);
	if (b->side.result.batch_id)
		finish(b, st, hooks, s, err);
	monitors_close(ms);
	if (put_back(b, st, &perr) && s->reason) {
		s->reason = NULL;
		*err = perr;
	}
	store_close(st);
	return 0;
}
