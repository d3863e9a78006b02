// SPDX-License-Identifier: GPL-2.0
/* The job a worker runs a command for, from $SCHEDPERF_JOB (job_env.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <jansson.h>

#include "runner/job_env.h"
#include "util/parse.h"
#include "util/strbuf.h"
#include "util/url_password.h"
#include "util/xalloc.h"
#include "workload/workload.h"

/* The job's variables as job_env_take() found them; NULL: unset. */
static struct {
	bool done;
	char *job;
	char *patience;
	char *db_fd;
} taken;

/* @name's value, copied (NULL when unset), and @name out of the environment. */
static char *take(const char *name)
{
	const char *value = getenv(name);
	char *copy = value ? xstrdup(value) : NULL;

	unsetenv(name);
	return copy;
}

void job_env_take(void)
{
	if (taken.done)
		return;
	taken.done = true;
	taken.job = take(JOB_ENV_JOB);
	taken.patience = take(JOB_ENV_PATIENCE);
	taken.db_fd = take(JOB_ENV_DB_FD);
}

/* 1 with @id and @claim (the text after the colon), 0 when unset, -1 with @err. */
static int parse(int64_t *id, const char **claim, struct error *err)
{
	const char *job;
	char *end;
	long long n;

	job_env_take();
	job = taken.job;
	*id = 0;
	if (!job || !*job)
		return 0;
	/* an id past the range clamped to LLONG_MAX: another job's, not refused */
	errno = 0;
	n = strtoll(job, &end, 10);
	if (errno || n < 1 || *end != ':' || !end[1])
		return error_set(err, EXIT_USAGE, JOB_ENV_JOB " '%.64s' is not ID:CLAIM (it is "
				 "set by 'schedperf worker'; unset it)", job);
	*id = n;
	*claim = end + 1;
	return 1;
}

/* The most a store's location may be: a pipe's capacity, which the worker writes at once. */
#define DB_MAX 65536

int job_env_db(char **db, struct error *err)
{
	const char *var;
	struct strbuf sb = STRBUF_INIT;
	char buf[4096], *end;
	struct stat st;
	long fd;
	ssize_t n = 0;

	job_env_take();
	var = taken.db_fd;
	*db = NULL;
	if (!var || !*var)
		return 0;
	fd = strtol(var, &end, 10);
	if (*end || fd < 0 || fd > INT_MAX)
		return error_set(err, EXIT_USAGE, "%s '%.16s' is not a file descriptor (it is "
				 "set by 'schedperf worker'; unset it)", JOB_ENV_DB_FD, var);
	/* read once: after this call the descriptor is closed, perhaps another file's */
	free(taken.db_fd);
	taken.db_fd = NULL;
	/*
	 * The worker's pipe, its writing end closed and its reading end not
	 * blocking (pipe2()'s O_NONBLOCK) before the run starts. Another file
	 * (a user's stdin, a terminal, stderr) is neither read, which could wait
	 * forever, nor closed, which would lose the error we report on it.
	 */
	if (!fstat((int)fd, &st) && (!S_ISFIFO(st.st_mode) ||
				       (fcntl((int)fd, F_GETFL) & (O_ACCMODE | O_NONBLOCK)) !=
				       (O_RDONLY | O_NONBLOCK)))
		return error_set(err, EXIT_USAGE, "%s %ld is not the pipe 'schedperf worker' "
				 "gives its run (unset it)", JOB_ENV_DB_FD, fd);
	while (sb.len <= DB_MAX && ((n = read((int)fd, buf, sizeof(buf))) > 0 ||
				    (n < 0 && errno == EINTR)))
		if (n > 0)
			strbuf_add(&sb, buf, (size_t)n);
	close((int)fd);
	if (n < 0 || !sb.len || sb.len > DB_MAX || memchr(sb.buf, '\0', sb.len)) {
		strbuf_release(&sb);
		return error_set(err, EXIT_ENV, "cannot read the store's location from %s: %s "
				 "(it is set by 'schedperf worker'; unset it)", JOB_ENV_DB_FD,
				 n < 0 ? strerror(errno) :
				 "it holds no location of at most 64 KiB");
	}
	*db = strbuf_detach(&sb);
	return 1;
}

