// SPDX-License-Identifier: GPL-2.0
/*
 * schedperf run: execute a workload (or a suite) for N iterations on the
 * running kernel and store every sample under a run name.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/status.h"
#include "cmd/cmd.h"
#include "monitor/interference.h"
#include "monitor/monitor.h"
#include "report/report.h"
#include "runner/cpulist.h"
#include "runner/iteration.h"
#include "runner/job_env.h"
#include "runner/knob_guard.h"
#include "runner/knob_session.h"
#include "runner/lock_wait.h"
#include "runner/plan.h"
#include "runner/plan_build.h"
#include "runner/runner.h"
#include "runner/suite_file.h"
#include "store/store.h"
#include "util/db_hint.h"
#include "util/machine.h"
#include "util/parse.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define stringify_1(x) #x
#define stringify(x) stringify_1(x)

static const struct cmd_usage run_usage = {
	"usage: schedperf run WORKLOAD [-p KEY=VALUE]... [options]\n"
	"   or: schedperf run --suite NAME [options]\n"
	"   or: schedperf run --resume [--name NAME]\n"
	"\n"
	"Run WORKLOAD for N iterations on the running kernel and store each sample,\n"
	"with the iteration's resource usage and the machine's environment, under a\n"
	"run name. Running again under the same name adds a batch (after a reboot,\n"
	"say); compare pools all batches of a name.\n",

	"Each iteration runs in its own process group and is committed as soon as it\n"
	"ends; Ctrl-C, SIGTERM or any other signal that ends the run keeps every\n"
	"completed iteration and marks the batch incomplete (exit 128 + the signal);\n"
	"--resume finishes it, as the line printed then says (--db included).\n"
	"However the run ends, kill -9 included, the tasks of the iteration it was\n"
	"running die with it. A crashed or hung iteration is recorded as failed,\n"
	"with why, and the run goes on; a run none of whose iterations succeeded\n"
	"measured nothing: exit 1, saying why the last failed.\n",
};

struct run_request {
	struct runner_options opt;
	/* its benchmarks, and the options --resume keeps (runner/plan.h) */
	struct plan plan;
	/* its benchmarks as the command line names them (runner/plan_build.h) */
	struct plan_request what;
	bool resume, dry_run;
	bool bisection;		/* its batch a kernel bisection's measurement */
	int assume_cpus;
};

static const char *default_run_name(void)
{
	static char release[256];

	machine_release(release, sizeof(release));
	return *release ? release : "unknown-kernel";
}


/* The request an option fills: every callback's opt->value. */
static int add_param(const struct cmd_option *opt, const char *arg)
{
	struct run_request *req = opt->value;

	req->what.params[req->what.nr_params++] = arg;
	return command_check_utf8("run", "parameter", arg);
}

static int add_sweep(const struct cmd_option *opt, const char *arg)
{
	struct run_request *req = opt->value;

	req->what.sweeps[req->what.nr_sweeps++] = arg;
	return command_check_utf8("run", "sweep", arg);
}

static int add_knob(const struct cmd_option *opt, const char *arg)
{
	struct run_request *req = opt->value;

	plan_option_add(&req->plan, plan_option_find("knobs"), arg);
	return command_check_utf8("run", "knob", arg);
}

static int set_max_interference(const struct cmd_option *opt, const char *arg)
{
	struct run_request *req = opt->value;
	double pct;

	if (parse_double(arg, &pct) || pct < 0 || pct > 100)
		return command_usage_error("run", "--max-interference '%.32s' is not a "
					   "percent from 0 to 100", arg);
	req->plan.max_interference = pct;
	return 0;
}

static int set_quiet_wait(const struct cmd_option *opt, const char *arg)
{
	struct run_request *req = opt->value;
	double seconds;

	if (parse_double(arg, &seconds) || seconds < 0 || seconds > 86400)
		return command_usage_error("run", "--quiet-wait '%.32s' is not a number "
					   "of seconds from 0 to 86400", arg);
	req->plan.quiet_wait = seconds;
	return 0;
}

/*
 * A plan's --cpus, a new run's or the stored one a resumed run keeps:
 * CPUs this process may run on, and from then on those its benchmarks'
 * checks count, the tasks' own, so that what they lack is refused before
 * a batch (or a resumed batch's iterations) runs.
 */
