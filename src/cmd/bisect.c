// SPDX-License-Identifier: GPL-2.0
/*
 * schedperf bisect: the whole bisection of a user-space regression, git
 * bisect driven from here. Every commit it measures is built in a scratch
 * work tree of its own (runner/commit_build.h), so the good end, the bad
 * end and the step's build run side by side, in blocks of a random order
 * (experiment/sampling.h), and the drift of the machine cancels:
 *
 *  1. the ends: good and bad in blocks until the paired confidence
 *     sequence says they differ (bad worse by more than the margin), else
 *     "nothing to bisect" — the stability gate;
 *  2. each step: good, the step and bad in blocks until level_choice
 *     (stats/level_choice.h) says which of the two the step behaves like;
 *     a build that fails is a skip;
 *  3. the culprit against its parent, in blocks, which must differ in the
 *     regression's direction, or the culprit is said not to be confirmed.
 *
 * The bisection is one record in the store (state, steps, verdicts, as
 * JSON) written after every step, and every measurement is a run
 * (NAME-good, NAME-bad, NAME-HASH12), so that an interrupted bisection can
 * be resumed from git's own bisect state and the record: a step's verdict
 * is recorded before git is told, and told again on resume if git has not
 * heard it. The engine is experiment/bisection.h's; this is the command.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/sequential_options.h"
#include "cli/status.h"
#include "cmd/cmd.h"
#include "experiment/bisection.h"
#include "report/report.h"
#include "runner/iteration.h"
#include "util/xalloc.h"

static const struct cmd_usage bisect_usage = {
	"usage: schedperf bisect WORKLOAD [-p KEY=VALUE]... --good REV --bad REV\n"
	"                        [--build CMD] [--repo DIR] [options]\n"
	"   or: schedperf bisect WORKLOAD [-p KEY=VALUE]... --good REV --bad REV\n"
	"                        --kernel-tree DIR --build CMD --machine PATTERN\n"
	"                        [options]\n"
	"   or: schedperf bisect --resume [--repo DIR]\n"
	"   or: schedperf bisect --show [ID] [--format {format}]\n"
	"   or: schedperf bisect --list\n"
	"\n"
	"Find the commit between REV good and REV bad of the git repository DIR\n"
	"(default: the current directory) that made WORKLOAD worse. Each commit is\n"
	"checked out and built (--build CMD, a shell command run in it) in a scratch\n"
	"work tree of its own; the ends are measured first, in interleaved blocks,\n"
	"and a range whose ends do not differ by more than --margin is 'nothing to\n"
	"bisect'. Each step is measured in blocks with both ends and decided for the\n"
	"end it behaves like, each wrong answer at most --alpha likely; the culprit\n"
	"is then measured against its parent and must be worse. The bisection and\n"
	"every measurement are stored; Ctrl-C leaves both git's bisect state and the\n"
	"store so that --resume goes on. Exit 0 with a confirmed culprit, 1 without\n"
	"one (nothing to bisect, not confirmed, only skipped commits left).\n",

	"--alpha is each step's chance of a wrong answer;\n"
	"--max-samples (200 blocks; with --kernel-tree, 12 rounds of boots) and\n"
	"--max-time bound each measurement (a step at its cap goes to the end with\n"
	"more evidence). Runs: NAME-good, NAME-bad, NAME-COMMIT. With --kernel-tree\n"
	"each commit is a kernel, built in DIR by --build and booted and measured\n"
	"by the workers of a machine matching --machine (a PostgreSQL store;\n"
	"'schedperf worker --boot-cmd'), one round of boots per block; a job that\n"
	"stored the metric in another unit or direction than the first (a worker of\n"
	"another version) stops the bisection (exit 3) for --resume.\n",
};

static int set_flag(const struct cmd_option *opt, const char *arg)
{
	*(bool *)opt->value = true;
	return 0;
}

/* --show's operand, a bisection's id; without one, the newest. */
static int show_id(int argc, char **argv, int64_t *id)
{
	char *end;

	*id = 0;
	if (optind == argc)
		return 0;
	errno = 0;
	*id = strtoll(argv[optind], &end, 10);
	if (optind + 1 < argc || *end || *id <= 0 || errno)
		return command_usage_error("bisect", "--show [ID]: give one bisection's id, "
					   "as 'schedperf bisect --list' shows them");
	return 0;
}

