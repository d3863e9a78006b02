// SPDX-License-Identifier: GPL-2.0
/*
 * schedperf bisect-step: one step of `git bisect run`. The workload runs on
 * the build at hand, one sample at a time, until a sequential rule decides:
 * 0 good, 1 bad, 125 skip. The rule, the stored ends it decides between
 * and the measurement are experiment/bisect_step.h's; the verdict's line
 * and JSON report/step.h's: this is the command.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/sequential_options.h"
#include "cli/status.h"
#include "cmd/cmd.h"
#include "experiment/bisect_step.h"
#include "report/step.h"
#include "runner/cpulist.h"
#include "runner/iteration.h"
#include "runner/job_env.h"
#include "util/git.h"
#include "util/hash.h"
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
	"--max-time, or three iterations in a row failed or measured the metric\n"
	"as not positive, which has no log). The step is stored as a run named\n"
	"after the current git commit (git rev-parse --short=12 HEAD;\n"
	"HASH-dirty-CHANGES when tracked files have changes, CHANGES a hash of\n"
	"git diff HEAD; then -knobs-ID under --knob or --cpus, ID a hash of them),\n"
	"or --name (for a worker's job, bisect-job-ID). --dry-run checks the\n"
	"arguments and the stored runs, and runs nothing. 'schedperf bisect' runs\n"
	"the whole bisection itself.\n",

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

struct bisect {
	struct bisect_step step;
	const char *workload;
	bool print_verdict, dry_run;
	bool no_commit;		/* dry run outside git, no --name: the step would fail */
	int has_job;		/* run by a worker for job @job */
	int64_t job;
	const char *cpus;	/* --cpus LIST as given, or NULL */
	cpu_set_t cpuset;	/* and as parsed */
};

/*
 * The step's samples stored in the run it is measured against would move
 * that end towards the build at hand, and every later step with it.
 */
