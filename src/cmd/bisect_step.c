// SPDX-License-Identifier: GPL-2.0
/*
 * schedperf bisect-step: one step of `git bisect run`. The workload runs on
 * the build at hand, one sample at a time, until a sequential rule decides:
 * 0 good, 1 bad, 125 skip.
 *
 * With --good and --bad the step chooses between the two stored levels
 * (stats/level_choice.h, psi = sign, so about medians, which needs no
 * symmetry): BAD once the build's median is shown above the good median's
 * upper bound, GOOD once it is shown below the bad median's lower bound,
 * those bounds the stored runs' order-statistic intervals at alpha/2 each
 * side (stats/median_ci.h), so that the stored runs' own uncertainty is in
 * the decision and each wrong answer has probability at most alpha. Such
 * a step always ends; at --max-samples the side with more evidence is the
 * answer, with its error bound said. With --good alone the question is the
 * margin rule's (margin_decide()), which cannot always be decided: when the
 * stored run is too small or too noisy for it, the step says so before it
 * samples anything.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/sequential_options.h"
#include "cli/status.h"
#include "cmd/cmd.h"
#include "monitor/monitor.h"
#include "report/step.h"
#include "runner/iteration.h"
#include "runner/job_env.h"
#include "runner/knob_guard.h"
#include "runner/knob_session.h"
#include "stats/level_choice.h"
#include "stats/median_ci.h"
#include "util/git.h"
#include "util/xalloc.h"

static const struct cmd_usage bisect_usage = {
	"usage: schedperf bisect-step WORKLOAD [-p KEY=VALUE]... --good RUN [--bad RUN]\n"
	"                             [options]\n"
	"\n"
	"One step of 'git bisect run': sample WORKLOAD on the build at hand until a\n"
	"sequential rule decides. With --bad: whether it behaves like the stored run\n"
	"of the good build or like the bad one's, each wrong answer at most --alpha\n"
	"likely; always decided (at --max-samples, for the side with more evidence).\n"
	"With --good alone: whether it is worse than good by more than --margin.\n"
	"Exit 0 good, 1 bad, 125 skip (--good alone undecided at --max-samples or\n"
	"--max-time, or the workload failed). The step is stored as a run named\n"
	"after the current git commit (git rev-parse --short=12 HEAD;\n"
	"HASH-dirty-CHANGES when tracked files have changes, CHANGES a hash of\n"
	"git diff HEAD), or --name (for a worker's job,\n"
	"bisect-job-ID). --dry-run checks the arguments and the stored runs, and\n"
	"runs nothing. 'schedperf bisect' runs the whole bisection itself.\n",

	"Errors (bad input, a missing resource) print one line and exit 255, which\n"
	"stops git bisect run rather than marking the commit bad. With\n"
	"--print-verdict the word good, bad or skip goes to standard output and the\n"
	"exit status is 0: a boot script of a kernel bisection passes it to 'git\n"
	"bisect' itself (see schedperf(1)).\n",
};

/* What git bisect run reads; errors must stop it, not mark a commit bad. */
enum bisect_exit {
	BISECT_GOOD = 0,
	BISECT_BAD = 1,
	BISECT_SKIP = 125,
	BISECT_ERROR = 255,
};

/* One stored end: its samples (worse-is-up logs, sorted), median and its bounds. */
struct stored_end {
	const char *run;
	double *x;
	size_t n;
	double median, low, high;	/* low, high: at alpha/2 each side */
};

struct bisect {
	struct sequential_options so;
	const char *workload;
	struct stored_end good, bad;	/* bad.run NULL: the margin rule */
	bool print_verdict, dry_run;
	bool no_commit;		/* dry run outside git, no --name: the step would fail */
	struct sample_side side;
	double margin;		/* log(1 + --margin / 100) */
	const char **knob_specs;	/* --knob SPECs */
	size_t nr_knob_specs;
	struct knob_list knobs;
	struct knob_session ks;
	struct error put_back_err;
};

/* A worse-is-up log shift as compare's percent change, + better. */
static double shift_pct(const struct bisect *b, double shift)
{
	return worse_up_change_pct(shift, b->side.better);
}

static int compare_doubles(const void *x, const void *y)
{
	double a = *(const double *)x, c = *(const double *)y;

	return (a > c) - (a < c);
}

