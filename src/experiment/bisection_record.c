// SPDX-License-Identifier: GPL-2.0
/*
 * A bisection's record from its start to its end (bisection.h): a new one
 * checked and stored, an interrupted one taken up again with exactly the
 * options it was started with, the stored ones shown and listed.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "experiment/bisection.h"
#include "monitor/monitor.h"
#include "runner/iteration.h"
#include "runner/knob_guard.h"
#include "util/git.h"
#include "util/machine.h"
#include "util/process.h"
#include "util/timeutil.h"
#include "util/utf8.h"
#include "util/xalloc.h"

/* The process that works on it now, so that a second one refuses to. */
static void set_writer(struct bisection *bi)
{
	struct process_id me;

	process_id_of(getpid(), &me);
	json_object_set_new(bi->record, "writer", json_pack("{s:s,s:I,s:I}", "boot", me.boot,
							    "pid", (json_int_t)me.pid,
							    "start", (json_int_t)me.start));
}

/* The top level of the repository the bisection is about, given as @option. */
static int repo_top(const char *repo, const char *option, struct strbuf *top,
		    struct error *err)
{
	if (git_run(repo ? repo : ".", top, err, "rev-parse", "--show-toplevel", NULL))
		return error_set(err, EXIT_USAGE, "bisect: %.200s is not inside a git work tree "
				 "(give %s DIR, a clone of the repository to bisect)",
				 repo ? repo : "the current directory", option);
	git_chomp(top);
	/* the record is JSON: a path that is no text cannot be kept in it */
	if (!utf8_valid(top->buf)) {
		char shown[256];

		utf8_escape(shown, sizeof(shown), top->buf);
		return error_set(err, EXIT_USAGE, "bisect: the repository's path %s is not "
				 "UTF-8, which the stored bisection cannot hold (give --repo a path "
				 "of UTF-8 names, a link to it say)", shown);
	}
	return 0;
}

/* @rev of --@option as a commit's full hash, into @hash. */
static int commit_of(const char *top, const char *option, const char *rev, char hash[41],
		     struct error *err)
{
	int rc = git_commit_hash(top, rev, hash, err);

	if (rc > 0)
		return error_set(err, EXIT_USAGE, "bisect: --%s '%.64s' is not a commit of the "
				 "repository %s (give a commit, branch or tag: git log shows them)",
				 option, rev, top);
	return rc;
}

/*
 * Whether `bisect --resume` would go on with git's bisect state in @top:
 * the store holds an interrupted bisection of it, whose git state this is.
 * Only then does a refusal tell the user to run it.
 */
static bool resume_would_work(const struct bisection *bi, const char *top)
{
	struct stored_bisection old = { 0 };
	struct store_status status;
	struct error ignored = { 0 };
	struct store *st = NULL;
	bool works = false;

	if (store_peek(bi->db, &status, &ignored) || !status.version ||
	    store_open_existing(bi->db, &st, &ignored))
		return false;
	if (!store_bisection_get(st, 0, top, &old, &ignored)) {
		json_t *r = json_loads(old.doc, 0, NULL);
		const char *good = json_string_value(json_object_get(r, "good"));
		const char *bad = json_string_value(json_object_get(r, "bad"));
		struct bisection probe = { .repo_top = (char *)top };

		snprintf(probe.good, sizeof(probe.good), "%s", good ? good : "");
		snprintf(probe.bad, sizeof(probe.bad), "%s", bad ? bad : "");
		works = good && bad && bisection_git_is_ours(&probe);
		json_decref(r);
	}
	stored_bisection_release(&old);
	store_close(st);
	return works;
}

