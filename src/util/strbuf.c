// SPDX-License-Identifier: GPL-2.0
/* A growing string buffer, as git's strbuf: append, format, detach. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/xalloc.h"

static void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t want = sb->len + extra + 1;

	if (want <= sb->alloc)
		return;
	if (want < 64)
		want = 64;
	if (want < sb->alloc * 2)
		want = sb->alloc * 2;
	sb->buf = xrealloc(sb->buf, want);
	sb->alloc = want;
}

void strbuf_add(struct strbuf *sb, const char *data, size_t len)
{
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_add_one_line(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == '\n')
			strbuf_addstr(sb, "\\n");
		else if (*s == '\t')
			strbuf_addstr(sb, "\\t");
		else
			strbuf_addch(sb, (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s);
	}
}

void strbuf_addch(struct strbuf *sb, char c)
{
	strbuf_add(sb, &c, 1);
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int need;

	va_start(ap, fmt);
	need = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (need < 0)
		return;
	strbuf_grow(sb, (size_t)need);
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)need + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)need;
}

char *strbuf_detach(struct strbuf *sb)
{
	char *s = sb->buf ? sb->buf : xstrdup("");

	sb->buf = NULL;
	sb->len = sb->alloc = 0;
	return s;
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
}

const char *strbuf_str(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}
