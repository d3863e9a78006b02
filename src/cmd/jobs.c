// SPDX-License-Identifier: GPL-2.0
/* schedperf jobs: the job queue, one job a line, or as JSON. */
#include <getopt.h>
#include <stdlib.h>

#include <string.h>

#include "cmd/cmd.h"
#include "report/report.h"
#include "runner/knobs.h"
#include "store/store.h"
#include "util/machine.h"
#include "util/process.h"
#include "util/xalloc.h"

static const struct cmd_usage jobs_usage = {
	"usage: schedperf jobs [--format {format}]\n"
	"\n"
	"List the jobs of the store's queue, oldest first: queued, running (on\n"
	"which machine, since when, claimed how many times of how many allowed),\n"
	"done (with the batch of its run, or the verdict of its ab or\n"
	"bisect-step), failed (with the reason) or cancelled. In text, a running\n"
	"job whose lease ran out is marked \"lease over\" (its worker was lost);\n"
	"then the settings that an ab changed on a machine and has not put back,\n"
	"from the store's copy of that machine's knob journal; on this machine,\n"
	"one whose ab is gone and that is gone too (a scratch cgroup removed, a\n"
	"file no longer there) or back at its original is marked so.\n",
	NULL,
};

/*
 * What became of an entry of this machine whose ab is gone (the copy
 * says what it left until a command that measures here settles it): ""
 * while it stays changed, or for another machine's, which only that
 * machine can look at; else a mark. A scratch cgroup the reaper removed
 * is at its original, absence.
 */
static const char *now_mark(const struct knob_original *k, const char *here)
{
	char path[512], *now = NULL;
	struct error err = { 0 };
	bool back;

	if (!k->machine || strcmp(k->machine, here) || process_alive(&k->writer))
		return "";
	if (knob_gone(k->kind, k->name, path, sizeof(path)))
		return "; gone now: nothing to put back";
	if (knob_read(k->kind, k->name, false, &now, &err))
		return "";
	/* the copy is read back as the original's bytes (store.h) */
	back = !strcmp(now, k->value);
	free(now);
	if (!back)
		return "";
	return !strcmp(k->value, "absent") ? "; gone now" : "; back at its original now";
}

static const char **now_marks(const struct knob_original *k, size_t nr)
{
	const char **marks = xcalloc(nr + 1, sizeof(*marks));
	char here[256];

	machine_identity(here, sizeof(here));
	for (size_t i = 0; i < nr; i++)
		marks[i] = now_mark(&k[i], here);
	return marks;
}

int cmd_jobs(int argc, char **argv)
{
	struct option_choice format = OPTION_CHOICE(jobs_formats);
	const struct output_format *f;
	struct store_job *jobs = NULL;
	struct knob_original *changed = NULL;
	const char **marks = NULL;
	struct store *st = NULL;
	struct error err = { 0 };
	const struct cmd_option options[] = {
		OPT_FORMAT(&format, "{}"),
		OPT_END(),
	};
	size_t nr = 0, nr_changed = 0;
	int code = EXIT_OK;

	if (parse_options(argc, argv, options, &jobs_usage, &code))
		return code;
	f = format.chosen;
	if (optind < argc)
		return command_usage_error("jobs", "unexpected '%.64s'", argv[optind]);
	if (store_open_existing(global.db, &st, &err) || store_jobs_list(st, &jobs, &nr, &err)) {
		code = error_report(&err);
		goto out;
	}
	/* what ab left changed is said to people; the JSON lists the jobs */
	if (!f->for_machines && store_journal_read(st, true, &changed, &nr_changed, &err)) {
		code = error_report(&err);
		goto out;
	}
	marks = now_marks(changed, nr_changed);
	/* after the marks, which compare the journal's text with this machine's */
	if (!f->for_machines)
		report_shown_jobs(jobs, nr, changed, nr_changed);
	f->write(stdout, &(struct job_listing){ jobs, nr, changed, nr_changed, marks }, NULL);
out:
	free(marks);
	store_journal_release(changed, nr_changed);
	for (size_t i = 0; i < nr; i++)
		store_job_release(&jobs[i]);
	free(jobs);
	store_close(st);
	return code;
}