static int pin_cpus(const char *list, struct error *err)
{
	cpu_set_t cpus;

	if (cpulist_parse(list, "--cpus", &cpus, err))
		return -1;
	workload_pin_cpus(&cpus);
	return 0;
}

/* The plan keeps the list as given; the runner takes it from there. */
static int set_cpus(const struct cmd_option *opt, const char *arg)
{
	struct run_request *req = opt->value;
	struct error err = { 0 };

	if (pin_cpus(arg, &err))
		return error_report(&err);
	free(req->plan.cpus);
	req->plan.cpus = xstrdup(arg);
	return 0;
}

static int set_monitors(const struct cmd_option *opt, const char *arg)
{
	struct run_request *req = opt->value;

	struct error err = { 0 };

	free(req->plan.monitors);
	req->plan.monitors = xstrdup(arg ? arg : "none");
	if (arg && command_check_utf8("run", "monitor list", arg))
		return EXIT_USAGE;
	/* before the store is opened, and by --dry-run (so by submit) too */
	return arg && monitors_check_list(arg, &err) ? error_report(&err) : 0;
}

/*
 * The options --resume keeps, from their table: "--monitors, ..." with
 * @last before the last one. Its help line and its refusal name them so.
 */
static void add_kept_options(struct strbuf *sb, const char *last)
{
	for (const struct plan_option *o = plan_options; o->key; o++) {
		if (o != plan_options)
			strbuf_addstr(sb, o[1].key ? ", " : last);
		strbuf_addf(sb, "--%s", o->option);
	}
}

static const char *resume_help(struct strbuf *sb)
{
	strbuf_addstr(sb, "continue this machine's latest incomplete batch of NAME with exactly "
		      "the iterations it is missing (an iteration with no successful attempt "
		      "is missing), as its plan says: its benchmarks and the run's ");
	add_kept_options(sb, " and ");
	return strbuf_str(sb);
}

