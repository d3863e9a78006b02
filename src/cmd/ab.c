// SPDX-License-Identifier: GPL-2.0
/*
 * schedperf ab: is B faster than A? One workload under two configurations,
 * sampled in randomised AB/BA blocks on this machine until the sequential
 * procedure of stats/sequential.h reaches a verdict with its error rate
 * held over every look: paired differences of log values, so that drift
 * of the machine hits both sides of a block alike.
 *
 * Machine settings a side changes (sysctls, scheduler features: the
 * kinds of runner/knobs.h) are checked before anything changes, their
 * originals journalled on the machine (runner/knob_journal.h) before the
 * first change and copied to the store, set before each sample of a side,
 * and put back at the end, on SIGINT, SIGTERM and SIGHUP; after a SIGKILL
 * the next command that measures here puts them back or refuses
 * (runner/knob_guard.h), and `ab --restore` puts them back. The machine's
 * knob lock, exclusive, keeps every other schedperf command from
 * measuring or changing settings meanwhile. The measurement is
 * experiment/ab.h's, the verdict's words report/ab.h's: this is the
 * command.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <jansson.h>

#include "cli/sequential_options.h"
#include "cli/status.h"
#include "cli/cli.h"
#include "cmd/cmd.h"
#include "experiment/ab.h"
#include "monitor/monitor.h"
#include "report/ab.h"
#include "runner/cpulist.h"
#include "runner/iteration.h"
#include "runner/job_env.h"
#include "runner/knob_guard.h"
#include "runner/knob_journal.h"
#include "runner/knob_session.h"
#include "runner/knobs.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const struct cmd_usage ab_usage = {
	"usage: schedperf ab WORKLOAD [-p KEY=VALUE]... --a SPEC --b SPEC [options]\n"
	"   or: schedperf ab --restore\n"
	"   or: schedperf ab WORKLOAD ... --dry-run\n"
	"\n"
	"Is B faster than A? Run WORKLOAD under two configurations in randomised\n"
	"blocks (AB or BA, seeded) until the paired differences of log values give a\n"
	"verdict whose error rate is --alpha over every look: different (B better or\n"
	"worse, with the size and its interval), same (the interval inside\n"
	"+-margin) or unknown (at --max-samples or --max-time). The sides are stored\n"
	"as runs NAME-a and NAME-b, for compare, show and export. --dry-run checks\n"
	"the arguments and prints the sides, reading and changing nothing.\n",

	"SPEC is one or more knobs, a comma list or --a/--b repeated:\n"
	"  sysctl:NAME=VALUE   e.g. sysctl:kernel.sched_autogroup_enabled=0\n"
	"  procfs:PATH=VALUE   the same by its path under /proc/sys\n"
	"  sysfs:PATH=VALUE    any file under /sys (THP: sysfs:kernel/mm/\n"
	"                      transparent_hugepage/enabled=never)\n"
	"  governor:NAME       every CPU's cpufreq governor\n"
	"  feature:NAME        a scheduler feature under debugfs; feature:NO_NAME\n"
	"                      clears it\n"
	"  cpus:LIST           run the workload's tasks on these CPUs (cpus:0-1,4)\n"
	"  param:KEY=VALUE     a workload parameter that differs (param:mode=thread)\n"
	"  env:VAR=VALUE       an environment variable of the workload\n"
	"  cmd:PROGRAM ARGS    the command workload's program (the rest of the SPEC)\n"
	"  policy:NAME[:PRIO]  the tasks' policy: other, batch, idle, fifo:PRIO, rr:PRIO\n"
	"  nice:N              their nice level\n"
	"  slice:USEC          their EEVDF slice (sched_runtime of SCHED_NORMAL,\n"
	"                      Linux 6.12+)\n"
	"  uclamp:MIN-MAX      their utilization clamps (0-1024)\n"
	"  cgroup:CONTROLLER.FILE=VALUE  the tasks in a scratch cgroup of their own\n"
	"                      with that setting (cgroup:cpu.weight=100 on v2,\n"
	"                      cgroup:cpu.shares=1024 on v1), removed after\n"
	"The workload's tasks take policy, nice, slice, uclamp and cgroup before it\n"
	"starts, and every task they create inherits them; what the machine lacks\n"
	"is refused (exit 3) before anything changes.\n"
	"A setting one side leaves alone keeps its original value there. Originals\n"
	"are journalled on this machine (/run/schedperf-knobs.journal) before the\n"
	"first change and restored at the end, on Ctrl-C, SIGTERM and SIGHUP; after\n"
	"a SIGKILL every command that measures here refuses until 'schedperf ab\n"
	"--restore' (a worker's job puts them back itself); one whose file is gone\n"
	"(a module unloaded, a cgroup removed) is dropped, a line saying so. Exit\n"
	"status: 0 with a verdict; 1 with --fail-on-regression when B is worse; 2\n"
	"bad input, 3 a setting that cannot be read or changed, both before\n"
	"anything changed; 128+N after signal N.\n",
};

struct ab_side {
	const char **specs;
	size_t nr_specs;
	struct knob_list knobs;
	struct sample_side sample;
	bool has_cpus;
	const char *cpus;	/* the cpus: knob's list, when has_cpus */
};

