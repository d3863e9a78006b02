// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/words.h"
#include "util/xalloc.h"

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

static void add_word(char ***words, size_t *n, struct strbuf *word)
{
	*words = xreallocarray(*words, *n + 2, sizeof(char *));
	(*words)[(*n)++] = strbuf_detach(word);
	(*words)[*n] = NULL;
}

/* Inside "...": a backslash escapes only these. */
static bool escapable_in_double(char c)
{
	return c == '"' || c == '\\' || c == '$' || c == '`' || c == '\n';
}

char **words_split(const char *line, const char *what, struct error *err)
{
	struct strbuf word = STRBUF_INIT;
	char **words = xcalloc(1, sizeof(char *));
	bool in_word = false;
	size_t n = 0;
	const char *p = line;

	while (*p) {
		if (blank(*p)) {
			if (in_word)
				add_word(&words, &n, &word);
			in_word = false;
			p++;
			continue;
		}
		in_word = true;
		if (*p == '\'') {
			const char *end = strchr(p + 1, '\'');

			if (!end)
				goto unterminated;
			strbuf_add(&word, p + 1, (size_t)(end - p - 1));
			p = end + 1;
		} else if (*p == '"') {
			for (p++; *p && *p != '"'; p++) {
				if (*p == '\\' && escapable_in_double(p[1])) {
					if (p[1] != '\n')
						strbuf_addch(&word, p[1]);
					p++;
				} else {
					strbuf_addch(&word, *p);
				}
			}
			if (!*p)
				goto unterminated;
			p++;
		} else if (*p == '\\') {
			if (!p[1])
				goto unterminated;
			if (p[1] != '\n')
				strbuf_addch(&word, p[1]);
			p += 2;
		} else {
			strbuf_addch(&word, *p++);
		}
	}
	if (in_word)
		add_word(&words, &n, &word);
	strbuf_release(&word);
	return words;

unterminated:
	strbuf_release(&word);
	words_free(words);
	error_set(err, EXIT_USAGE, "%s: an unterminated quote or a trailing backslash in "
		  "'%.64s' (close the quote, or quote the backslash)", what, line);
	return NULL;
}

void words_free(char **words)
{
	for (char **w = words; w && *w; w++)
		free(*w);
	free(words);
}

/* Characters a shell takes as themselves anywhere in a word. */
static bool plain(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("_-./:@%+,", c));
}

char *words_quote(const char *word)
{
	struct strbuf quoted = STRBUF_INIT;
	const char *p;

	for (p = word; plain(*p); p++)
		;
	if (*word && !*p)
		return xstrdup(word);
	strbuf_addch(&quoted, '\'');
	for (p = word; *p; p++) {
		if (*p == '\'')
			strbuf_addstr(&quoted, "'\\''");
		else
			strbuf_addch(&quoted, *p);
	}
	strbuf_addch(&quoted, '\'');
	return strbuf_detach(&quoted);
}