static int parse_arguments(int argc, char **argv, struct run_request *req)
{
	char suite_help[256];	/* the built-in suites named from their table */
	struct strbuf kept_help = STRBUF_INIT;	/* --resume's, from plan_options[] */
	struct cmd_option options[] = {
		OPT_CALLBACK('p', "param", req, "KEY=VALUE", "set a workload parameter; a "
			     "comma list (KEY=A,B) runs one benchmark per value, several lists "
			     "their product (see 'schedperf list'); a count may be a percent of "
			     "the CPUs (threads=1600%) or NxCPUs (2x)", add_param),
		OPT_CALLBACK(0, "sweep", req, "KEY=GEN[:MIN..MAX]", "sweep KEY over generated "
			     "values: pow2 (MIN, doubling, MAX), stride (MMTests' large stride), "
			     "topology (SMT, LLC, node, machine, 2x, 4x CPUs); MIN..MAX default "
			     "1..4x, MAX may be Nx (x CPUs)", add_sweep),
		OPT_INTEGER('i', "iterations", &req->plan.iterations, "N", 1, 1000000,
			    "measured iterations per benchmark (default 5)"),
		OPT_INTEGER(0, "warmup", &req->plan.warmup, "N", 0, 1000000,
			    "warm-up iterations first: stored, marked, never summarised "
			    "(default 0)"),
		OPT_TIMEOUT(&req->plan.timeout, "kill an iteration's whole process group "
			    "after SEC seconds (at most 604800, 7 days) and record it as "
			    "failed (default: none)"),
		OPT_INTEGER(0, "retries", &req->plan.retries, "N", 0, 100,
			    "run a failed iteration again, up to N times"),
		OPT_CALLBACK(0, "cpus", req, "LIST",
			     "run the workload's tasks on these CPUs (0-3,8); each batch records "
			     "them (knob.cpus)", set_cpus),
		OPT_CALLBACK(0, "knob", req, "SPEC", "for the whole run, change a setting of the "
			     "machine (sysctl:, procfs:, sysfs:, governor:, feature:), of the "
			     "workload's environment (env:) or of its tasks (policy:, nice:, "
			     "slice:, uclamp:, cgroup:), as ab's SPEC; journalled, put back "
			     "after and recorded in the run's environment", add_knob),
		OPT_CALLBACK(0, "max-interference", req, "PCT", "an iteration is disturbed when "
			     "other tasks (or the hypervisor) took more than PCT % of the CPU "
			     "time it could use (default 5); it is kept and marked",
			     set_max_interference),
		OPT_CALLBACK(0, "quiet-wait", req, "SEC", "before each iteration, wait up to "
			     "SEC seconds for its CPUs to be quiet (default 0: do not wait)",
			     set_quiet_wait),
		OPT_INTEGER(0, "rerun-disturbed", &req->plan.rerun_disturbed, "N", 0, 100,
			    "run a disturbed iteration again, up to N times; the disturbed one "
			    "is kept and marked (default 0)"),
		OPT_BOOL(0, "shuffle", &req->plan.shuffle, "run the benchmarks in a random order"),
		OPT_STRING(0, "name", &req->opt.name, "NAME",
			   "run name (default: the kernel release, uname -r)"),
		OPT_BOOL(0, "replace", &req->opt.replace,
			 "discard this machine's earlier batches of NAME first"),
		OPT_BOOL(0, "bisection", &req->bisection,
			 "store the batch as a bisection's measurement, as bisect --kernel-tree's "
			 "jobs do: NAME is then the bisection's own, and no batch of another run "
			 "joins it"),
		OPT_STRING(0, "suite", &req->what.suite, "NAME|FILE", suite_help),
		OPT_BOOL(0, "resume", &req->resume, resume_help(&kept_help)),
		OPT_CALLBACK(0, "monitors", req, "LIST", "measure these beside the "
			   "workload: vmstat, stat, softirqs, schedstat, cpufreq (read before and "
			   "after each iteration; the default), perf (software and hardware "
			   "counters on the workload's tasks: they count during it, so only when "
			   "asked), profile (CPU profiles with kernel and user call chains of the "
			   "workload's tasks, sampled while it runs, so only when named; see show "
			   "--profile and compare --profile), profile-system (the same of every "
			   "task on every CPU, what runs beside the workload too), a comma list; "
			   "or alone all (every one but the profiles) or none", set_monitors),
		OPT_INTEGER(0, "profile-iterations", &req->plan.profile_iterations, "N", 1, 1000,
			    "profile N extra iterations per benchmark after its measured ones, "
			    "which then run unprofiled (adds the profile monitor)"),
		OPT_INTEGER(0, "profile-frequency", &req->plan.profile_frequency, "HZ", 1, 1000000,
			    "samples a second on each CPU for the profile monitors (default "
			    stringify(PROFILE_FREQUENCY) "; each sample costs the workload "
			    "time: see 'man schedperf')"),
		OPT_CALLBACK(0, "no-monitors", req, NULL, "the same as --monitors none",
			     set_monitors),
		OPT_BOOL(0, "dry-run", &req->dry_run,
			 "print the plan (one benchmark a line) and stop"),
		OPT_INTEGER(0, "assume-cpus", &req->assume_cpus, "N", 1, CPU_SETSIZE,
			    "with --dry-run: plan for a machine with N CPUs"),
		OPT_END(),
	};
	bool stop;
	int code;

	snprintf(suite_help, sizeof(suite_help), "run a built-in suite or a YAML suite file (see "
		 "schedperf-suite(5)): %s", suite_names());
	/* what the options give, 0 too, is the plan's given: --resume refuses it */
	plan_options_unset(&req->plan);
	stop = parse_options(argc, argv, options, &run_usage, &code);
	strbuf_release(&kept_help);
	if (stop)
		return code ? code : -1;
	plan_options_mark(&req->plan);
	if (command_check_utf8_operands("run", "workload name", argc, argv))
		return EXIT_USAGE;
	if (optind < argc)
		req->what.workload = argv[optind];
	if (optind + 1 < argc)
		return command_usage_error("run", "one workload at a time: unexpected '%.64s'",
					   argv[optind + 1]);
	return 0;
}

static bool plan_options_given(const struct plan *plan)
{
	for (const struct plan_option *o = plan_options; o->key; o++)
		if (plan_option_given(plan, o))
			return true;
	return false;
}

