// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel tree of a kernel bisection (bisection_tree.h). A checkout is
 * in the record before it begins, so that a controller killed in it (git
 * killed with it, util/run_command.h) leaves a record that says which
 * commit the half-done tree was going to. --resume does that checkout
 * again, forcibly, only when every change in the tree is one it makes: a
 * file as the commit it left has it (not reached yet), as the commit it
 * went to has it, or part of it (being written), or gone (about to be);
 * anything else is a user's, and is never overwritten.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "experiment/bisection_tree.h"
#include "util/git.h"
#include "util/io.h"
#include "util/process.h"
#include "util/xalloc.h"

static const char *tree_field(const struct bisection *bi, const char *key)
{
	return json_string_value(json_object_get(json_object_get(bi->record, "tree"), key));
}

static int head_hash(const struct bisection *bi, char hash[41], struct error *err)
{
	int rc = git_commit_hash(bi->repo_top, "HEAD", hash, err);

	if (rc > 0)
		return error_set(err, EXIT_USAGE, "bisect: the kernel tree %s has no commit "
				 "checked out (HEAD names none)", bi->repo_top);
	return rc;
}

int tree_checkout(struct bisection *bi, const char *hash, struct error *err)
{
	char from[41];

	if (head_hash(bi, from, err))
		return -1;
	json_object_set_new(bi->record, "tree", json_pack("{s:s,s:s,s:b}", "from", from,
							  "to", hash, "done", 0));
	if (bisection_save(bi, true, err))
		return -1;
	bi->tree_moved = true;
	if (git_run(bi->repo_top, NULL, err, "checkout", "-q", "--detach", hash, NULL))
		return -1;
	/* from here on, a change in the tree is its build's */
	json_object_set_new(json_object_get(bi->record, "tree"), "done", json_true());
	return bisection_save(bi, true, err);
}

/* Some names, NUL-separated, from `git diff --name-only -z @extra @a [@b]`. */
static int diff_names(const struct bisection *bi, struct strbuf *names, const char *extra,
		      const char *a, const char *b, struct error *err)
{
	return git_run(bi->repo_top, names, err, "diff", "--no-ext-diff", "--no-renames",
		       "--name-only", "-z", extra, a, b ? b : "--", b ? "--" : NULL, NULL);
}

static bool has_name(const struct strbuf *names, const char *path)
{
	for (size_t at = 0; at < names->len; at += strlen(names->buf + at) + 1)
		if (!strcmp(names->buf + at, path))
			return true;
	return false;
}

/*
 * Whether the work tree's @path is what a checkout of @to can leave of
 * it: gone, or a regular file whose bytes begin @to's (all of them, or
 * those written before git was killed).
 */
static int written_by_checkout(const struct bisection *bi, const char *to, const char *path,
			       bool *yes, struct error *err)
{
	char *file = xasprintf("%s/%s", bi->repo_top, path), *spec = xasprintf("%s:%s", to, path);
	struct strbuf blob = STRBUF_INIT;
	char *bytes = NULL;
	struct stat st;
	int status = 0, fd = -1;

	*yes = false;
	if (lstat(file, &st)) {
		*yes = errno == ENOENT;
		goto out;
	}
	if (!S_ISREG(st.st_mode))
		goto out;
	status = git_status(bi->repo_top, &blob, err, "cat-file", "blob", spec, NULL);
	if (status)
		goto out;
	if ((size_t)st.st_size > blob.len)
		goto out;
	fd = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	bytes = xmalloc((size_t)st.st_size + 1);
	*yes = fd >= 0 && !read_full(fd, bytes, (size_t)st.st_size) &&
	       !memcmp(bytes, blob.buf, (size_t)st.st_size);
out:
	if (fd >= 0)
		close(fd);
	free(bytes);
	free(file);
	free(spec);
	strbuf_release(&blob);
	return status < 0 ? -1 : 0;
}

/* Add @path to the list of @files (as many as fit) that no checkout explains. */
static void add_foreign(char *files, size_t size, const char *path)
{
	size_t used = strlen(files);

	if (used < size - 1)
		snprintf(files + used, size - used, "%s%s", used ? ", " : "", path);
}

/*
 * The files, in @files, whose changes the checkout from @from to @to
 * cannot have made (see the top of the file); "" when there are none.
 * @changed says whether the tree differs from @to at all.
 */
