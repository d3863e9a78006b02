// SPDX-License-Identifier: GPL-2.0
/*
 * The scratch builds of commit_build.h: `git worktree add --detach` for
 * each commit, the user's build command with `sh -c` in it (the user asked
 * for a shell command), `git worktree remove --force` when done.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runner/commit_build.h"
#include "util/git.h"
#include "util/run_command.h"
#include "util/xalloc.h"

static void remove_tree(const struct build_area *area, const char *dir)
{
	struct error ignored = { 0 };

	/*
	 * removes the directory with whatever the build left in it; twice
	 * --force, for a tree that a kill in its `git worktree add` left
	 * locked ("initializing"), which one keeps, and a next add there
	 * refuses (the tree is ours: only this area's are removed)
	 */
	git_status(area->repo, NULL, &ignored, "worktree", "remove", "--force", "--force", dir,
		   NULL);
}

/*
 * Empty @root of scratch trees and logs that an interrupted use left.
 * Only these: never `git worktree prune`, which would also forget the
 * user's own work trees that are not there now (on a disk unplugged).
 */
static void empty_root(const struct build_area *area)
{
	DIR *d = opendir(area->root);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char *path;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		path = xasprintf("%s/%s", area->root, e->d_name);
		if (e->d_type == DT_DIR)
			remove_tree(area, path);
		else
			unlink(path);
		free(path);
	}
	closedir(d);
}

int build_area_open(struct build_area *area, const char *repo, const char *name,
		    const char *build_cmd, int (*interrupted)(void), struct error *err)
{
	struct strbuf top = STRBUF_INIT, common = STRBUF_INIT;
	char *parent;
	int rc = -1;

	memset(area, 0, sizeof(*area));
	if (git_run(repo, &top, err, "rev-parse", "--show-toplevel", NULL) ||
	    git_run(repo, &common, err, "rev-parse", "--path-format=absolute",
		    "--git-common-dir", NULL)) {
		error_set(err, EXIT_USAGE, "%.200s is not inside a git work tree (give --repo DIR, "
			  "a clone of the repository to bisect)", repo ? repo : ".");
		goto out;
	}
	area->repo = xstrdup(git_chomp(&top));
	area->build_cmd = build_cmd;
	area->interrupted = interrupted;
	parent = xasprintf("%s/schedperf-bisect", git_chomp(&common));
	area->root = xasprintf("%s/%s", parent, name);
	if ((mkdir(parent, 0755) && errno != EEXIST) ||
	    (mkdir(area->root, 0755) && errno != EEXIST)) {
		error_set(err, EXIT_ENV, "cannot make the scratch directory %s: %s (free room "
			  "there, or check its permissions)", area->root, strerror(errno));
		free(parent);
		goto out;
	}
	free(parent);
	empty_root(area);
	rc = 0;
out:
	strbuf_release(&top);
	strbuf_release(&common);
	return rc;
}

/* Run the build command in @b's tree, its output to HASH.log beside it. */
static int build(struct build_area *area, struct commit_build *b, struct error *err)
{
	char *log_path = xasprintf("%s/%.12s.log", area->root, b->hash);
	char *argv[] = { (char *)"sh", (char *)"-c", (char *)area->build_cmd, NULL };
	struct child_command cmd = { .dir = b->dir, .argv = argv, .interrupted = area->interrupted };
	char last[200], how[64];
	int status;

	cmd.log_fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (cmd.log_fd < 0) {
		error_set(err, EXIT_ENV, "cannot write the build log %s: %s (check that you may "
			  "write in the repository's git directory, and its disk is not full)", log_path,
			  strerror(errno));
		free(log_path);
		return -1;
	}
	status = run_command(&cmd, last, sizeof(last), err);
	close(cmd.log_fd);
	if (status > 0) {
		b->status = status;
		snprintf(b->failure, sizeof(b->failure), "the build failed (%s)%s%s",
			 run_command_status(status, how, sizeof(how)), *last ? ": " : "", last);
	}
	free(log_path);
	return status < 0 ? -1 : 0;
}

struct commit_build *build_area_find(const struct build_area *area, const char *hash)
{
	for (size_t i = 0; i < area->nr; i++)
		if (!strcmp(area->builds[i]->hash, hash))
			return area->builds[i];
	return NULL;
}

int build_area_get(struct build_area *area, const char *hash, struct commit_build **out,
		   struct error *err)
{
	struct commit_build *b = build_area_find(area, hash);

	if (b) {
		*out = b;
		return 0;
	}
	b = xcalloc(1, sizeof(*b));
	snprintf(b->hash, sizeof(b->hash), "%s", hash);
	b->dir = xasprintf("%s/%.12s", area->root, hash);
	if (git_run(area->repo, NULL, err, "worktree", "add", "--detach", "--force", b->dir,
		    hash, NULL) || (area->build_cmd && build(area, b, err))) {
		remove_tree(area, b->dir);
		free(b->dir);
		free(b);
		return -1;
	}
	area->builds = xreallocarray(area->builds, area->nr + 1, sizeof(*area->builds));
	area->builds[area->nr++] = b;
	*out = b;
	return 0;
}

void build_area_drop(struct build_area *area, const char *hash)
{
	for (size_t i = 0; i < area->nr; i++) {
		struct commit_build *b = area->builds[i];

		if (strcmp(b->hash, hash))
			continue;
		remove_tree(area, b->dir);
		free(b->dir);
		free(b);
		area->builds[i] = area->builds[--area->nr];
		return;
	}
}

void build_area_close(struct build_area *area)
{
	while (area->nr)
		build_area_drop(area, area->builds[0]->hash);
	if (area->root) {
		char *parent = xstrdup(area->root);

		empty_root(area);
		rmdir(area->root);
		/* schedperf-bisect/ itself, unless another bisection's area is in it */
		*strrchr(parent, '/') = '\0';
		rmdir(parent);
		free(parent);
	}
	free(area->builds);
	free(area->root);
	free(area->repo);
	memset(area, 0, sizeof(*area));
}
