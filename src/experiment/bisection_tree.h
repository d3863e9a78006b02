/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_EXPERIMENT_BISECTION_TREE_H
#define SCHEDPERF_EXPERIMENT_BISECTION_TREE_H

#include "experiment/bisection.h"

/*
 * The kernel tree a kernel bisection builds in (bisection_kernel.c), as
 * the record knows it: "tree" says which checkout the bisection began
 * ("from", "to") and whether it ended ("done"), so that a controller
 * killed in a checkout leaves what --resume needs to finish it.
 */

/* Check out @hash (detached), recorded before and after: 0 or -1 with @err. */
int tree_checkout(struct bisection *bi, const char *hash, struct error *err);

/*
 * On --resume: a checkout the killed controller left half done is done
 * again, when every change in the tree is one that checkout makes; else -1
 * with @err naming the files. git's index lock, which a killed checkout
 * leaves, is refused (EXIT_ENV): it may be a live git's, so it is the
 * user's to remove.
 */
int tree_recover(struct bisection *bi, struct error *err);

/*
 * After --build, whatever its status: the tree has no changes to tracked
 * files, or -1 with @err saying the build made them.
 */
int tree_built(struct bisection *bi, struct error *err);

/*
 * Before a checkout: the tree has no changes to tracked files, which the
 * checkout would fail over or carry into the next kernel: 0, or -1 with
 * @err naming a few of the files and what made them (a build a stopped
 * bisection ran, or not the bisection).
 */
int tree_unchanged(struct bisection *bi, struct error *err);

#endif
