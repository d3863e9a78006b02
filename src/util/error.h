/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_ERROR_H
#define SCHEDPERF_UTIL_ERROR_H

/*
 * Errors travel up as values: a library fills a struct error and returns -1;
 * only the command that called it prints, once, in the one-line form of
 * doc/design.md: "schedperf: <what went wrong>: <why> (<how to fix>)".
 */

enum exit_code {
	EXIT_OK = 0,
	EXIT_FOUND = 1,		/* a check ran and found a regression or failure */
	EXIT_USAGE = 2,		/* bad command line or input */
	EXIT_ENV = 3,		/* missing resource or privilege */
	EXIT_INTERNAL = 4,
};

struct error {
	int code;		/* an enum exit_code, 0 when nothing failed */
	char msg[512];
};

/* Fill @err (may be NULL) with @code and a message; always returns -1. */
int error_set(struct error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Print @err to stderr with the "schedperf: " prefix; returns its exit code. */
/*
 * @full, to fit @size bytes of @buf: whole when it does, else its start,
 * "..." and its end (error_set() uses it).
 */
void error_shorten(char *buf, size_t size, const char *full);

/*
 * @fix (no parentheses of its own) added to the fix of @err's message, the
 * "(...)" it ends with ("; " and @fix in it), or as one when it has none;
 * the message cut to make room, never inside a character nor leaving a "("
 * unclosed. A @fix too long for a message is not added.
 */
void error_add_fix(struct error *err, const char *fix);

int error_report(const struct error *err);

/* Print a message with the prefix and return @code: for commands. */
int die_code(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
