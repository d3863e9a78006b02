// SPDX-License-Identifier: GPL-2.0
/*
 * schedperf submit: queue a run, an ab or a bisect-step for the workers
 * (schedperf worker) of the machines a pattern names. Everything that is
 * not submit's own option is the command's: it is checked here by the
 * command's own --dry-run in a child, so a job the workers would refuse
 * is refused now, with the command's own message.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "runner/job_env.h"
#include "store/store.h"
#include "util/array.h"
#include "util/spawn.h"
#include "util/strbuf.h"
#include "util/utf8.h"
#include "util/words.h"
#include "util/xalloc.h"
#include "workload/workload.h"

static const struct cmd_usage submit_usage = {
	"usage: schedperf submit [--machine PATTERN] [--priority N] [--repeat N]\n"
	"                        [--max-attempts N] [--kernel RELEASE]\n"
	"                        [run] RUN-ARGUMENTS...\n"
	"   or: schedperf submit [options] ab AB-ARGUMENTS...\n"
	"   or: schedperf submit [options] bisect-step BISECT-ARGUMENTS...\n"
	"\n"
	"Queue a run in the store for the workers ('schedperf worker') of the\n"
	"machines PATTERN matches. RUN-ARGUMENTS are those of 'schedperf run' (a\n"
	"workload with -p, --sweep, -i ..., or --suite), after the word run or\n"
	"none, as 'schedperf jobs' names the job's command; after the word ab or\n"
	"bisect-step, those of that command, run on the worker's machine. They are\n"
	"checked now; a list of CPUs only for its form and for CPUs 0 to 1023, the\n"
	"most schedperf can address, and the command workload's program only for\n"
	"its form too, the worker checking that its machine has them. No other\n"
	"command is a job: 'schedperf bisect --kernel-tree DIR --machine PATTERN'\n"
	"queues a bisection's own jobs.\n"
	"Needs a PostgreSQL store (--db postgresql://...).\n"
	"Prints each job's id. A PATTERN that matches none of the machines whose\n"
	"workers or batches the store has seen is queued all the same (a machine\n"
	"may join later), with a warning on stderr that names those it has seen.\n",
	"Each job runs once: its batches are stored whole and linked to the job,\n"
	"with the verdict of an ab or bisect-step, or not at all; a job whose\n"
	"worker dies is run again by another, up to --max-attempts claims in all,\n"
	"then it fails with the reason. An ab or bisect-step job without --name\n"
	"stores its runs as ab-job-ID-a and -b, or bisect-job-ID, names that no\n"
	"--name may take; an ab's --name names runs of its own: refused with\n"
	"--repeat N > 1, when its runs exist or another queued or running ab job\n"
	"names them, and failed by the worker when they were made meanwhile; a\n"
	"bisect-step's --name is refused with --repeat N > 1 too. A job with\n"
	"--kernel runs on that kernel\n"
	"release: a worker that runs another boots it first, if it has a\n"
	"--boot-cmd (see 'schedperf worker --help').\n",
};

struct submit_request {
	const char *command;	/* run, ab or bisect-step */
	const char *machine;
	int priority;
	int repeat;
	int max_attempts;
	const char *kernel;	/* the release it needs; NULL: any */
	char **args;		/* the run's, NULL-terminated */
	int nr_args;
};

static int set_kernel(const struct cmd_option *opt, const char *arg)
{
	*(const char **)opt->value = arg;
	return command_check_release("submit", "--kernel release", arg);
}

/*
 * One argument of submit's own, or of the common ones, at argv[*i]: 0 with
 * *@taken when it is one of them, 0 when it is the job's; -1 after --help;
 * else the exit code of its error. Submit's own can stand anywhere among
 * the job's arguments, so they are found here rather than by
 * parse_options().
 */