static int check_range(struct bisection *bi, const char *top, struct error *err)
{
	int status;

	/*
	 * First, before the revisions are resolved: an interrupted bisection's
	 * HEAD~N would be another commit if its tree was moved meanwhile.
	 */
	status = git_status(top, NULL, err, "bisect", "log", NULL);
	if (status < 0)
		return -1;
	if (!status && !resume_would_work(bi, top))
		return error_set(err, EXIT_USAGE, "bisect: a git bisect is in progress in %s "
				 "(finish it with 'git bisect reset', then run again)", top);
	if (!status) {
		char *resume = bisection_resume_command(bi);

		error_set(err, EXIT_USAGE, "bisect: a git bisect is in progress in %s, an "
			  "interrupted bisection's (drop it with 'git bisect reset', or go on "
			  "with: %s)", top, resume);
		free(resume);
		return -1;
	}
	if (commit_of(top, "good", bi->good_rev, bi->good, err) ||
	    commit_of(top, "bad", bi->bad_rev, bi->bad, err))
		return -1;
	if (!strcmp(bi->good, bi->bad))
		return error_set(err, EXIT_USAGE, "bisect: --good and --bad are the same commit "
				 "%.12s (give the last good commit and a later bad one)", bi->good);
	status = git_status(top, NULL, err, "merge-base", "--is-ancestor", bi->good, bi->bad,
			    NULL);
	if (status < 0)
		return -1;
	if (status)
		return error_set(err, EXIT_USAGE, "bisect: --good %.64s is not an ancestor of "
				 "--bad %.64s (give the last good commit before the bad one)",
				 bi->good_rev, bi->bad_rev);
	return 0;
}

/* The options as the record keeps them, so that --resume runs the same. */
static json_t *options_json(const struct bisection *bi, const char *top)
{
	json_t *params = json_array();
	char host[256] = "";

	machine_host_name(host, sizeof(host));
	for (size_t i = 0; i < bi->so.nr_params; i++)
		json_array_append_new(params, json_string(bi->so.params[i]));
	/* the host's name, as the machine gives it, which need not be UTF-8 */
	return json_pack("{s:s,s:s,s:o,s:o,s:s,s:o,s:s,s:s,s:o,s:f,s:f,s:i,s:f,s:f,"
			 "s:i,s:s,s:f,s:[]}",
			 "schema", "schedperf-bisection/1", "repo", top,
			 "machine", bisection_text(host),
			 "params", params, "workload", bi->w->name,
			 "metric", bi->so.metric ? json_string(bi->so.metric) : json_null(),
			 "good", bi->good, "bad", bi->bad,
			 "build", bi->build_cmd ? json_string(bi->build_cmd) : json_null(),
			 "alpha", bi->so.alpha, "margin_pct", bi->so.margin_pct,
			 "max_samples", bi->so.max_samples, "max_time", bi->so.max_time,
			 "timeout", bi->so.timeout, "seed", bi->seed, "phase", "measuring ends",
			 "started", time_epoch(), "steps");
}

/* What only a kernel bisection records: the fleet it runs on. */
static void kernel_options(const struct bisection *bi, json_t *record)
{
	json_object_set_new(record, "target", json_string(bi->kernel_tree ? "kernel" : "local"));
	if (!bi->kernel_tree)
		return;
	json_object_set_new(record, "machine_pattern", json_string(bi->machine));
	json_object_set_new(record, "boot_iterations", json_integer(bi->boot_iterations));
}

/* The rest of the opening, new or resumed: its name, monitors, the target. */
static int open_common(struct bisection *bi, struct error *err)
{
	const char *name = json_string_value(json_object_get(bi->record, "name"));

	bi->name = xstrdup(name);
	rng_seed(&bi->rng, (uint64_t)bi->seed + (uint64_t)json_array_size(
			json_object_get(bi->record, "steps")));
	if (monitors_open(MONITORS_DEFAULT, NULL, &bi->ms, err))
		return -1;
	return bi->target->open(bi, err);
}

/* Whether @fd is the file at @path still: one that a holder removed is not. */
static bool lock_at_path(int fd, const char *path)
{
	struct stat held, named;

	return !fstat(fd, &held) && !stat(path, &named) && held.st_dev == named.st_dev &&
	       held.st_ino == named.st_ino;
}

/*
 * One process at a time works on a repository's bisection: a lock beside
 * git's own state (GIT_COMMON_DIR/schedperf-bisect.lock), held until the
 * process ends, however it ends. The bisection's end removes it, while it
 * holds it (bisection_close()): a process that opened the file before and
 * locks it after finds it is no longer the one at the path, and takes the
 * one there, so that the file removed never lets two in.
 */
