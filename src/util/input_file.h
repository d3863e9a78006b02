/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_INPUT_FILE_H
#define SCHEDPERF_UTIL_INPUT_FILE_H

#include <stdio.h>

/*
 * Open @path for reading if it is a regular file. Anything else is refused
 * without waiting: opening a FIFO that has no writer blocks forever, and a
 * device (/dev/zero) or a directory is no input file. Returns the stream,
 * or NULL with *@why saying what is wrong ("a FIFO, not a regular file",
 * or the system's reason).
 */
FILE *input_file_open(const char *path, const char **why);

#endif
