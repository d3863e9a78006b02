// SPDX-License-Identifier: GPL-2.0
/*
 * The phases of a bisection (bisection.h). The record is a JSON object
 * (doc/design.md, "Bisection"); what the phases need of it is read back
 * from it, so that a resumed bisection runs on exactly what a fresh one
 * would have.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "experiment/bisection.h"
#include "monitor/monitor.h"
#include "runner/iteration.h"
#include "stats/level_choice.h"
#include "util/git.h"
#include "util/timeutil.h"
#include "util/utf8.h"
#include "util/xalloc.h"

#define MAX_FAILED_BLOCKS_IN_A_ROW 3

/* ------------------------------------------------------------ the record */

static const char *record_string(const struct bisection *bi, const char *key)
{
	return json_string_value(json_object_get(bi->record, key));
}

const char *bisection_state(const struct bisection *bi)
{
	const char *phase = record_string(bi, "phase");

	return phase ? phase : "finished";
}

static void set_phase(struct bisection *bi, const char *phase)
{
	json_object_set_new(bi->record, "phase", json_string(phase));
}

/* The store's state column: what --list shows and --resume looks for. */
static const char *store_state(const struct bisection *bi, bool running)
{
	if (strcmp(bisection_state(bi), "finished"))
		return running ? "running" : "interrupted";
	return record_string(bi, "error") ? "failed" : "done";
}

int bisection_save(struct bisection *bi, bool running, struct error *err)
{
	char *doc;
	int rc;

	json_object_set_new(bi->record, "updated", json_real(time_epoch()));
	doc = json_dumps(bi->record, JSON_COMPACT | JSON_REAL_PRECISION(10));
	rc = store_bisection_save(bi->st, bi->id, store_state(bi, running), doc, err);
	free(doc);
	return rc;
}

static json_t *number_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *bisection_text(const char *s)
{
	char *kept = utf8_kept(s ? s : "");
	json_t *text = json_string(kept);

	free(kept);
	return text;
}

/* ------------------------------------------------------------ git */

static char *subject_of(const struct bisection *bi, const char *hash)
{
	struct strbuf out = STRBUF_INIT;
	struct error ignored = { 0 };

	if (git_run(bi->repo_top, &out, &ignored, "log", "-1", "--format=%s", hash, NULL)) {
		strbuf_release(&out);
		return xstrdup("");
	}
	git_chomp(&out);
	return strbuf_detach(&out);
}

enum bisect_outcome { OUTCOME_NEXT, OUTCOME_CULPRIT, OUTCOME_ONLY_SKIPPED };

/*
 * What git bisect said after a start or a mark: the first bad commit
 * ("HASH is the first bad commit"), only skipped commits left (and then
 * the candidates it lists, into *@candidates), or a next commit to test.
 */
static enum bisect_outcome read_outcome(const char *text, char culprit[41], json_t **candidates)
{
	const char *line = text;

	*candidates = NULL;
	for (; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (strspn(line, "0123456789abcdef") == 40 &&
		    !strncmp(line + 40, " is the first bad commit", 24)) {
			memcpy(culprit, line, 40);
			culprit[40] = '\0';
			return OUTCOME_CULPRIT;
		}
		if (!strncmp(line, "There are only 'skip'ped commits left to test.", 46)) {
			*candidates = json_array();
			for (const char *c = line; c; c = strchr(c, '\n') ? strchr(c, '\n') + 1 : NULL)
				if (strspn(c, "0123456789abcdef") == 40)
					json_array_append_new(*candidates, json_stringn(c, 40));
			return OUTCOME_ONLY_SKIPPED;
		}
	}
	return OUTCOME_NEXT;
}

/*
 * Run git bisect WORD ARGS (start, good, bad, skip) and record what
 * follows. git exits 2 when only skipped commits are left: an outcome, not
 * a failure.
 */
static int git_bisect(struct bisection *bi, const char *word, const char *a, const char *b,
		      enum bisect_outcome *outcome, struct error *err)
{
	struct strbuf out = STRBUF_INIT;
	char culprit[41];
	json_t *candidates;
	int status;