static int lock_file(struct bisection *bi, const char *path, struct error *err)
{
	for (;;) {
		int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

		if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB)) {
			int busy = fd >= 0 && errno == EWOULDBLOCK;

			/* busy, as a run another live process writes: exit 3, not bad input */
			error_set(err, EXIT_ENV, busy ? "bisect: a bisection "
				  "of %s is running in another process (wait for it, or stop it)" :
				  "bisect: cannot lock %s: %s (check that you may write in the "
				  "repository's git directory)", busy ? bi->repo_top : path,
				  strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1;
		}
		if (lock_at_path(fd, path)) {
			bi->lock_fd = fd;
			bi->lock_path = xstrdup(path);
			return 0;
		}
		close(fd);
	}
}

static int lock_repo(struct bisection *bi, struct error *err)
{
	struct strbuf common = STRBUF_INIT;
	char *path;
	int rc;

	if (git_run(bi->repo_top, &common, err, "rev-parse", "--path-format=absolute",
		    "--git-common-dir", NULL)) {
		strbuf_release(&common);
		return -1;
	}
	path = xasprintf("%s/schedperf-bisect.lock", git_chomp(&common));
	strbuf_release(&common);
	rc = lock_file(bi, path, err);
	free(path);
	return rc;
}

/* The lock's file goes while it is held, if it is still the one at its path. */
static void unlock_repo(struct bisection *bi)
{
	if (!bi->lock_path)
		return;
	if (lock_at_path(bi->lock_fd, bi->lock_path))
		unlink(bi->lock_path);
	close(bi->lock_fd);
	free(bi->lock_path);
	bi->lock_path = NULL;
	bi->lock_fd = 0;
}

/* The repository's top level, locked; and the target its options ask for. */
static int open_repo(struct bisection *bi, const char *repo, struct error *err)
{
	struct strbuf top = STRBUF_INIT;

	if (repo_top(repo, bi->kernel_tree ? "--kernel-tree" : "--repo", &top, err)) {
		strbuf_release(&top);
		return -1;
	}
	bi->repo_top = strbuf_detach(&top);
	bi->target = bi->kernel_tree ? &bisect_kernel : &bisect_local;
	return lock_repo(bi, err);
}

/*
 * A bisection that measures here first deals with what a killed ab left
 * changed (runner/knob_guard.h), before its store is opened, so that a
 * refusal makes no store; a kernel bisection measures nothing here: its
 * workers do it before each job.
 */
static int guard(struct bisection *bi, struct error *err)
{
	return bi->target == &bisect_local ? knob_guard_take(false, err) : 0;
}

/* Then the store's copy of the machine's journal is corrected. */
static int guard_copy(struct bisection *bi, struct error *err)
{
	return bi->target == &bisect_local ? knob_guard_copy(bi->st, err) : 0;
}

/* A name's runs hold one bisection's measurements: NAME-good and NAME-bad must be new. */
static int check_runs_free(struct bisection *bi, struct error *err)
{
	const char *name = json_string_value(json_object_get(bi->record, "name"));
	static const char *const ends[] = { "good", "bad" };

	for (size_t i = 0; i < 2; i++) {
		struct result_set set = { NULL, 0 };
		struct error none = { 0 };
		char *run = xasprintf("%s-%s", name, ends[i]);
		/* a run that has no batch is EXIT_USAGE: the name is free */
		int rc = store_load(bi->st, run, 0, &set, &none);

		result_set_release(&set);
		if (rc && none.code != EXIT_USAGE)
			*err = none;
		else if (!rc)
			error_set(err, EXIT_USAGE, "bisect: run '%s' exists already, and a "
				  "bisection's runs must hold its measurements alone (give --name "
				  "a name no run starts with)", run);
		free(run);
		if (!rc || none.code != EXIT_USAGE)
			return -1;
	}
	return 0;
}

/*
 * No other bisection that may still measure has the name: of two started
 * at once under one name, each claims it in its saved record first and
 * then looks, so that the later (the greater id) sees the earlier and
 * stops; an abandoned one never measures again.
 */