/*
 * A resumed bisection runs with the options it was started with: any
 * other given now would be ignored, so it is refused instead.
 */
static int resume_conflicts(const struct bisection *bi, int argc, int optind_now)
{
	bool given = optind_now < argc || bi->good_rev || bi->bad_rev || bi->build_cmd ||
		     bi->machine || bi->so.nr_params || bi->so.metric || bi->so.name ||
		     bi->so.alpha != BISECT_DEFAULT_ALPHA || bi->so.margin_pct != 2 ||
		     bi->so.max_samples != -1 || bi->so.max_time || bi->so.timeout ||
		     bi->seed != -1 || bi->boot_iterations != 10 || (bi->repo && bi->kernel_tree);

	if (given)
		return command_usage_error("bisect", "--resume goes on with the options the "
					   "bisection was started with: give only --repo or "
					   "--kernel-tree, --format and --db");
	return 0;
}

/*
 * The options the record keeps (JSON, which holds only UTF-8) or its
 * messages quote: one that is not UTF-8 is refused here, before anything
 * is built, as every command refuses such a name or value.
 */
static int check_utf8_options(const struct bisection *bi)
{
	const struct { const char *what, *value; } given[] = {
		{ "--good", bi->good_rev }, { "--bad", bi->bad_rev },
		{ "--build", bi->build_cmd }, { "--repo", bi->repo },
		{ "--kernel-tree", bi->kernel_tree },
	};

	for (size_t i = 0; i < sizeof(given) / sizeof(given[0]); i++)
		if (given[i].value && command_check_utf8("bisect", given[i].what, given[i].value))
			return EXIT_USAGE;
	return 0;
}

/* --show: the report of a stored bisection, the newest without an id. */
static int show(int64_t id, const struct output_format *format)
{
	struct stored_bisection b = { 0 };
	struct store *st = NULL;
	struct error err = { 0 };
	json_t *record;
	int found, rc;

	if (store_open_existing(global.db, &st, &err))
		return error_report(&err);
	found = store_bisection_get(st, id, NULL, &b, &err);
	store_close(st);
	if (found < 0)
		return error_report(&err);
	if (found) {
		struct bisection of_store = { .db = global.db };
		char *store = bisection_store_options(&of_store);

		rc = die_code(EXIT_USAGE, id ? "bisect --show: no bisection %lld in the store "
			      "(see schedperf bisect --list%s)" : "bisect --show: no bisection in "
			      "the store%.0lld%.0s (start one: schedperf bisect)", (long long)id,
			      store);
		free(store);
		return rc;
	}
	record = bisection_record_read(&b, "bisect --show", &err);
	/* given up for a later one: its record says what it was doing, the state why it stopped */
	if (record && !strcmp(b.state, "abandoned"))
		json_object_set_new(record, "abandoned", json_true());
	stored_bisection_release(&b);
	if (!record)
		return error_report(&err);
	format->write(stdout, record, NULL);
	rc = ferror(stdout) ? EXIT_ENV : EXIT_OK;
	json_decref(record);
	return rc;
}

/* --list: the stored bisections, one a line. */
static int list(void)
{
	struct stored_bisection *all = NULL;
	struct error err = { 0 };
	size_t n = 0;
	int rc;

	if (bisection_list_load(global.db, &all, &n, &err)) {
		rc = error_report(&err);
	} else {
		report_bisection_list(stdout, all, n);
		rc = ferror(stdout) ? EXIT_ENV : EXIT_OK;
	}
	for (size_t i = 0; i < n; i++)
		stored_bisection_release(&all[i]);
	free(all);
	return rc;
}

