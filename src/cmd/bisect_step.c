// SPDX-License-Identifier: GPL-2.0
/*
 * schedperf bisect-step: one step of `git bisect run`. The workload runs on
 * the build at hand, one sample at a time, until the sequential procedure
 * (stats/sequential.h, with psi = sign: a confidence sequence for the
 * median that needs no symmetry) places its median clearly below or above
 * a threshold relative to the stored good run: 0 good, 1 bad, 125 skip.
 *
 * The good run's median is uncertain too, with a fixed sample: its
 * order-statistic interval at 1 - alpha/2 (stats/median_ci.h) widens the
 * sequence's interval at alpha/2, so that a step is wrong with
 * probability at most alpha. The threshold is --margin above good, or,
 * with a bad run, half-way between good and bad.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "cmd/cmd.h"
#include "cmd/job_env.h"
#include "cmd/sampling.h"
#include "monitor/monitor.h"
#include "runner/iteration.h"
#include "stats/median_ci.h"
#include "util/xalloc.h"

static const struct cmd_usage bisect_usage = {
	"usage: schedperf bisect-step WORKLOAD [-p KEY=VALUE]... --good RUN [--bad RUN]\n"
	"                             [options]\n"
	"\n"
	"One step of 'git bisect run': sample WORKLOAD on the build at hand until its\n"
	"median is clearly on one side of a threshold relative to the stored run\n"
	"RUN: --margin percent worse than it, or with --bad half-way to that run.\n"
	"Exit 0 good (not worse), 1 bad, 125 skip (undecided at --max-samples or\n"
	"--max-time, or the workload failed). The step is stored as a run named\n"
	"after the current git commit (git rev-parse --short=12 HEAD), or --name\n"
	"(for a worker's job, bisect-job-ID). --dry-run checks the arguments and\n"
	"the stored runs, and runs nothing.\n",

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
	struct sequential_options so;
	const char *workload, *good, *bad;
	bool print_verdict, dry_run;
	bool no_commit;		/* dry run outside git, no --name: the step would fail */
	struct sample_side side;
	double good_low, good_high;	/* the good median's interval, worse-is-up logs */
	double good_median, threshold;	/* worse-is-up log of the good median; tau */
};

/* Logs with worse upwards, whichever direction the metric has. */
static double worse_up(const struct bisect *b, double value)
{
	return b->side.better == BETTER_HIGHER ? -log(value) : log(value);
}

static int compare_doubles(const void *x, const void *y)
{
	double a = *(const double *)x, c = *(const double *)y;

	return (a > c) - (a < c);
}

/* Every measured positive sample of the run's benchmark like ours, sorted. */
static int load_reference(struct store *st, const struct bisect *b, const char *run,
			  double **out, size_t *n, struct error *err)
{
	const struct plan_item *item = &b->side.plan.items[0];
	struct result_set set = { NULL, 0 };

	*out = NULL;
	*n = 0;
	if (store_load(st, run, true, &set, err))
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
				*out = xreallocarray(*out, *n + rm->nr_samples + 1, sizeof(double));
				for (size_t k = 0; k < rm->nr_samples; k++)
					if (rm->samples[k] > 0 && isfinite(rm->samples[k]))
						(*out)[(*n)++] = worse_up(b, rm->samples[k]);
			}
		}
	result_set_release(&set);
	qsort(*out, *n, sizeof(double), compare_doubles);
	return 0;
}

static int load_runs(struct store *st, struct bisect *b, struct error *err)
{
	double *x = NULL;
	size_t n;
	int rc = -1;

	if (load_reference(st, b, b->good, &x, &n, err))
		goto out;
	if (median_ci(x, n, 1 - b->so.alpha / 2, &b->good_low, &b->good_high)) {
		rc = error_set(err, EXIT_USAGE, "bisect-step: run '%.64s' has %zu samples of %s "
			       "for this benchmark, too few for a median interval at %g (run "
			       "more iterations, e.g. -i 20, or check -p)", b->good, n,
			       b->side.metric_name, 1 - b->so.alpha / 2);
		goto out;
	}
	b->good_median = n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
	b->threshold = log1p(b->so.margin_pct / 100);
	if (b->bad) {
		free(x);
		if (load_reference(st, b, b->bad, &x, &n, err))
			goto out;
		if (!n) {
			rc = error_set(err, EXIT_USAGE, "bisect-step: run '%.64s' has no sample of "
				       "%s for this benchmark (check -p and --metric)", b->bad,
				       b->side.metric_name);
			goto out;
		}
		b->threshold = ((n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2) -
				b->good_median) / 2;
		if (b->threshold <= log1p(b->so.margin_pct / 100) / 2) {
			rc = error_set(err, EXIT_USAGE, "bisect-step: run '%.64s' is not worse than "
				       "'%.64s' by more than the margin (%g%%): nothing to bisect",
				       b->bad, b->good, b->so.margin_pct);
			goto out;
		}
	}
	rc = 0;
out:
	free(x);
	return rc;
}