static int check_name_free(struct bisection *bi, struct error *err)
{
	const char *name = json_string_value(json_object_get(bi->record, "name"));
	struct stored_bisection *all = NULL;
	int64_t holder = 0;
	size_t n = 0;

	if (store_bisection_list(bi->st, &all, &n, err))
		return -1;
	for (size_t i = 0; i < n; i++) {
		json_t *other = json_loads(all[i].doc, 0, NULL);
		const char *its = json_string_value(json_object_get(other, "name"));

		if (all[i].id < bi->id && strcmp(all[i].state, "abandoned") && its &&
		    !strcmp(its, name))
			holder = all[i].id;
		json_decref(other);
		stored_bisection_release(&all[i]);
	}
	free(all);
	if (holder)
		return error_set(err, EXIT_USAGE, "bisect: bisection %lld is named '%s' already, "
				 "and a bisection's runs must hold its measurements alone (give "
				 "--name another name)", (long long)holder, name);
	return 0;
}

/*
 * The workload's options, checked before any commit is built (a build may
 * take an hour): here, as far as they do not depend on the build; for a
 * kernel bisection, as submit checks a job's, since the workers run them.
 */
static int check_workload(struct bisection *bi, struct error *err)
{
	struct sample_side probe;
	int rc;

	memset(&probe, 0, sizeof(probe));
	if (bi->kernel_tree)
		workload_check_for_job();
	workload_check_before_build(true);
	rc = side_prepare(&probe, bi->w, (char *const *)bi->so.params, bi->so.nr_params,
			  bi->so.metric, err);
	workload_check_before_build(false);
	plan_release(&probe.plan);
	return rc;
}

static int open_new(struct bisection *bi, struct error *err)
{
	struct stored_bisection old = { 0 };
	char *doc;
	int rc, found;

	if (!(bi->w = workload_find(bi->workload)))
		return error_set(err, EXIT_USAGE, "unknown workload '%.64s': not one of "
				 "schedperf's workloads (see 'schedperf list')", bi->workload);
	if (check_workload(bi, err) ||
	    open_repo(bi, bi->kernel_tree ? bi->kernel_tree : bi->repo, err) ||
	    check_range(bi, bi->repo_top, err) || bi->target->check(bi, err) ||
	    guard(bi, err) || store_open_made(bi->db, &bi->st, &bi->store_made, err) ||
	    guard_copy(bi, err))
		return -1;
	/* one of this repository that was left: git's state is gone, so it cannot go on */
	found = store_bisection_get(bi->st, 0, bi->repo_top, &old, err);
	if (found < 0)
		return -1;
	if (!found) {
		int64_t id = old.id;

		stored_bisection_release(&old);
		if (store_bisection_save(bi->st, id, "abandoned", NULL, err))
			return -1;
	}
	if (bi->seed < 0)
		bi->seed = (int)(((unsigned long)time(NULL) ^ ((unsigned long)getpid() << 16)) &
				 0x7fffffff);
	bi->record = options_json(bi, bi->repo_top);
	/* a value that is not UTF-8 (each is checked before) would leave no record */
	if (!bi->record)
		return error_set(err, EXIT_USAGE, "bisect: an option of the bisection is not "
				 "valid UTF-8, which the stored bisection cannot hold (give each "
				 "as UTF-8 text)");
	kernel_options(bi, bi->record);
	doc = json_dumps(bi->record, JSON_COMPACT);
	rc = store_bisection_add(bi->st, bi->repo_top, "running", doc, &bi->id, err);
	free(doc);
	if (rc)
		return -1;
	json_object_set_new(bi->record, "id", json_integer(bi->id));
	if (bi->so.name)
		json_object_set_new(bi->record, "name", json_string(bi->so.name));
	else
		json_object_set_new(bi->record, "name", json_sprintf("bisect-%lld",
								     (long long)bi->id));
	set_writer(bi);
	if (bisection_save(bi, true, err))
		return -1;
	/* refused: nothing of it stays, as nothing of a refusal before it does */
	if (check_runs_free(bi, err) || check_name_free(bi, err)) {
		struct error ignored = { 0 };

		store_bisection_delete(bi->st, bi->id, &ignored);
		return -1;
	}
	return open_common(bi, err);
}

/*
 * What every record holds from its first save on: a process killed before
 * that (the name is its last) measured nothing; anything else missing is
 * a change made outside schedperf.
 */
