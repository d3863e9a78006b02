// SPDX-License-Identifier: GPL-2.0
/*
 * ab's measurement (ab.h): blocks of the two sides in a random order until
 * the confidence sequence of their paired differences decides.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "experiment/ab.h"
#include "runner/iteration.h"
#include "runner/job_env.h"
#include "stats/rng.h"
#include "util/db_hint.h"
#include "util/numfmt.h"
#include "util/timeutil.h"

static const char *const side_names[2] = { "a", "b" };

#define MAX_FAILED_BLOCKS_IN_A_ROW 3

/*
 * Where a failure's iterations can be read. A job's failed run is never
 * shown (its batches go with the claim), so a job's reason names none;
 * nor does an ab that measured nothing, whose runs go (ab_sides.c).
 */
static const char *see_run(const struct ab_measurement *m, const char *run_name)
{
	static char buf[1024];
	struct error err = { 0 };
	int64_t job;
	char *db;

	if (job_env_id(&job, &err) > 0 || (!m->sides[0]->result.iterations_measured &&
					    !m->sides[1]->result.iterations_measured))
		return "";
	db = db_hint(m->db, false);
	snprintf(buf, sizeof(buf), " (see 'schedperf show %s%s')", run_name, db);
	free(db);
	return buf;
}

/*
 * @ci of log b - log a as compare's percent change (+ better), low to
 * high; NAN for an end the sequence has not bounded yet, whose -100 % or
 * infinite percent would read as a bound the samples gave.
 */
static void interval_pct(const struct seqcs_interval *ci, enum better better, double *lo,
			 double *hi)
{
	double x = isfinite(ci->low) ? change_pct(ci->low, better) : NAN;
	double y = isfinite(ci->high) ? change_pct(ci->high, better) : NAN;

	/* the percent grows with the log ratio when higher is better */
	*lo = better == BETTER_HIGHER ? x : y;
	*hi = better == BETTER_HIGHER ? y : x;
}

static void show_progress(const struct ab_measurement *m, const struct seqcs *cs,
			  size_t blocks)
{
	enum better better = m->sides[0]->better;
	struct seqcs_interval ci;
	char what[160], est[32], lo[32], hi[32];
	double low, high;

	/* the interval is worked out only to be shown */
	if (!m->events || !m->events->progress)
		return;
	seqcs_interval(cs, &ci);
	interval_pct(&ci, better, &low, &high);
	snprintf(what, sizeof(what), "[ab] block %zu: b vs a %s [%s, %s] (+ better)", blocks,
		 format_pct(est, sizeof(est), change_pct(ci.estimate, better), 1, "unknown"),
		 format_pct(lo, sizeof(lo), low, 1, "unbounded"),
		 format_pct(hi, sizeof(hi), high, 1, "unbounded"));
	sampling_progress(m->events, what, blocks, (size_t)m->so->max_samples);
}

/*
 * The block's first side sampled and its second did not (it failed, or a
 * signal, the store or a setting stopped ab): the first side's sample goes
 * from the store too (block_unsample(), which says a drop that failed:
 * that side is left in *@unpaired). 0, or -1 with @err.
 */
static int drop_lone(const struct ab_measurement *m, int first, const char **unpaired,
		     struct error *err)
{
	if (!block_unsample(&m->sides[first], 1, "ab", NULL, err))
		return 0;
	*unpaired = side_names[first];
	return -1;
}

/*
 * Side @which's iteration failed (side_sample() gave 0): the block is
 * dropped whole. A value that is not positive was stored all the same, as
 * a success: it goes, and so does the sample of the side that ran first
 * (@first, -1 when @which was the first), so that no block leaves a
 * sample on one side only. 0, or -1 with @err.
 */
static int drop_failed(const struct ab_measurement *m, int which, int first,
		       size_t measured_before, const char **unpaired, struct error *err)
{
	if (side_unfail(m->sides[which], measured_before, err))
		return -1;
	return first >= 0 ? drop_lone(m, first, unpaired, err) : 0;
}

/* A failed block, said: why, and that neither side keeps a sample of it. */
static void say_failed(const struct ab_measurement *m, int which, bool second)
{
	static const char *const labels[2] = { "side a", "side b" };
	const char *other = labels[1 - which];

	block_say_failed(m->events, labels[which], m->sides[which]->result.last_failure,
			 &other, second, &other, !second);
}

/*
 * One block: both sides, in the order the generator says. 1 with the
 * paired difference log b - log a, 0 when a side failed (the block is
 * dropped, from the store too; @failed is that side), -1 with @err when
 * ab must stop (a block cut short keeps neither side's sample either).
 */