/* --resume takes the plan's options from the plan: each named by its table. */
static int resume_conflict(void)
{
	struct strbuf sb = STRBUF_INIT;
	int code;

	add_kept_options(&sb, ", ");
	code = command_usage_error("run", "--resume continues the stored plan; give no "
				   "WORKLOAD, -p, --sweep, --suite, %s or --replace with it",
				   strbuf_str(&sb));
	strbuf_release(&sb);
	return code;
}

static int check_combinations(const struct run_request *req)
{
	const struct plan_request *what = &req->what;

	if (req->assume_cpus && !req->dry_run)
		return command_usage_error("run", "--assume-cpus plans for another machine; "
					   "give it with --dry-run");
	/* submit's check is a dry run: the job itself would refuse it */
	if (req->assume_cpus && workload_checking_for_job())
		return command_usage_error("run", "--assume-cpus only plans a dry run: a job "
					   "runs on its worker's CPUs (leave it out)");
	if (req->resume && req->assume_cpus)
		return command_usage_error("run", "--assume-cpus: --resume runs the stored plan, "
					   "made for the CPUs of its batch's machine (leave it out)");
	if (req->resume && (what->suite || what->workload || what->nr_params ||
			    what->nr_sweeps || req->opt.replace || plan_options_given(&req->plan)))
		return resume_conflict();
	if (req->resume && req->bisection)
		return command_usage_error("run", "--bisection marks the batch a run begins; "
					   "--resume continues a stored one, a bisection's or not "
					   "as it began (leave it out)");
	if (!req->resume && req->plan.profile_frequency && !req->plan.profile_iterations &&
	    !monitors_list_profiles(req->plan.monitors))
		return command_usage_error("run", "--profile-frequency: no profile is taken "
					   "(add --monitors profile or profile-system, or "
					   "--profile-iterations N)");
	if (what->suite && (what->workload || what->nr_params || what->nr_sweeps))
		return command_usage_error("run", "--suite runs its own workloads and "
					   "parameters; give no WORKLOAD or -p with it");
	if (!what->suite && !req->resume && !what->workload)
		return command_usage_error("run", "no workload given: name one "
					   "(see 'schedperf list') or give --suite quick");
	return 0;
}

/*
 * The iterations of @plan's benchmarks that batch @batch_id, being
 * resumed, has already had: as the runner counts them, so that a dry run
 * says what --resume would run.
 */
static int resumed_done(struct store *st, int64_t batch_id, const struct plan *plan,
			long *done, struct error *err)
{
	struct result_benchmark none = { 0 };

	*done = 0;
	for (size_t i = 0; i < plan->nr_items; i++) {
		const struct plan_item *item = &plan->items[i];
		struct benchmark_progress had;
		int64_t bench_id;

		if (store_benchmark_progress(st, batch_id, i, &none, &bench_id, NULL, &had,
					     err) < 0)
			return -1;
		*done += had.warmup_done < item->warmup ? had.warmup_done : item->warmup;
		*done += had.measured_done < item->iterations ? had.measured_done :
			 item->iterations;
	}
	return 0;
}

/* @done: the iterations a resumed batch has had, or NULL for a new run. */
static void print_dry_run(const struct plan *plan, const long *done)
{
	long iterations = 0, tasks = 0;

	for (size_t i = 0; i < plan->nr_items; i++) {
		const struct plan_item *item = &plan->items[i];
		char params[1024];

		plan_item_describe(item, params, sizeof(params));
		printf("%s %s\n", item->workload->name, params);
		iterations += item->iterations + item->warmup;
		if (item->needs.tasks > tasks)
			tasks = item->needs.tasks;
	}
	for (size_t i = 0; i < plan->nr_knobs; i++)
		printf("knob %s\n", plan->knobs[i]);
	printf("%zu benchmark%s, %ld iterations in all (warm-ups included)", plan->nr_items,
	       plan->nr_items == 1 ? "" : "s", iterations);
	if (done)
		printf(", %ld of them missing, which --resume runs", iterations - *done);
	printf("; at most %ld tasks at once; planned for %d CPUs\n", tasks,
	       workload_cpus_allowed());
}