struct ab {
	struct sequential_options so;
	struct ab_side side[2];
	const char *workload;
	bool restore, fail_on_regression, dry_run;
	struct option_choice format;
	int seed;
	struct knob_session ks;		/* what the sides' knobs change */
	bool default_cap;		/* --max-samples is the default's */
	char cap_reason[160];		/* the verdict's reason at the cap */
};

static const char *const side_names[2] = { "a", "b" };

static int add_spec(struct ab_side *s, const char *arg)
{
	s->specs = xreallocarray(s->specs, s->nr_specs + 1, sizeof(char *));
	s->specs[s->nr_specs++] = arg;
	return 0;
}

static int add_a(const struct cmd_option *opt, const char *arg)
{
	return add_spec(&((struct ab *)opt->value)->side[0], arg);
}

static int add_b(const struct cmd_option *opt, const char *arg)
{
	return add_spec(&((struct ab *)opt->value)->side[1], arg);
}

/* ------------------------------------------------------------ the sides */

/* The common -p, less the keys this side sets, then the side's own. */
static char **side_assignments(const struct ab *ab, const struct ab_side *s, size_t *nr)
{
	char **out = xcalloc(ab->so.nr_params + s->knobs.nr + 1, sizeof(char *));
	struct strbuf sb = STRBUF_INIT;

	*nr = 0;
	for (size_t i = 0; i < ab->so.nr_params; i++) {
		const char *p = ab->so.params[i];
		size_t key = strcspn(p, "=");
		bool overridden = false;

		for (size_t k = 0; k < s->knobs.nr; k++) {
			const struct knob *kn = &s->knobs.knobs[k];
			const char *name = kn->kind == KNOB_CMD ? "cmd" : kn->name;

			if ((kn->kind == KNOB_PARAM || kn->kind == KNOB_CMD) &&
			    strlen(name) == key && !strncmp(p, name, key))
				overridden = true;
		}
		if (!overridden)
			out[(*nr)++] = xstrdup(p);
	}
	for (size_t k = 0; k < s->knobs.nr; k++) {
		const struct knob *kn = &s->knobs.knobs[k];

		if (kn->kind != KNOB_PARAM && kn->kind != KNOB_CMD)
			continue;
		strbuf_addf(&sb, "%s=%s", kn->kind == KNOB_CMD ? "cmd" : kn->name, kn->value);
		out[(*nr)++] = strbuf_detach(&sb);
	}
	return out;
}

static void free_assignments(char **a, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(a[i]);
	free(a);
}

