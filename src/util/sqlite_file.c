// SPDX-License-Identifier: GPL-2.0
/*
 * SQLite's files told apart by their headers (see sqlite_file.h), as
 * SQLite's file-format document describes them: a database begins with
 * "SQLite format 3" and keeps its application id at byte 68 (big-endian);
 * a write-ahead log begins with 0x377f0682 or 0x377f0683 (big-endian); the
 * shared-memory index holds two copies of its header, each beginning with
 * its version 3007000 in the machine's byte order, at bytes 0 and 48; a
 * rollback journal begins with d9 d5 05 f9 20 a1 63 d7.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/path.h"
#include "util/sqlite_file.h"

#define HEAD_SIZE 72	/* through the application id */
#define WAL_MAGIC 0x377f0682u
#define SHM_VERSION 3007000u

static uint32_t big_endian32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint32_t native32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

enum sqlite_file sqlite_file_kind(int fd)
{
	static const char database[16] = "SQLite format 3";
	static const unsigned char journal[8] = { 0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7 };
	unsigned char head[HEAD_SIZE];
	ssize_t got = pread(fd, head, sizeof(head), 0);

	if (got >= (ssize_t)sizeof(database) && !memcmp(head, database, sizeof(database))) {
		if (got >= 72 && big_endian32(head + 68) == SQLITE_FILE_SCHEDPERF_ID)
			return SQLITE_FILE_STORE;
		return SQLITE_FILE_DATABASE;
	}
	if (got >= 4 && (big_endian32(head) | 1) == (WAL_MAGIC | 1))
		return SQLITE_FILE_WAL;
	if (got >= 52 && native32(head) == SHM_VERSION && native32(head + 48) == SHM_VERSION)
		return SQLITE_FILE_SHM;
	if (got >= (ssize_t)sizeof(journal) && !memcmp(head, journal, sizeof(journal)))
		return SQLITE_FILE_JOURNAL;
	return SQLITE_FILE_NONE;
}

enum sqlite_file sqlite_file_kind_at(const char *path)
{
	/* non-blocking: a FIFO without a writer must not stop the check */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	enum sqlite_file kind;

	if (fd < 0)
		return SQLITE_FILE_NONE;
	kind = sqlite_file_kind(fd);
	close(fd);
	return kind;
}

const char *sqlite_file_describe(enum sqlite_file kind)
{
	switch (kind) {
	case SQLITE_FILE_STORE:
		return "a schedperf store";
	case SQLITE_FILE_DATABASE:
		return "an SQLite database";
	case SQLITE_FILE_WAL:
		return "an SQLite write-ahead log (a store's -wal file)";
	case SQLITE_FILE_SHM:
		return "an SQLite shared-memory index (a store's -shm file)";
	case SQLITE_FILE_JOURNAL:
		return "an SQLite rollback journal (a store's -journal file)";
	default:
		return "not an SQLite file";
	}
}

const char *const sqlite_file_suffixes[3] = { "-wal", "-shm", "-journal" };

static bool is_database(enum sqlite_file kind)
{
	return kind == SQLITE_FILE_STORE || kind == SQLITE_FILE_DATABASE;
}

static const char *beside_one(const char *name, char *base, size_t size,
			      enum sqlite_file *kind)
{
	size_t len = strlen(name);

	for (size_t i = 0; i < sizeof(sqlite_file_suffixes) / sizeof(*sqlite_file_suffixes); i++) {
		const char *suffix = sqlite_file_suffixes[i];
		size_t n = strlen(suffix);

		if (len <= n || len - n >= size || strcmp(name + len - n, suffix))
			continue;
		snprintf(base, size, "%.*s", (int)(len - n), name);
		*kind = sqlite_file_kind_at(base);
		if (is_database(*kind))
			return suffix;
	}
	return NULL;
}

const char *sqlite_file_beside_database(const char *path, char *base, size_t size,
					enum sqlite_file *kind)
{
	char end[PATH_MAX];
	const char *suffix = beside_one(path, base, size, kind);

	if (suffix || path_link_end(path, end, sizeof(end)) || !strcmp(end, path))
		return suffix;
	return beside_one(end, base, size, kind);
}

static const char *database_beside_one(const char *name, char *beside, size_t size,
				       enum sqlite_file *kind)
{
	for (size_t i = 0; i < sizeof(sqlite_file_suffixes) / sizeof(*sqlite_file_suffixes); i++) {
		if ((size_t)snprintf(beside, size, "%s%s", name, sqlite_file_suffixes[i]) >= size)
			continue;
		*kind = sqlite_file_kind_at(beside);
		if (is_database(*kind))
			return sqlite_file_suffixes[i];
	}
	return NULL;
}

const char *sqlite_file_database_beside(const char *path, char *beside, size_t size,
					enum sqlite_file *kind)
{
	char end[PATH_MAX];
	const char *suffix = database_beside_one(path, beside, size, kind);

	if (suffix || path_link_end(path, end, sizeof(end)) || !strcmp(end, path))
		return suffix;
	return database_beside_one(end, beside, size, kind);
}