static int foreign_changes(const struct bisection *bi, const char *from, const char *to,
			   char *files, size_t size, bool *changed, struct error *err)
{
	struct strbuf wt_from = STRBUF_INIT, wt_to = STRBUF_INIT, ix_from = STRBUF_INIT;
	struct strbuf ix_to = STRBUF_INIT, moved = STRBUF_INIT, added = STRBUF_INIT;
	int rc = -1;

	*files = '\0';
	if (diff_names(bi, &wt_from, "--no-renames", from, NULL, err) ||
	    diff_names(bi, &wt_to, "--no-renames", to, NULL, err) ||
	    diff_names(bi, &ix_from, "--cached", from, NULL, err) ||
	    diff_names(bi, &ix_to, "--cached", to, NULL, err) ||
	    diff_names(bi, &moved, "--no-renames", from, to, err) ||
	    diff_names(bi, &added, "--diff-filter=A", from, to, err))
		goto out;
	*changed = wt_to.len || ix_to.len;
	/* the work tree: each file as @from has it, or as the checkout leaves it */
	for (size_t at = 0; at < wt_to.len; at += strlen(wt_to.buf + at) + 1) {
		const char *path = wt_to.buf + at;
		bool ours = false;

		if (!has_name(&wt_from, path))
			continue;
		if (has_name(&moved, path) && written_by_checkout(bi, to, path, &ours, err))
			goto out;
		if (!has_name(&moved, path) || !ours)
			add_foreign(files, size, path);
	}
	/* a file @to adds, which git does not track until the index is written */
	for (size_t at = 0; at < added.len; at += strlen(added.buf + at) + 1) {
		const char *path = added.buf + at;
		bool ours;

		/* (a tracked one the loop above has looked at) */
		if (has_name(&wt_to, path) && has_name(&wt_from, path))
			continue;
		if (written_by_checkout(bi, to, path, &ours, err))
			goto out;
		if (!ours)
			add_foreign(files, size, path);
	}
	/* the index is written whole: @from's or @to's */
	for (size_t at = 0; at < ix_to.len; at += strlen(ix_to.buf + at) + 1)
		if (has_name(&ix_from, ix_to.buf + at))
			add_foreign(files, size, ix_to.buf + at);
	rc = 0;
out:
	strbuf_release(&wt_from);
	strbuf_release(&wt_to);
	strbuf_release(&ix_from);
	strbuf_release(&ix_to);
	strbuf_release(&moved);
	strbuf_release(&added);
	return rc;
}

/*
 * git's index lock, when the tree has one, refused: a killed git (the
 * controller's, killed with it) leaves one, but a git that still runs there
 * has one too without keeping it open the whole time (`git commit -a` writes
 * it, closes it and waits in the editor), so whose it is cannot be told and
 * it is the user's to remove.
 */
static int lock_refuse(struct bisection *bi, struct error *err)
{
	struct strbuf out = STRBUF_INIT;
	char *lock, *resume;
	struct stat st;
	int rc = 0;

	if (git_run(bi->repo_top, &out, err, "rev-parse", "--git-path", "index.lock", NULL)) {
		strbuf_release(&out);
		return -1;
	}
	git_chomp(&out);
	lock = out.buf[0] == '/' ? xstrdup(out.buf) : xasprintf("%s/%s", bi->repo_top, out.buf);
	strbuf_release(&out);
	if (!lstat(lock, &st)) {
		resume = bisection_resume_command(bi);
		rc = error_set(err, EXIT_ENV, "bisect: git's index of the kernel tree %s is "
			       "locked: %s is there, a git's that runs in the tree or a killed "
			       "one's (remove it once no git runs in the tree, then go on with: "
			       "%s)",
			       bi->repo_top, lock, resume);
		free(resume);
	}
	free(lock);
	return rc;
}

/* The checkout the record says the last process began, done again when it is safe. */
static int checkout_again(struct bisection *bi, const char *from, const char *to,
			  struct error *err)
{
	char head[41], files[200];
	bool changed = false;
	char *resume;
	int rc = 0;