static int prepare_side(struct ab *ab, int which, const struct workload *w, struct error *err)
{
	struct ab_side *s = &ab->side[which];
	char flag[16];
	char **assignments;
	size_t nr;
	int rc;

	snprintf(flag, sizeof(flag), "ab: --%s", side_names[which]);
	for (size_t i = 0; i < s->nr_specs; i++)
		if (knobs_parse(&s->knobs, s->specs[i], flag, err))
			return -1;
	for (size_t k = 0; k < s->knobs.nr; k++) {
		const struct knob *kn = &s->knobs.knobs[k];

		if (kn->kind == KNOB_CMD && strcmp(w->name, "command"))
			return error_set(err, EXIT_USAGE, "%s cmd: runs a program, which only "
					 "the command workload does (give 'schedperf ab command')",
					 flag);
		if (kn->kind == KNOB_CPUS) {
			char what[32];

			snprintf(what, sizeof(what), "the cpus: knob of --%s", side_names[which]);
			if (cpulist_parse(kn->value, what, &s->sample.cpus, err))
				return -1;
			s->has_cpus = true;
			s->cpus = kn->value;
			s->sample.opt.cpus = &s->sample.cpus;
		}
	}
	if (knob_session_side(&ab->ks, (size_t)which, &s->knobs, side_names[which], flag, err))
		return -1;
	assignments = side_assignments(ab, s, &nr);
	rc = side_prepare(&s->sample, w, assignments, nr, ab->so.metric, err);
	free_assignments(assignments, nr);
	/* The session's: its cgroups are filled in when they are made. */
	s->sample.opt.task = knob_session_task(&ab->ks, (size_t)which);
	s->sample.opt.knob_env = knob_session_describe(&ab->ks, (size_t)which);
	return rc;
}

static bool sides_identical(const struct ab *ab)
{
	const struct sample_side *a = &ab->side[0].sample, *b = &ab->side[1].sample;

	if (strcmp(a->plan.items[0].params_json, b->plan.items[0].params_json) ||
	    ab->side[0].has_cpus != ab->side[1].has_cpus ||
	    (ab->side[0].has_cpus && !CPU_EQUAL(&a->cpus, &b->cpus)))
		return false;
	return knob_session_same(&ab->ks, 0, 1);
}

static int sides_differ(const struct ab *ab, struct error *err)
{
	if (!sides_identical(ab))
		return 0;
	return error_set(err, EXIT_USAGE, "ab: --a and --b are the same configuration (give "
			 "two that differ; for an A/A check, a variable nothing reads: --a "
			 "env:AB=a --b env:AB=b)");
}

static int prepare(struct ab *ab, struct error *err)
{
	const struct workload *w = workload_find(ab->workload);
	const struct sample_side *a = &ab->side[0].sample, *b = &ab->side[1].sample;

	if (!w)
		return error_set(err, EXIT_USAGE, "unknown workload '%.64s': not one of "
				 "schedperf's workloads (see 'schedperf list')", ab->workload);
	if (prepare_side(ab, 0, w, err) || prepare_side(ab, 1, w, err))
		return -1;
	if (strcmp(a->metric_name, b->metric_name) || a->better != b->better)
		return error_set(err, EXIT_USAGE, "ab: the sides measure different metrics "
				 "first (%s and %s): give --metric", a->metric_name, b->metric_name);
	return sides_differ(ab, err);
}

/*
 * ab --restore: the machine's journal, whatever store the ab that left it
 * used; the store's copy (--db) is corrected too when that store exists
 * (a mistyped --db is never made a new store for it).
 */
static int ab_restore(void)
{
	struct store *st = NULL;
	struct error err = { 0 }, rerr = { 0 };
	size_t dealt = 0;
	int code = EXIT_OK;

	iteration_install_signal_handlers();
	if (!store_open_existing(global.db, &st, &err)) {
		store_close(st);
		st = NULL;
		store_open(global.db, &st, &err);
	}
	/* No store there is nothing to correct; one that cannot be opened is said. */
	if (err.code && err.code != EXIT_USAGE && !global.quiet)
		fprintf(stderr, "schedperf: warning: the store's copy of the journal is not "
			"corrected: %s\n", err.msg);
	if (knob_guard_restore(&dealt, &rerr))
		code = error_report(&rerr);
	else if (!dealt && !global.quiet)
		printf("nothing to restore: this machine's journal (%s) holds no changed "
		       "setting\n", knob_journal_path());
	if (st && knob_guard_copy(st, &rerr) && code == EXIT_OK)
		code = error_report(&rerr);
	store_close(st);
	return code;
}

/* ------------------------------------------------------------ the verdict */

static void specs_of(const struct ab *ab, struct ab_verdict *v)
{
	const struct sample_side *a = &ab->side[0].sample;

	v->workload = ab->workload;
	for (int i = 0; i < 2; i++) {
		v->specs[i] = ab->side[i].specs;
		v->nr_specs[i] = ab->side[i].nr_specs;
	}
	v->metric = a->metric_name;
	v->unit = a->metric_unit;
	v->better = a->better;
	v->alpha = ab->so.alpha;
	v->margin_pct = ab->so.margin_pct;
}