	if (!strcmp(word, "start"))
		status = git_status(bi->repo_top, &out, err, "bisect", "start", "--no-checkout",
				    a, b, NULL);
	else
		status = git_status(bi->repo_top, &out, err, "bisect", word, a, NULL);
	if (status < 0) {
		strbuf_release(&out);
		return -1;
	}
	*outcome = read_outcome(strbuf_str(&out), culprit, &candidates);
	strbuf_release(&out);
	if (status && *outcome != OUTCOME_ONLY_SKIPPED) {
		json_decref(candidates);
		/* someone ended it (git bisect reset) or began another meanwhile */
		if (strcmp(word, "start") && !bisection_git_is_ours(bi))
			return error_set(err, EXIT_USAGE, "bisect: git's bisect state in %s "
					 "was ended or replaced while a step was measured, so git "
					 "cannot be told the step (start the bisection again)",
					 bi->repo_top);
		return error_set(err, EXIT_ENV, "bisect: git bisect %s %.12s failed with exit "
				 "status %d (see 'git -C %s bisect log')", word, a, status,
				 bi->repo_top);
	}
	if (*outcome == OUTCOME_CULPRIT) {
		char *subject = subject_of(bi, culprit);

		json_object_set_new(bi->record, "culprit", json_pack("{s:s,s:o}", "commit", culprit,
								     "subject", bisection_text(subject)));
		free(subject);
	}
	if (*outcome == OUTCOME_ONLY_SKIPPED)
		json_object_set_new(bi->record, "candidates", candidates);
	return 0;
}

/* Keep git's log of the bisection in the record, and end git's bisect state. */
/*
 * Whether git's bisect state in the repository is this bisection's: its
 * log starts with the start this bisection gave (the two ends), not one a
 * person started after this one was interrupted.
 */
bool bisection_git_is_ours(const struct bisection *bi)
{
	struct strbuf log = STRBUF_INIT;
	struct error ignored = { 0 };
	const char *start;
	bool ours = false;

	if (!git_run(bi->repo_top, &log, &ignored, "bisect", "log", NULL) &&
	    (start = strstr(strbuf_str(&log), "git bisect start '--no-checkout' '")))
		ours = !strncmp(start + 34, bi->bad, 40) &&
		       !strncmp(start + 34 + 40, "' '", 3) && !strncmp(start + 77, bi->good, 40);
	strbuf_release(&log);
	return ours;
}

/*
 * Keep git's log of the bisection in the record, and end git's bisect
 * state, if it is still ours: after the record says what git decided, so
 * that a kill between the two leaves a state that --resume finishes.
 */
static int git_bisect_finish(struct bisection *bi, struct error *err)
{
	struct strbuf out = STRBUF_INIT;
	struct error ignored = { 0 };

	if (!bisection_git_is_ours(bi))
		return 0;
	if (!git_run(bi->repo_top, &out, &ignored, "bisect", "log", NULL))
		json_object_set_new(bi->record, "git_bisect_log", bisection_text(strbuf_str(&out)));
	strbuf_release(&out);
	if (bisection_save(bi, strcmp(bisection_state(bi), "finished"), err))
		return -1;
	git_run(bi->repo_top, NULL, &ignored, "bisect", "reset", NULL);
	return 0;
}

/* ------------------------------------------------------------ measuring */

char *bisection_run_name(const struct bisection *bi, const char *hash)
{
	if (!strcmp(hash, bi->good))
		return xasprintf("%s-good", bi->name);
	if (!strcmp(hash, bi->bad))
		return xasprintf("%s-bad", bi->name);
	return xasprintf("%s-%.12s", bi->name, hash);
}

int bisection_metric(struct bisection *bi, const struct metric_key *m, const char *whose,
		     const char *fix, struct error *err)
{
	/*
	 * as the record keeps them, which a resumed bisection compares with: a
	 * command workload's names are what its output said, not always UTF-8
	 */
	struct metric_key kept = { utf8_kept(m->name ? m->name : ""),
				   utf8_kept(m->unit ? m->unit : ""), m->better };
	struct metric_key ours = { bi->metric_name, bi->metric_unit, bi->better };
	int rc = 0;

	if (!bi->metric_known) {
		bi->metric_known = true;
		bi->metric_name = (char *)kept.name;
		bi->metric_unit = (char *)kept.unit;
		bi->better = m->better;
		json_object_set_new(bi->record, "metric", json_string(kept.name));
		json_object_set_new(bi->record, "unit", json_string(kept.unit));
		json_object_set_new(bi->record, "better", json_string(better_name(m->better)));
		return 0;
	}
	if (!metric_key_same(&kept, &ours))
		rc = error_set(err, EXIT_ENV, "bisect: %s %.64s in '%.32s', %s is better, where "
			       "the bisection's first measurement stored it in '%.32s', %s is "
			       "better: values in another unit or direction are not compared (%s)",
			       whose, kept.name, kept.unit, better_name(kept.better), ours.unit,
			       better_name(ours.better), fix);
	free((char *)kept.name);
	free((char *)kept.unit);
	return rc;
}