/* Every measured positive sample of the run's benchmark like ours, sorted. */
static int load_samples(struct store *st, const struct bisect *b, struct stored_end *end,
			struct error *err)
{
	const struct plan_item *item = &b->side.plan.items[0];
	struct result_set set = { NULL, 0 };

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

				if (strcmp(rm->name, b->side.metric_name))
					continue;
				end->x = xreallocarray(end->x, end->n + rm->nr_samples + 1,
						       sizeof(double));
				for (size_t k = 0; k < rm->nr_samples; k++)
					if (rm->samples[k] > 0 && isfinite(rm->samples[k]))
						end->x[end->n++] = worse_up(b->side.better,
									    rm->samples[k]);
			}
		}
	result_set_release(&set);
	qsort(end->x, end->n, sizeof(double), compare_doubles);
	return 0;
}

/* Load @end and bound its median at 1 - alpha (alpha/2 on each side). */
static int load_end(struct store *st, const struct bisect *b, struct stored_end *end,
		    struct error *err)
{
	const double *x;

	if (load_samples(st, b, end, err))
		return -1;
	x = end->x;
	if (median_ci(x, end->n, 1 - b->so.alpha, &end->low, &end->high))
		return error_set(err, EXIT_USAGE, "bisect-step: run '%.64s' has %zu samples of %s "
				 "for this benchmark, too few for a median interval at %g (run "
				 "more iterations, e.g. -i 20, or check -p)", end->run, end->n,
				 b->side.metric_name, 1 - b->so.alpha);
	end->median = end->n % 2 ? x[end->n / 2] : (x[end->n / 2 - 1] + x[end->n / 2]) / 2;
	return 0;
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
static double margin_samples(const struct bisect *b, double margin)
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
static int check_margin_decidable(const struct bisect *b, struct error *err)
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
static int check_levels_decidable(const struct bisect *b, struct error *err)
{
	const struct stored_end *g = &b->good, *bad = &b->bad;
	double need;

	if (!strcmp(g->run, bad->run))
		return error_set(err, EXIT_USAGE, "bisect-step: --good and --bad name the same run "
				 "'%.64s' (give the good build's run and the bad one's)", g->run);
	if (bad->median < g->median)
		return error_set(err, EXIT_USAGE, "bisect-step: run '%.64s' is better than '%.64s', "
				 "not worse: nothing to bisect as a regression (check which run is "
				 "which)", bad->run, g->run);
	if (bad->median - g->median <= b->margin)
		return error_set(err, EXIT_USAGE, "bisect-step: the medians of runs '%.64s' and "
				 "'%.64s' differ by %.1f%%, within --margin %g%%: nothing to bisect at "
				 "this margin (or store more samples of each, if more is hidden in "
				 "their spread)", bad->run, g->run,
				 fabs(shift_pct(b, bad->median - g->median)), b->so.margin_pct);
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

static int load_runs(struct store *st, struct bisect *b, struct error *err)
{
	b->margin = log1p(b->so.margin_pct / 100);
	if (load_end(st, b, &b->good, err))
		return -1;
	if (!b->bad.run)
		return check_margin_decidable(b, err);
	if (load_samples(st, b, &b->bad, err))
		return -1;
	if (!b->bad.n)
		return error_set(err, EXIT_USAGE, "bisect-step: run '%.64s' has no sample of %s "
				 "for this benchmark (check -p and --metric)", b->bad.run,
				 b->side.metric_name);
	b->bad.n = 0;
	free(b->bad.x);
	b->bad.x = NULL;
	return load_end(st, b, &b->bad, err) || check_levels_decidable(b, err);
}

/*
 * The step's samples stored in the run it is measured against would move
 * that end towards the build at hand, and every later step with it.
 */
static int refuse_reference_name(const struct bisect *b, const char *name,
				 struct error *err)
{
	const char *end = !strcmp(name, b->good.run) ? "--good" :
			  b->bad.run && !strcmp(name, b->bad.run) ? "--bad" : NULL;

	if (!end)
		return 0;
	return error_set(err, EXIT_USAGE, "bisect-step: the step would be stored in run '%s', "
			 "the %s run it is measured against (give another --name)", name, end);
}

/*
 * The run the step is stored as: the current commit, HASH-dirty-CHANGES
 * when tracked files have changes (what was measured is not the commit;
 * CHANGES tells two sets of changes apart, and names the same set alike).
 */
static int step_name(char *buf, size_t len, bool *dirty, struct error *err)
{
	struct strbuf out = STRBUF_INIT;
	int rc = git_run(NULL, &out, err, "rev-parse", "--short=12", "HEAD", NULL);
	char changes[9];

	if (rc || !*git_chomp(&out) || git_changes_id(NULL, changes, err)) {
		strbuf_release(&out);
		return error_set(err, EXIT_USAGE, "bisect-step: not inside a git repository, or "
				 "git is missing: the step has no commit to be named after (give "
				 "--name)");
	}
	*dirty = *changes;
	snprintf(buf, len, "%s%s%s", out.buf, *dirty ? "-dirty-" : "", changes);
	strbuf_release(&out);
	return 0;
}

/* What the step's samples say, as it goes. */
struct step {
	struct seqcs cs;		/* the build's median (sign, at alpha) */
	struct level_choice lc;		/* with --bad */
	enum level_verdict verdict;
	const char *reason;		/* NULL: an error stopped the step */
	double error_bound;		/* the verdict's chance of being wrong */
};

static void step_init(struct step *s, const struct bisect *b)
{
	memset(s, 0, sizeof(*s));
	seqcs_init(&s->cs, b->so.alpha, 0);
	level_choice_init(&s->lc, b->so.alpha / 2, 0);
	s->error_bound = 1;
}

static void step_release(struct step *s)
{
	seqcs_release(&s->cs);
	level_choice_release(&s->lc);
}

static enum level_verdict step_add(struct step *s, const struct bisect *b, double x)
{
	seqcs_add(&s->cs, x);
	if (!b->bad.run)
		return margin_decide(&s->cs, b->good.low, b->good.high, b->margin);
	level_choice_add(&s->lc, x - b->good.high, x - b->bad.low);
	return level_choice_decide(&s->lc);
}

#define MAX_FAILURES_IN_A_ROW 3

static void sample(struct bisect *b, struct step *s, struct error *err)
{
	struct status_line sl;
	int failures = 0;

	status_init(&sl);
	s->reason = "max-samples";
	while (b->side.samples < (size_t)b->so.max_samples) {
		double value;
		char what[128];
		int rc;

		if (sequential_out_of_time(&b->so, sl.start)) {
			s->reason = "max-time";
			break;
		}
		rc = side_sample(&b->side, &value, err);
		if (rc < 0) {
			s->reason = NULL;
			break;
		}
		if (!rc) {
			if (++failures < MAX_FAILURES_IN_A_ROW)
				continue;
			s->reason = "the workload failed";
			break;
		}
		failures = 0;
		s->verdict = step_add(s, b, worse_up(b->side.better, value));
		snprintf(what, sizeof(what), "[bisect-step] %s: %zu samples", b->side.run_name,
			 b->side.samples);
		status_show(&sl, what, b->side.samples, (size_t)b->so.max_samples, b->so.max_time);
		if (s->verdict != LEVEL_UNDECIDED) {
			s->reason = "decided";
			s->error_bound = b->so.alpha;
			break;
		}
	}
	status_end(&sl);
	/* Both ends known: the cap ends the step for the side with more evidence. */
	if (s->verdict == LEVEL_UNDECIDED && b->bad.run && s->reason &&
	    strcmp(s->reason, "the workload failed") && b->side.samples) {
		s->verdict = level_choice_nearer(&s->lc, &s->error_bound);
		/* the stored ends' bounds may be wrong too, with alpha/2 */
		s->error_bound = fmin(1, s->error_bound + b->so.alpha / 2);
		if (s->verdict != LEVEL_UNDECIDED)
			s->reason = strcmp(s->reason, "max-time") ? "nearer at max-samples" :
				    "nearer at max-time";
	}
}

static const char *const verdict_words[] = { "skip", "good", "bad" };

/* The interval of the change against good, percent (+ is better), low to high. */
static void step_interval(const struct bisect *b, const struct step *s, double *lo, double *hi)
{
	struct seqcs_interval ci;
	double x, y;

	seqcs_interval(&s->cs, &ci);
	x = shift_pct(b, ci.low - b->good.high);
	y = shift_pct(b, ci.high - b->good.low);
	*lo = fmin(x, y);
	*hi = fmax(x, y);
}

static void verdict_of(const struct bisect *b, const struct step *s, struct step_verdict *v)
{
	memset(v, 0, sizeof(*v));
	step_interval(b, s, &v->ci_low_pct, &v->ci_high_pct);
	v->run = b->side.run_name;
	v->verdict = verdict_words[s->verdict];
	v->reason = s->reason;
	v->decided = s->verdict != LEVEL_UNDECIDED;
	v->error_bound = s->error_bound;
	v->alpha = b->so.alpha;
	v->samples = b->side.samples;
	v->metric = b->side.metric_name;
	v->better = b->side.better;
	v->good = b->good.run;
	v->bad = b->bad.run;
	v->failed = b->side.result.iterations_failed;
	v->last_failure = b->side.result.last_failure;
}

static void report(const struct bisect *b, const struct step *s)
{
	struct step_verdict v;

	verdict_of(b, s, &v);
	if (!global.quiet)
		report_step(b->print_verdict ? stderr : stdout, &v);
	if (b->print_verdict)
		printf("%s\n", v.verdict);
}

/* What the --knob SPECs changed put back; -1 (why: b->put_back_err) when something stays. */
static int put_back(struct bisect *b, struct store *st)
{
	if (!b->nr_knob_specs)
		return 0;
	return knob_session_end(&b->ks, st, &b->put_back_err);
}

static int run_step(struct bisect *b, const char *name)
{
	static const int codes[] = { BISECT_SKIP, BISECT_GOOD, BISECT_BAD };
	struct monitor_set *ms = NULL;
	struct store *st = NULL;
	struct error err = { 0 };
	struct step s;
	int code;

	/* The stored runs first, read only: a mistyped --db or run creates nothing. */
	if (store_open_existing(global.db, &st, &err) || load_runs(st, b, &err)) {
		store_close(st);
		error_report(&err);
		return BISECT_ERROR;
	}
	store_close(st);
	st = NULL;
	if (b->dry_run) {
		printf("bisect-step: %s %s, metric %s (%s is better), against %s%s%s; "
		       "alpha %g, margin %g%%, at most %d samples; run: %s\n"
		       "dry run: nothing was run\n", b->workload,
		       b->side.plan.items[0].params_json, b->side.metric_name,
		       better_name(b->side.better), b->good.run, b->bad.run ? " and " : "",
		       b->bad.run ? b->bad.run : "", b->so.alpha, b->so.margin_pct,
		       b->so.max_samples, name ? name : b->no_commit ? "none: not inside a git "
		       "repository here, so the step needs --name" : "the git commit at run time");
		return EXIT_OK;
	}
	/* The knobs before the store: a value the kernel refuses writes nothing. */
	if ((b->nr_knob_specs && knob_session_start(&b->ks, &err)) ||
	    store_open(global.db, &st, &err) || job_env_attach(st, &err) ||
	    (b->nr_knob_specs ? knob_session_copy(&b->ks, st, &err) :
	     knob_guard_measure(st, &err)) ||
	    monitors_open(MONITORS_DEFAULT, NULL, &ms, &err)) {
		put_back(b, st);
		store_close(st);
		error_report(&err);
		return BISECT_ERROR;
	}
	iteration_install_signal_handlers();
	step_init(&s, b);
	if (side_open(&b->side, st, name, &b->so, ms, &err))
		s.reason = NULL;
	else
		sample(b, &s, &err);
	if (b->side.result.batch_id) {
		struct step_verdict v;
		char *result = NULL;

		if (s.reason) {
			verdict_of(b, &s, &v);
			result = step_verdict_json(&v);
		}

		/* The job, if any, is done only with its verdict stored: else it is an error. */
		if (store_batches_finish(st, &b->side.result.batch_id, 1, s.reason != NULL, result,
					 &err) && s.reason)
			s.reason = NULL;
		free(result);
	}
	monitors_close(ms);
	if (put_back(b, st) && s.reason) {
		s.reason = NULL;
		err = b->put_back_err;
	}
	store_close(st);
	if (iteration_interrupted())
		code = 128 + iteration_interrupted();
	else if (!s.reason)
		code = (error_report(&err), BISECT_ERROR);
	else
		code = (report(b, &s), b->print_verdict ? EXIT_OK : codes[s.verdict]);
	step_release(&s);
	return code;
}

static int add_knob(const struct cmd_option *opt, const char *arg)
{
	struct bisect *b = opt->value;

	b->knob_specs = xreallocarray(b->knob_specs, b->nr_knob_specs + 1, sizeof(char *));
	b->knob_specs[b->nr_knob_specs++] = arg;
	return command_check_utf8("bisect-step", "knob", arg);
}

static int set_print_verdict(const struct cmd_option *opt, const char *arg)
{
	*(bool *)opt->value = true;
	return 0;
}

int cmd_bisect_step(int argc, char **argv)
{
	struct bisect b = { .so = SEQUENTIAL_DEFAULTS };
	struct cmd_option options[] = {
		SEQUENTIAL_OPTIONS(&b.so),
		OPT_STRING(0, "good", &b.good.run, "RUN", "the stored run of a good build "
			   "(required)"),
		OPT_STRING(0, "bad", &b.bad.run, "RUN", "the stored run of a bad build: decide "
			   "which of the two the build behaves like"),
		OPT_STRING(0, "name", &b.so.name, "NAME", "store the step as run NAME (default: "
			   "the current git commit)"),
		OPT_CALLBACK(0, "print-verdict", &b.print_verdict, NULL, "print good, bad or "
			     "skip and exit 0, for a kernel bisection's boot script",
			     set_print_verdict),
		OPT_CALLBACK(0, "knob", &b, "SPEC", "change a setting of the machine, the "
			     "environment or the workload's tasks for the step, as ab's SPEC "
			     "(see 'schedperf help ab'); journalled, put back after",
			     add_knob),
		OPT_BOOL(0, "dry-run", &b.dry_run, "check the arguments and the stored runs; "
			 "run and store nothing"),
		OPT_END(),
	};
	const struct workload *w;
	struct error err = { 0 };
	char commit[64];
	const char *name;
	bool dirty = false;
	int64_t job;
	int code, has_job = 0;

	knob_session_init(&b.ks, 1, "bisect-step");
	if (parse_options(argc, argv, options, &bisect_usage, &code)) {
		code = code ? BISECT_ERROR : EXIT_OK;
		goto out;
	}
	code = BISECT_ERROR;
	if (optind + 1 != argc || !b.good.run) {
		command_usage_error("bisect-step", optind >= argc ? "no workload given" :
				    optind + 1 < argc ? "one workload at a time" :
				    "--good RUN is required: the stored run of a good build");
		goto out;
	}
	if (b.so.max_samples < seqcs_min_samples(b.so.alpha)) {
		command_usage_error("bisect-step", "--max-samples %d is too few at --alpha %g: no "
				    "verdict can come in fewer than %d (give at least that)",
				    b.so.max_samples, b.so.alpha, seqcs_min_samples(b.so.alpha));
		goto out;
	}
	if (sequential_check_utf8("bisect-step", &b.so) ||
	    command_check_utf8("bisect-step", "run name", b.good.run) ||
	    (b.bad.run && command_check_utf8("bisect-step", "run name", b.bad.run)))
		goto out;
	if (!(w = workload_find(argv[optind]))) {
		die_code(EXIT_USAGE, "unknown workload '%.64s': not one of schedperf's workloads "
			 "(see 'schedperf list')", argv[optind]);
		goto out;
	}
	if (side_prepare(&b.side, w, (char *const *)b.so.params, b.so.nr_params, b.so.metric,
			 &err) || (has_job = job_env_id(&job, &err)) < 0 ||
	    knob_session_parse(&b.ks, &b.knobs, (char *const *)b.knob_specs, b.nr_knob_specs,
			       "bisect-step: --knob", &err)) {
		error_report(&err);
		goto out;
	}
	b.side.opt.task = knob_session_task(&b.ks, 0);
	b.side.opt.knob_env = knob_session_describe(&b.ks, 0);
	name = b.so.name;
	if (!name && has_job) {
		snprintf(commit, sizeof(commit), "bisect-job-%lld", (long long)job);
		name = commit;
	} else if (!name) {
		/* A dry run says what the step would be named, or that it cannot be. */
		if (!step_name(commit, sizeof(commit), &dirty, &err)) {
			name = commit;
		} else if (b.dry_run) {
			b.no_commit = true;
		} else {
			error_report(&err);
			goto out;
		}
	}
	if (name && refuse_reference_name(&b, name, &err)) {
		error_report(&err);
		goto out;
	}
	if (dirty && !global.quiet && !b.dry_run)
		fprintf(stderr, "schedperf: bisect-step: the work tree has changes to tracked "
			"files: the step is stored as run %s\n", name);
	b.workload = w->name;
	code = run_step(&b, name);
out:
	free(b.good.x);
	free(b.bad.x);
	side_release(&b.side);
	knob_session_release(&b.ks);
	knobs_release(&b.knobs);
	free(b.knob_specs);
	free(b.so.params);
	return code;
}
