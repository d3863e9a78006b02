/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_OUTPUT_FILE_H
#define SCHEDPERF_UTIL_OUTPUT_FILE_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "util/error.h"

/*
 * A file written whole or not at all, leaving nothing behind however the
 * writing ends. It is written as an unnamed file (O_TMPFILE) in the
 * target's directory, which the kernel frees if the process dies, even by
 * SIGKILL; only when complete is it named FILE.tmp.PID and at once renamed
 * over FILE. Where the file system has no unnamed files, the temporary is
 * named from the start. While a temporary has a name, every terminating
 * signal (util/signals.h) removes it, says in one line that FILE was not
 * written, and then ends the process as the signal would.
 *
 * Before anything is written, output_file_open() refuses (exit 2) an
 * empty name, a directory or a name only a directory can have ("f.html/",
 * ".", ".."), a block device, a socket, and every file an
 * output must never replace, whatever its name or link: an SQLite
 * database (a store: the one in use, through any name, hard or symbolic
 * link, or another) and the -wal, -shm and -journal files SQLite keeps
 * beside one (util/sqlite_file.h); a file without write permission is
 * kept, even for root (exit 3).
 *
 * The machine's own files that an output must never replace either (the
 * knob journal and its lock, whose names runner/knob_journal.h knows) are
 * told to it with output_file_protect() before any output is opened, and
 * refused the same way (exit 2), through any name or link.
 *
 * A FIFO, a character device (/dev/stdout) or a symbolic link is written
 * in place: renaming over it would replace the node or the link itself.
 * A regular file replaced keeps its permission bits: the temporary has
 * them from its creation on (an export of 600 holds the machine id).
 *
 * "-" is standard output, as import's "-" is standard input: written as it
 * comes, its errors found when it is flushed (a file named "-" is "./-").
 *
 * Write errors name their cause and fix: ENOSPC a full file system, EFBIG
 * a file-size limit (ulimit -f), both exit 3.
 */
struct output_file {
	FILE *f;
	const char *path;
	char tmp[PATH_MAX];	/* FILE.tmp.PID */
	bool named;		/* the temporary has its name */
	bool in_place;
	bool to_stdout;		/* "-" */
	bool replaces;		/* a regular file is there: its mode is kept */
	unsigned int mode;	/* its permission bits */
};

/*
 * Refuse @path as an output: @what says what it is ("this machine's knob
 * journal"). Both strings must last as long as the process.
 */
void output_file_protect(const char *path, const char *what);

/* @what names the command in the interruption message ("export"). */
int output_file_open(struct output_file *of, const char *path, const char *what,
		     struct error *err);
/* Name the finished file @path; on failure nothing is left. */
int output_file_commit(struct output_file *of, struct error *err);
/* Drop what was written. */
void output_file_abort(struct output_file *of);

/* The hint for a failed write: what to do about @errnum. */
const char *output_file_hint(int errnum);

#endif