static int session_open(struct bisection *bi, struct session *s, struct error *err)
{
	s->start = time_now();
	s->error_bound = 1;
	for (size_t i = 0; i < s->nr; i++)
		s->runs[i] = bisection_run_name(bi, s->hashes[i]);
	if (s->levels)
		level_choice_init(&s->lc, bi->so.alpha, SEQCS_HUBER);
	else
		/* each of a pair's two verdicts is one-sided: alpha each, as a step's */
		seqcs_init(&s->pair, 2 * bi->so.alpha, SEQCS_HUBER);
	return bi->target->session_open(bi, s, err);
}

static void session_close(struct bisection *bi, struct session *s)
{
	bi->target->session_close(bi, s, s->reason != NULL);
	for (size_t i = 0; i < s->nr; i++) {
		free(s->runs[i]);
		s->runs[i] = NULL;
	}
	if (s->levels)
		level_choice_release(&s->lc);
	else
		seqcs_release(&s->pair);
}

/*
 * A pair's question, for the ends and for the culprit against its parent:
 * is the second worse than the first? WORSE once the sequence rejects no
 * change (in the worse direction); NOT_WORSE once it rejects a change as
 * large as the margin; each wrong at most alpha likely (the sequence is at
 * 2 alpha: each of its one-sided bettors at alpha).
 */
enum pair_verdict { PAIR_UNKNOWN, PAIR_WORSE, PAIR_NOT_WORSE };

static const char *const pair_words[] = { "unknown", "worse", "not worse" };

static enum pair_verdict pair_decide(const struct seqcs *cs, double margin)
{
	if (seqcs_rejects(cs, 0, 1))
		return PAIR_WORSE;
	return seqcs_rejects(cs, margin, -1) ? PAIR_NOT_WORSE : PAIR_UNKNOWN;
}

/* Take one block's values; whether the rule has decided. */
static bool session_add(struct bisection *bi, struct session *s, const double *values)
{
	enum better better = bi->better;

	if (!s->levels) {
		seqcs_add(&s->pair, worse_up(better, values[1]) - worse_up(better, values[0]));
		s->verdict = pair_decide(&s->pair, log1p(bi->so.margin_pct / 100));
		return s->verdict != PAIR_UNKNOWN;
	}
	level_choice_add(&s->lc, worse_up(better, values[1]) - worse_up(better, values[0]),
			 worse_up(better, values[1]) - worse_up(better, values[2]));
	s->verdict = level_choice_decide(&s->lc);
	if (s->verdict != LEVEL_UNDECIDED)
		s->error_bound = bi->so.alpha;
	return s->verdict != LEVEL_UNDECIDED;
}

static void session_run(struct bisection *bi, struct session *s, struct error *err)
{
	int failed_in_a_row = 0;

	sampling_begin(bi->events);
	s->reason = "max-samples";
	while (s->blocks < (size_t)bi->so.max_samples) {
		double values[3];
		char what[160];
		int rc;

		if (sequential_out_of_time(&bi->so, s->start)) {
			s->reason = "max-time";
			break;
		}
		rc = bi->target->block(bi, s, values, err);
		if (rc < 0) {
			s->reason = NULL;
			break;
		}
		if (!rc) {
			if (!s->give_up && ++failed_in_a_row < MAX_FAILED_BLOCKS_IN_A_ROW)
				continue;
			s->reason = "the workload failed";
			break;
		}
		failed_in_a_row = 0;
		s->blocks++;
		snprintf(what, sizeof(what), "[bisect] %s: %zu %s", s->what, s->blocks,
			 bi->target->block_word);
		sampling_progress(bi->events, what, s->blocks, (size_t)bi->so.max_samples);
		if (session_add(bi, s, values)) {
			s->reason = "decided";
			break;
		}
	}
	sampling_end(bi->events);
	s->seconds = time_now() - s->start;
	/* A step always ends for one side: at the cap, the one with more evidence. */
	if (s->levels && s->verdict == LEVEL_UNDECIDED && s->blocks && s->reason &&
	    strcmp(s->reason, "the workload failed")) {
		s->verdict = level_choice_nearer(&s->lc, &s->error_bound);
		if (s->verdict != LEVEL_UNDECIDED)
			s->reason = strcmp(s->reason, "max-time") ? "nearer at max-samples" :
				    "nearer at max-time";
	}
}