static void verdict_of(const struct ab *ab, const struct ab_outcome *out, const char *name,
		       struct ab_verdict *v)
{
	enum better better = ab->side[0].sample.better;

	specs_of(ab, v);
	v->verdict = ab_verdict_word(out, better, &v->direction);
	v->estimate_pct = change_pct(out->ci.estimate, better);
	ab_interval_pct(out, better, &v->ci_low_pct, &v->ci_high_pct);
	for (int i = 0; i < 2; i++)
		v->samples[i] = ab->side[i].sample.samples;
	v->blocks = out->blocks;
	v->seed = ab->seed;
	v->seconds = out->seconds;
	v->reason = out->reason;
	v->name = name;
}

/* What a dry run shows: the sides as they would run, and the settings they change. */
static void print_plan(const struct ab *ab, const char *name)
{
	struct ab_verdict v = { 0 };

	specs_of(ab, &v);
	report_ab_head(stdout, &v, ", ");
	if (ab->so.max_samples < INT_MAX)
		printf("at most %d blocks%s", ab->so.max_samples, ab->so.max_time > 0 ? " or " : "");
	if (ab->so.max_time > 0)
		printf("%s%g s", ab->so.max_samples < INT_MAX ? "" : "at most ", ab->so.max_time);
	printf("\n");
	for (int i = 0; i < 2; i++) {
		const struct sample_side *s = &ab->side[i].sample;

		printf("%s: %s %s%s%s\n", side_names[i], ab->workload,
		       s->plan.items[0].params_json, ab->side[i].has_cpus ? " on CPUs " : "",
		       ab->side[i].has_cpus ? ab->side[i].cpus : "");
	}
	for (size_t i = 0; i < ab->ks.nr_machine; i++)
		printf("setting %s %s: a %s, b %s\n", ab->ks.machine[i].setting->kind,
		       ab->ks.machine[i].name,
		       ab->ks.machine[i].value[0] ? ab->ks.machine[i].value[0] : "(as it is)",
		       ab->ks.machine[i].value[1] ? ab->ks.machine[i].value[1] : "(as it is)");
	printf("runs: %s-a and %s-b; dry run: nothing was run, read or changed\n", name, name);
}

/* ------------------------------------------------------------ the command */

/*
 * --max-time alone lifts the cap on samples: the time is the budget. Else
 * the default cap holds, and a verdict stopped by it says so.
 */
static void cap_samples(struct ab *ab)
{
	if (!ab->so.max_samples) {
		ab->default_cap = ab->so.max_time <= 0;
		ab->so.max_samples = ab->default_cap ? SEQUENTIAL_DEFAULT_MAX_SAMPLES : INT_MAX;
	}
	if (ab->default_cap)
		snprintf(ab->cap_reason, sizeof(ab->cap_reason), "max-samples: the default of %d "
			 "per side (give --max-samples N, or --max-time SEC alone for no cap)",
			 SEQUENTIAL_DEFAULT_MAX_SAMPLES);
	else
		snprintf(ab->cap_reason, sizeof(ab->cap_reason), "max-samples");
}

