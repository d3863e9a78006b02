// SPDX-License-Identifier: GPL-2.0
/*
 * schedperf ab: is B faster than A? One workload under two configurations,
 * sampled in randomised AB/BA blocks on this machine until the sequential
 * procedure of stats/sequential.h reaches a verdict with its error rate
 * held over every look: paired differences of log values, so that drift
 * of the machine hits both sides of a block alike.
 *
 * Machine settings a side changes (sysctls, scheduler features: the
 * kinds of runner/knobs.h) are checked, journalled, set before each
 * sample of a side and put back by experiment/ab_sides.c through
 * runner/knob_session.h, also on SIGINT, SIGTERM and SIGHUP; after a
 * SIGKILL the next command that measures here puts them back or refuses
 * (runner/knob_guard.h), and `ab --restore` puts them back. The
 * measurement is experiment/ab.h's, the verdict's words report/ab.h's:
 * this is the command.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/sequential_options.h"
#include "cli/status.h"
#include "cli/cli.h"
#include "cmd/cmd.h"
#include "experiment/ab.h"
#include "report/ab.h"
#include "runner/iteration.h"
#include "runner/job_env.h"
#include "runner/knob_guard.h"
#include "runner/knob_journal.h"
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
	"as runs NAME-a and NAME-b, for compare, show and export (sides that differ\n"
	"in a parameter, param: or cmd:, are two benchmarks: compare pairs them\n"
	"with --ignore-param, as the verdict's last line says). --dry-run checks\n"
	"the arguments (and that a --name's runs hold nothing yet) and prints the\n"
	"sides, changing nothing: with --format json one JSON object, \"dry_run\":\n"
	"true.\n",

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

struct ab {
	struct ab_experiment x;
	bool restore, fail_on_regression, dry_run;
	bool seed_given;		/* --seed, not the clock's */
	struct option_choice format;
	bool default_cap;		/* --max-samples is the default's */
};

static int add_a(const struct cmd_option *opt, const char *arg)
{
	ab_add_spec(&((struct ab *)opt->value)->x, 0, arg);
	return 0;
}

static int add_b(const struct cmd_option *opt, const char *arg)
{
	ab_add_spec(&((struct ab *)opt->value)->x, 1, arg);
	return 0;
}

/* --seed, and that it was given: a dry run says it, the clock's it cannot. */
static int set_seed(const struct cmd_option *opt, const char *arg)
{
	struct ab *ab = opt->value;
	struct cmd_option seed = *opt;

	seed.value = &ab->x.seed;
	ab->seed_given = true;
	return option_seed(&seed, arg);
}

/* ab --restore: runner/knob_guard.h's, said. */
static int ab_restore(void)
{
	struct error err = { 0 };
	size_t dealt = 0;
	int rc;

	iteration_install_signal_handlers();
	rc = knob_guard_restore_store(global.db, &dealt, &err);
	if (rc >= 0 && !dealt && !global.quiet)
		printf("nothing to restore: this machine's journal (%s) holds no changed "
		       "setting\n", knob_journal_path());
	return rc ? error_report(&err) : EXIT_OK;
}

/* ------------------------------------------------------------ the verdict */

static void specs_of(const struct ab *ab, struct ab_verdict *v)
{
	const struct sample_side *a = &ab->x.side[0].sample;

	v->workload = ab->x.workload;
	for (int i = 0; i < 2; i++) {
		v->specs[i] = ab->x.side[i].specs;
		v->nr_specs[i] = ab->x.side[i].nr_specs;
	}
	v->metric = a->metric_name;
	v->unit = a->metric_unit;
	v->better = a->better;
	v->alpha = ab->x.so.alpha;
	v->margin_pct = ab->x.so.margin_pct;
}

/* Whether the ab kept its sides' runs (one that measured nothing keeps none). */
static bool runs_kept(const struct ab *ab)
{
	return ab->x.side[0].sample.result.batch_id || ab->x.side[1].sample.result.batch_id;
}

static void verdict_of(const struct ab *ab, const struct ab_outcome *out, const char *name,
		       struct ab_verdict *v)
{
	enum better better = ab->x.side[0].sample.better;