static int refuse_reference_name(const struct bisect *b, const char *name,
				 struct error *err)
{
	const char *end = !strcmp(name, b->step.good.run) ? "--good" :
			  b->step.bad.run && !strcmp(name, b->step.bad.run) ? "--bad" : NULL;

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

static const char *const verdict_words[] = { "skip", "good", "bad" };

static void verdict_of(const struct bisect *b, const struct step_outcome *s,
		       struct step_verdict *v)
{
	memset(v, 0, sizeof(*v));
	step_interval(&b->step, s, &v->ci_low_pct, &v->ci_high_pct);
	v->run = b->step.side.run_name;
	v->verdict = verdict_words[s->verdict];
	v->reason = s->reason;
	v->decided = s->verdict != LEVEL_UNDECIDED;
	v->error_bound = s->error_bound;
	v->alpha = b->step.so.alpha;
	v->samples = b->step.side.samples;
	v->metric = b->step.side.metric_name;
	v->better = b->step.side.better;
	v->good = b->step.good.run;
	v->bad = b->step.bad.run;
	v->failed = b->step.side.result.iterations_failed;
	v->last_failure = b->step.side.result.last_failure;
}

static void report(const struct bisect *b, const struct step_outcome *s)
{
	struct step_verdict v;

	verdict_of(b, s, &v);
	if (!global.quiet)
		report_step(b->print_verdict ? stderr : stdout, &v);
	if (b->print_verdict)
		printf("%s\n", v.verdict);
}

/* The verdict its batch keeps (step_hooks). */
static char *verdict_json(void *ctx, const struct step_outcome *s)
{
	struct step_verdict v;

	verdict_of(ctx, s, &v);
	return step_verdict_json(&v);
}

static void print_dry_run(const struct bisect *b, const char *name)
{
	const struct bisect_step *st = &b->step;

	printf("bisect-step: %s %s%s%s, metric %s (%s is better), against %s%s%s; "
	       "alpha %g, margin %g%%, at most %d samples; run: %s\n"
	       "dry run: nothing was run\n", b->workload,
	       st->side.plan.items[0].params_json, b->cpus ? " on CPUs " : "",
	       b->cpus ? b->cpus : "", st->side.metric_name,
	       better_name(st->side.better), st->good.run, st->bad.run ? " and " : "",
	       st->bad.run ? st->bad.run : "", st->so.alpha, st->so.margin_pct,
	       st->so.max_samples, name ? name : b->no_commit ? "none: not inside a git "
	       "repository here, so the step needs --name" : "the git commit at run time");
}

static int parse_arguments(int argc, char **argv, struct bisect *b);

/* The run of bisect-step job @id (job_env_name_free()): its --name, else bisect-job-ID. */
static char *job_run_name(int argc, char **argv, int64_t id)
{
	struct global_options saved = global;
	struct bisect other = { .step.so = SEQUENTIAL_DEFAULTS };
	char *name = NULL;

	bisect_step_init(&other.step);
	optind = 0;
	if (!parse_arguments(argc, argv, &other))
		name = other.step.so.name ? xstrdup(other.step.so.name) :
		       xasprintf("bisect-job-%lld", (long long)id);
	global = saved;
	bisect_step_release(&other.step);
	return name;
}

/*
 * Submit's check of a job given a --name: no other queued or running
 * bisect-step job stores its steps in that run (--repeat N is refused in
 * choose_name()). Two submits at once may both pass.
 */
static int check_job_name(const char *name, struct error *err)
{
	struct store *st = NULL;
	int rc;

	if (store_open_existing(global.db, &st, err))
		return -1;
	rc = job_env_name_free(st, "bisect-step", name, job_run_name, err);
	store_close(st);
	return rc;
}

/* What a step stopped by a signal kept: its batch, incomplete, of the iterations it stored. */
static int say_interrupted(const struct bisect *b)
{
	const struct runner_result *r = &b->step.side.result;

	if (!r->batch_id)
		return command_interrupted("nothing was stored");
	return command_interrupted("%zu completed iterations are kept; batch %lld of run '%s' "
				   "is marked incomplete", r->iterations_done,
				   (long long)r->batch_id, b->step.side.run_name);
}

static int run_step(struct bisect *b, const char *name)
{
	static const int codes[] = { BISECT_SKIP, BISECT_GOOD, BISECT_BAD };
	struct sampling_events events;
	struct status_line sl;
	struct step_hooks hooks = { &events, verdict_json, b };
	struct error err = { 0 };
	struct step_outcome s;
	int code;

	/* an ab's run takes no step's batch: refused before the step, dry run alike */
	if (bisect_step_load_ends(&b->step, global.db, &err) ||
	    (name && store_check_run_own(global.db, name, &err)) ||
	    (b->step.so.name && job_env_check_jobs() && check_job_name(name, &err))) {
		error_report(&err);
		return BISECT_ERROR;
	}
	if (b->dry_run) {
		print_dry_run(b, name);
		return EXIT_OK;
	}
	status_events(&events, &sl, b->step.so.max_time);
	if (bisect_step_measure(&b->step, global.db, name, &hooks, &s, &err))
		code = (error_report(&err), BISECT_ERROR);
	else if (iteration_interrupted())
		code = say_interrupted(b);
	else if (!s.reason)
		code = (error_report(&err), BISECT_ERROR);
	else
		code = (report(b, &s), b->print_verdict ? EXIT_OK : codes[s.verdict]);
	step_outcome_release(&s);
	return code;
}

static int add_knob(const struct cmd_option *opt, const char *arg)
{
	struct bisect_step *st = &((struct bisect *)opt->value)->step;

	st->knob_specs = xreallocarray(st->knob_specs, st->nr_knob_specs + 1, sizeof(char *));
	st->knob_specs[st->nr_knob_specs++] = arg;
	return command_check_utf8("bisect-step", "knob", arg);
}

static int set_cpus(const struct cmd_option *opt, const char *arg)
{
	struct bisect *b = opt->value;
	struct error err = { 0 };

	if (cpulist_parse(arg, "--cpus", &b->cpuset, &err))
		return error_report(&err);
	b->cpus = arg;
	return 0;
}

static int set_print_verdict(const struct cmd_option *opt, const char *arg)
{
	*(bool *)opt->value = true;
	return 0;
}

/* The options and operands: 0, -1 after --help, else the exit code (said). */
static int parse_arguments(int argc, char **argv, struct bisect *b)
{
	struct bisect_step *st = &b->step;
	struct cmd_option options[] = {
		SEQUENTIAL_OPTIONS(&st->so),
		OPT_STRING(0, "good", &st->good.run, "RUN", "the stored run of a good build "
			   "(required)"),
		OPT_STRING(0, "bad", &st->bad.run, "RUN", "the stored run of a bad build: decide "
			   "which of the two the build behaves like"),
		OPT_STRING(0, "name", &st->so.name, "NAME", "store the step as run NAME (default: "
			   "the current git commit)"),
		OPT_CALLBACK(0, "print-verdict", &b->print_verdict, NULL, "print good, bad or "
			     "skip and exit 0, for a kernel bisection's boot script",
			     set_print_verdict),
		OPT_CALLBACK(0, "knob", b, "SPEC", "change a setting of the machine, the "
			     "environment or the workload's tasks for the step, as ab's SPEC "
			     "(see 'schedperf help ab'); journalled, put back after",
			     add_knob),
		OPT_CALLBACK(0, "cpus", b, "LIST", "run the workload's tasks on these CPUs "
			     "(0-3,8); the step's batch records them (knob.cpus)", set_cpus),
		OPT_BOOL(0, "dry-run", &b->dry_run, "check the arguments and the stored runs; "
			 "run and store nothing"),
		OPT_END(),
	};
	bool given_max;
	int code;

	st->so.max_samples = 0;		/* not given: the option's range starts at 1 */
	if (parse_options(argc, argv, options, &bisect_usage, &code))
		return code ? code : -1;
	given_max = st->so.max_samples != 0;
	if (!given_max)
		st->so.max_samples = SEQUENTIAL_DEFAULT_MAX_SAMPLES;
	if (optind + 1 != argc || !st->good.run)
		return command_usage_error("bisect-step", optind >= argc ? "no workload given" :
					   optind + 1 < argc ? "one workload at a time" :
					   "--good RUN is required: the stored run of a good build");
	if ((code = sequential_check_max_samples("bisect-step", &st->so, given_max)) ||
	    (code = sequential_check_utf8("bisect-step", &st->so)) ||
	    (st->so.name && (code = command_check_unreserved("bisect-step", st->so.name, ""))) ||
	    (code = command_check_utf8("bisect-step", "run name", st->good.run)) ||
	    (st->bad.run && (code = command_check_utf8("bisect-step", "run name", st->bad.run))))
		return code;
	b->workload = argv[optind];
	return 0;
}

/* The step's benchmark of the workload, under its knobs. */
static int prepare(struct bisect *b, struct error *err)
{
	struct bisect_step *st = &b->step;
	const struct workload *w = workload_find(b->workload);
	int rc;

	if (!w)
		return error_set(err, EXIT_USAGE, "unknown workload '%.64s': not one of "
				 "schedperf's workloads (see 'schedperf list')", b->workload);
	b->workload = w->name;
	/* the plan's checks count the CPUs the tasks will have: refused before a batch */
	if (b->cpus)
		workload_pin_cpus(&b->cpuset);
	/* the knobs first: the workload's checks look in the PATH they give */
	if (knob_session_parse(&st->ks, &st->knobs, (char *const *)st->knob_specs,
			       st->nr_knob_specs, "bisect-step: --knob", err))
		return -1;
	workload_search_path(knobs_env(&st->knobs, "PATH"), "bisect-step --knob");
	rc = side_prepare(&st->side, w, (char *const *)st->so.params, st->so.nr_params,
			  st->so.metric, err);
	workload_search_path(NULL, NULL);
	if (rc || (b->has_job = job_env_id(&b->job, err)) < 0)
		return -1;
	if (b->cpus) {
		st->side.cpus = b->cpuset;
		st->side.opt.cpus = &st->side.cpus;
		if (knob_session_cpus(&st->ks, 0, b->cpus, "bisect-step: --cpus ", err))
			return -1;
	}
	st->side.opt.task = knob_session_task(&st->ks, 0);
	st->side.opt.knob_env = knob_session_describe(&st->ks, 0);
	return 0;
}

/*
 * A step under --knob or --cpus is another configuration of the build:
 * its default run is the commit's told apart by them, -knobs-ID, ID 8 hex
 * digits of a hash of the knobs and the CPUs, so that steps of one commit
 * under different settings never pool their samples in one run.
 */
static void add_knobs_id(const struct bisect *b, char *buf, size_t len)
{
	uint64_t h;
	char *cpus;
	size_t used = strlen(buf);

	if (!b->step.knobs.nr && !b->cpus)
		return;
	h = knobs_hash(&b->step.knobs, FNV1A_INIT);
	if (b->cpus) {
		cpus = cpulist_format(&b->cpuset);
		h = fnv1a(h, "cpus\t", 5);
		h = fnv1a(h, cpus, strlen(cpus));
		free(cpus);
	}
	snprintf(buf + used, len - used, "-knobs-%08" PRIx64, h >> 32);
}

/*
 * The run the step is stored in: --name; a job's bisect-job-ID; else the
 * commit's (step_name()). NULL, with b->no_commit, for a dry run outside
 * git. -1 with @err.
 */
static int choose_name(struct bisect *b, char *buf, size_t len, const char **name,
		       struct error *err)
{
	bool dirty = false;

