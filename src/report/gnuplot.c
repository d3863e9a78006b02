// SPDX-License-Identifier: GPL-2.0
/*
 * gnuplot as the HTML report's chart engine (gnuplot.h). Its standard
 * output and error go to /dev/null and a file: the charts come back as
 * files, so the pipe only ever carries the script one way and no chart can
 * wait on a full pipe.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report/gnuplot.h"
#include "util/array.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

bool gnuplot_available(void)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL;
	bool found = false;

	copy = xstrdup(path && *path ? path : "/usr/bin:/bin");
	for (dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
		char *file = NULL;

		if (asprintf(&file, "%s/gnuplot", *dir ? dir : ".") < 0)
			break;
		found = !access(file, X_OK);
		free(file);
	}
	free(copy);
	return found;
}

static char *chart_path(const struct gnuplot *gp, size_t n)
{
	char *path;

	if (asprintf(&path, "%s/chart-%zu.svg", gp->dir, n) < 0)
		abort();
	return path;
}

/* In the child: stdin from the pipe, stdout to /dev/null, stderr to a file. */
static void exec_gnuplot(int in, const char *dir)
{
	char *log;
	int null = open("/dev/null", O_WRONLY), err;

	if (asprintf(&log, "%s/gnuplot.log", dir) < 0)
		_exit(127);
	err = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (null < 0 || err < 0 || dup2(in, 0) < 0 || dup2(null, 1) < 0 || dup2(err, 2) < 0)
		_exit(127);
	execlp("gnuplot", "gnuplot", (char *)NULL);
	_exit(127);
}

int gnuplot_start(struct gnuplot *gp, struct error *err)
{
	const char *tmp = getenv("TMPDIR");
	int fds[2];

	memset(gp, 0, sizeof(*gp));
	if (asprintf(&gp->dir, "%s/schedperf-report.XXXXXX", tmp && *tmp ? tmp : "/tmp") < 0)
		abort();
	if (!mkdtemp(gp->dir)) {
		error_set(err, EXIT_ENV, "report: cannot make a directory for the charts "
			  "in %s: %s (set TMPDIR to a writable directory)",
			  tmp && *tmp ? tmp : "/tmp", strerror(errno));
		free(gp->dir);
		gp->dir = NULL;
		return -1;
	}
	if (pipe2(fds, O_CLOEXEC) || (gp->pid = fork()) < 0) {
		error_set(err, EXIT_ENV, "report: cannot start gnuplot: %s (free some "
			  "processes or memory)", strerror(errno));
		return -1;
	}
	if (!gp->pid)
		exec_gnuplot(fds[0], gp->dir);
	close(fds[0]);
	/*
	 * A gnuplot that quits early (a broken install, an error) must not kill
	 * us by SIGPIPE while the script is written: its exit status and message
	 * are the error gnuplot_finish() reports.
	 */
	gp->old_sigpipe = signal(SIGPIPE, SIG_IGN);
	gp->sigpipe_ignored = true;
	gp->script = fdopen(fds[1], "w");
	fputs("set terminal svg fixed noenhanced font 'sans,12' background '#ffffff'\n"
	      "set encoding utf8\nset grid\nset key outside right top\n", gp->script);
	return 0;
}

/*
 * gnuplot reads '' in a single-quoted string as a quote only when it stands
 * alone and not first ('''x' and 'a''''b' are errors), so each run of
 * quotes is a double-quoted string of its own, joined with '.'; the rest is
 * single-quoted, where gnuplot substitutes no `command` and no escape.
 */
void gnuplot_string(FILE *out, const char *s)
{
	bool first = true;

	if (!*s)
		fputs("''", out);
	while (*s) {
		size_t quotes = strspn(s, "'"), len = quotes ? quotes : strcspn(s, "'");

		fputs(first ? "" : ".", out);
		fputc(quotes ? '"' : '\'', out);
		for (size_t i = 0; i < len; i++) {
			unsigned char c = (unsigned char)s[i];

			fputc(c < 0x20 || c == 0x7f ? ' ' : c, out);
		}
		fputc(quotes ? '"' : '\'', out);
		s += len;
		first = false;
	}
}

static void set_label(FILE *out, const char *what, const char *text)
{
	fprintf(out, "set %s ", what);
	gnuplot_string(out, text ? text : "");
	fputc('\n', out);
}