	specs_of(ab, v);
	v->verdict = ab_verdict_word(out, better, &v->direction);
	v->estimate_pct = change_pct(out->ci.estimate, better);
	ab_interval_pct(out, better, &v->ci_low_pct, &v->ci_high_pct);
	for (int i = 0; i < 2; i++)
		v->samples[i] = ab->x.side[i].sample.samples;
	v->blocks = out->blocks;
	v->seed = ab->x.seed;
	v->seconds = out->seconds;
	v->reason = out->reason;
	v->name = name;
	v->db = global.db;
	v->runs_kept = runs_kept(ab);
	v->params_differ = NULL;
}

/*
 * What a dry run shows: the sides as they would run, and the settings they
 * change, in the format of the row --format chose of ab_formats[].
 */
static void print_plan(const struct ab *ab, const char *name)
{
	const struct output_format *f = ab->format.chosen;
	struct ab_plan p = { .max_samples = ab->x.so.max_samples, .max_time = ab->x.so.max_time,
			     .seed_given = ab->seed_given, .timeout = ab->x.so.timeout,
			     .nr_settings = ab->x.ks.nr_machine };
	struct ab_plan_setting *settings = xcalloc(p.nr_settings + 1, sizeof(*settings));

	specs_of(ab, &p.head);
	p.head.name = name;
	p.head.seed = ab->x.seed;
	for (int i = 0; i < 2; i++) {
		p.params_json[i] = ab->x.side[i].sample.plan.items[0].params_json;
		p.cpus[i] = ab->x.side[i].has_cpus ? ab->x.side[i].cpus : NULL;
	}
	for (size_t i = 0; i < p.nr_settings; i++) {
		const struct knob_machine *m = &ab->x.ks.machine[i];

		settings[i] = (struct ab_plan_setting){ m->setting->kind, m->name,
							{ m->value[0], m->value[1] } };
	}
	p.settings = settings;
	ab_plan_formats[f - ab_formats].write(stdout, &p, NULL);
	free(settings);
}

/* ------------------------------------------------------------ the command */

/*
 * --max-time alone lifts the cap on samples: the time is the budget. Else
 * the default cap holds, and a verdict stopped by it says so.
 */
static void cap_samples(struct ab *ab)
{
	if (!ab->x.so.max_samples) {
		ab->default_cap = ab->x.so.max_time <= 0;
		ab->x.so.max_samples = ab->default_cap ? SEQUENTIAL_DEFAULT_MAX_SAMPLES : INT_MAX;
	}
	if (ab->default_cap)
		snprintf(ab->x.cap_reason, sizeof(ab->x.cap_reason), "max-samples: the default of %d "
			 "per side (give --max-samples N, or --max-time SEC alone for no cap)",
			 SEQUENTIAL_DEFAULT_MAX_SAMPLES);
	else
		snprintf(ab->x.cap_reason, sizeof(ab->x.cap_reason), "max-samples");
}

/*
 * The first option an ab --restore was given that only a measurement
 * takes (--restore puts settings back and measures nothing), or NULL.
 */
static const char *measurement_option(const struct ab *ab)
{
	const struct sequential_options *so = &ab->x.so, defaults = SEQUENTIAL_DEFAULTS;

	if (so->name)
		return "--name";
	if (ab->format.chosen != ab->format.table)
		return "--format";
	if (so->max_samples)
		return "--max-samples";
	if (so->nr_params)
		return "-p";
	if (so->alpha != defaults.alpha)
		return "--alpha";
	if (so->margin_pct != defaults.margin_pct)
		return "--margin";
	if (so->max_time != defaults.max_time)
		return "--max-time";
	if (so->timeout != defaults.timeout)
		return "--timeout";
	if (so->metric)
		return "--metric";
	if (ab->seed_given)
		return "--seed";
	return ab->fail_on_regression ? "--fail-on-regression" : NULL;
}

