// SPDX-License-Identifier: GPL-2.0
/*
 * command: time an external program, so that anything — perf bench,
 * hackbench, a test suite, a kernel build, the program under `git bisect`
 * — becomes a workload. One iteration is one run of the program: its wall
 * time from spawn to reaping, and its user and system time from wait4().
 * Optionally a number it prints: metric_regex's first group, matched in
 * its standard output.
 *
 * cmd is split into words without a shell (util/words.h) unless shell=1
 * asks for `sh -c`. Standard input is /dev/null; standard output is kept
 * for metric_regex (its last OUTPUT_MAX bytes); of standard error only the
 * last line is kept, as the reason when the program fails. A non-zero
 * exit, a signal or a missing match fails the iteration and the run goes
 * on. The output is read while the program runs, and the iteration ends
 * when it exits: what a process it left in the background writes after
 * that is not waited for (the iteration's process kills it, whether it
 * stayed in the iteration's group or not: util/orphans.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <stdbool.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/program.h"
#include "util/strbuf.h"
#include "util/timeutil.h"
#include "util/utf8.h"
#include "util/words.h"
#include "workload/workload.h"

extern char **environ;

enum {
	CMD_PARAM_CMD,
	CMD_PARAM_SHELL,
	CMD_PARAM_REGEX,
	CMD_PARAM_NAME,
	CMD_PARAM_UNIT,
	CMD_PARAM_BETTER,
	NR_CMD_PARAMS,
};

/*
 * metrics[] as `schedperf list` shows them; a benchmark with metric_regex
 * puts the parsed number first, as its main metric (ab and bisect-step
 * decide on the first metric unless told another).
 */
enum { CMD_METRIC_SECONDS, CMD_METRIC_USER, CMD_METRIC_SYSTEM, CMD_METRIC_PARSED };

static const char *const better_choices[] = { "lower", "higher", NULL };

static const struct param_spec command_params[NR_CMD_PARAMS] = {
	[CMD_PARAM_CMD] = { "cmd", PARAM_STRING, "", 0, 4096, NULL,
		"the program and its arguments, quoted as for a shell but run without one "
		"(required)" },
	[CMD_PARAM_SHELL] = { "shell", PARAM_INT, "0", 0, 1, NULL,
		"1: run cmd with /bin/sh -c (pipes, redirections, variables)" },
	[CMD_PARAM_REGEX] = { "metric_regex", PARAM_STRING, "", 0, 1024, NULL,
		"POSIX extended regex matched in the standard output (its last 64 MiB, "
		"from a line's start; a NUL byte ends a line); its first group is a "
		"number stored as metric_name" },
	[CMD_PARAM_NAME] = { "metric_name", PARAM_STRING, "value", 0, 64, NULL,
		"the name of metric_regex's number" },
	[CMD_PARAM_UNIT] = { "metric_unit", PARAM_STRING, "", 0, 32, NULL,
		"its unit" },
	[CMD_PARAM_BETTER] = { "better", PARAM_CHOICE, "lower", 0, 0, better_choices,
		"which direction of it is better" },
};

static const struct metric_spec command_metrics[] = {
	[CMD_METRIC_SECONDS] = { "seconds", "s", BETTER_LOWER,
		"wall time from starting the program to reaping it" },
	[CMD_METRIC_USER] = { "user_seconds", "s", BETTER_LOWER,
		"the program's user CPU time" },
	[CMD_METRIC_SYSTEM] = { "system_seconds", "s", BETTER_LOWER,
		"the program's system CPU time" },
	[CMD_METRIC_PARSED] = { "value", "", BETTER_LOWER,
		"with metric_regex: the number it captures (metric_name, metric_unit, "
		"better)" },
};

/*
 * Keep at most the last this much of the standard output for metric_regex:
 * benchmarks print their summary at the end.
 */
#define OUTPUT_MAX (64 << 20)
#define LAST_LINE_MAX 200

static bool has_regex(const struct param_value *values)
{
	return *param_text(&values[CMD_PARAM_REGEX]) != '\0';
}

/*
 * Whether @name runs as a program: a path, or a name found in @path
 * (NULL: this process's $PATH, as the spawn searches it).
 */
static bool program_exists(const char *name, const char *path)
{
	return program_found(name, path ? path : getenv("PATH"));
}

/*
 * A program not found in the PATH an env:PATH knob gives it (a side of
 * ab's, run's or bisect-step's --knob), which is not this process's: said
 * with whose knob, and that PATH, so that it is not taken for one missing
 * here.
 */