	*name = b->step.so.name;
	if (*name && job_env_check_jobs() > 1)
		return error_set(err, EXIT_USAGE, "bisect-step: --name %.128s with --repeat %d: "
				 "the jobs would pool their samples in one run (give each job its "
				 "own --name, or no --name: bisect-job-ID)", *name,
				 job_env_check_jobs());
	if (!*name && b->has_job) {
		snprintf(buf, len, "bisect-job-%lld", (long long)b->job);
		*name = buf;
	} else if (!*name) {
		/* A dry run says what the step would be named, or that it cannot be. */
		if (!step_name(buf, len, &dirty, err)) {
			add_knobs_id(b, buf, len);
			*name = buf;
		}
		else if (b->dry_run)
			b->no_commit = true;
		else
			return -1;
	}
	if (*name && refuse_reference_name(b, *name, err))
		return -1;
	if (dirty && !global.quiet && !b->dry_run)
		fprintf(stderr, "schedperf: bisect-step: the work tree has changes to tracked "
			"files: the step is stored as run %s\n", *name);
	return 0;
}

int cmd_bisect_step(int argc, char **argv)
{
	struct bisect b = { .step.so = SEQUENTIAL_DEFAULTS };
	struct error err = { 0 };
	char buf[64];
	const char *name;
	int code;

	bisect_step_init(&b.step);
	code = parse_arguments(argc, argv, &b);
	if (code) {
		code = code < 0 ? EXIT_OK : BISECT_ERROR;
	} else if (prepare(&b, &err) || choose_name(&b, buf, sizeof(buf), &name, &err)) {
		error_report(&err);
		code = BISECT_ERROR;
	} else {
		code = run_step(&b, name);
	}
	bisect_step_release(&b.step);
	return code;
}