static int parse_arguments(int argc, char **argv, struct ab *ab)
{
	struct cmd_option options[] = {
		SEQUENTIAL_OPTIONS(&ab->x.so),
		OPT_CALLBACK(0, "a", ab, "SPEC", "configuration A, the baseline (see SPEC "
			     "below; repeat or comma-separate knobs)", add_a),
		OPT_CALLBACK(0, "b", ab, "SPEC", "configuration B, the change", add_b),
		OPT_STRING(0, "name", &ab->x.so.name, "NAME", "store the sides as runs NAME-a "
			   "and NAME-b, which must hold no batch yet (default: ab-DATE-TIME-PID, the "
			   "date and time UTC and the process id; a worker's job: ab-job-ID)"),
		OPT_CALLBACK(0, "seed", ab, "N", "the seed of the block orders (default: from the "
			     "clock; printed)", set_seed),
		OPT_FORMAT(&ab->format, "{}"),
		OPT_BOOL(0, "fail-on-regression", &ab->fail_on_regression,
			 "exit 1 when B is worse than A"),
		OPT_BOOL(0, "restore", &ab->restore, "put back the settings an ab killed by "
			 "SIGKILL left changed (they are journalled on this machine)"),
		OPT_BOOL(0, "dry-run", &ab->dry_run, "check the arguments and print the sides; "
			 "run, change and store nothing"),
		OPT_END(),
	};
	const char *extra;
	int code;

	ab->x.so.max_samples = 0;		/* not given */
	if (parse_options(argc, argv, options, &ab_usage, &code))
		return code ? code : -1;
	if (ab->restore) {
		if (optind < argc || ab->x.side[0].nr_specs || ab->x.side[1].nr_specs ||
		    ab->dry_run)
			return command_usage_error("ab", "--restore takes no workload, no --a or "
						   "--b, and no --dry-run");
		if ((extra = measurement_option(ab)))
			return command_usage_error("ab", "--restore takes no %s: it puts back "
						   "settings and measures nothing (give --restore "
						   "alone)", extra);
		return 0;
	}
	cap_samples(ab);
	if ((code = sequential_check_max_samples("ab", &ab->x.so, !ab->default_cap)))
		return code;
	if (optind >= argc)
		return command_usage_error("ab", "no workload given: name one (see "
					   "'schedperf list')");
	if (optind + 1 < argc)
		return command_usage_error("ab", "one workload at a time: unexpected '%.64s'",
					   argv[optind + 1]);
	if (!ab->x.side[0].nr_specs || !ab->x.side[1].nr_specs)
		return command_usage_error("ab", "give both sides: --a SPEC --b SPEC");
	for (int i = 0; i < 2; i++)
		for (size_t k = 0; k < ab->x.side[i].nr_specs; k++)
			if ((code = command_check_utf8("ab", "SPEC", ab->x.side[i].specs[k])))
				return code;
	ab->x.workload = argv[optind];
	if ((code = sequential_check_utf8("ab", &ab->x.so)))
		return code;
	/* its runs are NAME-a and NAME-b */
	return ab->x.so.name ? command_check_unreserved("ab", ab->x.so.name, "-a") : 0;
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

/*
 * The name of the runs of ab job @id (job_env_name_free()): its --name,
 * else ab-job-ID, read by the parser that reads ours.
 */
static char *job_runs_name(int argc, char **argv, int64_t id)
{
	struct global_options saved = global;
	struct ab other = { .x.so = SEQUENTIAL_DEFAULTS };
	char *name = NULL;

	ab_experiment_init(&other.x);
	optind = 0;
	if (!parse_arguments(argc, argv, &other))
		name = other.x.so.name ? xstrdup(other.x.so.name) :
		       xasprintf("ab-job-%lld", (long long)id);
	global = saved;
	ab_experiment_release(&other.x);
	return name;
}

/*
 * What a dry run asks of a --name: runs of its own, which hold no batch
 * yet (the ab would be refused); and submit's check of an ab job
 * (job_env.h), also one job only, whose runs no other queued or running
 * ab job names. Two submits at once may both pass: the worker refuses the
 * second when it begins (run_sides()).
 */
static int check_name(const char *name, struct error *err)
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
	if (store_peek(global.db, &status, err))
		return -1;
	if (!status.version)
		return 0;
	if (store_open_existing(global.db, &st, err))
		return -1;
	for (int i = 0; i < 2 && !rc && !taken; i++) {
		snprintf(run, sizeof(run), "%s-%s", name, ab_side_names[i]);
		rc = store_run_taken(st, run, &taken, err);
	}
	if (!rc && taken)
		rc = error_set(err, EXIT_USAGE, "ab: run %.128s exists already, and compare would "
			       "pool its samples with this %s (give another --name)", run,
			       job_env_check_jobs() ? "job's" : "ab's");
	if (!rc && job_env_check_jobs())
		rc = job_env_name_free(st, "ab", name, job_runs_name, err);
	store_close(st);
	return rc;
}

