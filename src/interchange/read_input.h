/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_INTERCHANGE_READ_INPUT_H
#define SCHEDPERF_INTERCHANGE_READ_INPUT_H

#include <stddef.h>

#include "util/error.h"

/*
 * Inside import (read.c): the bytes of input @path ("-": standard input)
 * read whole, before anything parses them, within the limits that keep an
 * endless or foreign input from filling memory (read_input.c). Returns
 * the text (free() it) of *@len bytes, or NULL with @err (EXIT_USAGE)
 * naming the input as @name: unreadable, larger than import reads, or
 * refused at its first bytes (not '{' or '[', a byte-order mark, more than
 * 1 MiB of blanks first).
 */
char *read_input(const char *path, const char *name, size_t *len, struct error *err);

#endif
