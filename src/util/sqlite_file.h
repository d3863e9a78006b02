/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_SQLITE_FILE_H
#define SCHEDPERF_UTIL_SQLITE_FILE_H

#include <stddef.h>
#include <stdint.h>

/*
 * What a file's first bytes say about SQLite, read without SQLite (which
 * would create -wal or -journal files beside it): the store opens only a
 * database, and an output file never replaces a database or one of the
 * files SQLite keeps beside it (its write-ahead log FILE-wal, its
 * shared-memory index FILE-shm, its rollback journal FILE-journal), since
 * that would lose a store's commits.
 */
enum sqlite_file {
	SQLITE_FILE_NONE,	/* none of these, or unreadable */
	SQLITE_FILE_STORE,	/* a database marked as a schedperf store */
	SQLITE_FILE_DATABASE,	/* any other SQLite database */
	SQLITE_FILE_WAL,
	SQLITE_FILE_SHM,
	SQLITE_FILE_JOURNAL,
};

/* PRAGMA application_id of a schedperf store: "SchP". */
#define SQLITE_FILE_SCHEDPERF_ID 0x53636850u

/* The kind of the file open as @fd, read from its start (pread). */
enum sqlite_file sqlite_file_kind(int fd);
/* The same for @path; SQLITE_FILE_NONE when it cannot be read. */
enum sqlite_file sqlite_file_kind_at(const char *path);
/* "a schedperf store", "an SQLite database", ... */
const char *sqlite_file_describe(enum sqlite_file kind);

/*
 * Where SQLite keeps a database's other files: the database's name (at the
 * end of its symbolic links, as SQLite finds it) and one of these.
 */
extern const char *const sqlite_file_suffixes[3];	/* "-wal", "-shm", "-journal" */

/*
 * Whether @path is, or would be, one of those files of a database: its
 * name, or its link end, is BASE-wal, BASE-shm or BASE-journal, and BASE
 * is an SQLite database (a store or another). Returns the suffix, @base
 * (of @size bytes) and *@kind BASE's; NULL when not.
 */
const char *sqlite_file_beside_database(const char *path, char *base, size_t size,
					enum sqlite_file *kind);

/*
 * The other way round: one of those files of the database @path (or of
 * its link end) that is an SQLite database itself, which opening @path
 * would take for its own -wal, -shm or -journal and overwrite or remove.
 * Returns the suffix, the file's name in @beside and *@kind; NULL when none.
 */
const char *sqlite_file_database_beside(const char *path, char *beside, size_t size,
					enum sqlite_file *kind);

#endif