static int own_option(int argc, char **argv, int *i, struct submit_request *req,
		      bool *taken)
{
	const struct cmd_option options[] = {
		OPT_JOB_MACHINE(&req->machine, "the machines (host names; * and ? match any "
				"text and one character, no [...]) whose workers may run it "
				"(default *: any)"),
		OPT_INTEGER(0, "priority", &req->priority, "N", -1000000, 1000000,
			    "workers take higher priorities first, then older jobs (default 0)"),
		OPT_INTEGER(0, "repeat", &req->repeat, "N", 1, 10000,
			    "queue N jobs of this run (default 1)"),
		OPT_INTEGER(0, "max-attempts", &req->max_attempts, "N", 1, 1000, "claims a job "
			    "may have: one whose worker was lost N times (it died, or its lease "
			    "ran out) fails (default 3)"),
		OPT_CALLBACK(0, "kernel", &req->kernel, "RELEASE", "run it on this kernel "
			     "release (uname -r), booted by the worker first if need be",
			     set_kernel),
		OPT_END(),
	};
	const struct cmd_option *row;
	const char *arg;
	int found = option_match(argc, argv, i, options, &row, &arg);

	if (!found)
		found = option_match(argc, argv, i, common_options, &row, &arg);
	*taken = found != 0;
	if (found < 0)
		return command_usage_error("submit", "option '%.64s' lacks its value", argv[*i]);
	if (!found)
		return 0;
	if (row->kind == CMD_OPTION_HELP) {
		print_options_usage(stdout, options, &submit_usage);
		return -1;
	}
	return option_apply("submit", row, arg);
}

/*
 * Whether @arg is, or abbreviates as getopt lets it, an option that makes
 * the command no job: --resume, --dry-run, ab --restore.
 */
static bool names_no_job(const char *arg)
{
	static const char *const options[] = { "--resume", "--dry-run", "--restore" };
	size_t len = strcspn(arg, "=");

	if (len < 3 || strncmp(arg, "--", 2))
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(options); i++)
		if (len <= strlen(options[i]) && !strncmp(arg, options[i], len))
			return true;
	return false;
}

/*
 * A command of schedperf's that is no job's, given where the job's command
 * goes (a workload of that name is the run's): refused with what is a job,
 * rather than left to run's --dry-run, which would take it for a workload
 * or its options for run's. A bisection is not one job but queues its own.
 */
static int not_a_job(const char *word)
{
	if (!command_find(word) || workload_find(word))
		return 0;
	if (!strcmp(word, "bisect"))
		return command_usage_error("submit", "bisect is not a job command: a job is a "
					   "run, an ab or a bisect-step (queue one step with "
					   "'submit bisect-step ...', or bisect kernels on the "
					   "fleet with 'schedperf bisect --kernel-tree DIR "
					   "--machine PATTERN', which queues its own jobs)");
	return command_usage_error("submit", "%s is not a job command: a job is a run, an ab "
				   "or a bisect-step (give 'submit [run] WORKLOAD ...', 'submit "
				   "ab ...' or 'submit bisect-step ...', or run 'schedperf %s' "
				   "itself)", word, word);
}

static int split_arguments(int argc, char **argv, struct submit_request *req)
{
	bool taken;
	int code;

	req->args = xcalloc((size_t)argc + 1, sizeof(char *));
	for (int i = 1; i < argc; i++) {
		if ((code = own_option(argc, argv, &i, req, &taken)))
			return code;
		if (taken)
			continue;
		/* The first word names the command; no workload is run, ab or bisect-step. */
		if (!req->nr_args && !req->command &&
		    (!strcmp(argv[i], "run") || !strcmp(argv[i], "ab") ||
		     !strcmp(argv[i], "bisect-step"))) {
			req->command = argv[i];
			continue;
		}
		if (!req->nr_args && !req->command && (code = not_a_job(argv[i])))
			return code;
		if (names_no_job(argv[i]))
			return command_usage_error("submit", "%.64s is not a job: give a workload or "
						   "--suite, or ab or bisect-step with theirs",
						   argv[i]);
		req->args[req->nr_args++] = argv[i];
	}
	if (!req->command)
		req->command = "run";
	if (!req->nr_args)
		return command_usage_error("submit", "no %s given: give a workload with its "
					   "options%s, as to 'schedperf %s'", req->command,
					   strcmp(req->command, "run") ? "" : ", or --suite",
					   req->command);
	return command_check_utf8_operands("submit", "argument", argc, argv);
}

/*
 * The command's arguments as its --dry-run takes them: its exit code (it
 * said why). A dry run reads and changes nothing on this machine, which
 * need not be the one that runs the job; told it checks a job (job_env.h),
 * it refuses what only a dry run takes (--assume-cpus) and paths relative
 * to this directory, which a worker would look for in its own, and checks
 * CPU lists (runner/cpulist.h) and the command workload's program for
 * their form only.
 */