/*
 * A worse-up interval of @cs as compare's percent change (+ better), into
 * @obj: the change falls as the worse-up shift grows, so the shift's high
 * end is the change's low one. An end the samples have not bounded yet is
 * null, not the -100 % or infinity it would map to.
 */
static void put_change(const struct bisection *bi, json_t *obj, const struct seqcs *cs)
{
	struct seqcs_interval ci;
	double lo, hi;

	seqcs_interval(cs, &ci);
	lo = isfinite(ci.high) ? worse_up_change_pct(ci.high, bi->better) : NAN;
	hi = isfinite(ci.low) ? worse_up_change_pct(ci.low, bi->better) : NAN;
	json_object_set_new(obj, "change_pct", number_or_null(worse_up_change_pct(ci.estimate,
						bi->better)));
	json_object_set_new(obj, "ci_pct", json_pack("[oo]", number_or_null(lo),
						     number_or_null(hi)));
}

static json_t *session_json(const struct bisection *bi, const struct session *s)
{
	json_t *obj = json_object();
	json_t *runs = json_array();

	for (size_t i = 0; i < s->nr; i++)
		json_array_append_new(runs, json_string(s->runs[i] ? s->runs[i] : ""));
	json_object_set_new(obj, "reason", json_string(s->reason));
	if (*s->failure)
		json_object_set_new(obj, "failure", bisection_text(s->failure));
	json_object_set_new(obj, "blocks", json_integer((json_int_t)s->blocks));
	json_object_set_new(obj, "seconds", json_real(s->seconds));
	json_object_set_new(obj, "runs", runs);
	if (!s->blocks)
		return obj;
	if (!s->levels) {
		put_change(bi, obj, &s->pair);
		return obj;
	}
	put_change(bi, obj, &s->lc.from_good);
	{
		struct seqcs_interval g, b;

		seqcs_interval(&s->lc.from_good, &g);
		seqcs_interval(&s->lc.from_bad, &b);
		/* 0 at the good level, 1 at the bad one */
		json_object_set_new(obj, "position", number_or_null(g.estimate /
								    (g.estimate - b.estimate)));
	}
	return obj;
}

/* ------------------------------------------------------------ the phases */

/* Build @hash: 0, 1 when it does not build (why in @why), -1 with @err. */
static int build(struct bisection *bi, const char *hash, char *why, size_t len,
		 struct error *err)
{
	return bi->target->build(bi, hash, why, len, err);
}

/* The ends must build: a bisection cannot start without them. */
static int build_end(struct bisection *bi, const char *hash, const char *which,
		     struct error *err)
{
	char why[256];
	int rc = build(bi, hash, why, sizeof(why), err);

	if (rc > 0)
		return error_set(err, EXIT_USAGE, "bisect: the %s commit %.12s does not build: %s "
				 "(check --build)", which, hash, why);
	return rc;
}

/* Measure @base against @new as a pair; the session is closed. */
static int measure_pair(struct bisection *bi, const char *what, const char *base,
			const char *new, const char *which_base, const char *which_new,
			json_t **out, struct error *err)
{
	struct session s = { .what = what, .nr = 2 };

	if (build_end(bi, base, which_base, err) || build_end(bi, new, which_new, err))
		return -1;
	snprintf(s.hashes[0], sizeof(s.hashes[0]), "%s", base);
	snprintf(s.hashes[1], sizeof(s.hashes[1]), "%s", new);
	if (!session_open(bi, &s, err))
		session_run(bi, &s, err);
	else
		s.reason = NULL;
	*out = s.reason ? session_json(bi, &s) : NULL;
	if (*out)
		json_object_set_new(*out, "verdict", json_string(pair_words[s.verdict]));
	session_close(bi, &s);
	if (!*out)
		return -1;
	if (!strcmp(s.reason, "the workload failed")) {
		error_set(err, EXIT_USAGE, "bisect: %s (check -p and --build%s)", s.failure,
			  bi->kernel_tree ? ", and the workers' --boot-cmd" : "");
		json_decref(*out);
		return -1;
	}
	return 0;
}

