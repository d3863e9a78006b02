/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_RUNNER_COMMIT_BUILD_H
#define SCHEDPERF_RUNNER_COMMIT_BUILD_H

#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"

/*
 * Commits of a git repository built side by side, each in a scratch work
 * tree of its own (git worktree, detached), so that a bisection can run the
 * good, the bad and the step's build in one block of samples. The scratch
 * trees live under the repository's git directory
 * (GIT_COMMON_DIR/schedperf-bisect/NAME/), never in the user's work tree,
 * and go when the area is closed. The build command is the user's shell
 * command, run with sh -c in the scratch tree, its output in a log there.
 */

struct commit_build {
	char hash[41];
	char *dir;		/* the scratch work tree */
	int status;		/* the build command's exit status; 0 built */
	char failure[256];	/* why it failed: the status and its last line of output */
};

struct build_area {
	char *repo;		/* the repository's top level */
	char *root;		/* GIT_COMMON_DIR/schedperf-bisect/NAME */
	const char *build_cmd;	/* NULL: checked out is built */
	int (*interrupted)(void);	/* stops a build when it returns non-zero */
	struct commit_build **builds;
	size_t nr;
};

/*
 * Open the area NAME of @repo (any directory inside it), emptying what an
 * earlier, interrupted use left there. Errors: not a git repository
 * (EXIT_USAGE), no room (EXIT_ENV).
 */
int build_area_open(struct build_area *area, const char *repo, const char *name,
		    const char *build_cmd, int (*interrupted)(void), struct error *err);

/*
 * The build of commit @hash: the one made earlier in this area, or a new
 * one (checked out, then built). *@out->status says whether it built; -1
 * with @err only when the area itself fails (git cannot check it out, an
 * interruption).
 */
int build_area_get(struct build_area *area, const char *hash, struct commit_build **out,
		   struct error *err);

/* The build of @hash made earlier in this area, or NULL. */
struct commit_build *build_area_find(const struct build_area *area, const char *hash);

/* Remove the build of @hash, if any, to free its room (the ends stay while needed). */
void build_area_drop(struct build_area *area, const char *hash);

/* Remove every scratch tree and the area itself. */
void build_area_close(struct build_area *area);

#endif