static int check_command(const struct submit_request *req)
{
	char **argv = xcalloc((size_t)req->nr_args + 4, sizeof(char *));
	int code, db_fd;
	pid_t pid = -1;
	char *env[4];

	/* First, so that no option of the job's can take it for its value. */
	argv[0] = (char *)"schedperf";
	argv[1] = (char *)req->command;
	argv[2] = (char *)"--dry-run";
	memcpy(argv + 3, req->args, (size_t)req->nr_args * sizeof(char *));
	/*
	 * What the dry run reads (bisect-step's runs) is in the queue's store:
	 * given as a worker gives it to a job's run, in a pipe, so that a
	 * URL's password is not in the dry run's /proc/PID/environ.
	 */
	db_fd = job_env_db_pipe(global.db, env);
	if (db_fd >= 0) {
		/* How many: an ab's --name is refused for more than one (its runs are its own). */
		env[2] = xasprintf("%s=%d", JOB_ENV_CHECK, req->repeat);
		env[3] = NULL;
		pid = spawn_self(argv, -2, -1, true, env);
		close(db_fd);
		for (int i = 0; env[i]; i++)
			free(env[i]);
	}
	free(argv);
	if (pid < 0)
		return die_code(EXIT_ENV, "submit: cannot check the %s: %m (check the "
				"process limit)", req->command);
	code = spawn_wait(pid);
	if (code < 0)
		return EXIT_INTERNAL;
	/* bisect-step exits 255 on any error, as git bisect run needs: here, bad input. */
	return code == 255 ? EXIT_USAGE : code;
}

/* The most machines the warning names: enough to spot a misspelling by. */
#define MACHINES_NAMED 8

/*
 * A pattern that matches no machine the store knows queues a job no
 * worker may ever take: said (*@warning, a line to print once it is
 * queued), never refused, since a machine may join later. Only "*"
 * matches any machine, the store's first included.
 */
static int machine_warning(struct store *st, const struct submit_request *req,
			   char **warning, struct error *err)
{
	struct strbuf sb = STRBUF_INIT;
	char **known;
	size_t nr;
	int rc;

	if (!req->machine[strspn(req->machine, "*")])
		return 0;
	rc = store_job_machine_known(st, req->machine, &known, &nr, err);
	if (rc)
		return rc < 0 ? -1 : 0;
	for (size_t i = 0; i < nr && i < MACHINES_NAMED; i++) {
		char *name = utf8_escaped(known[i]);

		strbuf_addf(&sb, "%s%s", i ? ", " : "", name);
		free(name);
	}
	if (nr > MACHINES_NAMED)
		strbuf_addf(&sb, " and %zu more", nr - MACHINES_NAMED);
	*warning = xasprintf("schedperf: warning: submit: --machine '%s' matches none of the "
		"machines whose workers or batches this store has seen (%s): %s queued, and "
		"%s until a worker of a machine it matches starts (check the pattern)\n",
		req->machine, nr ? strbuf_str(&sb) : "none yet",
		req->repeat > 1 ? "the jobs are" : "the job is",
		req->repeat > 1 ? "wait" : "waits");
	strbuf_release(&sb);
	words_free(known);
	return 0;
}

static char *args_json(const struct submit_request *req)
{
	json_t *list = json_array();
	char *text;

	for (int i = 0; i < req->nr_args; i++)
		json_array_append_new(list, json_string(req->args[i]));
	text = json_dumps(list, JSON_COMPACT);
	json_decref(list);
	return text;
}

int cmd_submit(int argc, char **argv)
{
	struct submit_request req = { .machine = "*", .repeat = 1,
				      .max_attempts = STORE_JOB_MAX_ATTEMPTS };
	struct store *st = NULL;
	struct error err = { 0 };
	char *args = NULL, *warning = NULL;
	int code;

	code = split_arguments(argc, argv, &req);
	if (code)
		goto out;
	if ((code = check_command(&req)))
		goto out;
	args = args_json(&req);
	if (store_open_queue(global.db, &st, &err) ||
	    machine_warning(st, &req, &warning, &err))
		goto fail;
	for (int i = 0; i < req.repeat; i++) {
		int64_t id;

		if (store_job_submit(st, req.command, args, req.machine, req.priority,
				     req.max_attempts, req.kernel, &id, &err))
			goto fail;
		if (!global.quiet)
			printf("%lld\n", (long long)id);
	}
	if (warning) {
		fflush(stdout);
		fputs(warning, stderr);
	}
	goto out;
fail:
	code = error_report(&err);
out:
	store_close(st);
	free(warning);
	free(args);
	free(req.args);
	return code < 0 ? EXIT_OK : code;
}