/* The flow of a new or resumed bisection, after the record is open. */
static int bisect_run(struct bisection *bi, struct error *err)
{
	const char *state = bisection_state(bi);

	if (!strcmp(state, "measuring ends") && bisection_measure_ends(bi, err))
		return -1;
	state = bisection_state(bi);
	if (!strcmp(state, "bisecting") && bisection_steps(bi, err))
		return -1;
	state = bisection_state(bi);
	if (!strcmp(state, "confirming") && bisection_confirm(bi, err))
		return -1;
	return 0;
}

/*
 * Close @bi; a kernel tree it could not put back is said, even under -q,
 * before the line of how the bisection ended.
 */
static void bisect_close(struct bisection *bi)
{
	bisection_close(bi);
	if (bi->tree_left[0])
		fprintf(stderr, "schedperf: bisect: %s\n", bi->tree_left);
}

/*
 * A missing resource (a full disk, the store's server gone) that stopped a
 * bisection leaves it interrupted, as Ctrl-C does: the error's fix says how
 * to go on, unless it says so already. Its command is kept whole: a
 * message too long loses the end of what went wrong instead.
 */
static void add_resume_hint(const struct bisection *bi, struct error *err)
{
	char *resume, *hint;

	if (err->code != EXIT_ENV || !bi->id || !strcmp(bisection_state(bi), "finished") ||
	    strstr(err->msg, "bisect --resume"))
		return;
	resume = bisection_resume_command(bi);
	hint = xasprintf("the bisection is kept: go on with: %s", resume);
	free(resume);
	/* (a path of hundreds of bytes: the error alone, as before) */
	error_add_fix(err, hint);
	free(hint);
}

static int bisect_main(struct bisection *bi, const struct output_format *format)
{
	struct sampling_events events;
	struct status_line sl;
	struct error err = { 0 };
	int rc;

	status_events(&events, &sl, bi->so.max_time);
	bi->events = &events;
	bi->db = global.db;
	if (bisection_open(bi, &err)) {
		bisect_close(bi);
		return error_report(&err);
	}
	/* resumed, the bisection's own --max-time */
	sl.max_time = bi->so.max_time;
	iteration_install_signal_handlers();
	rc = bisect_run(bi, &err);
	if (rc && iteration_interrupted()) {
		/* git's bisect state begins once the ends are measured */
		bool ends = !strcmp(bisection_state(bi), "measuring ends");
		bool kernel = bi->target == &bisect_kernel;
		char *resume = bisection_resume_command(bi);

		bisection_interrupted(bi);
		/* a tree it could not put back is said to be, by the close */
		bisect_close(bi);
		/* the command last, whole, to be pasted */
		rc = command_interrupted("%s%s; go on with: %s", ends ? "the store is kept (git's "
					 "bisect state begins once the ends are measured)" :
					 "git's bisect state and the store are kept",
					 kernel && !bi->tree_moved ? ", the kernel tree is back "
					 "where it was" : "", resume);
		free(resume);
		return rc;
	}
	if (rc) {
		bisection_failed(bi, &err);
		add_resume_hint(bi, &err);
		bisect_close(bi);
		return error_report(&err);
	}
	format->write(stdout, bi->record, NULL);
	rc = ferror(stdout);
	rc = rc ? EXIT_ENV : bisection_confirmed(bi) ? EXIT_OK : EXIT_FOUND;
	bisect_close(bi);
	return rc;
}

