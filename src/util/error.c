// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>

#include "util/error.h"

int error_set(struct error *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int error_report(const struct error *err)
{
	int code = err->code ? err->code : EXIT_INTERNAL;

	fprintf(stderr, "schedperf: %s\n",
		err->msg[0] ? err->msg : "internal error: no message (please report)");
	return code;
}

int die_code(int code, const char *fmt, ...)
{
	va_list ap;

	fputs("schedperf: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}
