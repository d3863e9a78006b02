// SPDX-License-Identifier: GPL-2.0
/*
 * gnuplot as the HTML report's chart engine (gnuplot.h). The script is
 * written to a file of the charts' directory and gnuplot runs it through
 * run_command() (util/run_command.h), in a process group of its own and
 * with a deadline: a gnuplot that hangs (waiting for a display, a broken
 * build) is killed with its process group, and the report fails, rather
 * than hanging for ever; one that ends takes its group with it, as gnuplot
 * starts nothing meant to outlive it. The charts come back as files.
 *
 * The directory goes however the report ends: a terminating signal
 * (util/signals.h) removes it too, after ending the gnuplot that may
 * still write in it. That cleanup runs in a signal handler, so it reads
 * the directory with getdents64() rather than readdir(), which allocates.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/gnuplot.h"
#include "util/array.h"
#include "util/program.h"
#include "util/run_command.h"
#include "util/signals.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/*
 * Seconds gnuplot may take for a whole report. Its charts take it some
 * 20 ms each (a page of a hundred charts of 4000 samples: 2 s more than
 * the same page without charts), so only a gnuplot that hangs reaches it;
 * the tests shorten it with SCHEDPERF_TEST_GNUPLOT_TIMEOUT (HACKING.md),
 * whole seconds up to 60, to see one hang.
 */
#define GNUPLOT_TIMEOUT 60

static unsigned int gnuplot_timeout(void)
{
	const char *env = getenv("SCHEDPERF_TEST_GNUPLOT_TIMEOUT");
	char *end;
	unsigned long s;

	if (!env || !*env)
		return GNUPLOT_TIMEOUT;
	errno = 0;
	s = strtoul(env, &end, 10);
	return *end || errno || !s || s > GNUPLOT_TIMEOUT ? GNUPLOT_TIMEOUT : (unsigned int)s;
}

/* The directory a terminating signal removes; one report, one directory. */
static char pending_dir[PATH_MAX];

/* Unlink what one reading of directory @path finds; whether it found anything. */
static bool empty_dir(const char *path)
{
	char buf[4096] __attribute__((aligned(8)));
	bool found = false;
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return false;
	while ((n = getdents64(fd, buf, sizeof(buf))) > 0)
		for (ssize_t at = 0; at < n;) {
			struct dirent64 *e = (struct dirent64 *)(buf + at);

			if (e->d_name[0] != '.' && !unlinkat(fd, e->d_name, 0))
				found = true;
			at += e->d_reclen;
		}
	close(fd);
	return found;
}

/*
 * Remove directory @path and its files, with async-signal-safe calls only
 * (a signal's cleanup uses it too); read again while it is not empty, in
 * case unlinking moved entries past a reading.
 */
static void remove_dir(const char *path)
{
	while (empty_dir(path) && rmdir(path))
		;
	rmdir(path);
}

/* At a terminating signal: pending_dir, once gnuplot can write no more in it. */
static void remove_pending_dir(void)
{
	run_command_end_running();
	remove_dir(pending_dir);
}

bool gnuplot_available(void)
{
	return program_found("gnuplot", getenv("PATH"));
}

/*
 * gnuplot runs in the charts' directory and the script names its files
 * there (chart_name()): a directory's name is whatever TMPDIR holds (a
 * newline, which a gnuplot string cannot carry, quotes, '%'), a chart's
 * name only these few characters.
 */
#define SCRIPT_NAME "charts.gp"

static char *chart_name(size_t n)
{
	char *name;

	if (asprintf(&name, "chart-%zu.svg", n) < 0)
		abort();
	return name;
}

static char *chart_path(const struct gnuplot *gp, size_t n)
{
	char *path;

	if (asprintf(&path, "%s/chart-%zu.svg", gp->dir, n) < 0)
		abort();
	return path;
}

static char *script_path(const struct gnuplot *gp)
{
	char *path;

	if (asprintf(&path, "%s/" SCRIPT_NAME, gp->dir) < 0)
		abort();
	return path;
}

int gnuplot_start(struct gnuplot *gp, struct error *err)
{
	const char *tmp = getenv("TMPDIR");
	char *path;

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
	if (strlen(gp->dir) < sizeof(pending_dir)) {
		memcpy(pending_dir, gp->dir, strlen(gp->dir) + 1);
		signals_hold_cleanup(remove_pending_dir);
	}
	path = script_path(gp);
	gp->script = fopen(path, "we");
	free(path);
	if (!gp->script)
		return error_set(err, EXIT_ENV, "report: cannot write gnuplot's script in %s: "
				 "%s (set TMPDIR to a writable directory)", gp->dir,
				 strerror(errno));
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

/*
 * gnuplot reads the labels of `set xtics ("label" pos, ...)` as formats for
 * the tic's value (as `set format` is), so a '%' there is a conversion and
 * "50%" ends the script with "Bad format character"; "%%" shows one '%'.
 */
void gnuplot_tic_label(FILE *out, const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	for (; *s; s++) {
		if (*s == '%')
			strbuf_addch(&sb, '%');
		strbuf_addch(&sb, *s);
	}
	gnuplot_string(out, strbuf_str(&sb));
	strbuf_release(&sb);
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
	char *name = chart_name(gp->nr_charts);

	fprintf(gp->script, "reset\nset terminal svg size %d,%d fixed noenhanced "
		"font 'sans,12' background '#ffffff'\nset grid\nset key outside right top\n"
		"set offsets 0, 0, graph 0.05, graph 0.05\n", width, height);
	fputs("set output ", gp->script);
	gnuplot_string(gp->script, name);
	fputc('\n', gp->script);
	set_label(gp->script, "title", title);
	set_label(gp->script, "xlabel", xlabel);
	set_label(gp->script, "ylabel", ylabel);
	free(name);
	return gp->nr_charts++;
}

int gnuplot_finish(struct gnuplot *gp, struct error *err)
{
	char message[256], why[sizeof(err->msg)], how[64];
	char *argv[] = { (char *)"gnuplot", (char *)SCRIPT_NAME, NULL };
	struct child_command cmd = { .dir = gp->dir, .argv = argv, .log_fd = -1,
				     .timeout = gnuplot_timeout(), .end_group = true };
	int failed, status;

	fputs("unset output\nexit\n", gp->script);
	failed = fclose(gp->script);
	gp->script = NULL;
	if (failed) {
		error_set(err, EXIT_ENV, "report: cannot write gnuplot's script in %s: %s "
			  "(free some space, or set TMPDIR to another directory)", gp->dir,
			  strerror(errno));
		return -1;
	}
	status = run_command(&cmd, message, sizeof(message), err);
	if (status < 0) {
		snprintf(why, sizeof(why), "%s", err->msg);
		return error_set(err, err->code, "report: %s (see that the gnuplot on PATH "
				 "draws alone, or take it off PATH for a page without charts)",
				 why);
	}
	if (!status)
		return 0;
	/* the script is ours, but the gnuplot that reads it is the machine's */
	return error_set(err, EXIT_ENV, "report: gnuplot failed (%s): %s (see that the gnuplot "
			 "on PATH draws alone, or take it off PATH for a page without charts)",
			 run_command_status(status, how, sizeof(how)),
			 *message ? message : "no message");
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
	if (gp->script)
		fclose(gp->script);
	gp->script = NULL;
	if (!gp->dir)
		return;
	signals_drop_cleanup(remove_pending_dir);
	remove_dir(gp->dir);
	free(gp->dir);
	gp->dir = NULL;
}