static int not_in_search_path(const char *program, const char *path, const char *whose,
			      struct error *err)
{
	char *shown = utf8_escaped(path);

	error_set(err, EXIT_USAGE, "command: cannot run '%.64s' for %s: no such executable in "
		  "its env:PATH=%.128s (give the program's full path, or an env:PATH that holds "
		  "it)", program, whose, shown);
	free(shown);
	return -1;
}

static int check_program(const struct param_value *values, struct error *err)
{
	const char *cmd = param_text(&values[CMD_PARAM_CMD]), *whose;
	const char *path = workload_search_path_of(&whose);
	char **words;
	int rc = 0;

	if (values[CMD_PARAM_SHELL].num)
		return program_exists("/bin/sh", NULL) ? 0 :
			error_set(err, EXIT_ENV, "command: /bin/sh is missing (install a "
				  "shell, or run cmd without shell=1)");
	if (!(words = words_split(cmd, "command: bad cmd", err)))
		return -1;
	if (!words[0])
		rc = error_set(err, EXIT_USAGE, "command: cmd '%.64s' names no program "
			       "(give -p cmd='PROGRAM ARGS')", cmd);
	else if (workload_checking_for_job() && words[0][0] != '/' && strchr(words[0], '/'))
		rc = error_set(err, EXIT_USAGE, "command: '%.64s' is relative to this directory, "
			       "and a worker runs the job in its own (give the program's "
			       "absolute path, one the workers' machines have)", words[0]);
	else if (workload_checking_for_job() || program_exists(words[0], path))
		rc = 0;	/* a job's program is the worker's machine's: its run checks it there */
	else if (path && !strchr(words[0], '/'))
		rc = not_in_search_path(words[0], path, whose, err);
	else if (!(workload_checking_before_build() && strchr(words[0], '/')))
		rc = error_set(err, EXIT_USAGE, "command: cannot run '%.64s': no such "
			       "executable %s (give a path, or install it)", words[0],
			       strchr(words[0], '/') ? "file" : "in $PATH");
	words_free(words);
	return rc;
}

static int check_regex(const struct param_value *values, struct error *err)
{
	const char *pattern = param_text(&values[CMD_PARAM_REGEX]);
	char why[128];
	regex_t re;
	int rc;

	if (!*pattern)
		return 0;
	rc = regcomp(&re, pattern, REG_EXTENDED | REG_NEWLINE);
	if (rc) {
		regerror(rc, &re, why, sizeof(why));
		return error_set(err, EXIT_USAGE, "bad value for parameter 'metric_regex': "
				 "%s (give a POSIX extended regular expression)", why);
	}
	rc = re.re_nsub < 1;
	regfree(&re);
	return rc ? error_set(err, EXIT_USAGE, "bad value for parameter 'metric_regex': "
			      "it has no group (put the number in parentheses, e.g. "
			      "'([0-9.]+) usecs/op')") : 0;
}

/*
 * metric_name beside the command's own metrics; the runner checks it
 * against the metrics every benchmark stores (runner/metric_names.h).
 */
static int check_metric_name(const struct param_value *values, struct error *err)
{
	const char *name = param_text(&values[CMD_PARAM_NAME]);

	if (!*name || strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			     "0123456789_.-") != strlen(name))
		return error_set(err, EXIT_USAGE, "bad value for parameter 'metric_name': "
				 "'%.64s' (give letters, digits, '_', '.' or '-')", name);
	for (size_t i = 0; i < CMD_METRIC_PARSED; i++)
		if (!strcmp(name, command_metrics[i].name))
			return error_set(err, EXIT_USAGE, "bad value for parameter "
					 "'metric_name': '%s' is already a metric of every "
					 "command benchmark (give another name)", name);
	return 0;
}

static int command_check(const struct param_value *values, struct workload_needs *needs,
			 struct error *err)
{
	if (!*param_text(&values[CMD_PARAM_CMD]))
		return error_set(err, EXIT_USAGE, "command: parameter 'cmd' is required "
				 "(give -p cmd='PROGRAM ARGS')");
	if (check_program(values, err) || check_regex(values, err) ||
	    check_metric_name(values, err))
		return -1;
	needs->tasks = 2;	/* ours and the program's first; it may start more */
	needs->fds = 8;
	return 0;
}

static size_t command_describe_metrics(const struct param_value *values,
				       struct metric_spec *metrics)
{
	struct metric_spec parsed = metrics[CMD_METRIC_PARSED];

