// SPDX-License-Identifier: GPL-2.0
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "util/strbuf.h"
#include "util/utf8.h"
#include "util/xalloc.h"

/*
 * The length of the well-formed sequence at @s, or 0 if there is none;
 * its code point in *@code.
 */
static size_t sequence_length(const unsigned char *s, unsigned long *code)
{
	unsigned char c = s[0];
	size_t len, i;
	unsigned long cp;

	*code = c;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		cp = c & 0x07;
	} else {
		return 0;	/* a continuation byte, 0xc0/0xc1 or above 0xf4 */
	}
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	*code = cp;
	return len;
}

/* Whether @s is well-formed and each of its code points @fits. */
static bool every_code(const char *s, bool (*fits)(unsigned long code))
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		unsigned long code;
		size_t len = sequence_length(p, &code);

		if (!len || !fits(code))
			return false;
		p += len;
	}
	return true;
}

/*
 * White_Space of Unicode's PropList.txt that is not a control, the
 * zero-width spaces, and what shows as nothing: the soft hyphen, the
 * Hangul fillers, the braille blank.
 */
static bool shows_blank(unsigned long code)
{
	return code == 0x20 || code == 0xa0 || code == 0xad || code == 0x115f ||
	       code == 0x1160 || code == 0x1680 || (code >= 0x2000 && code <= 0x200d) ||
	       code == 0x2028 || code == 0x2029 || code == 0x202f || code == 0x205f ||
	       code == 0x2060 || code == 0x2800 || code == 0x3000 || code == 0x3164 ||
	       code == 0xfeff || code == 0xffa0;
}

static bool any_code(unsigned long code)
{
	return true;
}

bool utf8_valid(const char *s)
{
	return every_code(s, any_code);
}

/*
 * Characters that change how a terminal shows what follows them: the C1
 * controls (0x9b starts an escape sequence on some terminals) and the
 * bidirectional marks, embeddings, overrides and isolates, which reorder
 * the rest of the line.
 */
static bool reorders_or_controls(unsigned long cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x61c || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

static bool shows_plainly(unsigned long code)
{
	return code >= 0x20 && code != 0x7f && !reorders_or_controls(code);
}

size_t utf8_rune_offset(const char *s, size_t runes)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; *p && runes; runes--) {
		unsigned long code;
		size_t len = sequence_length(p, &code);

		p += len ? len : 1;
	}
	return (size_t)(p - (const unsigned char *)s);
}

size_t utf8_runes(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0;

	while (*p) {
		unsigned long code;
		size_t len = sequence_length(p, &code);

		p += len ? len : 1;
		n++;
	}
	return n;
}

/*
 * wcwidth() answers for the locale of the thread, and schedperf sets none:
 * it is asked in C.UTF-8's, made once. Where that locale is missing, each
 * code point is one column.
 */
size_t utf8_columns(const char *s)
{
	static locale_t utf8_locale;
	const unsigned char *p = (const unsigned char *)s;
	locale_t old = (locale_t)0;
	size_t w = 0;

	if (!utf8_locale)
		utf8_locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
	if (utf8_locale)
		old = uselocale(utf8_locale);
	while (*p) {
		unsigned long code;
		size_t len = sequence_length(p, &code);
		int cw = len && utf8_locale ? wcwidth((wchar_t)code) : 1;

		w += cw < 0 ? 1 : (size_t)cw;
		p += len ? len : 1;
	}
	if (utf8_locale)
		uselocale(old);
	return w;
}

bool utf8_blank(const char *s)
{
	return every_code(s, shows_blank);
}

bool utf8_blank_at_ends(const char *s)
{
	const unsigned char *first = (const unsigned char *)s, *last;
	unsigned long code;

	if (!*s)
		return true;
	if (sequence_length(first, &code) && shows_blank(code))
		return true;
	last = first + strlen(s) - 1;
	while (last > first && (*last & 0xc0) == 0x80)
		last--;
	return sequence_length(last, &code) && shows_blank(code);
}

