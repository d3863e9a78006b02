// SPDX-License-Identifier: GPL-2.0
/*
 * The git helpers of git.h over run_command().
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/git.h"
#include "util/hash.h"
#include "util/run_command.h"
#include "util/xalloc.h"

#define MAX_GIT_ARGS 32

static int git_va(const char *repo, struct strbuf *out, bool must_succeed, struct error *err,
		  va_list ap)
{
	char *argv[MAX_GIT_ARGS + 4], last[256];
	struct child_command cmd = { .log_fd = -1, .c_locale = true };
	size_t n = 0;
	const char *arg;
	int status;

	argv[n++] = (char *)"git";
	if (repo) {
		argv[n++] = (char *)"-C";
		argv[n++] = (char *)repo;
	}
	while ((arg = va_arg(ap, const char *)) && n < MAX_GIT_ARGS + 3)
		argv[n++] = (char *)arg;
	argv[n] = NULL;
	cmd.argv = argv;
	cmd.out = out;
	status = run_command(&cmd, last, sizeof(last), err);
	if (status <= 0 || !must_succeed)
		return status;
	return error_set(err, EXIT_USAGE, "git %s%s%s: %s", argv[repo ? 3 : 1],
			 argv[repo ? 4 : 2] ? " " : "", argv[repo ? 4 : 2] ? argv[repo ? 4 : 2] : "",
			 *last ? last : "failed");
}

int git_status(const char *repo, struct strbuf *out, struct error *err, ...)
{
	va_list ap;
	int rc;

	va_start(ap, err);
	rc = git_va(repo, out, false, err, ap);
	va_end(ap);
	return rc;
}

int git_run(const char *repo, struct strbuf *out, struct error *err, ...)
{
	va_list ap;
	int rc;

	va_start(ap, err);
	rc = git_va(repo, out, true, err, ap);
	va_end(ap);
	return rc;
}

void git_env_forget_repository(void)
{
	/* git rev-parse --local-env-vars, but for the user's own -c settings */
	static const char *const names[] = {
		"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE",
		"GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
		"GIT_IMPLICIT_WORK_TREE", "GIT_GRAFT_FILE", "GIT_NO_REPLACE_OBJECTS",
		"GIT_REPLACE_REF_BASE", "GIT_PREFIX", "GIT_INTERNAL_SUPER_PREFIX",
		"GIT_SHALLOW_FILE",
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		unsetenv(names[i]);
}

const char *git_chomp(struct strbuf *text)
{
	while (text->len && (text->buf[text->len - 1] == '\n' || text->buf[text->len - 1] == '\r'))
		text->buf[--text->len] = '\0';
	return text->len ? text->buf : "";
}

int git_commit_hash(const char *repo, const char *rev, char hash[41], struct error *err)
{
	struct strbuf out = STRBUF_INIT;
	char *spec = xasprintf("%s^{commit}", rev);
	int status = git_status(repo, &out, err, "rev-parse", "--verify", "--quiet", spec, NULL);

	free(spec);
	if (status < 0) {
		strbuf_release(&out);
		return -1;
	}
	if (status || strlen(git_chomp(&out)) != 40) {
		strbuf_release(&out);
		return 1;
	}
	memcpy(hash, out.buf, 41);
	strbuf_release(&out);
	return 0;
}

int git_is_dirty(const char *repo, bool *dirty, struct error *err)
{
	struct strbuf out = STRBUF_INIT;
	int rc = git_run(repo, &out, err, "status", "--porcelain", "--untracked-files=no", NULL);

	*dirty = rc == 0 && out.len > 0;
	strbuf_release(&out);
	return rc;
}

int git_changes_id(const char *repo, char id[9], struct error *err)
{
	struct strbuf diff = STRBUF_INIT;
	bool dirty;
	int rc = git_is_dirty(repo, &dirty, err);

	id[0] = '\0';
	if (rc || !dirty)
		return rc;
	rc = git_run(repo, &diff, err, "diff", "--no-ext-diff", "--no-textconv", "--no-color",
		     "--binary", "HEAD", NULL);
	if (!rc)
		snprintf(id, 9, "%08" PRIx64, fnv1a(FNV1A_INIT, diff.buf, diff.len) >> 32);
	strbuf_release(&diff);
	return rc;
}
