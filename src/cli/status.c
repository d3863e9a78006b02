// SPDX-License-Identifier: GPL-2.0
/* The status line of a measurement, and a run's, and its failures' warning (status.h). */
#include <math.h>
#include <stdio.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/status.h"
#include "util/timeutil.h"

void status_init(struct status_line *sl)
{
	sl->enabled = !global.quiet && isatty(STDERR_FILENO);
	sl->start = time_now();
}

void status_show(struct status_line *sl, const char *what, size_t done, size_t cap,
		 double max_time)
{
	double elapsed = time_now() - sl->start, left = INFINITY;

	if (!sl->enabled)
		return;
	if (done)
		left = elapsed / (double)done * (double)(cap - done);
	if (max_time > 0 && max_time - elapsed < left)
		left = fmax(0, max_time - elapsed);
	fprintf(stderr, "\r\033[K%.90s  %.0fs elapsed, <= %.0fs left", what, elapsed, left);
}

void status_end(struct status_line *sl)
{
	if (sl->enabled)
		fputs("\r\033[K", stderr);
}

static void begin(void *ctx)
{
	struct status_line *sl = ctx;
	double max_time = sl->max_time;

	status_init(sl);
	sl->max_time = max_time;
}

static void progress(void *ctx, const char *what, size_t done, size_t cap)
{
	struct status_line *sl = ctx;

	status_show(sl, what, done, cap, sl->max_time);
}

static void end(void *ctx)
{
	status_end(ctx);
}

static void note(void *ctx, const char *text)
{
	if (!global.quiet)
		fprintf(stderr, "%s\n", text);
}

void status_events(struct sampling_events *ev, struct status_line *sl, double max_time)
{
	status_init(sl);
	sl->max_time = max_time;
	ev->begin = begin;
	/* nothing to draw: what a line would show is not even worked out */
	ev->progress = sl->enabled ? progress : NULL;
	ev->end = end;
	ev->note = note;
	ev->ctx = sl;
}

void run_display_end(struct run_display *d)
{
	if (d->line_shown)
		fputs("\r\033[K", stderr);
	d->line_shown = false;
}

static void run_progress(void *ctx, const struct runner_progress *p)
{
	struct run_display *d = ctx;
	const struct plan_item *item = &p->plan->items[p->item];
	double remaining = p->done ? p->elapsed / (double)p->done *
				     (double)(p->total - p->done) : 0;
	char params[256];

	if (!d->progress)
		return;
	plan_item_describe(item, params, sizeof(params));
	fprintf(stderr, "\r\033[K[%zu/%zu] %s %.60s  iteration %d/%d  %.0fs elapsed, ~%.0fs left",
		p->item + 1, p->plan->nr_items, item->workload->name, params,
		p->iteration, p->nr_iterations, p->elapsed, remaining);
	d->line_shown = true;
}

/*
 * "pipe iteration 3 of 3 failed (attempt 2 of 3): WHY; retrying": the
 * iteration as the progress line counts it, and which of its attempts
 * (with --retries) failed, so that a retry is never taken for another
 * iteration.
 */
static void run_failed(void *ctx, const struct plan_item *item, const struct runner_attempt *at,
		       const char *why)
{
	char of[32] = "", attempt[48] = "";

	run_display_end(ctx);
	if (at->iterations)
		snprintf(of, sizeof(of), " of %d", at->iterations);
	if (at->attempts > 1)
		snprintf(attempt, sizeof(attempt), " (attempt %d of %d)", at->attempt,
			 at->attempts);
	fprintf(stderr, "schedperf: warning: %s iteration %d%s failed%s: %s%s\n",
		item->workload->name, at->iteration, of, attempt, why,
		at->attempt < at->attempts ? "; retrying" : "");
}

static void run_note(void *ctx, const char *text)
{
	run_display_end(ctx);
	fprintf(stderr, "schedperf: %s\n", text);
}

const struct runner_events *run_display_init(struct run_display *d)
{
	*d = (struct run_display){
		.progress = !global.quiet && isatty(STDERR_FILENO),
		.events = { global.quiet ? NULL : run_progress,
			    global.quiet ? NULL : run_failed, d, run_note },
	};
	return &d->events;
}

/*
 * Iterations are the planned ones, each of up to 1 + --retries attempts:
 * with retries, the failed attempts are said apart from the iterations
 * that failed every one of theirs.
 */
void run_display_outcome(const struct runner_result *res, const char *name)
{
	size_t failed = res->iterations_failed;

	if (!failed || runner_measured_nothing(res))
		return;
	if (failed == res->planned_failed)
		fprintf(stderr, "schedperf: warning: %zu of %zu iterations failed (they are "
			"stored as failures; see 'schedperf show %s')\n",
			res->planned_failed, res->planned_done, name);
	else if (!res->planned_failed)
		fprintf(stderr, "schedperf: warning: %zu attempt%s failed and %s retried; all "
			"%zu iterations succeeded (the failed attempts are stored as failures; "
			"see 'schedperf show %s')\n", failed, failed == 1 ? "" : "s",
			failed == 1 ? "was" : "were", res->planned_done, name);
	else
		fprintf(stderr, "schedperf: warning: %zu of %zu iterations failed, after %zu "
			"failed attempts in all (the failed attempts are stored as failures; see "
			"'schedperf show %s')\n", res->planned_failed, res->planned_done, failed,
			name);
}
