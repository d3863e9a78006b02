// SPDX-License-Identifier: GPL-2.0
/*
 * An import's input read whole within limits, before it is parsed
 * (read_input.h): at most 4 GiB, at most 1 MiB of blanks first, and a
 * first byte that can start an export, so that /dev/zero, yes(1), an
 * endless document or a file with a byte-order mark is refused at once,
 * saying why, instead of filling memory or reaching jansson.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "interchange/read_input.h"
#include "util/input_file.h"
#include "util/strbuf.h"

/* Blanks JSON allows before its first value (RFC 8259's whitespace). */
static bool json_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * A byte of a message, as people read it: "'y' (0x79)", "a NUL byte (0x00)";
 * a NUL is said as such, since jansson's "near end of file" hides it.
 */
static const char *byte_name(unsigned char c, char *buf, size_t len)
{
	if (!c)
		snprintf(buf, len, "a NUL byte (0x00)");
	else if (c >= 0x21 && c < 0x7f && c != '\'')
		snprintf(buf, len, "'%c' (0x%02x)", c, c);
	else
		snprintf(buf, len, "byte 0x%02x", c);
	return buf;
}

/*
 * The most import reads of one input. It holds the text whole, and the
 * parsed tree takes several times as much again: 4 GiB is two million
 * iterations of an export (about 2 KB each, with their extra metrics),
 * beyond what a machine imports at once, and an endless producer is
 * refused there instead of when memory runs out. The tests lower it with
 * SCHEDPERF_TEST_IMPORT_LIMIT (HACKING.md), to see it without 4 GiB.
 */
#define IMPORT_LIMIT ((size_t)4 << 30)
/* Blanks before the first value: an export has none, a shell's echo a few. */
#define LEADING_BLANKS_LIMIT ((size_t)1 << 20)

static size_t import_limit(void)
{
	const char *env = getenv("SCHEDPERF_TEST_IMPORT_LIMIT");
	char *end;
	unsigned long long v;

	if (!env || !*env)
		return IMPORT_LIMIT;
	errno = 0;
	v = strtoull(env, &end, 10);
	return errno || *end || !v || v > IMPORT_LIMIT ? IMPORT_LIMIT : (size_t)v;
}

/* @bytes as people read a limit: "4 GiB", "1 MiB", "4000 bytes". */
static const char *size_name(size_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "bytes", "KiB", "MiB", "GiB" };
	size_t i = 0;

	while (i + 1 < sizeof(units) / sizeof(units[0]) && bytes && !(bytes % 1024)) {
		bytes /= 1024;
		i++;
	}
	snprintf(buf, len, "%zu %s", bytes, units[i]);
	return buf;
}

/* Why read_whole() read no further, when it was not the system. */
struct refusal {
	enum { READ_ALL, BAD_START, BLANKS, TOO_LARGE } what;
	size_t at;			/* the offset of a bad start */
	unsigned char bytes[3];		/* the bad start, and up to 2 bytes after it */
	size_t nr_bytes;
};

/* The bad start at @chunk[@i] of @n bytes, and what follows it, for a BOM's 3 bytes. */
static void bad_start(struct refusal *r, size_t at, const char *chunk, size_t i, size_t n,
		      FILE *f)
{
	r->what = BAD_START;
	r->at = at;
	for (; i < n && r->nr_bytes < sizeof(r->bytes); i++)
		r->bytes[r->nr_bytes++] = (unsigned char)chunk[i];
	/* only a BOM's first byte waits for more: a refusal is at once */
	if (r->bytes[0] == 0xef && r->nr_bytes < sizeof(r->bytes))
		r->nr_bytes += fread(r->bytes + r->nr_bytes, 1,
				     sizeof(r->bytes) - r->nr_bytes, f);
}

/*
 * The whole of @f in memory: jansson parses a buffer faster than a stream,
 * which it reads a character at a time. NULL with *@why on a read error,
 * or with @refused: at the first non-blank byte when it cannot start an
 * export ('{', or '[' that jansson's own error names), after 1 MiB of
 * blanks first, or beyond import_limit(). It reads no further, so that
 * standard input from /dev/zero, yes(1) or an endless document is refused
 * instead of filling memory.
 */