static int parse_arguments(int argc, char **argv, struct ab *ab)
{
	struct cmd_option options[] = {
		SEQUENTIAL_OPTIONS(&ab->so),
		OPT_CALLBACK(0, "a", ab, "SPEC", "configuration A, the baseline (see SPEC "
			     "below; repeat or comma-separate knobs)", add_a),
		OPT_CALLBACK(0, "b", ab, "SPEC", "configuration B, the change", add_b),
		OPT_STRING(0, "name", &ab->so.name, "NAME", "store the sides as runs NAME-a "
			   "and NAME-b, which must hold no batch yet (default: ab-DATE-TIME-PID, the "
			   "date and time UTC and the process id; a worker's job: ab-job-ID)"),
		OPT_SEED(&ab->seed, "the seed of the block orders (default: from the clock; "
			 "printed)"),
		OPT_FORMAT(&ab->format, "{}"),
		OPT_BOOL(0, "fail-on-regression", &ab->fail_on_regression,
			 "exit 1 when B is worse than A"),
		OPT_BOOL(0, "restore", &ab->restore, "put back the settings an ab killed by "
			 "SIGKILL left changed (they are journalled on this machine)"),
		OPT_BOOL(0, "dry-run", &ab->dry_run, "check the arguments and print the sides; "
			 "run, read, change and store nothing"),
		OPT_END(),
	};
	int code;

	ab->so.max_samples = 0;		/* not given */
	if (parse_options(argc, argv, options, &ab_usage, &code))
		return code ? code : -1;
	cap_samples(ab);
	if (ab->restore) {
		if (optind < argc || ab->side[0].nr_specs || ab->side[1].nr_specs ||
		    ab->dry_run)
			return command_usage_error("ab", "--restore takes no workload, no --a or "
						   "--b, and no --dry-run");
		return 0;
	}
	if (optind >= argc)
		return command_usage_error("ab", "no workload given: name one (see "
					   "'schedperf list')");
	if (optind + 1 < argc)
		return command_usage_error("ab", "one workload at a time: unexpected '%.64s'",
					   argv[optind + 1]);
	if (!ab->side[0].nr_specs || !ab->side[1].nr_specs)
		return command_usage_error("ab", "give both sides: --a SPEC --b SPEC");
	for (int i = 0; i < 2; i++)
		for (size_t k = 0; k < ab->side[i].nr_specs; k++)
			if ((code = command_check_utf8("ab", "SPEC", ab->side[i].specs[k])))
				return code;
	ab->workload = argv[optind];
	return sequential_check_utf8("ab", &ab->so);
}

/*
 * ab-DATE-TIME-PID: two ab started in the same second on one machine are
 * two processes at once, never one pid (on two machines, the second to
 * begin its batches is refused: run_sides()). For a worker's job
 * ab-job-ID, the same in every attempt.
 */
static int default_name(char *buf, size_t len, struct error *err)
{
	time_t now = time(NULL);
	struct tm tm;
	int64_t job;
	int rc = job_env_id(&job, err);

	if (rc < 0)
		return -1;
	if (rc) {
		snprintf(buf, len, "ab-job-%lld", (long long)job);
		return 0;
	}
	gmtime_r(&now, &tm);
	strftime(buf, len, "ab-%Y%m%d-%H%M%S", &tm);
	snprintf(buf + strlen(buf), len - strlen(buf), "-%ld", (long)getpid());
	return 0;
}

static void release(struct ab *ab)
{
	for (int i = 0; i < 2; i++) {
		knobs_release(&ab->side[i].knobs);
		side_release(&ab->side[i].sample);
		free(ab->side[i].specs);
	}
	knob_session_release(&ab->ks);
	free(ab->so.params);
}

/*
 * The name of the runs of ab job @job: its --name, else ab-job-ID
 * (malloc'd), read by the parser that reads ours; NULL when its
 * arguments do not parse (a job of another version).
 */
static char *job_runs_name(const struct store_job *job)
{
	json_t *list = json_loads(job->args, 0, NULL);
	size_t n = json_is_array(list) ? json_array_size(list) : 0;
	char **argv = xcalloc(n + 2, sizeof(char *));
	struct global_options saved = global;
	struct ab other = { .so = SEQUENTIAL_DEFAULTS };
	char *name = NULL;

	argv[0] = (char *)"ab";
	for (size_t i = 0; i < n; i++) {
		const char *arg = json_string_value(json_array_get(list, i));

		argv[1 + i] = (char *)(arg ? arg : "");
	}
	knob_session_init(&other.ks, 2, "ab");
	optind = 0;
	if (!parse_arguments((int)n + 1, argv, &other))
		name = other.so.name ? xstrdup(other.so.name) :
		       xasprintf("ab-job-%lld", (long long)job->id);
	global = saved;
	release(&other);
	free(argv);
	json_decref(list);
	return name;
}

