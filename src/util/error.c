// SPDX-License-Identifier: GPL-2.0
/*
 * Errors as values (struct error) and the one place that prints them, in
 * the one-line form doc/design.md describes, with unprintable characters
 * replaced so that a hostile name cannot break the line.
 */
#include <stdarg.h>
#include <stdio.h>

#include "util/error.h"

/*
 * Messages quote what the user gave (a value, a file name, a run name), and
 * that may hold a newline or a terminal escape: an error stays one line.
 */
static void make_printable(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

int error_set(struct error *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	make_printable(err->msg);
	return -1;
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

	vsnprintf(msg, sizeof(msg), fmt, ap);
	make_printable(msg);
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