static char *read_whole(FILE *f, size_t *len, const char **why, struct refusal *refused)
{
	struct strbuf sb = STRBUF_INIT;
	size_t limit = import_limit();
	char chunk[1 << 16];
	bool started = false;
	struct stat st;
	size_t n;

	if (!fstat(fileno(f), &st) && S_ISREG(st.st_mode) && (uintmax_t)st.st_size > limit) {
		refused->what = TOO_LARGE;
		return NULL;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f))) {
		for (size_t i = 0; !started && i < n; i++) {
			if (json_blank(chunk[i]))
				continue;
			started = true;
			if (chunk[i] != '{' && chunk[i] != '[') {
				bad_start(refused, sb.len + i, chunk, i, n, f);
				strbuf_release(&sb);
				return NULL;
			}
		}
		if (sb.len + n > (started ? limit : LEADING_BLANKS_LIMIT)) {
			refused->what = started ? TOO_LARGE : BLANKS;
			strbuf_release(&sb);
			return NULL;
		}
		strbuf_add(&sb, chunk, n);
	}
	if (ferror(f)) {
		*why = strerror(errno ? errno : EIO);
		strbuf_release(&sb);
		return NULL;
	}
	*len = sb.len;
	return strbuf_detach(&sb);
}

static bool utf8_bom(const struct refusal *r)
{
	return r->nr_bytes == 3 && !memcmp(r->bytes, "\xef\xbb\xbf", 3);
}

/*
 * What read_whole() refused, into @err: a byte-order mark is named as
 * such, since "byte 0xef" tells no one what to remove. JSON forbids one
 * (RFC 8259, 8.1) and jansson refuses it: refused here too, as every
 * reader of the file would, with how to remove it.
 */
static int refused_error(const char *name, const struct refusal *r, struct error *err)
{
	char size[32], byte[32];

	if (r->what == TOO_LARGE)
		return error_set(err, EXIT_USAGE, "cannot import '%s': it is larger than %s, "
				 "the most import reads of one input (export its runs a few to a "
				 "file, 'schedperf export RUN... -o FILE', and import each file; "
				 "nothing was imported)", name,
				 size_name(import_limit(), size, sizeof(size)));
	if (r->what == BLANKS)
		return error_set(err, EXIT_USAGE, "cannot import '%s': not a schedperf-results/1 "
				 "export: more than %s of blanks before its first value (give "
				 "the output of 'schedperf export', or a file in its format; "
				 "nothing was imported)", name,
				 size_name(LEADING_BLANKS_LIMIT, size, sizeof(size)));
	if (utf8_bom(r))
		return error_set(err, EXIT_USAGE, "cannot import '%s': it starts with a UTF-8 "
				 "byte-order mark (0xef 0xbb 0xbf) at offset %zu, which JSON does "
				 "not allow (remove it, as sed '1s/^\\xef\\xbb\\xbf//' does; "
				 "nothing was imported)", name, r->at);
	return error_set(err, EXIT_USAGE, "cannot import '%s': not a schedperf-results/1 "
			 "export: it starts with %s at offset %zu, where a JSON object "
			 "starts with '{' (give the output of 'schedperf export', or a "
			 "file in its format; nothing was imported)", name,
			 byte_name(r->bytes[0], byte, sizeof(byte)), r->at);
}

char *read_input(const char *path, const char *name, size_t *len, struct error *err)
{
	bool from_stdin = !strcmp(path, "-");
	struct refusal refused = { .what = READ_ALL };
	const char *why = NULL;
	char *text = NULL;
	FILE *f;

	f = from_stdin ? stdin : input_file_open(path, &why);
	if (f)
		text = read_whole(f, len, &why, &refused);
	if (f && !from_stdin)
		fclose(f);
	if (!text && refused.what != READ_ALL)
		refused_error(name, &refused, err);
	else if (!text)
		error_set(err, EXIT_USAGE, "cannot import '%s': %s (give a "
			  "schedperf-results/1 JSON file, or - for standard input)", name, why);
	return text;
}