static void finish(struct bisection *bi, const char *result)
{
	set_phase(bi, "finished");
	json_object_set_new(bi->record, "result", json_string(result));
}

int bisection_measure_ends(struct bisection *bi, struct error *err)
{
	enum bisect_outcome outcome;
	json_t *ends;
	const char *verdict;

	if (measure_pair(bi, "good and bad", bi->good, bi->bad, "good", "bad", &ends, err))
		return -1;
	json_object_set_new(bi->record, "ends", ends);
	verdict = json_string_value(json_object_get(ends, "verdict"));
	if (strcmp(verdict, "worse")) {
		finish(bi, "nothing to bisect");
		return bisection_save(bi, false, err);
	}
	if (git_bisect(bi, "start", bi->bad, bi->good, &outcome, err))
		return -1;
	set_phase(bi, outcome == OUTCOME_CULPRIT ? "confirming" : "bisecting");
	if (bisection_save(bi, true, err))
		return -1;
	return outcome == OUTCOME_CULPRIT ? git_bisect_finish(bi, err) : 0;
}

static json_t *step_json(struct bisection *bi, const char *hash)
{
	char *subject = subject_of(bi, hash);
	json_t *step = json_pack("{s:s,s:o}", "commit", hash, "subject", bisection_text(subject));

	free(subject);
	return step;
}

/* Measure the step at @hash: its record, with "verdict" good, bad or skip. */
static json_t *measure_step(struct bisection *bi, const char *hash, size_t number,
			    struct error *err)
{
	struct session s = { .levels = true, .nr = 3 };
	char what[64], why[256];
	json_t *step = step_json(bi, hash), *m;
	int rc;

	snprintf(what, sizeof(what), "step %zu %.12s", number, hash);
	s.what = what;
	rc = build_end(bi, bi->good, "good", err);
	if (!rc)
		rc = build(bi, hash, why, sizeof(why), err);
	if (rc < 0 || (rc == 0 && build_end(bi, bi->bad, "bad", err))) {
		json_decref(step);
		return NULL;
	}
	if (rc > 0) {
		json_object_set_new(step, "verdict", json_string("skip"));
		json_object_set_new(step, "reason", bisection_text(why));
		bi->target->drop(bi, hash);
		return step;
	}
	snprintf(s.hashes[0], sizeof(s.hashes[0]), "%s", bi->good);
	snprintf(s.hashes[1], sizeof(s.hashes[1]), "%s", hash);
	snprintf(s.hashes[2], sizeof(s.hashes[2]), "%s", bi->bad);
	if (!session_open(bi, &s, err))
		session_run(bi, &s, err);
	else
		s.reason = NULL;
	m = s.reason ? session_json(bi, &s) : NULL;
	session_close(bi, &s);
	bi->target->drop(bi, hash);
	if (!m) {
		json_decref(step);
		return NULL;
	}
	json_object_update(step, m);
	json_decref(m);
	json_object_set(step, "run", json_array_get(json_object_get(step, "runs"), 1));
	if (s.verdict == LEVEL_UNDECIDED) {
		json_object_set_new(step, "verdict", json_string("skip"));
		if (*s.failure)
			json_object_set_new(step, "reason", bisection_text(s.failure));
		return step;
	}
	json_object_set_new(step, "verdict", json_string(s.verdict == LEVEL_GOOD ? "good" : "bad"));
	json_object_set_new(step, "error_bound", json_real(s.error_bound));
	return step;
}

/* Tell git the verdict of the recorded step, and record what git says. */
static int tell_git(struct bisection *bi, json_t *step, struct error *err)
{
	const char *verdict = json_string_value(json_object_get(step, "verdict"));
	const char *hash = json_string_value(json_object_get(step, "commit"));
	enum bisect_outcome outcome;

	if (git_bisect(bi, verdict, hash, NULL, &outcome, err))
		return -1;
	json_object_set_new(step, "told", json_true());
	if (outcome == OUTCOME_CULPRIT)
		set_phase(bi, "confirming");
	else if (outcome == OUTCOME_ONLY_SKIPPED)
		finish(bi, "only skipped commits left");
	if (bisection_save(bi, true, err))
		return -1;
	return outcome == OUTCOME_NEXT ? 0 : git_bisect_finish(bi, err);
}

