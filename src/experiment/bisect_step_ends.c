// SPDX-License-Identifier: GPL-2.0
/*
 * A bisect step's stored ends (bisect_step.h): the good build's run, and
 * the bad one's, their samples of the step's benchmark and metric, each
 * median bounded at alpha/2 each side, and whether a step can decide
 * between them in --max-samples, said with what would do when it cannot.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment/bisect_step.h"
#include "stats/median_ci.h"
#include "results/metric_key.h"
#include "util/swapped_ends.h"
#include "util/xalloc.h"

static int compare_doubles(const void *x, const void *y)
{
	double a = *(const double *)x, c = *(const double *)y;

	return (a > c) - (a < c);
}

/*
 * A run that stored the step's metric only in another unit or direction
 * (imported, or measured by another version): its values are not the
 * build's to compare with, and "no sample" would not say why.
 */
static int other_metric(const struct bisect_step *b, const struct stored_end *end,
			const struct metric_key *other, struct error *err)
{
	return error_set(err, EXIT_USAGE, "bisect-step: run '%.64s' stored %.64s in '%.32s', "
			 "%s is better, where this build measures it in '%.32s', %s is better: "
			 "values in another unit or direction are not compared (give a run "
			 "measured as this build measures, or measure the %s build again)",
			 end->run, other->name, other->unit, better_name(other->better),
			 b->side.metric_unit, better_name(b->side.better),
			 end == &b->good ? "good" : "bad");
}

/*
 * Every measured positive sample of the run's benchmark like ours, sorted;
 * those not positive (zero, negative, not a number) only counted: a step
 * compares logs, which they have none of. The metric is ours by name, unit
 * and direction (results/metric_key.h).
 */
static int load_samples(struct store *st, const struct bisect_step *b, struct stored_end *end,
			struct error *err)
{
	const struct plan_item *item = &b->side.plan.items[0];
	struct result_set set = { NULL, 0 };
	struct metric_key ours = { b->side.metric_name, b->side.metric_unit, b->side.better };
	struct metric_key other = { NULL, NULL, BETTER_LOWER };

	if (store_load(st, end->run, STORE_SAMPLES, &set, err))
		return -1;
	for (size_t i = 0; i < set.nr_batches; i++)
		for (size_t j = 0; j < set.batches[i].nr_benchmarks; j++) {
			const struct result_benchmark *rb = &set.batches[i].benchmarks[j];

			if (strcmp(rb->workload, item->workload->name) ||
			    strcmp(rb->params, item->params_json))
				continue;
			for (size_t m = 0; m < rb->nr_metrics; m++) {
				const struct result_metric *rm = &rb->metrics[m];
				struct metric_key key = metric_key_of(rm);

				if (!metric_key_same(&key, &ours)) {
					if (!strcmp(rm->name, ours.name) && rm->nr_samples)
						other = key;
					continue;
				}
				end->x = xreallocarray(end->x, end->n + rm->nr_samples + 1,
						       sizeof(double));
				for (size_t k = 0; k < rm->nr_samples; k++)
					if (rm->samples[k] > 0 && isfinite(rm->samples[k]))
						end->x[end->n++] = worse_up(b->side.better,
									    rm->samples[k]);
					else
						end->nonpositive++;
			}
		}
	if (!end->n && !end->nonpositive && other.name) {
		/* its texts are the set's: say it before they go */
		other_metric(b, end, &other, err);
		result_set_release(&set);
		return -1;
	}
	result_set_release(&set);
	qsort(end->x, end->n, sizeof(double), compare_doubles);
	return 0;
}

/* Load @end and bound its median at 1 - alpha (alpha/2 on each side). */
static int load_end(struct store *st, const struct bisect_step *b, struct stored_end *end,
		    struct error *err)
{
	const double *x;