	if (!has_regex(values))
		return CMD_METRIC_PARSED;
	parsed.name = param_text(&values[CMD_PARAM_NAME]);
	parsed.unit = param_text(&values[CMD_PARAM_UNIT]);
	parsed.better = values[CMD_PARAM_BETTER].num ? BETTER_HIGHER : BETTER_LOWER;
	memmove(&metrics[1], &metrics[0], CMD_METRIC_PARSED * sizeof(*metrics));
	metrics[0] = parsed;
	return CMD_METRIC_PARSED + 1;
}

/* What the program left: its output, and its standard error's last line. */
struct captured {
	/*
	 * The output, up to OUTPUT_MAX; past that a ring of its last
	 * OUTPUT_MAX bytes, the oldest at out_next (made text again by
	 * output_text(), after the program is timed: no copy while it runs).
	 */
	struct strbuf out;
	bool out_cut;		/* longer than OUTPUT_MAX: its start is gone */
	size_t out_next;
	char err_tail[4096];	/* the end of standard error */
	size_t err_len;
};

static void keep_err_tail(struct captured *c, const char *buf, size_t n)
{
	size_t cap = sizeof(c->err_tail) - 1;

	if (n >= cap) {
		memcpy(c->err_tail, buf + n - cap, cap);
		c->err_len = cap;
	} else {
		if (c->err_len + n > cap) {
			size_t drop = c->err_len + n - cap;

			memmove(c->err_tail, c->err_tail + drop, c->err_len - drop);
			c->err_len -= drop;
		}
		memcpy(c->err_tail + c->err_len, buf, n);
		c->err_len += n;
	}
	c->err_tail[c->err_len] = '\0';
}