int cmd_bisect(int argc, char **argv)
{
	struct bisection bi = { .so = SEQUENTIAL_DEFAULTS };
	struct option_choice format = OPTION_CHOICE(bisection_formats);
	bool show_it = false, list_them = false;
	struct cmd_option options[] = {
		SEQUENTIAL_OPTIONS_ALPHA(&bi.so, "0.01", "; at least 10, 7 at --alpha 0.05"),
		OPT_STRING(0, "good", &bi.good_rev, "REV", "a commit that behaves well"),
		OPT_STRING(0, "bad", &bi.bad_rev, "REV", "a later commit that is worse"),
		OPT_STRING(0, "build", &bi.build_cmd, "CMD", "build a checked-out commit: a shell "
			   "command run in its scratch work tree (default: none)"),
		OPT_STRING(0, "repo", &bi.repo, "DIR", "the git repository (default: the "
			   "current directory)"),
		OPT_STRING(0, "kernel-tree", &bi.kernel_tree, "DIR", "bisect kernels: the kernel "
			   "tree, whose commits --build builds and the fleet boots"),
		OPT_JOB_MACHINE(&bi.machine, "with --kernel-tree: the machines (host names, "
				"* and ?) whose workers may boot them"),
		OPT_INTEGER(0, "boot-iterations", &bi.boot_iterations, "N", 1, 1000000,
			    "with --kernel-tree: iterations measured per boot (default 10)"),
		OPT_STRING(0, "name", &bi.so.name, "NAME", "name its runs NAME-good, NAME-bad, "
			   "NAME-COMMIT (default: bisect-ID)"),
		OPT_SEED(&bi.seed, "the seed of the blocks' random order (default: from the "
			 "clock)"),
		OPT_FORMAT(&format, "the report: {}"),
		OPT_CALLBACK(0, "resume", &bi.resume, NULL, "go on with the bisection that was "
			     "interrupted in this repository", set_flag),
		OPT_BOOL(0, "show", &show_it, "print the report of the stored bisection ID "
			 "(the newest without ID) and run nothing"),
		OPT_CALLBACK(0, "list", &list_them, NULL, "list the stored bisections", set_flag),
		OPT_END(),
	};
	bool given_max;
	int code;

	bi.so.alpha = BISECT_DEFAULT_ALPHA;
	bi.so.max_samples = -1;
	bi.boot_iterations = 10;
	bi.seed = -1;
	if (parse_options(argc, argv, options, &bisect_usage, &code))
		goto out;
	code = EXIT_USAGE;
	if (sequential_check_utf8("bisect", &bi.so) || check_utf8_options(&bi))
		goto out;
	if (show_it || list_them) {
		if (show_it && list_them) {
			command_usage_error("bisect", "--show and --list: give one of them");
			goto out;
		}
		if ((list_them && optind < argc) || bi.resume || bi.good_rev || bi.bad_rev) {
			command_usage_error("bisect", "--show and --list only read: give no "
					    "workload, --good, --bad or --resume");
			goto out;
		}
		if (list_them)
			code = list();
		else if (!show_id(argc, argv, &bi.id))
			code = show(bi.id, format.chosen);
		goto out;
	}
	if (bi.resume) {
		if (resume_conflicts(&bi, argc, optind))
			goto out;
		if (bi.kernel_tree)
			bi.repo = bi.kernel_tree;
		bi.kernel_tree = NULL;
	} else if (optind + 1 != argc || !bi.good_rev || !bi.bad_rev) {
		command_usage_error("bisect", optind >= argc ? "no workload given" :
				    optind + 1 < argc ? "one workload at a time" :
				    "--good REV and --bad REV are both required");
		goto out;
	} else {
		bi.workload = argv[optind];
	}
	if ((bi.machine || bi.boot_iterations != 10) && !bi.kernel_tree) {
		command_usage_error("bisect", "--machine and --boot-iterations are for a kernel "
				    "bisection: give --kernel-tree DIR too");
		goto out;
	}
	if (bi.kernel_tree && bi.repo) {
		command_usage_error("bisect", "--kernel-tree DIR is the repository: give it "
				    "without --repo");
		goto out;
	}
	given_max = bi.so.max_samples >= 0;
	if (!given_max)
		bi.so.max_samples = bi.kernel_tree ? 12 : SEQUENTIAL_DEFAULT_MAX_SAMPLES;
	if (bi.so.name && command_check_run_name("bisect", "--name", bi.so.name,
						  RUN_NAME_MAX - 13))
		goto out;
	if (sequential_check_max_samples("bisect", &bi.so, given_max))
		goto out;
	code = bisect_main(&bi, format.chosen);
out:
	free(bi.so.params);
	return code;
}
