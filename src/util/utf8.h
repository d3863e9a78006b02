/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_UTF8_H
#define SCHEDPERF_UTIL_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Whether @s is well-formed UTF-8 (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF). A name or value that is not cannot
 * be written to JSON (export would drop it, import refuse it), so every
 * such string is refused where it enters schedperf.
 */
bool utf8_valid(const char *s);

/*
 * Whether @s is well-formed UTF-8 that shows as it is on one line: no
 * control character (C0, DEL, C1) and no mark that reorders a line
 * (U+202E...), the characters utf8_escape() escapes. A name is refused
 * where it enters schedperf unless it is, as every command shows names.
 */
bool utf8_plain(const char *s);
/*
 * Whether well-formed @s is empty, or begins or ends with a character that
 * shows as nothing: a space of Unicode's White_Space (U+0020, U+00A0,
 * U+3000...) or a zero-width one (U+200B, U+FEFF...). A name that does
 * looks blank, or like another name in every list that shows it.
 */
bool utf8_blank_at_ends(const char *s);
/* Whether well-formed @s is empty or holds only such characters. */
bool utf8_blank(const char *s);


/*
 * The columns @s takes on a terminal, as wcwidth() counts them: two for a
 * wide CJK character or emoji, none for a combining mark or a zero-width
 * space, one for a byte not UTF-8: what pads a column of names.
 */
size_t utf8_columns(const char *s);
/*
 * The code points of @s, a byte not UTF-8 counted as one, as Go's
 * utf8.RuneCountInString(): how benchstat measures a cell, wide
 * characters and combining marks alike, which its style reproduces.
 */
size_t utf8_runes(const char *s);
/*
 * The bytes of @s before its code point @runes (counted as utf8_runes()
 * counts them), or all of it when it has fewer: where a cut by characters
 * falls, so that it never splits one.
 */
size_t utf8_rune_offset(const char *s, size_t runes);

/*
 * @s for a message: the bytes that are not part of well-formed UTF-8, and
 * control characters, as \xHH; C1 controls and the bidirectional controls
 * (U+202E, which shows the rest of a line backwards...) as \uHHHH; cut to
 * fit @len with "...".
 */
void utf8_escape(char *buf, size_t len, const char *s);
/*
 * utf8_escaped() with every blank but U+0020 (utf8_blank()) as \uHHHH too:
 * for a message that says a name is blank at an end, which a zero-width
 * or a no-break space would leave the reader unable to see.
 */
char *utf8_blanks_escaped(const char *s);
/*
 * The same, whole and malloc'd: for a name or value shown on a line of a
 * table, where a carriage return or an escape sequence would rewrite what
 * the terminal or the mail shows.
 */
char *utf8_escaped(const char *s);
/*
 * Whether @given, a name the user typed, names @name: it is @name, or
 * @name as utf8_escaped() shows it. A store another program wrote may hold
 * a control character, which every table shows escaped: what the user
 * copies from one names it, and no plain name is both.
 */
bool utf8_names(const char *given, const char *name);
/*
 * @s as an error shows it, malloc'd: a control character (a newline, an
 * escape) as '?', so that the message stays one line; a byte not part of
 * well-formed UTF-8 as \xHH, and a C1 control or a mark that reorders a line
 * as \uHHHH, as utf8_escape() shows them.
 */
char *utf8_message(const char *s);
/*
 * @s to keep, malloc'd: itself when it is well-formed UTF-8, else escaped
 * as above. What the machine or git says is not always UTF-8, and JSON
 * can hold nothing else; what is UTF-8 is kept as it is (a reader escapes
 * it where it shows it).
 */
char *utf8_kept(const char *s);

/*
 * @s as well-formed UTF-8 that utf8_unquoted() turns back into @s,
 * malloc'd: each byte not part of well-formed UTF-8 as \xHH and each '\'
 * as "\\", so that the text "\x41" is told from an escaped byte. For text
 * kept where only UTF-8 can be (a PostgreSQL column) and read back as the
 * bytes it was.
 */
char *utf8_quoted(const char *s);
/*
 * The bytes utf8_quoted() made @s of, malloc'd: "\\" is '\' and \xHH
 * (either case, not 00) its byte; a '\' followed by neither is kept.
 */
char *utf8_unquoted(const char *s);

#endif