static int run_block(const struct ab_measurement *m, struct rng *rng, double *diff,
		     int *failed, const char **unpaired, struct error *err)
{
	int first = (int)(rng_next(rng) >> 63);
	struct error uerr = { 0 };
	double v[2];

	for (int k = 0; k < 2; k++) {
		int which = k ? 1 - first : first;
		struct sample_side *s = m->sides[which];
		size_t measured = s->result.iterations_measured;
		int rc;

		/* ab stops: a block under way keeps no sample (the first error is kept) */
		if (knob_session_apply(m->ks, (size_t)which, err)) {
			if (k)
				drop_lone(m, first, unpaired, &uerr);
			return -1;
		}
		rc = side_sample(s, &v[which], err);
		/*
		 * Stopped: what this side stored goes too (a value that is not
		 * positive, stored as a success; one whose profile could not be).
		 */
		if (rc <= 0 && k && iteration_interrupted()) {
			side_unstop(s, measured, "ab");
			drop_lone(m, first, unpaired, &uerr);
			return rc ? -1 : error_set(err, EXIT_ENV, "interrupted");
		}
		if (rc < 0) {
			side_unstop(s, measured, "ab");
			if (k)
				drop_lone(m, first, unpaired, &uerr);
			return -1;
		}
		if (rc)
			continue;
		*failed = which;
		if (drop_failed(m, which, k ? first : -1, measured, unpaired, err))
			return -1;
		/*
		 * A side that never ran once is broken, not unlucky: stop at
		 * once. Its block gone, nothing is measured, and no run kept.
		 */
		if (!s->samples)
			return error_set(err, EXIT_ENV, "ab: side %s failed on its first "
					 "iteration: %s%s", side_names[which],
					 s->result.last_failure, see_run(m, s->run_name));
		say_failed(m, which, k);
		return 0;
	}
	*diff = log(v[1]) - log(v[0]);
	return 1;
}

int ab_measure(const struct ab_measurement *m, struct ab_outcome *out, struct error *err)
{
	double margin = m->so->margin_pct / 100, start = time_now();
	struct seqcs cs;
	struct rng rng;
	int failed_in_a_row = 0, failed = 0, rc = 0;

	rng_seed(&rng, (uint64_t)m->seed);
	seqcs_init(&cs, m->so->alpha, SEQCS_HUBER);
	sampling_begin(m->events);
	out->decision = SEQCS_CONTINUE;
	out->reason = m->cap_reason;
	while (out->blocks < (size_t)m->so->max_samples) {
		double diff = 0;

		if (sequential_out_of_time(m->so, start)) {
			out->reason = "max-time";
			break;
		}
		rc = run_block(m, &rng, &diff, &failed, &out->unpaired, err);
		if (rc < 0)
			break;
		if (!rc) {
			const struct sample_side *s = m->sides[failed];

			if (++failed_in_a_row < MAX_FAILED_BLOCKS_IN_A_ROW)
				continue;
			rc = error_set(err, EXIT_ENV, "ab: %d blocks in a row failed, the last "
				       "because: %s%s", MAX_FAILED_BLOCKS_IN_A_ROW,
				       s->result.last_failure, see_run(m, s->run_name));
			break;
		}
		failed_in_a_row = 0;
		seqcs_add(&cs, diff);
		out->blocks++;
		out->decision = seqcs_decide(&cs, 0, log1p(-margin), log1p(margin));
		show_progress(m, &cs, out->blocks);
		if (out->decision != SEQCS_CONTINUE) {
			out->reason = out->decision == SEQCS_WITHIN ? "interval within margin" :
				      "interval excludes no change";
			break;
		}
	}
	sampling_end(m->events);
	seqcs_interval(&cs, &out->ci);
	out->seconds = time_now() - start;
	seqcs_release(&cs);
	return rc < 0 ? -1 : 0;
}

const char *ab_verdict_word(const struct ab_outcome *out, enum better better,
			    const char **direction)
{
	bool up = out->decision == SEQCS_ABOVE;	/* b's values larger */

	*direction = NULL;
	if (out->decision == SEQCS_WITHIN)
		return "same";
	if (out->decision == SEQCS_CONTINUE)
		return "unknown";
	*direction = up == (better == BETTER_HIGHER) ? "better" : "worse";
	return "different";
}

void ab_interval_pct(const struct ab_outcome *out, enum better better, double *lo, double *hi)
{
	interval_pct(&out->ci, better, lo, hi);
}