static bool all_text(const json_t *array)
{
	size_t i;
	json_t *item;

	json_array_foreach(array, i, item)
		if (!json_is_string(item))
			return false;
	return json_is_array(array);
}

static int record_whole(const struct bisection *bi, struct error *err)
{
	json_t *r = bi->record;
	const char *good = json_string_value(json_object_get(r, "good"));
	const char *bad = json_string_value(json_object_get(r, "bad"));
	long long id = (long long)json_integer_value(json_object_get(r, "id"));

	if (!good || strlen(good) != 40 || !bad || strlen(bad) != 40 ||
	    !json_is_array(json_object_get(r, "steps")) ||
	    !all_text(json_object_get(r, "params")))
		return error_set(err, EXIT_ENV, "bisect: cannot read the store: the record of "
				 "the bisection of %s lacks its ends, steps or parameters: the "
				 "store is damaged (it was changed outside schedperf: start the "
				 "bisection again)", bi->repo_top);
	if (!json_is_string(json_object_get(r, "name")))
		return error_set(err, EXIT_USAGE, "bisect: bisection %lld of %s was stopped "
				 "before it was named, and measured nothing: there is nothing to "
				 "resume (start it again)", id, bi->repo_top);
	return 0;
}

/* Options back from the record of a resumed bisection. */
static int options_from_record(struct bisection *bi, struct error *err)
{
	json_t *r = bi->record, *params = json_object_get(r, "params"), *p;
	size_t i;

	if (record_whole(bi, err))
		return -1;

	bi->workload = json_string_value(json_object_get(r, "workload"));
	bi->build_cmd = json_string_value(json_object_get(r, "build"));
	bi->so.metric = json_string_value(json_object_get(r, "metric"));
	bi->so.alpha = json_number_value(json_object_get(r, "alpha"));
	bi->so.margin_pct = json_number_value(json_object_get(r, "margin_pct"));
	bi->so.max_samples = (int)json_integer_value(json_object_get(r, "max_samples"));
	bi->so.max_time = json_number_value(json_object_get(r, "max_time"));
	bi->so.timeout = json_number_value(json_object_get(r, "timeout"));
	bi->seed = (int)json_integer_value(json_object_get(r, "seed"));
	bi->id = json_integer_value(json_object_get(r, "id"));
	bi->machine = json_string_value(json_object_get(r, "machine_pattern"));
	bi->kernel_tree = bi->machine ? bi->repo_top : NULL;
	bi->boot_iterations = (int)json_integer_value(json_object_get(r, "boot_iterations"));
	snprintf(bi->good, sizeof(bi->good), "%s", json_string_value(json_object_get(r, "good")));
	snprintf(bi->bad, sizeof(bi->bad), "%s", json_string_value(json_object_get(r, "bad")));
	free(bi->so.params);
	bi->so.params = xcalloc(json_array_size(params) + 1, sizeof(char *));
	bi->so.nr_params = 0;
	json_array_foreach(params, i, p)
		bi->so.params[bi->so.nr_params++] = json_string_value(p);
	if (!bi->workload || !(bi->w = workload_find(bi->workload)))
		return error_set(err, EXIT_USAGE, "bisect: the stored bisection names no workload "
				 "of this schedperf ('%.64s')", bi->workload ? bi->workload : "");
	/* the metric its first measurement fixed; not measured yet, the first session says */
	if (!json_is_string(json_object_get(r, "better")) ||
	    better_parse(json_string_value(json_object_get(r, "better")), &bi->better)) {
		bi->better = BETTER_LOWER;
		return 0;
	}
	bi->metric_known = true;
	bi->metric_name = xstrdup(bi->so.metric ? bi->so.metric : "");
	bi->metric_unit = xstrdup(json_string_value(json_object_get(r, "unit")) ?: "");
	return 0;
}

json_t *bisection_record_read(const struct stored_bisection *b, const char *cmd,
			      struct error *err)
{
	json_t *record = json_loads(b->doc, 0, NULL);

	if (json_is_object(record))
		return record;
	json_decref(record);
	error_set(err, EXIT_ENV, "%s: cannot read the store: the record of bisection %lld is "
		  "not a JSON object: the store is damaged (it was changed outside schedperf: "
		  "restore the store from a copy, or start the bisection again)", cmd,
		  (long long)b->id);
	return NULL;
}