/* The current commit, from git rev-parse, for the run name. */
static int git_commit(char *buf, size_t len, struct error *err)
{
	int fds[2], status = 0;
	ssize_t n = 0, got;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return error_set(err, EXIT_ENV, "cannot create a pipe: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(fds[1], STDOUT_FILENO);
		if (null >= 0)
			dup2(null, STDERR_FILENO);
		execlp("git", "git", "rev-parse", "--short=12", "HEAD", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	while (pid > 0 && (size_t)n + 1 < len) {
		got = read(fds[0], buf + n, len - 1 - (size_t)n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += got;
	}
	close(fds[0]);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status) || !*buf)
		return error_set(err, EXIT_USAGE, "bisect-step: not inside a git repository, or "
				 "git is missing: the step has no commit to be named after (give "
				 "--name)");
	return 0;
}

enum step_verdict { STEP_UNDECIDED, STEP_GOOD, STEP_BAD };

/*
 * The step's worse-is-up shift against good lies in [cs.low - good_high,
 * cs.high - good_low]: good when all of it is below the threshold, bad
 * when all of it is above.
 */
static enum step_verdict decide(const struct bisect *b, const struct seqcs *cs)
{
	if (seqcs_rejects(cs, b->threshold + b->good_low, -1))
		return STEP_GOOD;
	if (seqcs_rejects(cs, b->threshold + b->good_high, 1))
		return STEP_BAD;
	return STEP_UNDECIDED;
}

#define MAX_FAILURES_IN_A_ROW 3

static enum step_verdict sample(struct bisect *b, struct seqcs *cs, const char **reason,
				struct error *err)
{
	enum step_verdict v = STEP_UNDECIDED;
	struct status_line sl;
	int failures = 0;

	status_init(&sl);
	*reason = "max-samples";
	while (b->side.samples < (size_t)b->so.max_samples) {
		double value;
		char what[128];
		int rc;

		if (sequential_out_of_time(&b->so, sl.start)) {
			*reason = "max-time";
			break;
		}
		rc = side_sample(&b->side, &value, err);
		if (rc < 0) {
			*reason = NULL;
			break;
		}
		if (!rc) {
			if (++failures < MAX_FAILURES_IN_A_ROW)
				continue;
			*reason = "the workload failed";
			break;
		}
		failures = 0;
		seqcs_add(cs, worse_up(b, value));
		v = decide(b, cs);
		snprintf(what, sizeof(what), "[bisect-step] %s: %zu samples", b->side.run_name,
			 b->side.samples);
		status_show(&sl, what, b->side.samples, (size_t)b->so.max_samples, b->so.max_time);
		if (v != STEP_UNDECIDED) {
			*reason = "decided";
			break;
		}
	}
	status_end(&sl);
	return v;
}

/* A worse-is-up log shift as compare's percent change, + better. */
static double shift_pct(const struct bisect *b, double shift)
{
	return change_pct(b->side.better == BETTER_HIGHER ? -shift : shift, b->side.better);
}

static const char *const verdict_words[] = { "skip", "good", "bad" };

/* The interval of the change against good, percent (+ is better), low to high. */
static void step_interval(const struct bisect *b, const struct seqcs *cs, double *lo,
			  double *hi)
{
	struct seqcs_interval ci;
	double x, y;

	seqcs_interval(cs, &ci);
	x = shift_pct(b, ci.low - b->good_high);
	y = shift_pct(b, ci.high - b->good_low);
	*lo = fmin(x, y);
	*hi = fmax(x, y);
}

static json_t *number_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* The step as a job keeps it: compact JSON. */
static char *verdict_json(const struct bisect *b, const struct seqcs *cs, enum step_verdict v,
			  const char *reason)
{
	json_t *obj = json_object();
	char *text;
	double lo, hi;

	step_interval(b, cs, &lo, &hi);
	json_object_set_new(obj, "verdict", json_string(verdict_words[v]));
	json_object_set_new(obj, "reason", json_string(reason));
	json_object_set_new(obj, "ci_pct", json_pack("[oo]", number_or_null(lo),
						       number_or_null(hi)));
	json_object_set_new(obj, "samples", json_integer((json_int_t)b->side.samples));
	json_object_set_new(obj, "metric", json_string(b->side.metric_name));
	json_object_set_new(obj, "better", json_string(better_name(b->side.better)));
	json_object_set_new(obj, "good", json_string(b->good));
	json_object_set_new(obj, "bad", b->bad ? json_string(b->bad) : json_null());
	json_object_set_new(obj, "run", json_string(b->side.run_name));
	text = json_dumps(obj, JSON_REAL_PRECISION(6) | JSON_COMPACT);
	json_decref(obj);
	return text;
}

static void report(const struct bisect *b, const struct seqcs *cs, enum step_verdict v,
		   const char *reason)
{
	const char *const *words = verdict_words;
	FILE *out = b->print_verdict ? stderr : stdout;
	double lo, hi;

	step_interval(b, cs, &lo, &hi);
	if (!global.quiet)
		fprintf(out, "bisect-step %s: %s (%s): %s against %s %+.2f%% .. %+.2f%% "
			"(+ is better), %zu samples%s%s\n", b->side.run_name, words[v], reason,
			b->side.metric_name, b->good, lo, hi,
			b->side.samples, b->side.result.iterations_failed ? "; last failure: " : "",
			b->side.result.iterations_failed ? b->side.result.last_failure : "");
	if (b->print_verdict)
		printf("%s\n", words[v]);
}

static int run_step(struct bisect *b, const char *name)
{
	static const int codes[] = { BISECT_SKIP, BISECT_GOOD, BISECT_BAD };
	struct monitor_set *ms = NULL;
	struct store *st = NULL;
	struct error err = { 0 };
	enum step_verdict v;
	const char *reason;
	struct seqcs cs;
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
		       better_name(b->side.better), b->good, b->bad ? " and " : "",
		       b->bad ? b->bad : "", b->so.alpha, b->so.margin_pct, b->so.max_samples,
		       name ? name : b->no_commit ? "none: not inside a git repository here, "
		       "so the step needs --name" : "the git commit at run time");
		return EXIT_OK;
	}
	if (store_open(global.db, &st, &err) || job_env_attach(st, &err) ||
	    monitors_open(MONITORS_DEFAULT, NULL, &ms, &err)) {
		store_close(st);
		error_report(&err);
		return BISECT_ERROR;
	}
	iteration_install_signal_handlers();
	seqcs_init(&cs, b->so.alpha / 2, 0);
	if (side_open(&b->side, st, name, &b->so, ms, &err)) {
		v = STEP_UNDECIDED;
		reason = NULL;
	} else {
		v = sample(b, &cs, &reason, &err);
	}
	if (b->side.result.batch_id) {
		char *result = reason ? verdict_json(b, &cs, v, reason) : NULL;

		/* The job, if any, is done only with its verdict stored: else it is an error. */
		if (store_batches_finish(st, &b->side.result.batch_id, 1, reason != NULL, result,
					 &err) && reason)
			reason = NULL;
		free(result);
	}
	monitors_close(ms);
	store_close(st);
	if (iteration_interrupted())
		code = 128 + iteration_interrupted();
	else if (!reason)
		code = (error_report(&err), BISECT_ERROR);
	else
		code = (report(b, &cs, v, reason), b->print_verdict ? EXIT_OK : codes[v]);
	seqcs_release(&cs);
	return code;
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
		OPT_STRING(0, "good", &b.good, "RUN", "the stored run of a good build (required)"),
		OPT_STRING(0, "bad", &b.bad, "RUN", "the stored run of a bad build: the "
			   "threshold is half-way between the two"),
		OPT_STRING(0, "name", &b.so.name, "NAME", "store the step as run NAME (default: "
			   "the current git commit)"),
		OPT_CALLBACK(0, "print-verdict", &b.print_verdict, NULL, "print good, bad or "
			     "skip and exit 0, for a kernel bisection's boot script",
			     set_print_verdict),
		OPT_BOOL(0, "dry-run", &b.dry_run, "check the arguments and the stored runs; "
			 "run and store nothing"),
		OPT_END(),
	};
	const struct workload *w;
	struct error err = { 0 };
	char commit[64];
	const char *name;
	int64_t job;
	int code, has_job = 0;

	if (parse_options(argc, argv, options, &bisect_usage, &code)) {
		code = code ? BISECT_ERROR : EXIT_OK;
		goto out;
	}
	code = BISECT_ERROR;
	if (optind + 1 != argc || !b.good) {
		command_usage_error("bisect-step", optind >= argc ? "no workload given" :
				    optind + 1 < argc ? "one workload at a time" :
				    "--good RUN is required: the stored run of a good build");
		goto out;
	}
	if (sequential_check_utf8("bisect-step", &b.so) ||
	    command_check_utf8("bisect-step", "run name", b.good) ||
	    (b.bad && command_check_utf8("bisect-step", "run name", b.bad)))
		goto out;
	if (!(w = workload_find(argv[optind]))) {
		die_code(EXIT_USAGE, "unknown workload '%.64s': not one of schedperf's workloads "
			 "(see 'schedperf list')", argv[optind]);
		goto out;
	}
	if (side_prepare(&b.side, w, (char *const *)b.so.params, b.so.nr_params, b.so.metric,
			 &err) || (has_job = job_env_id(&job, &err)) < 0) {
		error_report(&err);
		goto out;
	}
	name = b.so.name;
	if (!name && has_job) {
		snprintf(commit, sizeof(commit), "bisect-job-%lld", (long long)job);
		name = commit;
	} else if (!name) {
		/* A dry run says what the step would be named, or that it cannot be. */
		if (!git_commit(commit, sizeof(commit), &err)) {
			name = commit;
		} else if (b.dry_run) {
			b.no_commit = true;
		} else {
			error_report(&err);
			goto out;
		}
	}
	b.workload = w->name;
	code = run_step(&b, name);
out:
	side_release(&b.side);
	free(b.so.params);
	return code;
}
