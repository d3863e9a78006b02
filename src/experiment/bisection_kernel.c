// SPDX-License-Identifier: GPL-2.0
/*
 * The bisection's kernel target (bisection.h): each commit of a kernel tree
 * is built in the tree itself (--build, which must leave an installable
 * kernel; its release from `make -s kernelrelease`), and measured by the
 * fleet: a job of --boot-iterations iterations that needs that kernel
 * (store.h, "Jobs"), which a worker on a machine matching --machine boots
 * (worker --boot-cmd) and runs. A block is a round of boots, one per side
 * in a random order, all on the machine that took the first job, each
 * boot's median one value: boot-to-boot variance is in every verdict, and
 * the machine's drift between rounds cancels as blocks' does. A round's
 * jobs are in the record before they are waited for, so that a resumed
 * bisection waits for them again instead of submitting more.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment/bisection.h"
#include "experiment/bisection_tree.h"
#include "runner/iteration.h"
#include "stats/sort.h"
#include "stats/summary.h"
#include "util/git.h"
#include "util/kernel_release.h"
#include "util/run_command.h"
#include "util/timeutil.h"
#include "util/utf8.h"
#include "util/xalloc.h"

/*
 * A job is looked at again after FIRST_LOOK seconds, each wait twice the
 * one before, up to LAST_LOOK: a short job's end is seen at once, a long
 * one's within half a second.
 */
#define FIRST_LOOK 0.05
#define LAST_LOOK 0.5

static int kernel_check(struct bisection *bi, struct error *err)
{
	struct store *st = NULL;
	bool dirty;

	if (!bi->machine)
		return error_set(err, EXIT_USAGE, "bisect: --kernel-tree needs --machine PATTERN "
				 "(the machines whose workers boot its kernels)");
	if (!bi->build_cmd)
		return error_set(err, EXIT_USAGE, "bisect: --kernel-tree needs --build CMD, which "
				 "leaves an installable kernel (e.g. 'make -j8 bindeb-pkg')");
	if (git_is_dirty(bi->repo_top, &dirty, err))
		return -1;
	if (dirty)
		return error_set(err, EXIT_USAGE, "bisect: the kernel tree %s has changes to "
				 "tracked files, which checking out each commit would lose (commit "
				 "or stash them)", bi->repo_top);
	/* the fleet's queue: a PostgreSQL store */
	if (store_open_queue(bi->db, &st, err))
		return -1;
	store_close(st);
	return 0;
}

static int kernel_open(struct bisection *bi, struct error *err)
{
	struct strbuf head = STRBUF_INIT;
	int rc;

	/* resumed: the tree as the last process left it, a checkout half done finished */
	if (json_object_get(bi->record, "orig_head"))
		return tree_recover(bi, err);
	/*
	 * where the tree was, to leave it there again when the bisection is
	 * over: its branch, or its commit when it has none, or one whose name
	 * the record (JSON) cannot hold
	 */
	rc = git_status(bi->repo_top, &head, err, "symbolic-ref", "-q", "--short", "HEAD", NULL);
	if (rc < 0 || (!rc && !utf8_valid(git_chomp(&head))))
		rc = 1;
	if (rc) {
		strbuf_release(&head);
		if (git_run(bi->repo_top, &head, err, "rev-parse", "HEAD", NULL)) {
			strbuf_release(&head);
			return -1;
		}
	}
	json_object_set_new(bi->record, "orig_head", json_string(git_chomp(&head)));
	strbuf_release(&head);
	json_object_set_new(bi->record, "kernels", json_object());
	return 0;
}

/*
 * The tree goes back where it was whenever this process moved it, however
 * the bisection ends: done, refused, failed or interrupted. Nothing of a
 * bisection depends on what the tree has checked out (each build checks its
 * commit out first; git bisect --no-checkout keeps its own BISECT_HEAD), and
 * a tree left detached would make the user's next HEAD~N another commit.
 */
static void kernel_close(struct bisection *bi)
{
	const char *head = json_string_value(json_object_get(bi->record, "orig_head"));
	struct error err = { 0 };

	if (!head || !bi->tree_moved)
		return;
	if (git_run(bi->repo_top, NULL, &err, "checkout", "-q", head, NULL))
		snprintf(bi->tree_left, sizeof(bi->tree_left), "cannot put the kernel tree %s "
			 "back on %s: %.200s (check it out yourself: git -C %s checkout %s)",
			 bi->repo_top, head, err.msg, bi->repo_top, head);
	else
		bi->tree_moved = false;
}