/* Another queued or running ab job whose runs are @name's: refused. */
static int job_name_free(struct store *st, const char *name, struct error *err)
{
	struct store_job *jobs;
	size_t nr;
	int rc;

	if (store_jobs_list(st, &jobs, &nr, err))
		return -1;
	rc = 0;
	for (size_t i = 0; i < nr; i++) {
		char *other = NULL;

		if (!rc && !strcmp(jobs[i].command, "ab") &&
		    (!strcmp(jobs[i].state, "queued") || !strcmp(jobs[i].state, "running") ||
		     !strcmp(jobs[i].state, "booting")) &&
		    (other = job_runs_name(&jobs[i])) && !strcmp(other, name))
			rc = error_set(err, EXIT_USAGE, "ab: --name %.128s: job %lld (%s) stores its "
				       "runs under that name already, and compare would pool the "
				       "two (give another --name)", name, (long long)jobs[i].id,
				       jobs[i].state);
		free(other);
		store_job_release(&jobs[i]);
	}
	free(jobs);
	return rc;
}

/*
 * What submit's check of an ab job (job_env.h) asks of a --name: runs of
 * its own, so one job only, whose runs hold no batch yet and which no
 * other queued or running ab job names. Two submits at once may both
 * pass: the worker refuses the second when it begins (run_sides()).
 */
static int check_job_name(const char *name, struct error *err)
{
	struct store_status status;
	struct store *st = NULL;
	char run[512];
	bool taken = false;
	int rc = 0;

	if (job_env_check_jobs() > 1)
		return error_set(err, EXIT_USAGE, "ab: --name %.128s with --repeat %d: the jobs "
				 "would pool their samples in one pair of runs (give one job each "
				 "its own --name, or no --name: ab-job-ID)", name,
				 job_env_check_jobs());
	/* No store there yet holds no run and no job. */
	if (store_inspect(global.db, &status, err))
		return -1;
	if (!status.version)
		return 0;
	if (store_open_existing(global.db, &st, err))
		return -1;
	for (int i = 0; i < 2 && !rc && !taken; i++) {
		snprintf(run, sizeof(run), "%s-%s", name, side_names[i]);
		rc = store_run_taken(st, run, &taken, err);
	}
	if (!rc && taken)
		rc = error_set(err, EXIT_USAGE, "ab: run %.128s exists already, and compare would "
			       "pool its samples with this job's (give another --name)", run);
	if (!rc)
		rc = job_name_free(st, name, err);
	store_close(st);
	return rc;
}

/*
 * Both sides' batches finished in one transaction, complete when the
 * verdict was reached: the job this ab runs for (if any) is done with
 * them and keeps the verdict. The first error is the one @err keeps.
 */
static void finish_sides(struct ab *ab, struct store *st, const char *name,
			 const struct ab_outcome *out, int *rc, struct error *err)
{
	bool complete = !*rc && !iteration_interrupted();
	struct ab_verdict v;
	char *result = NULL;
	struct error ferr = { 0 };
	int64_t ids[2];
	size_t nr = 0;

	if (complete) {
		verdict_of(ab, out, name, &v);
		result = ab_verdict_json(&v, 1);
	}
	for (int i = 0; i < 2; i++)
		if (ab->side[i].sample.result.batch_id)
			ids[nr++] = ab->side[i].sample.result.batch_id;
	if (nr && store_batches_finish(st, ids, nr, complete, result, &ferr) && !*rc) {
		*err = ferr;
		*rc = -1;
	}
	free(result);
}

/*
 * Open both runs, each side's batch made under its settings (its
 * environment records them) and both begun at once: refused when a run
 * of the name holds a batch already (another ab's, or a run's), so that
 * of two ab started together under one name exactly one proceeds. A job's
 * earlier, lost attempt is its own (its batches go now). Then sample
 * until the verdict. Returns 0 or -1 with @err.
 */
static int run_sides(struct ab *ab, struct store *st, const char *name,
		     struct ab_outcome *out, struct error *err)
{
	struct ab_measurement m = { { &ab->side[0].sample, &ab->side[1].sample }, &ab->ks,
				    &ab->so, ab->seed, ab->cap_reason, NULL };
	struct result_set set = { NULL, 0 };
	struct sampling_events events;
	struct status_line sl;
	struct monitor_set *ms = NULL;
	char run[512];
	int rc = -1;