/* The verdict a completed ab's batches keep (ab_run_hooks). */
static char *verdict_json(void *ctx, const struct ab_outcome *out, const char *name)
{
	struct ab_verdict v;

	verdict_of(ctx, out, name, &v);
	return ab_verdict_json(&v, 1);
}

static int exit_code(const struct ab *ab, const struct ab_verdict *v)
{
	return ab->fail_on_regression && v->direction && !strcmp(v->direction, "worse") ?
		EXIT_FOUND : EXIT_OK;
}

static int print_verdict(const struct ab *ab, const struct ab_outcome *out, const char *name)
{
	const struct output_format *f = ab->format.chosen;
	struct ab_verdict v;
	char differ[256];

	verdict_of(ab, out, name, &v);
	ab_params_differ(&ab->x, differ, sizeof(differ));
	v.params_differ = differ;
	if (f->for_machines || !global.quiet)
		f->write(stdout, &v, NULL);
	return exit_code(ab, &v);
}

/*
 * One line on stderr, and nothing on stdout in any format: the exit
 * status (128 + N) tells a script. The settings are said only when the
 * ab changed some.
 */
static int say_interrupted(const struct ab *ab, const struct ab_outcome *out,
			   const char *name)
{
	const char *restored = knob_session_changes_machine(&ab->x.ks) ?
			       "the settings are restored; " : "";

	/* the block cut short whose first sample could not be dropped (ab.c) */
	if (runs_kept(ab) && out->unpaired)
		return command_interrupted("%sthe samples of whole blocks so far are kept in "
					   "runs %s-a and %s-b, and in run %s-%s the unpaired "
					   "sample of the block cut short", restored, name, name,
					   name, out->unpaired);
	if (runs_kept(ab))
		return command_interrupted("%sthe samples of whole blocks so far are kept in "
					   "runs %s-a and %s-b", restored, name, name);
	return command_interrupted("%snothing was stored", restored);
}

static int run_ab(struct ab *ab)
{
	struct ab_outcome out = { 0 };
	struct sampling_events events;
	struct status_line sl;
	struct ab_run_hooks hooks = { &events, verdict_json, ab };
	struct error err = { 0 };
	char name[256];
	int64_t job;
	int rc;

	if (ab_prepare(&ab->x, &err) || job_env_id(&job, &err) < 0)
		return error_report(&err);
	if (ab->x.so.name)
		snprintf(name, sizeof(name), "%s", ab->x.so.name);
	else if (default_name(name, sizeof(name), &err))
		return error_report(&err);
	if (ab->dry_run) {
		if (ab->x.so.name && check_name(name, &err))
			return error_report(&err);
		print_plan(ab, name);
		return EXIT_OK;
	}
	if (ab_check_machine(&ab->x, &err))
		return error_report(&err);
	status_events(&events, &sl, ab->x.so.max_time);
	rc = ab_run(&ab->x, global.db, name, &hooks, &out, &err);
	if (iteration_interrupted())
		return say_interrupted(ab, &out, name);
	if (rc)
		return error_report(&err);
	return print_verdict(ab, &out, name);
}

int cmd_ab(int argc, char **argv)
{
	struct ab ab = { .x.so = SEQUENTIAL_DEFAULTS, .format = OPTION_CHOICE(ab_formats) };
	int code;

	ab_experiment_init(&ab.x);
	ab.x.seed = (int)(((unsigned long)time(NULL) ^ ((unsigned long)getpid() << 16)) &
			0x7fffffff);
	code = parse_arguments(argc, argv, &ab);
	if (code)
		code = code < 0 ? EXIT_OK : code;
	else
		code = ab.restore ? ab_restore() : run_ab(&ab);
	ab_experiment_release(&ab.x);
	return code;
}