static const char *release_of(const struct bisection *bi, const char *hash)
{
	return json_string_value(json_object_get(json_object_get(bi->record, "kernels"), hash));
}

/*
 * `make -s kernelrelease` in the tree, whose commit @hash is checked out:
 * the release the build installs, checked as submit --kernel checks one
 * (util/kernel_release.h), since the jobs carry it and the workers boot it.
 */
static int tree_release(struct bisection *bi, const char *hash, struct strbuf *out,
			struct error *err)
{
	char *argv[] = { (char *)"make", (char *)"-s", (char *)"kernelrelease", NULL };
	struct child_command cmd = { .dir = bi->repo_top, .argv = argv, .out = out,
				     .log_fd = -1, .c_locale = true };
	char last[200], shown[128];
	const char *problem;
	int status = run_command(&cmd, last, sizeof(last), err);

	if (status < 0)
		return -1;
	git_chomp(out);
	if (status || !out->len)
		return error_set(err, EXIT_USAGE, "bisect: 'make -s kernelrelease' in %s gave no "
				 "release%s%s (is it a configured kernel tree?)", bi->repo_top,
				 *last ? ": " : "", last);
	problem = kernel_release_problem(out->buf);
	if (!problem)
		return 0;
	utf8_escape(shown, sizeof(shown), out->buf);
	return error_set(err, EXIT_USAGE, "bisect: the release of commit %.12s, '%s' from 'make "
			 "-s kernelrelease' in %s, %s (make the tree's release one a kernel can "
			 "have: check its Makefile and CONFIG_LOCALVERSION)", hash, shown,
			 bi->repo_top, problem);
}

static int kernel_build(struct bisection *bi, const char *hash, char *why, size_t len,
			struct error *err)
{
	char *argv[] = { (char *)"sh", (char *)"-c", (char *)bi->build_cmd, NULL };
	struct child_command cmd = { .dir = bi->repo_top, .argv = argv, .log_fd = -1,
				     .interrupted = iteration_interrupted };
	struct strbuf release = STRBUF_INIT;
	const char *key;
	char last[200], how[64];
	json_t *kernels = json_object_get(bi->record, "kernels"), *r;
	int status;

	if (release_of(bi, hash))
		return 0;
	sampling_note(bi->events, "bisect: building the kernel of %.12s", hash);
	if (tree_unchanged(bi, err) || tree_checkout(bi, hash, err))
		return -1;
	status = run_command(&cmd, last, sizeof(last), err);
	if (status < 0 || tree_built(bi, err))
		return -1;
	if (status) {
		snprintf(why, len, "the build failed (%s)%s%s",
			 run_command_status(status, how, sizeof(how)), *last ? ": " : "", last);
		return 1;
	}
	if (tree_release(bi, hash, &release, err)) {
		strbuf_release(&release);
		return -1;
	}
	json_object_foreach(kernels, key, r)
		if (!strcmp(json_string_value(r), release.buf)) {
			error_set(err, EXIT_USAGE, "bisect: commits %.12s and %.12s build the same "
				  "release %s, which the machines could not tell apart (set "
				  "CONFIG_LOCALVERSION_AUTO=y)", key, hash, release.buf);
			strbuf_release(&release);
			return -1;
		}
	json_object_set_new(kernels, hash, json_string(release.buf));
	strbuf_release(&release);
	return 0;
}

static void kernel_drop(struct bisection *bi, const char *hash)
{
}

static int kernel_session_open(struct bisection *bi, struct session *s, struct error *err)
{
	return 0;
}

static void kernel_session_close(struct bisection *bi, struct session *s, bool complete)
{
}

/* One boot's job arguments: `run WORKLOAD -p ... -i N --bisection --name RUN`. */
static char *job_args(const struct bisection *bi, const char *run)
{
	json_t *args = json_array();
	char iterations[16];
	char *text;

	json_array_append_new(args, json_string(bi->w->name));
	for (size_t i = 0; i < bi->so.nr_params; i++) {
		json_array_append_new(args, json_string("-p"));
		json_array_append_new(args, json_string(bi->so.params[i]));
	}
	snprintf(iterations, sizeof(iterations), "%d", bi->boot_iterations);
	json_array_append_new(args, json_string("-i"));
	json_array_append_new(args, json_string(iterations));
	/* the runs are the bisection's own, as a local bisection's: no other batch joins them */
	json_array_append_new(args, json_string("--bisection"));
	json_array_append_new(args, json_string("--name"));
	json_array_append_new(args, json_string(run));
	text = json_dumps(args, JSON_COMPACT);
	json_decref(args);
	return text;
}