int bisection_steps(struct bisection *bi, struct error *err)
{
	json_t *steps = json_object_get(bi->record, "steps");
	size_t n = json_array_size(steps);

	/* Killed between recording a verdict and telling git: tell it now. */
	if (n && !json_is_true(json_object_get(json_array_get(steps, n - 1), "told")) &&
	    tell_git(bi, json_array_get(steps, n - 1), err))
		return -1;
	while (!strcmp(bisection_state(bi), "bisecting")) {
		struct strbuf head = STRBUF_INIT;
		json_t *step;

		if (git_run(bi->repo_top, &head, err, "rev-parse", "--verify", "BISECT_HEAD",
			    NULL)) {
			strbuf_release(&head);
			return -1;
		}
		step = measure_step(bi, git_chomp(&head), json_array_size(steps) + 1, err);
		strbuf_release(&head);
		if (!step)
			return -1;
		json_object_set_new(step, "told", json_false());
		json_array_append_new(steps, step);
		if (bisection_save(bi, true, err) || tell_git(bi, step, err))
			return -1;
	}
	return 0;
}

/*
 * The culprit and its parent must build to be measured against each
 * other: 0 when both do, 1 with *@c saying which does not, -1.
 */
static int confirmable(struct bisection *bi, const char *parent, const char *culprit,
		       json_t **c, struct error *err)
{
	const char *hashes[] = { parent, culprit }, *which[] = { "its parent", "the culprit" };
	char why[256], reason[400];

	for (size_t i = 0; i < 2; i++) {
		int rc = build(bi, hashes[i], why, sizeof(why), err);

		if (rc <= 0) {
			if (rc < 0)
				return -1;
			continue;
		}
		snprintf(reason, sizeof(reason), "%s %.12s does not build: %s", which[i],
			 hashes[i], why);
		*c = json_pack("{s:s,s:o,s:i}", "verdict", "not measured", "reason",
			       bisection_text(reason), "blocks", 0);
		return 1;
	}
	return 0;
}

int bisection_confirm(struct bisection *bi, struct error *err)
{
	json_t *culprit = json_object_get(bi->record, "culprit"), *c = NULL;
	const char *hash = json_string_value(json_object_get(culprit, "commit"));
	struct strbuf parent = STRBUF_INIT;
	char *spec = xasprintf("%s^1", hash);
	int rc;

	/* killed after the record took the culprit, before git's state was ended */
	if (git_bisect_finish(bi, err))
		return -1;
	rc = git_run(bi->repo_top, &parent, err, "rev-parse", "--verify", spec, NULL);
	free(spec);
	if (!rc) {
		json_object_set_new(culprit, "parent", json_string(git_chomp(&parent)));
		rc = confirmable(bi, git_chomp(&parent), hash, &c, err);
		if (!rc)
			rc = measure_pair(bi, "the culprit against its parent",
					  git_chomp(&parent), hash, "parent", "culprit", &c, err);
	}
	strbuf_release(&parent);
	if (rc < 0)
		return -1;
	json_object_set_new(bi->record, "confirmation", c);
	finish(bi, strcmp(json_string_value(json_object_get(c, "verdict")), "worse") ?
	       "not confirmed" : "confirmed");
	return bisection_save(bi, false, err);
}

bool bisection_confirmed(const struct bisection *bi)
{
	const char *result = record_string(bi, "result");

	return result && !strcmp(result, "confirmed");
}

void bisection_interrupted(struct bisection *bi)
{
	struct error ignored = { 0 };

	bisection_save(bi, false, &ignored);
}

void bisection_failed(struct bisection *bi, const struct error *err)
{
	struct error ignored = { 0 };

	if (!bi->record || !bi->id)
		return;
	/*
	 * A new bisection whose ends do not build or run is refused (exit 2):
	 * there is nothing to resume (it would fail the same way), and its
	 * record goes, as a refusal before the record would leave none. What
	 * the ends measured before the workload failed stays in their runs.
	 */
	if (err->code == EXIT_USAGE && !bi->resume &&
	    !strcmp(bisection_state(bi), "measuring ends")) {
		store_bisection_delete(bi->st, bi->id, &ignored);
		/* nothing to go on with: it is over */
		set_phase(bi, "finished");
		return;
	}
	json_object_set_new(bi->record, "error", bisection_text(err->msg));
	bisection_save(bi, false, &ignored);
}