/*
 * The batch just run: its summary on stdout (unless @quiet), and one line
 * on stderr when other tasks disturbed some of its iterations.
 */
static int show_batch(struct store *st, const char *name, int64_t batch_id, bool quiet)
{
	struct result_set set = { NULL, 0 };
	struct error err = { 0 };

	if (store_load(st, name, STORE_SAMPLES | STORE_ITERATIONS, &set, &err))
		return error_report(&err);
	for (size_t i = 0; i < set.nr_batches; i++) {
		struct disturbance d;
		char line[512];

		if (set.batches[i].id != batch_id)
			continue;
		if (!quiet)
			report_batch_summary(stdout, &set.batches[i]);
		disturbance_summarize(&set.batches[i], DISTURBANCE_ALL, &d);
		if (!d.disturbed)
			continue;
		disturbance_describe(&d, line, sizeof(line));
		fflush(stdout);
		fprintf(stderr, "schedperf: %s\n", line);
	}
	result_set_release(&set);
	return 0;
}

/*
 * The store to resume in: one that exists. --resume with the wrong --db,
 * or in the wrong directory, is refused without leaving a new empty store.
 */
static int open_to_resume(const char *name, struct store **st, struct error *err)
{
	struct store_status status;

	if (store_peek(global.db, &status, err))
		return -1;
	if (!status.version)
		return error_set(err, EXIT_USAGE, "run '%s' has no incomplete batch to resume: "
				 "there is no store at '%s' (give the --db of the run's store)",
				 name, status.location);
	return store_open(global.db, st, err);
}

/*
 * A batch that a missing resource (the store's server gone, say) left
 * incomplete can be finished: the error's fix says how.
 */
static void add_resume_hint(struct error *err, const struct runner_result *res,
			    const char *name)
{
	struct error jerr = { 0 };
	size_t len = strlen(err->msg);
	int64_t job_id;
	char *resume;

	/* a job's batch is no one's to resume: its worker runs the job again, or fails it */
	if (!res->batch_id || err->code != EXIT_ENV || !len || err->msg[len - 1] != ')' ||
	    job_env_id(&job_id, &jerr) > 0)
		return;
	resume = run_resume_command(global.db, name);
	snprintf(err->msg + len - 1, sizeof(err->msg) - len + 1, "; then finish batch %lld "
		 "with: %s)", (long long)res->batch_id, resume);
	free(resume);
}

/*
 * A new batch that stopped on an error before any iteration ran (one
 * whose child found a privilege or a resource missing that no check
 * before could see): nothing of it is worth resuming, so it goes, with
 * its run when that holds nothing else, and the error's own fix is the
 * advice. Returns whether it went; a resumed batch stays, as it was.
 */
static bool discard_unrun(struct store *st, const struct run_request *req,
			  const struct runner_result *res, struct error *err)
{
	struct lock_wait w = LOCK_WAIT(st, req->opt.events, "the end of its batch");
	struct error derr = { 0 };
	int rc;

	if (req->resume || !res->batch_id || res->iterations_done || res->signal ||
	    err->code != EXIT_ENV)
		return false;
	while ((rc = store_batches_discard(st, &res->batch_id, 1, NULL, &derr)) &&
	       lock_wait_again(&w))
		;
	return !rc;
}

/* The plan's --knob SPECs, and its --cpus inside any cgroup:cpuset.cpus of them. */
static int parse_knobs(const struct plan *plan, struct knob_session *ks,
		       struct knob_list *knobs, struct error *err)
{
	if (!plan->nr_knobs)
		return 0;
	if (knob_session_parse(ks, knobs, plan->knobs, plan->nr_knobs, "run: --knob", err))
		return -1;
	return plan->cpus ? knob_session_cpus(ks, 0, plan->cpus, "run: --cpus ", err) : 0;
}

/*
 * Claim the batch to resume (the store refuses one still being written)
 * and load its plan: the options it was started with, its --knob parsed
 * into @ks and @knobs, then its benchmarks, checked as a new run's are.
 * The claim waits for a write lock held past the busy timeout as the begin
 * of a batch does (runner/lock_wait.h), unless it is only a --dry-run's.
 */