static int submit(struct bisection *bi, struct session *s, size_t side, const char *machine,
		  int64_t *id, struct error *err)
{
	char *args = job_args(bi, s->runs[side]);
	int rc = store_job_submit(bi->st, "run", args, machine, 0, STORE_JOB_MAX_ATTEMPTS,
				  release_of(bi, s->hashes[side]), id, err);

	free(args);
	return rc;
}

/* Wait for job @id to reach a state @done says is enough; -1 when interrupted. */
static int wait_job(struct bisection *bi, int64_t id, bool (*done)(const struct store_job *),
		    struct store_job *job, struct error *err)
{
	double look_every = FIRST_LOOK;

	for (;;) {
		int rc;

		/* the last look's, also when this one ends in an error */
		store_job_release(job);
		if (iteration_interrupted())
			return error_set(err, EXIT_USAGE, "bisect: interrupted while job %lld ran",
					 (long long)id);
		if (store_jobs_expire_boots(bi->st, err))
			return -1;
		rc = store_job_get(bi->st, id, job, err);
		if (rc < 0)
			return -1;
		if (!rc) {
			char *store = bisection_store_options(bi);
			char *resume = bisection_resume_command(bi);

			error_set(err, EXIT_ENV, "bisect: job %lld is gone from the store (see "
				  "schedperf jobs%s; to measure the step again: %s)", (long long)id,
				  store, resume);
			free(store);
			free(resume);
			return -1;
		}
		if (done(job))
			return 0;
		time_sleep_until(time_now() + look_every);
		look_every = fmin(2 * look_every, LAST_LOOK);
	}
}

static bool claimed(const struct store_job *job)
{
	return job->worker || strcmp(job->state, "queued");
}

static bool ended(const struct store_job *job)
{
	return !strcmp(job->state, "done") || !strcmp(job->state, "failed") ||
	       !strcmp(job->state, "cancelled");
}

/*
 * Submit the round: one job per side in a random order, all for the
 * machine that took the bisection's first job (the first one alone, until
 * a machine took it). Their ids go into the record before anything waits.
 * A side whose id is there already (a round that an interrupted process
 * began) is not submitted again: its job is waited for.
 */
static int submit_round(struct bisection *bi, struct session *s, json_t *pending,
			struct error *err)
{
	size_t order[3] = { 0, 1, 2 };
	struct store_job job = { 0 };
	int rc = 0;

