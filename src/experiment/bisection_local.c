// SPDX-License-Identifier: GPL-2.0
/*
 * The bisection's local target (bisection.h): user-space commits, each
 * built in a scratch work tree of its own (runner/commit_build.h), so that
 * good, the step and bad run side by side on this machine, in blocks of a
 * random order (experiment/sampling.h) whose differences the machine's drift
 * cannot bias.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "experiment/bisection.h"
#include "runner/iteration.h"
#include "util/xalloc.h"

static int local_check(struct bisection *bi, struct error *err)
{
	return 0;
}

static int local_open(struct bisection *bi, struct error *err)
{
	char area[32];

	snprintf(area, sizeof(area), "bisect-%lld", (long long)bi->id);
	return build_area_open(&bi->area, bi->repo_top, area, bi->build_cmd,
			       iteration_interrupted, err);
}

static void local_close(struct bisection *bi)
{
	build_area_close(&bi->area);
}

static int local_build(struct bisection *bi, const char *hash, char *why, size_t len,
		       struct error *err)
{
	struct commit_build *b;

	if (!build_area_find(&bi->area, hash))
		sampling_note(bi->events, "bisect: %s %.12s", bi->build_cmd ? "building" :
			      "checking out", hash);
	if (build_area_get(&bi->area, hash, &b, err))
		return -1;
	if (!b->status)
		return 0;
	snprintf(why, len, "%s", b->failure);
	return 1;
}

static void local_drop(struct bisection *bi, const char *hash)
{
	build_area_drop(&bi->area, hash);
}

/*
 * The benchmark of a side, checked as the build will run it: in its work
 * tree, where a relative program (cmd=./prog) is the build's.
 */
static int prepare_in(struct bisection *bi, struct sample_side *side, const char *dir,
		      struct error *err)
{
	int here = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc;

	if (here < 0 || chdir(dir)) {
		if (here >= 0)
			close(here);
		return error_set(err, EXIT_ENV, "bisect: cannot enter %s: %s (check its "
				 "permissions)", dir, strerror(errno));
	}
	rc = side_prepare(side, bi->w, (char *const *)bi->so.params, bi->so.nr_params,
			  bi->so.metric, err);
	if (fchdir(here))
		rc = error_set(err, EXIT_ENV, "bisect: cannot return to the directory it "
			       "started in: %s (start it from a directory that stays)",
			       strerror(errno));
	close(here);
	side->opt.workdir = dir;
	return rc;
}

static int local_session_open(struct bisection *bi, struct session *s, struct error *err)
{
	struct sample_side *sides = xcalloc(s->nr, sizeof(*sides));
	struct metric_key key;

	s->sides = sides;
	for (size_t i = 0; i < s->nr; i++) {
		struct commit_build *b = build_area_find(&bi->area, s->hashes[i]);

		if (!b)
			return error_set(err, EXIT_INTERNAL, "bisect: %.12s was not built",
					 s->hashes[i]);
		/* the runs are the bisection's own: the store keeps other batches out */
		sides[i].opt.experiment = "bisect";
		if (prepare_in(bi, &sides[i], b->dir, err) ||
		    side_open(&sides[i], bi->st, s->runs[i], &bi->so, bi->events, bi->ms, err))
			return -1;
	}
	key = (struct metric_key){ sides[0].metric_name, sides[0].metric_unit, sides[0].better };
	/* resumed by another version of schedperf, whose workload says another unit */
	return bisection_metric(bi, &key, "this schedperf measures", "resume it with the "
				"schedperf that began it, or start the bisection again", err);
}

static int local_block(struct bisection *bi, struct session *s, double *values,
		       struct error *err)
{
	struct sample_side *sides = s->sides, *order[3];
	struct block_sampler bs = { order, s->nr, bi->rng, "bisect" };
	size_t failed;
	int rc;

	for (size_t i = 0; i < s->nr; i++)
		order[i] = &sides[i];
	rc = block_sample(&bs, values, &failed, err);
	bi->rng = bs.rng;
	if (!rc) {
		s->failed_side = failed;
		snprintf(s->failure, sizeof(s->failure), "%s failed: %s", sides[failed].run_name,
			 sides[failed].result.last_failure);
	}
	return rc;
}

static void local_session_close(struct bisection *bi, struct session *s, bool complete)
{
	struct sample_side *sides = s->sides;
	struct error ignored = { 0 };

	for (size_t i = 0; sides && i < s->nr; i++)
		side_finish(&sides[i], bi->st, complete, &ignored);
	free(sides);
	s->sides = NULL;
}

const struct bisect_target bisect_local = {
	.check = local_check,
	.open = local_open,
	.close = local_close,
	.build = local_build,
	.drop = local_drop,
	.session_open = local_session_open,
	.block = local_block,
	.session_close = local_session_close,
	.block_word = "blocks",
};
