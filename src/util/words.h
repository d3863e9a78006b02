/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_WORDS_H
#define SCHEDPERF_UTIL_WORDS_H

#include "util/error.h"

/*
 * Split a command line into words the way a POSIX shell quotes, without a
 * shell and without expanding anything: blanks separate words; '...' is
 * literal; "..." is literal but for \" \\ \$ \` and backslash-newline; a
 * backslash outside quotes takes the next character as it is. So user
 * text never reaches a shell unless the user asks for one.
 *
 * Returns a NULL-terminated array of words (free it with words_free), or
 * NULL with @err (EXIT_USAGE) for an unterminated quote or a trailing
 * backslash, naming @what. An empty or blank line gives no words.
 */
char **words_split(const char *line, const char *what, struct error *err);
void words_free(char **words);

/*
 * @word as a POSIX shell reads it back as one word (and words_split()
 * too), malloc'd: as it is when it holds only characters no shell takes
 * for anything else, else in '...', each ' in it as '\''. For a command
 * a message tells the user to run: pasted, it gets what was given.
 */
char *words_quote(const char *word);

#endif