	for (size_t i = s->nr - 1; i > 0; i--) {
		size_t j = (size_t)rng_below(&bi->rng, i + 1), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (size_t k = 0; k < s->nr; k++) {
		const char *host = json_string_value(json_object_get(bi->record, "machine_host"));
		int64_t id = json_integer_value(json_array_get(pending, order[k]));

		if (!id) {
			if (submit(bi, s, order[k], host ? host : bi->machine, &id, err))
				return -1;
			json_array_set_new(pending, order[k], json_integer(id));
			if (bisection_save(bi, true, err))
				return -1;
		}
		if (host)
			continue;
		if (wait_job(bi, id, claimed, &job, err))
			return -1;
		/* that machine, and no other, even if the job is lost and claimed again */
		if (job.worker) {
			rc = store_job_pin(bi->st, id, job.worker, err);
			json_object_set_new(bi->record, "machine_host", json_string(job.worker));
		}
		store_job_release(&job);
		if (rc)
			return -1;
	}
	return 0;
}

/*
 * The median of the metric in the batch job @job stored, as a value of the
 * block: 0, 1 when the job stored the bisection's metric in another unit
 * or direction (a worker of another version: @err says so, and no later
 * round on that machine would do better), 2 when it stored no positive
 * value of it (0, say: its kernel's doing, which the round is dropped for
 * as for a failed job), -1 with @err.
 */
static int boot_value(struct bisection *bi, const struct store_job *job, const char *run,
		      double *value, struct error *err)
{
	/* once the first measurement fixed it, its name, though --metric was not given */
	const char *wanted = bi->metric_known ? bi->metric_name : bi->so.metric;
	struct result_set set = { NULL, 0 };
	double *x = NULL;
	size_t n = 0;
	int rc = -1;

	if (store_load(bi->st, run, STORE_SAMPLES, &set, err))
		return -1;
	for (size_t b = 0; b < set.nr_batches; b++) {
		const struct result_batch *batch = &set.batches[b];

		if (batch->id != job->result_batch || !batch->nr_benchmarks)
			continue;
		for (size_t m = 0; m < batch->benchmarks[0].nr_metrics; m++) {
			const struct result_metric *rm = &batch->benchmarks[0].metrics[m];
			struct metric_key key = metric_key_of(rm);
			char whose[320], *resume, *fix;
			int wrong;

			if (wanted ? strcmp(rm->name, wanted) != 0 : m != 0)
				continue;
			snprintf(whose, sizeof(whose), "job %lld on %s stored", (long long)job->id,
				 job->worker ? job->worker : bi->machine);
			resume = bisection_resume_command(bi);
			fix = xasprintf("run the workers of that machine with the schedperf "
					"the bisection began with, then: %s", resume);
			wrong = bisection_metric(bi, &key, whose, fix, err);

			free(fix);
			free(resume);
			if (wrong) {
				result_set_release(&set);
				return 1;
			}
			x = xcalloc(rm->nr_samples + 1, sizeof(double));
			for (size_t k = 0; k < rm->nr_samples; k++)
				if (rm->samples[k] > 0 && isfinite(rm->samples[k]))
					x[n++] = rm->samples[k];
			break;
		}
	}
	if (!n) {
		rc = 2;
	} else {
		sort_doubles(x, n);
		*value = stats_median_sorted(x, n);
		rc = 0;
	}
	free(x);
	result_set_release(&set);
	return rc;
}

static bool same_sides(const json_t *commits, const struct session *s)
{
	if (json_array_size(commits) != s->nr)
		return false;
	for (size_t i = 0; i < s->nr; i++)
		if (strcmp(json_string_value(json_array_get(commits, i)), s->hashes[i]))
			return false;
	return true;
}

/*
 * A round that gives no value (@why: a job failed, or stored the metric in
 * another unit or direction) is dropped whole, as a local block a side
 * failed (block_sample()), from the store too: the batches its done jobs
 * stored (@batches, 0 where a side has none) go, each with its run when it
 * holds no other, since compare, which pools a run's batches, would count
 * them with the rounds the session took. A failed job's own batch, if its
 * run stored one, holds failed iterations only, no sample: it stays, as a
 * local side's failed iteration does, the record of why. The round is
 * still pending in the record: a controller killed after the discard
 * finds its done jobs with no batch on --resume (round_batches()).
 */
static int drop_round(struct bisection *bi, struct session *s, const int64_t *batches,
		      const char *why, struct error *err)
{
	int64_t ids[3];
	const char *runs[3];
	size_t n = 0;

	for (size_t i = 0; i < s->nr; i++) {
		if (!batches[i])
			continue;
		ids[n] = batches[i];
		runs[n++] = s->runs[i];
	}
	if (n && store_batches_discard(bi->st, ids, n, NULL, err))
		return -1;
	block_say_dropped(bi->events, why, runs, n, NULL, 0);
	return 0;
}

/*
 * Wait for every job of the round (@jobs, in the sides' order) to end, and
 * take the batches of those done: 1 when each is, 0 when one is not, or
 * its batch is gone (dropped by the process that ran the round before,
 * killed before its record said so), with s->failure, -1 with @err.
 */
static int round_batches(struct bisection *bi, struct session *s, json_t *pending,
			 struct store_job *jobs, int64_t *batches, struct error *err)
{
	int rc = 1;