size_t gnuplot_chart(struct gnuplot *gp, int width, int height, const char *title,
		     const char *xlabel, const char *ylabel)
{
	char *path = chart_path(gp, gp->nr_charts);

	fprintf(gp->script, "reset\nset terminal svg size %d,%d fixed noenhanced "
		"font 'sans,12' background '#ffffff'\nset grid\nset key outside right top\n"
		"set offsets 0, 0, graph 0.05, graph 0.05\n", width, height);
	fputs("set output ", gp->script);
	gnuplot_string(gp->script, path);
	fputc('\n', gp->script);
	set_label(gp->script, "title", title);
	set_label(gp->script, "xlabel", xlabel);
	set_label(gp->script, "ylabel", ylabel);
	free(path);
	return gp->nr_charts++;
}

/* The last line gnuplot wrote on its standard error, its error. */
static void last_message(const struct gnuplot *gp, char *buf, size_t len)
{
	char *path, line[256];
	FILE *f;

	snprintf(buf, len, "no message");
	if (asprintf(&path, "%s/gnuplot.log", gp->dir) < 0)
		return;
	f = fopen(path, "r");
	free(path);
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[strspn(line, " ^")])
			snprintf(buf, len, "%s", line);
	}
	if (f)
		fclose(f);
}

static void restore_sigpipe(struct gnuplot *gp)
{
	if (gp->sigpipe_ignored)
		signal(SIGPIPE, gp->old_sigpipe);
	gp->sigpipe_ignored = false;
}

int gnuplot_finish(struct gnuplot *gp, struct error *err)
{
	int status = 0, failed;
	char message[256];

	fputs("unset output\nexit\n", gp->script);
	failed = fclose(gp->script) != 0;
	gp->script = NULL;
	restore_sigpipe(gp);
	while (waitpid(gp->pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!failed && WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	last_message(gp, message, sizeof(message));
	return error_set(err, EXIT_INTERNAL, "report: gnuplot failed (exit status %d): "
			 "%s (report it with the names of the runs)",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1, message);
}

/*
 * Prefix every id gnuplot gives (gpDot, gpPt0, gnuplot_canvas, textbox, ...)
 * and every reference to one (href='#...', url(#...)) with "cN-", so that
 * the charts of one page never share an id. The next place of each mark is
 * kept and only the one consumed is searched again: one pass over the SVG,
 * which holds a <use href='#gpPt..'> per sample drawn.
 */
static char *unique_ids(const char *svg, size_t n)
{
	static const char *const marks[] = { "id='", "id=\"", "href='#", "href=\"#", "url(#" };
	const char *at[ARRAY_SIZE(marks)];
	struct strbuf sb = STRBUF_INIT;
	const char *p = svg;

	for (size_t i = 0; i < ARRAY_SIZE(marks); i++)
		at[i] = strstr(p, marks[i]);
	for (;;) {
		size_t first = ARRAY_SIZE(marks), len;

		for (size_t i = 0; i < ARRAY_SIZE(marks); i++)
			if (at[i] && (first == ARRAY_SIZE(marks) || at[i] < at[first]))
				first = i;
		if (first == ARRAY_SIZE(marks)) {
			strbuf_addstr(&sb, p);
			return strbuf_detach(&sb);
		}
		len = strlen(marks[first]);
		strbuf_add(&sb, p, (size_t)(at[first] - p) + len);
		strbuf_addf(&sb, "c%zu-", n);
		p = at[first] + len;
		at[first] = strstr(p, marks[first]);
	}
}

char *gnuplot_svg(const struct gnuplot *gp, size_t n)
{
	char *path = chart_path(gp, n), *text = NULL, *start, *svg;
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	size_t len;
	FILE *f = fopen(path, "r");

	free(path);
	if (!f)
		return NULL;
	while ((len = fread(buf, 1, sizeof(buf), f)))
		strbuf_add(&sb, buf, len);
	fclose(f);
	text = strbuf_detach(&sb);
	start = strstr(text, "<svg");
	svg = start ? unique_ids(start, n) : NULL;
	free(text);
	return svg;
}

void gnuplot_cleanup(struct gnuplot *gp)
{
	DIR *dir;
	struct dirent *e;

	if (gp->script)
		fclose(gp->script);
	gp->script = NULL;
	restore_sigpipe(gp);
	if (!gp->dir)
		return;
	if ((dir = opendir(gp->dir))) {
		while ((e = readdir(dir)))
			if (e->d_name[0] != '.')
				unlinkat(dirfd(dir), e->d_name, 0);
		closedir(dir);
	}
	rmdir(gp->dir);
	free(gp->dir);
	gp->dir = NULL;
}
