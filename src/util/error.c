// SPDX-License-Identifier: GPL-2.0
/*
 * Errors as values (struct error) and the one place that prints them, in
 * the one-line form doc/design.md describes, with unprintable characters
 * replaced so that a hostile name cannot break the line.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/utf8.h"

/*
 * A message longer than @size (a long file name quoted whole) keeps its
 * start and its end, where the why and the "(how to fix)" are, the middle
 * given up for "...", cut where characters begin.
 */
void error_shorten(char *buf, size_t size, const char *full)
{
	size_t len = strlen(full), head, tail;

	if (len < size) {
		memcpy(buf, full, len + 1);
		return;
	}
	tail = len - (size - 4) / 2;
	while (tail < len && ((unsigned char)full[tail] & 0xc0) == 0x80)
		tail++;
	head = size - 4 - (len - tail);
	while (head && ((unsigned char)full[head] & 0xc0) == 0x80)
		head--;
	snprintf(buf, size, "%.*s...%s", (int)head, full, full + tail);
}

/*
 * The message of @fmt, shown (utf8_message()) and shortened to @size
 * (error_shorten()) if need be. Messages quote what the user gave (a value,
 * a file name, a run name), which may hold a newline, a terminal escape, a
 * mark that shows the rest of the line backwards or bytes not UTF-8: an
 * error stays one line of text, and a value cut by "%.64s" inside a
 * character shows the bytes it kept as \xHH.
 */
static void __attribute__((format(printf, 3, 0)))
format_message(char *buf, size_t size, const char *fmt, va_list ap)
{
	char *full;
	va_list again;

	va_copy(again, ap);
	if (vasprintf(&full, fmt, again) < 0) {
		/* no memory: what fits, anything but printable ASCII as '?' */
		vsnprintf(buf, size, fmt, ap);
		for (char *c = buf; *c; c++)
			if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
				*c = '?';
	} else {
		char *shown = utf8_message(full);

		error_shorten(buf, size, shown);
		free(shown);
		free(full);
	}
	va_end(again);
}

int error_set(struct error *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	err->code = code;
	va_start(ap, fmt);
	format_message(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * Where @msg is cut to its first @len bytes or fewer: never inside a
 * character, nor inside a parenthesis within another one (the whole inner
 * one goes). *@open says whether the cut leaves a "(" open, the fix's.
 */
static size_t fix_cut(const char *msg, size_t len, bool *open)
{
	size_t unmatched, inner;

	do {
		size_t closed = 0;

		while (len && ((unsigned char)msg[len] & 0xc0) == 0x80)
			len--;
		unmatched = 0;
		inner = len;
		for (size_t i = len; i--;) {
			if (msg[i] == ')')
				closed++;
			else if (msg[i] == '(' && closed)
				closed--;
			else if (msg[i] == '(' && !unmatched++)
				inner = i;
		}
		if (unmatched > 1)
			len = inner;
	} while (unmatched > 1);
	*open = unmatched == 1;
	return len;
}

void error_add_fix(struct error *err, const char *fix)
{
	size_t len = strlen(err->msg), add = strlen(fix) + 3, room;
	bool in_fix = len && err->msg[len - 1] == ')';

	/* "; " or " (", @fix, ")" and a "..." for the cut message */
	if (add + 3 >= sizeof(err->msg))
		return;
	len -= in_fix;
	room = sizeof(err->msg) - add - 1;
	if (len > room) {
		len = fix_cut(err->msg, room - 3, &in_fix);
		memcpy(err->msg + len, "...", 3);
		len += 3;
	}
	snprintf(err->msg + len, sizeof(err->msg) - len, "%s%s)", in_fix ? "; " : " (", fix);
}

int error_report(const struct error *err)
{
	int code = err->code ? err->code : EXIT_INTERNAL;

	fprintf(stderr, "schedperf: %s\n",
		err->msg[0] ? err->msg : "internal error: no message (please report)");
	return code;
}

static int __attribute__((format(printf, 2, 0)))
error_vreport(int code, const char *fmt, va_list ap)
{
	char msg[1024];

	format_message(msg, sizeof(msg), fmt, ap);
	fprintf(stderr, "schedperf: %s\n", msg);
	return code;
}

/* Control characters in a message are shown as '?', as in error_set(). */
int die_code(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_vreport(code, fmt, ap);
	va_end(ap);
	return code;
}