/* The stored, interrupted bisection of the repository, to write it. */
static int find_resumable(struct bisection *bi, struct error *err)
{
	struct stored_bisection old = { 0 };
	int found;

	if (store_open_existing(bi->db, &bi->st, err))
		return -1;
	found = store_bisection_get(bi->st, 0, bi->repo_top, &old, err);
	if (found < 0)
		return -1;
	if (found)
		return error_set(err, EXIT_USAGE, "bisect: no interrupted bisection of %s in the "
				 "store (start one: schedperf bisect WORKLOAD --good REV --bad "
				 "REV)", bi->repo_top);
	bi->record = bisection_record_read(&old, "bisect", err);
	/* the row's id: a process killed at once left a record without one */
	if (bi->record)
		json_object_set_new(bi->record, "id", json_integer(old.id));
	stored_bisection_release(&old);
	if (!bi->record)
		return -1;
	/* found without creating a store; now to write it */
	store_close(bi->st);
	return store_open(bi->db, &bi->st, err);
}

static int open_resumed(struct bisection *bi, struct error *err)
{
	const char *target;

	if (open_repo(bi, bi->repo, err) || find_resumable(bi, err) ||
	    options_from_record(bi, err))
		return -1;
	target = json_string_value(json_object_get(bi->record, "target"));
	bi->target = target && !strcmp(target, "kernel") ? &bisect_kernel : &bisect_local;
	if (guard(bi, err) || guard_copy(bi, err))
		return -1;
	if (!strcmp(bisection_state(bi), "bisecting") && !bisection_git_is_ours(bi))
		return error_set(err, EXIT_USAGE, "bisect: git's bisect state in %s is not this "
				 "bisection's any more (it was reset, or another was started): "
				 "start the bisection again", bi->repo_top);
	/* an earlier attempt's error is not this one's */
	json_object_del(bi->record, "error");
	set_writer(bi);
	return bisection_save(bi, true, err) || open_common(bi, err) ? -1 : 0;
}

int bisection_open(struct bisection *bi, struct error *err)
{
	/* --repo (or the current directory) is the repository, not a hook's GIT_DIR */
	git_env_forget_repository();
	return bi->resume ? open_resumed(bi, err) : open_new(bi, err);
}

void bisection_close(struct bisection *bi)
{
	if (bi->target && bi->repo_top)
		bi->target->close(bi);
	monitors_close(bi->ms);
	store_close_made(bi->st, bi->store_made);
	json_decref(bi->record);
	free(bi->name);
	free(bi->metric_name);
	free(bi->metric_unit);
	bi->metric_name = bi->metric_unit = NULL;
	bi->metric_known = false;
	free(bi->repo_top);
	bi->repo_top = NULL;
	unlock_repo(bi);
	bi->ms = NULL;
	bi->st = NULL;
	bi->record = NULL;
	bi->name = NULL;
}

/* Whether the process the record names as working on it still runs. */
static bool writer_alive(const char *doc)
{
	json_t *record = json_loads(doc, 0, NULL), *w = json_object_get(record, "writer");
	struct process_id id = { "", 0, 0 };
	const char *boot = json_string_value(json_object_get(w, "boot"));
	bool alive;

	snprintf(id.boot, sizeof(id.boot), "%s", boot ? boot : "");
	id.pid = json_integer_value(json_object_get(w, "pid"));
	id.start = (uint64_t)json_integer_value(json_object_get(w, "start"));
	alive = json_is_object(w) && process_alive(&id);
	json_decref(record);
	return alive;
}

int bisection_list_load(const char *db, struct stored_bisection **list, size_t *n,
			struct error *err)
{
	struct store *st = NULL;
	int rc;

	*list = NULL;
	*n = 0;
	rc = store_open_existing(db, &st, err) || store_bisection_list(st, list, n, err) ?
	     -1 : 0;
	store_close(st);
	if (rc)
		return -1;
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*list)[i].state, "running") && !writer_alive((*list)[i].doc)) {
			free((*list)[i].state);
			(*list)[i].state = xstrdup("interrupted");
		}
	return 0;
}