static int prepare_resume(struct store *st, struct run_request *req, struct knob_session *ks,
			  struct knob_list *knobs, struct error *err)
{
	struct lock_wait w = LOCK_WAIT(st, req->opt.events, "that it resumes its batch");
	char *plan_json = NULL;
	int rc;

	iteration_install_signal_handlers();
	while ((rc = store_resume_find(st, req->opt.name, &req->opt.resume_batch, &plan_json,
				       err)) && !req->dry_run && lock_wait_again(&w))
		;
	if (rc)
		return -1;
	/*
	 * its stored --cpus and knobs first, as a new run's: the benchmarks'
	 * checks count those CPUs and look in the PATH the knobs give
	 */
	rc = plan_options_from_json(plan_json, &req->plan, err) ||
	     (req->plan.cpus && pin_cpus(req->plan.cpus, err)) ||
	     parse_knobs(&req->plan, ks, knobs, err);
	if (!rc) {
		workload_search_path(knobs_env(knobs, "PATH"), "run --knob");
		rc = plan_benchmarks_from_json(plan_json, &req->plan, err);
		workload_search_path(NULL, NULL);
	}
	free(plan_json);
	return rc ? -1 : 0;
}

/* A new run's plan: its knobs into @ks and @knobs, then its benchmarks, beside its options. */
static int prepare_plan(struct run_request *req, struct knob_session *ks,
			struct knob_list *knobs, struct error *err)
{
	int rc;

	/* its knobs first: the benchmarks' checks look in the PATH they give */
	if (parse_knobs(&req->plan, ks, knobs, err))
		return -1;
	workload_search_path(knobs_env(knobs, "PATH"), "run --knob");
	rc = plan_build(&req->plan, &req->what, err);
	workload_search_path(NULL, NULL);
	if (rc)
		return -1;
	plan_settle(&req->plan, &req->opt);
	return 0;
}