/*
 * In the environment, a URL's password would stay in the child's
 * /proc/PID/environ while it runs, and in that of every process it forks
 * (a workload's), which any program it starts (a command workload's) reads
 * there. Written whole and closed before the fork, so that the child reads
 * it, then the end of file.
 */
int job_env_db_pipe(const char *db, char *env[2])
{
	size_t len = strlen(db);
	char *shown;
	int fds[2];

	if (pipe2(fds, O_CLOEXEC | O_NONBLOCK))
		return -1;
	/* a pipe holds 64 KiB at once (DB_MAX), a store's location far less: never a wait */
	errno = 0;
	if (write(fds[1], db, len) != (ssize_t)len ||
	    fcntl(fds[0], F_SETFD, 0)) {
		int saved = errno ? errno : E2BIG;

		close(fds[0]);
		close(fds[1]);
		errno = saved;
		return -1;
	}
	close(fds[1]);
	shown = url_without_password(db, NULL);
	env[0] = xasprintf("SCHEDPERF_DB=%s", shown);
	env[1] = xasprintf("%s=%d", JOB_ENV_DB_FD, fds[0]);
	free(shown);
	return fds[0];
}

int job_env_id(int64_t *id, struct error *err)
{
	const char *claim = NULL;

	return parse(id, &claim, err);
}

int job_env_attach(struct store *st, struct error *err)
{
	const char *claim = NULL;
	int64_t id;
	int rc = parse(&id, &claim, err);
	const char *patience = taken.patience;	/* parse() took it */
	long ms;

	if (rc <= 0)
		return rc;
	store_set_job(st, id, claim);
	/* unset (a job's command started by hand): the store's own patience */
	if (!patience || !*patience)
		return 0;
	if (parse_long(patience, &ms) || ms < 1 || ms > INT_MAX)
		return error_set(err, EXIT_USAGE, JOB_ENV_PATIENCE " '%.32s' is not a number of "
				 "milliseconds from 1 to %d (it is set by 'schedperf worker'; unset it)",
				 patience, INT_MAX);
	store_set_patience(st, (int)ms);
	return 0;
}

void job_env_check_paths(void)
{
	const char *check = getenv(JOB_ENV_CHECK);

	if (check && *check)
		workload_check_for_job();
}

int job_env_check_jobs(void)
{
	const char *check = getenv(JOB_ENV_CHECK);
	long n = check ? strtol(check, NULL, 10) : 0;

	return n > 0 && n <= INT_MAX ? (int)n : 0;
}

static bool waiting_or_running(const struct store_job *job)
{
	return !strcmp(job->state, "queued") || !strcmp(job->state, "running") ||
	       !strcmp(job->state, "booting");
}

/* @runs_name of @job's arguments (argv[0] its command), as its command reads them. */
static char *job_runs_name(const struct store_job *job, job_runs_name_fn *runs_name)
{
	json_t *list = json_loads(job->args, 0, NULL);
	size_t n = json_is_array(list) ? json_array_size(list) : 0;
	char **argv = xcalloc(n + 2, sizeof(char *));
	char *name;

	argv[0] = job->command;
	for (size_t i = 0; i < n; i++) {
		const char *arg = json_string_value(json_array_get(list, i));

		argv[1 + i] = (char *)(arg ? arg : "");
	}
	name = runs_name((int)n + 1, argv, job->id);
	free(argv);
	json_decref(list);
	return name;
}

int job_env_name_free(struct store *st, const char *command, const char *name,
		      job_runs_name_fn *runs_name, struct error *err)
{
	struct store_job *jobs;
	size_t nr;
	int rc;

	if (store_jobs_list(st, &jobs, &nr, err))
		return -1;
	rc = 0;
	for (size_t i = 0; i < nr; i++) {
		char *other = NULL;

		if (!rc && !strcmp(jobs[i].command, command) && waiting_or_running(&jobs[i]) &&
		    (other = job_runs_name(&jobs[i], runs_name)) && !strcmp(other, name))
			rc = error_set(err, EXIT_USAGE, "%s: --name %.128s: job %lld (%s) stores its "
				       "runs under that name already, and compare would pool the "
				       "two (give another --name)", command, name,
				       (long long)jobs[i].id, jobs[i].state);
		free(other);
		store_job_release(&jobs[i]);
	}
	free(jobs);
	return rc;
}