	if (load_samples(st, b, end, err))
		return -1;
	x = end->x;
	if (!median_ci(x, end->n, 1 - b->so.alpha, &end->low, &end->high)) {
		end->median = end->n % 2 ? x[end->n / 2] : (x[end->n / 2 - 1] + x[end->n / 2]) / 2;
		return 0;
	}
	if (end->nonpositive)
		return error_set(err, EXIT_USAGE, "bisect-step: run '%.64s' has %zu positive "
				 "samples of %s for this benchmark, too few for a median interval "
				 "at %g: the other %zu are not positive, and a step compares logs (give "
				 "a --metric whose values are positive, or run more iterations)",
				 end->run, end->n, b->side.metric_name, 1 - b->so.alpha,
				 end->nonpositive);
	return error_set(err, EXIT_USAGE, "bisect-step: run '%.64s' has %zu samples of %s "
			 "for this benchmark, too few for a median interval at %g (run "
			 "more iterations, e.g. -i 20, or check -p)", end->run, end->n,
			 b->side.metric_name, 1 - b->so.alpha);
}

/* The share of @end's samples below @theta: how often a build like it falls there. */
static double share_below(const struct stored_end *end, double theta)
{
	size_t k = 0;

	while (k < end->n && end->x[k] < theta)
		k++;
	return (double)k / (double)end->n;
}

/*
 * The number of samples of @end that would bound its median to an interval
 * @room wide, as the bound's width shrinks with the square root of n.
 */
static size_t samples_for_room(const struct stored_end *end, double room)
{
	double width = end->high - end->low;

	return (size_t)ceil((double)end->n * (width / room) * (width / room));
}

/*
 * A lower bound, at about 90 %, of the share of @end's samples below
 * @theta (Wilson's interval): what a build like @end does there, without
 * trusting a few samples more than they allow.
 */
static double wilson_low(double p, size_t count)
{
	double n = (double)count, z = 1.2816, z2 = z * z;

	return (p + z2 / (2 * n) - z * sqrt(p * (1 - p) / n + z2 / (4 * n * n))) / (1 + z2 / n);
}

static double share_below_low(const struct stored_end *end, double theta)
{
	return wilson_low(share_below(end, theta), end->n);
}

/*
 * The samples a build like good needs to be shown within @margin of it
 * (INFINITY: never), taking the build's median as high as good's may be,
 * at its upper bound: good's samples are the build's, shifted up there.
 */
static double margin_samples(const struct bisect_step *b, double margin)
{
	const struct stored_end *g = &b->good;

	return sign_bettor_samples(share_below_low(g, g->low + margin - (g->high - g->median)),
				   b->so.alpha / 2);
}

/*
 * The margin rule with --good alone: a build like good is GOOD once its
 * median is shown below good's lower bound plus the margin. When good's
 * spread, or the looseness of its median's bound, leaves too small a share
 * of its samples there for the sign bettor to win within --max-samples,
 * say so now, with what would do: the smallest margin, the samples a step
 * would need, or more stored samples.
 */
static int check_margin_decidable(const struct bisect_step *b, struct error *err)
{
	const struct stored_end *g = &b->good;
	double need = margin_samples(b, b->margin), pct;
	char fix[256];
	size_t used;

	if (need <= b->so.max_samples)
		return 0;
	used = (size_t)snprintf(fix, sizeof(fix), "give --bad RUN");
	for (pct = b->so.margin_pct + 0.1; pct <= 100; pct += 0.1)
		if (margin_samples(b, log1p(pct / 100)) <= b->so.max_samples) {
			used += (size_t)snprintf(fix + used, sizeof(fix) - used,
						 ", a --margin of %.1f%%", pct);
			break;
		}
	if (need <= 1e6)
		used += (size_t)snprintf(fix + used, sizeof(fix) - used, ", --max-samples %.0f",
					 ceil(need));
	/* a bound as wide as half the margin takes a share of it no step can win back */
	if (g->high - g->low > b->margin / 2)
		snprintf(fix + used, sizeof(fix) - used, ", or store about %zu samples of the "
			 "good build under that name", samples_for_room(g, b->margin / 2));
	return error_set(err, EXIT_USAGE, "bisect-step: a build like run '%.64s' (%zu samples "
			 "of %s) could not be shown within --margin %g%% of it in --max-samples "
			 "%d at --alpha %g (%s)", g->run, g->n, b->side.metric_name,
			 b->so.margin_pct, b->so.max_samples, b->so.alpha, fix);
}