/* The last non-empty line of standard error, or "". */
static void last_err_line(struct captured *c, char *line, size_t len)
{
	char *end = c->err_tail + c->err_len, *start;

	while (end > c->err_tail && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	*end = '\0';
	start = strrchr(c->err_tail, '\n');
	start = start ? start + 1 : c->err_tail;
	snprintf(line, len, "%.*s", LAST_LINE_MAX, start);
}

static void keep_out(struct captured *c, const char *buf, size_t n)
{
	if (!c->out_cut) {
		size_t room = OUTPUT_MAX - c->out.len, now = n < room ? n : room;

		strbuf_add(&c->out, buf, now);
		buf += now;
		n -= now;
		if (!n)
			return;
		c->out_cut = true;
		c->out_next = 0;
	}
	if (n > OUTPUT_MAX) {
		buf += n - OUTPUT_MAX;
		n = OUTPUT_MAX;
	}
	while (n) {
		size_t part = OUTPUT_MAX - c->out_next;

		part = n < part ? n : part;
		memcpy(c->out.buf + c->out_next, buf, part);
		c->out_next = (c->out_next + part) % OUTPUT_MAX;
		buf += part;
		n -= part;
	}
}

static void reverse(char *start, char *end)
{
	while (start < --end) {
		char t = *start;

		*start++ = *end;
		*end = t;
	}
}

/*
 * The output as text for regexec(): a cut one in order, from its first
 * whole line; each NUL byte a '\n', so that a NUL ends a line as a newline
 * does, and the text after it is searched (regexec() would stop at it).
 */
static void output_text(struct captured *c)
{
	char *text = c->out.buf, *nul, *end;

	if (c->out_cut) {
		char *nl;

		/* rotate the ring: three reversals, in place */
		reverse(text, text + c->out_next);
		reverse(text + c->out_next, text + c->out.len);
		reverse(text, text + c->out.len);
		nl = memchr(text, '\n', c->out.len);
		if (nl) {
			c->out.len -= (size_t)(nl + 1 - text);
			memmove(text, nl + 1, c->out.len);
		}
		text[c->out.len] = '\0';
	}
	end = text + c->out.len;
	for (char *p = text; p < end && (nul = memchr(p, '\0', (size_t)(end - p))); p = nul + 1)
		*nul = '\n';
}

/* Keep @n bytes just read from pipe @i (0: standard output, 1: standard error). */
static void keep(struct captured *c, int i, const char *buf, size_t n)
{
	if (i == 1)
		keep_err_tail(c, buf, n);
	else
		keep_out(c, buf, n);
}

/* One read of a ready pipe; at its end (or an error) it is closed and its fd -1. */
static void read_ready(struct pollfd *pfd, int i, struct captured *c)
{
	char buf[65536];
	ssize_t n;

	n = read(pfd->fd, buf, sizeof(buf));
	if (n < 0 && errno == EINTR)
		return;
	if (n <= 0) {
		close(pfd->fd);
		pfd->fd = -1;
		return;
	}
	keep(c, i, buf, (size_t)n);
}

/*
 * Read both pipes, @pfd[0] and [1], while the program runs, until it exits:
 * its pidfd @pfd[2] readable, or with none (no pidfd_open()) until the
 * pipes close. A process it
 * started in the background may hold them open long after; it is not the
 * program, and the runner kills what the iteration leaves in its group.
 */
static void read_while_running(struct pollfd pfd[3], struct captured *c)
{
	int nfds = pfd[2].fd >= 0 ? 3 : 2;

	while (pfd[0].fd >= 0 || pfd[1].fd >= 0 || pfd[2].fd >= 0) {
		if (poll(pfd, (nfds_t)nfds, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int i = 0; i < 2; i++)
			if (pfd[i].fd >= 0 && pfd[i].revents)
				read_ready(&pfd[i], i, c);
		if (nfds == 3 && pfd[2].revents)
			return;		/* exited: reap it now, read the rest after */
	}
}

/*
 * After reaping: what the pipes hold already, and no more (a background
 * process may write on; reading until it stops could last for ever).
 */
static void read_left(struct pollfd pfd[2], struct captured *c)
{
	char buf[65536];

	for (int i = 0; i < 2; i++) {
		int left = 0;

		if (pfd[i].fd < 0)
			continue;
		while (!ioctl(pfd[i].fd, FIONREAD, &left) && left > 0) {
			ssize_t n = read(pfd[i].fd, buf, (size_t)left < sizeof(buf) ?
					 (size_t)left : sizeof(buf));

			if (n <= 0)
				break;
			keep(c, i, buf, (size_t)n);
			left -= (int)n;
			if (left <= 0)
				break;
		}
		close(pfd[i].fd);
	}
}

static int open_pidfd(pid_t pid)
{
	return (int)syscall(SYS_pidfd_open, pid, 0);
}

static int spawn_program(const struct param_value *values, int out_fd, int err_fd,
			 pid_t *pid, struct error *err)
{
	const char *cmd = param_text(&values[CMD_PARAM_CMD]);
	char *sh_argv[] = { (char *)"sh", (char *)"-c", (char *)cmd, NULL };
	posix_spawn_file_actions_t fa;
	char **words = NULL;
	int rc;

	if (!values[CMD_PARAM_SHELL].num && !(words = words_split(cmd, "command", err)))
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, out_fd, STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, err_fd, STDERR_FILENO);
	rc = words ? posix_spawnp(pid, words[0], &fa, NULL, words, environ) :
		     posix_spawn(pid, "/bin/sh", &fa, NULL, sh_argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc)
		error_set(err, EXIT_ENV, "cannot run '%.64s': %s", words ? words[0] : "/bin/sh",
			  strerror(rc));
	words_free(words);
	return rc ? -1 : 0;
}

static double timeval_seconds(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

/* The number metric_regex captures in the output; 1 with @err when none. */
static int parse_metric(const struct param_value *values, struct captured *c,
			double *value, const char *err_line, struct error *err)
{
	regmatch_t m[2];
	regex_t re;
	char number[64], cut[80] = "", *end;
	int rc;

	if (regcomp(&re, param_text(&values[CMD_PARAM_REGEX]), REG_EXTENDED | REG_NEWLINE))
		return error_set(err, EXIT_INTERNAL, "command: metric_regex no longer compiles");
	output_text(c);
	rc = regexec(&re, strbuf_str(&c->out), 2, m, 0);
	regfree(&re);
	if (rc || m[1].rm_so < 0) {
		if (c->out_cut)
			snprintf(cut, sizeof(cut), " (it was longer than %d MiB: only its end "
				 "was searched)", OUTPUT_MAX >> 20);
		error_set(err, EXIT_ENV, "metric_regex matched nothing in the output%s%s%s",
			  cut, *err_line ? ": " : "", err_line);
		return 1;
	}
	snprintf(number, sizeof(number), "%.*s", (int)(m[1].rm_eo - m[1].rm_so),
		 strbuf_str(&c->out) + m[1].rm_so);
	errno = 0;
	*value = strtod(number, &end);
	if (end == number || *end) {
		error_set(err, EXIT_ENV, "metric_regex captured '%s', not a number", number);
		return 1;
	}
	/* inf, nan, 1e999 or 1e-999: no sample, and the runner would store none */
	if (!isfinite(*value) || (errno == ERANGE && *value == 0)) {
		error_set(err, EXIT_ENV, "metric_regex captured '%s', not a finite number "
			  "within a double's range", number);
		return 1;
	}
	return 0;
}

static int finish(const struct param_value *values, int status, struct captured *c,
		  double *metrics, struct error *err)
{
	char line[LAST_LINE_MAX + 1];

	last_err_line(c, line, sizeof(line));
	if (WIFSIGNALED(status)) {
		error_set(err, EXIT_ENV, "the program was killed by signal %d (%s)%s%s",
			  WTERMSIG(status), strsignal(WTERMSIG(status)), *line ? ": " : "", line);
		return 1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		error_set(err, EXIT_ENV, "the program exited with status %d%s%s",
			  WIFEXITED(status) ? WEXITSTATUS(status) : -1, *line ? ": " : "", line);
		return 1;
	}
	if (has_regex(values))
		return parse_metric(values, c, &metrics[0], line, err);
	return 0;
}

static int command_run(const struct param_value *values, double *metrics,
		       struct error *err)
{
	struct pollfd pfd[3] = { { .events = POLLIN }, { .events = POLLIN },
				 { .events = POLLIN } };
	struct captured c = { .out = STRBUF_INIT };
	int out_pipe[2], err_pipe[2], status = 0, rc;
	struct rusage ru;
	double start, end, *times;
	pid_t pid;

	if (pipe2(out_pipe, O_CLOEXEC))
		return error_set(err, EXIT_ENV, "command: cannot create a pipe: %s",
				 strerror(errno));
	if (pipe2(err_pipe, O_CLOEXEC)) {
		close(out_pipe[0]);
		close(out_pipe[1]);
		return error_set(err, EXIT_ENV, "command: cannot create a pipe: %s",
				 strerror(errno));
	}
	start = time_now();
	rc = spawn_program(values, out_pipe[1], err_pipe[1], &pid, err);
	close(out_pipe[1]);
	close(err_pipe[1]);
	if (rc) {
		close(out_pipe[0]);
		close(err_pipe[0]);
		return 1;	/* it did not start: this iteration failed */
	}
	/* -1 where the kernel has no pidfd_open(): then until the pipes close */
	pfd[2].fd = open_pidfd(pid);
	pfd[0].fd = out_pipe[0];
	pfd[1].fd = err_pipe[0];
	read_while_running(pfd, &c);
	while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
		;
	end = time_now();
	if (pfd[2].fd >= 0)
		close(pfd[2].fd);
	read_left(pfd, &c);
	times = metrics + has_regex(values);	/* after the parsed number, if any */
	times[CMD_METRIC_SECONDS] = end - start;
	times[CMD_METRIC_USER] = timeval_seconds(&ru.ru_utime);
	times[CMD_METRIC_SYSTEM] = timeval_seconds(&ru.ru_stime);
	rc = finish(values, status, &c, metrics, err);
	strbuf_release(&c.out);
	return rc;
}

/* Without a shell, cmd runs as its words: '/bin/true ' and "'/bin/true'" are /bin/true. */
static bool command_same_params(const struct param_value *a, const struct param_value *b)
{
	struct error err = { 0 };
	char **wa, **wb;
	bool same;
	size_t i;

	for (i = 0; i < NR_CMD_PARAMS; i++)
		if (i != CMD_PARAM_CMD && strcmp(param_text(&a[i]), param_text(&b[i])))
			return false;
	if (a[CMD_PARAM_SHELL].num)
		return !strcmp(param_text(&a[CMD_PARAM_CMD]), param_text(&b[CMD_PARAM_CMD]));
	wa = words_split(param_text(&a[CMD_PARAM_CMD]), "command", &err);
	wb = words_split(param_text(&b[CMD_PARAM_CMD]), "command", &err);
	same = wa && wb;
	for (i = 0; same && (wa[i] || wb[i]); i++)
		same = wa[i] && wb[i] && !strcmp(wa[i], wb[i]);
	words_free(wa);
	words_free(wb);
	return same;
}

const struct workload workload_command = {
	.name = "command",
	.summary = "time an external program (-p cmd='PROG ARGS'), optionally a number it prints",
	.params = command_params,
	.nr_params = NR_CMD_PARAMS,
	.metrics = command_metrics,
	.nr_metrics = sizeof(command_metrics) / sizeof(command_metrics[0]),
	.metric_name_param = "metric_name",
	.check = command_check,
	.describe_metrics = command_describe_metrics,
	.same_params = command_same_params,
	.run = command_run,
};