	for (size_t i = 0; i < s->nr; i++) {
		int64_t id = json_integer_value(json_array_get(pending, i));
		struct store_job *job = &jobs[i];
		const char *host;

		if (wait_job(bi, id, ended, job, err))
			return -1;
		host = job->worker ? job->worker : bi->machine;
		batches[i] = job->result_batch;
		if (!strcmp(job->state, "done") && job->result_batch)
			continue;
		if (rc && !strcmp(job->state, "done")) {
			s->failed_side = i;
			snprintf(s->failure, sizeof(s->failure), "job %lld for %s on %s is done, "
				 "but its batch is gone from the store", (long long)id, s->runs[i],
				 host);
		} else if (strcmp(job->state, "done")) {
			s->failed_side = i;
			snprintf(s->failure, sizeof(s->failure), "job %lld for %s on %s %s: %s",
				 (long long)id, s->runs[i], host, job->state,
				 job->reason ? job->reason : "no reason given");
			/* the step's kernel did not boot, or its run failed: a skip, at once */
			s->give_up = s->give_up || (s->levels && i == 1);
		}
		rc = 0;
	}
	return rc;
}

static int kernel_block(struct bisection *bi, struct session *s, double *values,
			struct error *err)
{
	json_t *pending = json_object_get(bi->record, "pending");
	struct store_job jobs[3] = { { 0 } };
	int64_t batches[3] = { 0 };
	char other[300] = "";
	int rc;

	/* a round of these sides that the last process began is waited for again */
	if (!same_sides(json_object_get(pending, "commits"), s)) {
		json_t *commits = json_array();

		pending = json_pack("{s:o,s:[]}", "commits", commits, "jobs");
		for (size_t i = 0; i < s->nr; i++) {
			json_array_append_new(commits, json_string(s->hashes[i]));
			json_array_append_new(json_object_get(pending, "jobs"), json_integer(0));
		}
		json_object_set_new(bi->record, "pending", pending);
	}
	pending = json_object_get(pending, "jobs");
	if (submit_round(bi, s, pending, err))
		return -1;
	rc = round_batches(bi, s, pending, jobs, batches, err);
	/* a round a job failed is one: its other sides' values are not read */
	for (size_t i = 0; rc > 0 && !*other && i < s->nr; i++) {
		int v = boot_value(bi, &jobs[i], s->runs[i], &values[i], err);

		if (v < 0) {
			rc = -1;
		} else if (v == 2) {
			/* a value of 0, or none, on this kernel: as a failed job, a skip */
			rc = 0;
			s->failed_side = i;
			snprintf(s->failure, sizeof(s->failure), "job %lld for %s on %s is done, "
				 "but stored no positive %s", (long long)jobs[i].id, s->runs[i],
				 jobs[i].worker ? jobs[i].worker : bi->machine,
				 bi->metric_known ? bi->metric_name : bi->so.metric ? bi->so.metric :
				 "value of the benchmark's first metric");
			s->give_up = s->give_up || (s->levels && i == 1);
		} else if (v > 0) {
			snprintf(other, sizeof(other), "job %lld for %s on %s stored the metric in "
				 "another unit or direction", (long long)jobs[i].id, s->runs[i],
				 jobs[i].worker ? jobs[i].worker : bi->machine);
		}
	}
	for (size_t i = 0; i < s->nr; i++)
		store_job_release(&jobs[i]);
	if (rc < 0)
		return -1;
	/*
	 * A round that gives no value leaves nothing in the store: neither a
	 * failed one nor one whose value came in another unit or direction.
	 * That one stops the bisection (resumable) rather than be compared, or
	 * be taken for a failed boot and make its step a skip: the commit is
	 * not at fault, the machine's schedperf is, and every round on it would
	 * be the same.
	 */
	if (!*other && !rc && drop_round(bi, s, batches, s->failure, err))
		return -1;
	if (*other) {
		struct error derr = { 0 };

		/* the other unit's error is the one to fix; a discard's is said */
		if (drop_round(bi, s, batches, other, &derr)) {
			sampling_note(bi->events, "schedperf: warning: %s", derr.msg);
			return -1;
		}
	}
	/* The round is over, its jobs all ended: a resumed bisection submits a new one. */
	json_object_del(bi->record, "pending");
	if (*other)
		/* @err says which; the bisection's failure is stored with the record */
		return -1;
	return bisection_save(bi, true, err) ? -1 : rc;
}

const struct bisect_target bisect_kernel = {
	.check = kernel_check,
	.open = kernel_open,
	.close = kernel_close,
	.build = kernel_build,
	.drop = kernel_drop,
	.session_open = kernel_session_open,
	.block = kernel_block,
	.session_close = kernel_session_close,
	.block_word = "rounds of boots",
};