	if (monitors_open(MONITORS_DEFAULT, NULL, &ms, err))
		return -1;
	for (int i = 0; i < 2; i++) {
		snprintf(run, sizeof(run), "%s-%s", name, side_names[i]);
		if (knob_session_apply(&ab->ks, (size_t)i, err) ||
		    side_batch(m.sides[i], run, &ab->so, &set, err))
			goto out;
	}
	if (sides_open(m.sides, st, &set, ms, err))
		goto out;
	status_events(&events, &sl, ab->so.max_time);
	m.events = &events;
	rc = ab_measure(&m, out, err);
out:
	result_set_release(&set);
	finish_sides(ab, st, name, out, &rc, err);
	monitors_close(ms);
	return rc;
}

static int exit_code(const struct ab *ab, const struct ab_verdict *v)
{
	return ab->fail_on_regression && v->direction && !strcmp(v->direction, "worse") ?
		EXIT_FOUND : EXIT_OK;
}

/* The store, once the settings were tried: the sides' runs are stored there. */
static int open_store(struct ab *ab, struct store **st, struct error *err)
{
	return store_open(global.db, st, err) || job_env_attach(*st, err) ||
	       knob_session_copy(&ab->ks, *st, err) ? -1 : 0;
}

static void say_interrupted(const struct ab *ab, const char *name)
{
	bool stored = ab->side[0].sample.result.batch_id || ab->side[1].sample.result.batch_id;

	if (stored)
		fprintf(stderr, "schedperf: interrupted: the settings are restored; the samples "
			"so far are kept in runs %s-a and %s-b\n", name, name);
	else
		fprintf(stderr, "schedperf: interrupted: the settings are restored; nothing was "
			"stored\n");
}

static int run_ab(struct ab *ab)
{
	struct ab_outcome out = { 0 };
	struct store *st = NULL;
	struct error err = { 0 }, rerr = { 0 };
	char name[256];
	int64_t job;
	int code, rc;

	if (prepare(ab, &err) || job_env_id(&job, &err) < 0)
		return error_report(&err);
	if (ab->so.name)
		snprintf(name, sizeof(name), "%s", ab->so.name);
	else if (default_name(name, sizeof(name), &err))
		return error_report(&err);
	if (ab->dry_run) {
		if (ab->so.name && job_env_check_jobs() && check_job_name(name, &err))
			return error_report(&err);
		print_plan(ab, name);
		return EXIT_OK;
	}
	/* From here a signal must not kill us before the originals are back. */
	iteration_install_signal_handlers();
	/*
	 * The machine's lock, and what a killed ab left dealt with, before
	 * any original is read, so that no other process's change is taken
	 * for one; the originals journalled before the first change; the
	 * values tried before the store is opened, so that one the kernel
	 * refuses writes nothing.
	 */
	if (knob_guard_take(knob_session_changes_machine(&ab->ks), &err) ||
	    knob_session_check(&ab->ks, &err) || sides_differ(ab, &err))
		return error_report(&err);
	rc = knob_session_begin(&ab->ks, &err);
	if (!rc)
		rc = open_store(ab, &st, &err);
	if (!rc)
		rc = run_sides(ab, st, name, &out, &err);
	if (knob_session_end(&ab->ks, st, &rerr) && !rc) {
		err = rerr;
		rc = -1;
	}
	if (iteration_interrupted()) {
		say_interrupted(ab, name);
		code = 128 + iteration_interrupted();
	} else if (rc) {
		code = error_report(&err);
	} else {
		const struct output_format *f = ab->format.chosen;
		struct ab_verdict v;

		verdict_of(ab, &out, name, &v);
		if (f->for_machines || !global.quiet)
			f->write(stdout, &v, NULL);
		code = exit_code(ab, &v);
	}
	store_close(st);
	return code;
}

int cmd_ab(int argc, char **argv)
{
	struct ab ab = { .so = SEQUENTIAL_DEFAULTS, .format = OPTION_CHOICE(ab_formats) };
	int code;

	knob_session_init(&ab.ks, 2, "ab");
	ab.seed = (int)(((unsigned long)time(NULL) ^ ((unsigned long)getpid() << 16)) &
			0x7fffffff);
	code = parse_arguments(argc, argv, &ab);
	if (code)
		code = code < 0 ? EXIT_OK : code;
	else
		code = ab.restore ? ab_restore() : run_ab(&ab);
	release(&ab);
	return code;
}