int cmd_run(int argc, char **argv)
{
	struct run_request req;
	struct runner_result res;
	struct plan *plan = &req.plan;
	struct store *st = NULL;
	struct error err = { 0 };
	struct run_display display;
	struct knob_session ks;
	struct knob_list knobs = { NULL, 0 };
	bool knobs_changed = false, store_made = false;
	int64_t job_id;
	int code;

	knob_session_init(&ks, 1, "run");
	memset(&req, 0, sizeof(req));
	req.opt.iterations = 5;
	req.opt.max_interference = INTERFERENCE_DEFAULT_MAX_PCT / 100;
	req.what.params = xcalloc((size_t)argc, sizeof(char *));
	req.what.sweeps = xcalloc((size_t)argc, sizeof(char *));
	code = parse_arguments(argc, argv, &req);
	if (code)
		goto out;
	req.opt.events = run_display_init(&display);
	/* the store keeps the bisection's runs its own, as a local bisection's (store/runs.c) */
	if (req.bisection)
		req.opt.experiment = "bisect";
	/* a run it names is the bisection's for good: never the default every run goes to */
	if (req.bisection && !req.resume && !req.opt.name) {
		code = command_usage_error("run", "--bisection makes its run a bisection's own, "
					   "which the kernel release's run, where a run without "
					   "--name goes, must not be (give --name)");
		goto out;
	}
	if (!req.opt.name)
		req.opt.name = default_run_name();
	if ((code = command_check_run_name("run", "run name", req.opt.name, RUN_NAME_MAX)) ||
	    (!req.resume && (code = command_check_unreserved("run", req.opt.name, ""))) ||
	    (code = check_combinations(&req)))
		goto out;
	if (req.assume_cpus)
		workload_assume_cpus(req.assume_cpus);

	if (req.resume ? open_to_resume(req.opt.name, &st, &err) ||
			 prepare_resume(st, &req, &ks, &knobs, &err) :
			 prepare_plan(&req, &ks, &knobs, &err)) {
		/* in the claim's wait for the store's write lock */
		if (iteration_interrupted()) {
			code = command_interrupted("nothing was stored; run '%s' is as it was",
						   req.opt.name);
			goto out;
		}
		goto fail;
	}
	if (req.dry_run) {
		long done = 0;

		/* what the run would be refused for when it stores its batch (submit's check too) */
		if (!req.resume && store_check_run_own(global.db, req.opt.name, &err))
			goto fail;
		if (req.resume && resumed_done(st, req.opt.resume_batch, plan, &done, &err))
			goto fail;
		print_dry_run(plan, req.resume ? &done : NULL);
		goto out;
	}
	/*
	 * The machine's settings before the store: a value the kernel refuses,
	 * or one a killed ab left changed, writes nothing, not even a new store.
	 */
	if (plan->nr_knobs) {
		knobs_changed = true;
		if (knob_session_start(&ks, &err))
			goto fail;
		req.opt.task = knob_session_task(&ks, 0);
		req.opt.knob_env = knob_session_describe(&ks, 0);
	} else if (knob_guard_take(false, &err)) {
		goto fail;
	}
	/*
	 * What the machine refuses (a limit, a privilege, a helper program)
	 * before the store too: such a run is refused as a bad value is.
	 */
	if (runner_preflight(plan, &err) ||
	    (!st && store_open_made(global.db, &st, &store_made, &err)))
		goto fail;
	if (job_env_attach(st, &err) ||
	    (plan->nr_knobs ? knob_session_copy(&ks, st, &err) : knob_guard_copy(st, &err)))
		goto fail;
	code = runner_execute(st, plan, &req.opt, &res, &err);
	run_display_end(&display);
	if (code) {
		run_display_outcome(&res, req.opt.name);
		if (res.signal && !res.batch_id) {
			/* in its begin's wait for the store's write lock */
			code = command_interrupted("nothing was stored");
			goto out;
		}
		if (res.signal && job_env_id(&job_id, &err) > 0) {
			code = command_interrupted("batch %lld of run '%s' is left unfinished, "
						   "never seen: its job's worker runs the job "
						   "again, or fails it after its last attempt",
						   (long long)res.batch_id, req.opt.name);
			goto out;
		}
		if (res.signal) {
			char *resume = run_resume_command(global.db, req.opt.name);

			code = command_interrupted("%zu completed iterations are kept; batch "
						   "%lld of run '%s' is marked incomplete (finish "
						   "it with: %s)", res.iterations_done,
						   (long long)res.batch_id, req.opt.name, resume);
			free(resume);
			goto out;
		}
		if (!discard_unrun(st, &req, &res, &err))
			add_resume_hint(&err, &res, req.opt.name);
		goto fail;
	}
	run_display_outcome(&res, req.opt.name);
	/* a job's batch that measured nothing is not stored: the job fails (its worker's) */
	if (runner_measured_nothing(&res) && job_env_id(&job_id, &err) > 0) {
		code = die_code(EXIT_FOUND, "run '%s': no iteration succeeded, so nothing was "
				"measured, and the job's batch is not stored; the last failed: %s "
				"(fix the workload or its parameters)", req.opt.name,
				res.last_failure);
		goto out;
	}
	code = show_batch(st, req.opt.name, res.batch_id, global.quiet);
	if (!code && runner_measured_nothing(&res) && req.opt.replace)
		code = die_code(EXIT_FOUND, "run '%s': no iteration succeeded, so nothing was "
				"measured and nothing replaced (its earlier batches are kept); the "
				"last failed: %s (fix the workload or its parameters, then --replace "
				"again)", req.opt.name, res.last_failure);
	else if (!code && runner_measured_nothing(&res))
		code = die_code(EXIT_FOUND, "run '%s': no iteration succeeded, so nothing was "
				"measured; the last failed: %s (see 'schedperf show %s' for why each "
				"failed, and fix the workload or its parameters)", req.opt.name,
				res.last_failure, req.opt.name);
	goto out;
fail:
	code = error_report(&err);
out:
	if (knobs_changed) {
		struct error rerr = { 0 };

		if (knob_session_end(&ks, st, &rerr) && code <= 0)
			code = error_report(&rerr);
	}
	knob_session_release(&ks);
	knobs_release(&knobs);
	store_close_made(st, store_made);
	plan_release(plan);
	free(req.what.params);
	free(req.what.sweeps);
	return code < 0 ? EXIT_OK : code;
}