/*
 * With both ends: two runs, the bad one worse than good by more than the
 * margin, the two medians' bounds apart, and a build like either decidable
 * within --max-samples.
 */
static int check_levels_decidable(const struct bisect_step *b, struct error *err)
{
	const struct stored_end *g = &b->good, *bad = &b->bad;
	double need;

	if (!strcmp(g->run, bad->run))
		return error_set(err, EXIT_USAGE, "bisect-step: --good and --bad name the same run "
				 "'%.64s' (give the good build's run and the bad one's)", g->run);
	if (bad->median < g->median) {
		char *bad_run = xasprintf("run '%.64s'", bad->run);
		char *good_run = xasprintf("'%.64s'", g->run);
		char *said = swapped_ends_said(bad_run, good_run, "run");

		error_set(err, EXIT_USAGE, "bisect-step: %s", said);
		free(said);
		free(good_run);
		free(bad_run);
		return -1;
	}
	if (bad->median - g->median <= b->margin)
		return error_set(err, EXIT_USAGE, "bisect-step: the medians of runs '%.64s' and "
				 "'%.64s' differ by %.1f%%, within --margin %g%%: nothing to bisect at "
				 "this margin (or store more samples of each, if more is hidden in "
				 "their spread)", bad->run, g->run,
				 fabs(worse_up_change_pct(bad->median - g->median, b->side.better)), b->so.margin_pct);
	if (g->high >= bad->low)
		return error_set(err, EXIT_USAGE, "bisect-step: the medians of runs '%.64s' and "
				 "'%.64s' cannot be told apart at --alpha %g with %zu and %zu "
				 "samples (store about %zu samples of each)", g->run, bad->run,
				 b->so.alpha, g->n, bad->n,
				 samples_for_room(g->n > bad->n ? g : bad,
						  (bad->median - g->median) / 2));
	/*
	 * A build like either, as its stored samples show it. Not at the far
	 * end of its bounds, as the margin rule takes it: a step with both
	 * ends is never a skip, the cap ends it for the nearer with its error
	 * bound said, so only a step hopeless at the typical level is refused.
	 */
	need = fmax(sign_bettor_samples(share_below_low(g, bad->low), b->so.alpha / 2),
		    sign_bettor_samples(wilson_low(1 - share_below(bad, g->high), bad->n),
					b->so.alpha / 2));
	if (need > b->so.max_samples)
		return error_set(err, EXIT_USAGE, "bisect-step: runs '%.64s' and '%.64s' overlap "
				 "too much for their spread: a step would need about %.0f samples, "
				 "more than --max-samples %d (give a larger --max-samples, or "
				 "store more samples of each)", g->run, bad->run, ceil(need),
				 b->so.max_samples);
	return 0;
}

static int load_runs(struct store *st, struct bisect_step *b, struct error *err)
{
	b->margin = log1p(b->so.margin_pct / 100);
	if (load_end(st, b, &b->good, err))
		return -1;
	if (!b->bad.run)
		return check_margin_decidable(b, err);
	if (load_samples(st, b, &b->bad, err))
		return -1;
	if (!b->bad.n && b->bad.nonpositive)
		return error_set(err, EXIT_USAGE, "bisect-step: run '%.64s' has %zu samples of %s "
				 "for this benchmark, none positive, and a step compares logs "
				 "(give a --metric whose values are positive)", b->bad.run,
				 b->bad.nonpositive, b->side.metric_name);
	if (!b->bad.n)
		return error_set(err, EXIT_USAGE, "bisect-step: run '%.64s' has no sample of %s "
				 "for this benchmark (check -p and --metric)", b->bad.run,
				 b->side.metric_name);
	b->bad.n = 0;
	b->bad.nonpositive = 0;
	free(b->bad.x);
	b->bad.x = NULL;
	return load_end(st, b, &b->bad, err) || check_levels_decidable(b, err);
}

int bisect_step_load_ends(struct bisect_step *b, const char *db, struct error *err)
{
	struct store *st = NULL;
	int rc = store_open_existing(db, &st, err) || load_runs(st, b, err) ? -1 : 0;

	store_close(st);
	return rc;
}