bool utf8_plain(const char *s)
{
	return every_code(s, shows_plainly);
}

/*
 * The next piece of @*p as shown: itself, \xHH or \uHHHH (a blank other
 * than U+0020 too when @blanks); *p moves past it.
 */
static size_t next_shown(const unsigned char **p, char piece[8], bool blanks)
{
	unsigned long code;
	size_t seq = sequence_length(*p, &code);

	if (!seq || **p < 0x20 || **p == 0x7f) {
		snprintf(piece, 8, "\\x%02x", **p);
		(*p)++;
		return 4;
	}
	if (reorders_or_controls(code) || (blanks && code != 0x20 && shows_blank(code))) {
		snprintf(piece, 8, "\\u%04lx", code);
		*p += seq;
		return 6;
	}
	memcpy(piece, *p, seq);
	*p += seq;
	return seq;
}

void utf8_escape(char *buf, size_t len, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t at = 0;

	if (!len)
		return;
	while (*p) {
		char piece[8];
		size_t n = next_shown(&p, piece, false);

		if (at + n + 4 > len) {
			snprintf(buf + at, len - at, "...");
			return;
		}
		memcpy(buf + at, piece, n);
		at += n;
	}
	buf[at] = '\0';
}

/* @s as next_shown() shows it, its blanks escaped too when @blanks. */
static char *shown(const char *s, bool blanks)
{
	const unsigned char *p = (const unsigned char *)s;
	struct strbuf sb = STRBUF_INIT;

	while (*p) {
		char piece[8];
		size_t n = next_shown(&p, piece, blanks);

		strbuf_add(&sb, piece, n);
	}
	return strbuf_detach(&sb);
}

char *utf8_escaped(const char *s)
{
	return shown(s, false);
}

bool utf8_names(const char *given, const char *name)
{
	char *shown_name;
	bool same;

	if (!strcmp(given, name))
		return true;
	if (utf8_plain(name))
		return false;
	shown_name = utf8_escaped(name);
	same = !strcmp(given, shown_name);
	free(shown_name);
	return same;
}

char *utf8_blanks_escaped(const char *s)
{
	return shown(s, true);
}

char *utf8_message(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	struct strbuf sb = STRBUF_INIT;

	while (*p) {
		char piece[8];
		size_t n;

		if (*p < 0x20 || *p == 0x7f) {
			strbuf_addch(&sb, '?');
			p++;
			continue;
		}
		n = next_shown(&p, piece, false);
		strbuf_add(&sb, piece, n);
	}
	return strbuf_detach(&sb);
}

char *utf8_kept(const char *s)
{
	return utf8_valid(s) ? xstrdup(s) : utf8_escaped(s);
}

char *utf8_quoted(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	struct strbuf sb = STRBUF_INIT;

	while (*p) {
		unsigned long code;
		size_t len = sequence_length(p, &code);

		if (!len) {
			strbuf_addf(&sb, "\\x%02x", *p++);
			continue;
		}
		if (*p == '\\')
			strbuf_addch(&sb, '\\');
		strbuf_add(&sb, (const char *)p, len);
		p += len;
	}
	return strbuf_detach(&sb);
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

char *utf8_unquoted(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	while (*s) {
		int hi, lo;

		if (s[0] == '\\' && s[1] == '\\') {
			strbuf_addch(&sb, '\\');
			s += 2;
			continue;
		}
		if (s[0] == '\\' && s[1] == 'x' && (hi = hex_value(s[2])) >= 0 &&
		    (lo = hex_value(s[3])) >= 0 && (hi || lo)) {
			strbuf_addch(&sb, (char)(hi << 4 | lo));
			s += 4;
			continue;
		}
		strbuf_addch(&sb, *s++);
	}
	return strbuf_detach(&sb);
}
