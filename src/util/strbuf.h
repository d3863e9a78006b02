/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_STRBUF_H
#define SCHEDPERF_UTIL_STRBUF_H

#include <stddef.h>

/* A growable, always NUL-terminated string, as git's strbuf. */
struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};

#define STRBUF_INIT { NULL, 0, 0 }

void strbuf_add(struct strbuf *sb, const char *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, char c);
/*
 * @s on one line, as a value is shown to people: a newline spelt \n, a
 * tab \t, any other control character '?'.
 */
void strbuf_add_one_line(struct strbuf *sb, const char *s);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Hand the buffer to the caller (never NULL) and reset @sb. */
char *strbuf_detach(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
/* The contents, "" when nothing was added yet. */
const char *strbuf_str(const struct strbuf *sb);

#endif