	if (head_hash(bi, head, err) || foreign_changes(bi, from, to, files, sizeof(files),
							&changed, err))
		return -1;
	resume = bisection_resume_command(bi);
	if (strcmp(head, from) && strcmp(head, to))
		rc = error_set(err, EXIT_USAGE, "bisect: the kernel tree %s is on %.12s, which is "
			       "neither where the stopped bisection's checkout began (%.12s) nor "
			       "where it went (%.12s) (check %.12s out again, then go on with: %s)",
			       bi->repo_top, head, from, to, to, resume);
	else if (*files)
		rc = error_set(err, EXIT_USAGE, "bisect: the kernel tree %s has changes to tracked "
			       "files (%s) that the stopped bisection's checkout of %.12s did not "
			       "make, so it is not done again over them (commit or stash them, "
			       "then go on with: %s)", bi->repo_top, files, to, resume);
	free(resume);
	if (rc)
		return -1;
	if (changed || strcmp(head, to)) {
		if (git_run(bi->repo_top, NULL, err, "checkout", "-q", "-f", "--detach", to, NULL))
			return -1;
		/* (moved by this process: put back at its end, should saving fail) */
		bi->tree_moved = true;
		sampling_note(bi->events, "bisect: the checkout of %.12s that the stopped "
			      "bisection left half done is done again", to);
	}
	json_object_set_new(json_object_get(bi->record, "tree"), "done", json_true());
	return bisection_save(bi, true, err);
}

int tree_recover(struct bisection *bi, struct error *err)
{
	json_t *tree = json_object_get(bi->record, "tree");
	const char *from = tree_field(bi, "from"), *to = tree_field(bi, "to");

	if (!tree)
		return 0;
	if (lock_refuse(bi, err))
		return -1;
	if (!json_is_true(json_object_get(tree, "done")) && from && to &&
	    checkout_again(bi, from, to, err))
		return -1;
	/*
	 * the bisection moved the tree: this process puts it back at its end;
	 * not before, when the tree is refused as it is (a checkout back then
	 * would run over what the refusal told the user to see to)
	 */
	bi->tree_moved = true;
	return 0;
}

/* A few of the tracked files the tree has changes to, in @files; "" when none. */
static int changed_files(const struct bisection *bi, char *files, size_t size,
			 struct error *err)
{
	struct strbuf out = STRBUF_INIT;
	size_t used = 0;

	*files = '\0';
	if (git_run(bi->repo_top, &out, err, "status", "--porcelain", "--untracked-files=no",
		    NULL)) {
		strbuf_release(&out);
		return -1;
	}
	for (const char *line = strbuf_str(&out); *line && used < size - 1;) {
		size_t n = strcspn(line, "\n");

		/* "XY PATH": the two status letters and a space */
		if (n > 3)
			used += (size_t)snprintf(files + used, size - used, "%s%.*s",
						 used ? ", " : "", (int)(n - 3), line + 3);
		line += n + (line[n] == '\n');
	}
	strbuf_release(&out);
	return 0;
}

static int build_changed(const struct bisection *bi, const char *hash, const char *files,
			 struct error *err)
{
	return error_set(err, EXIT_USAGE, "bisect: the build of %.12s changed files git tracks "
			 "in %s (%s), so the next commit cannot be checked out (make --build "
			 "leave them as they are, e.g. build out of the tree with O=DIR)", hash,
			 bi->repo_top, files);
}

int tree_built(struct bisection *bi, struct error *err)
{
	const char *hash = tree_field(bi, "to");
	char files[200];

	if (changed_files(bi, files, sizeof(files), err))
		return -1;
	if (*files)
		return build_changed(bi, hash ? hash : "HEAD", files, err);
	json_object_set_new(json_object_get(bi->record, "tree"), "built", json_true());
	return bisection_save(bi, true, err);
}

int tree_unchanged(struct bisection *bi, struct error *err)
{
	json_t *tree = json_object_get(bi->record, "tree");
	const char *to = tree_field(bi, "to");
	char files[200], head[41];
	char *resume;

	if (changed_files(bi, files, sizeof(files), err))
		return -1;
	if (!*files)
		return 0;
	if (head_hash(bi, head, err))
		return -1;
	/* a build that a stopped bisection ran on the commit it checked out, and nothing since */
	if (to && !strcmp(to, head) && json_is_true(json_object_get(tree, "done")) &&
	    !json_is_true(json_object_get(tree, "built")))
		return build_changed(bi, head, files, err);
	resume = bisection_resume_command(bi);
	error_set(err, EXIT_USAGE, "bisect: the kernel tree %s has changes to tracked files (%s) "
		  "that no build of the bisection made, so the next commit cannot be checked "
		  "out (commit or stash them, then go on with: %s)", bi->repo_top, files, resume);
	free(resume);
	return -1;
}
