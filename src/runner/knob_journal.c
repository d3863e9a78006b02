// SPDX-License-Identifier: GPL-2.0
/*
 * The machine's knob journal and lock (knob_journal.h): where they are,
 * the flock, and the JSON file replaced whole by write-then-rename.
 *
 * No fsync: a SIGKILL leaves what was written in the page cache, and the
 * rename is atomic, so every reader sees the old journal or the new;
 * what a power cut would lose (on /run, everything) the reboot loses
 * from the settings too.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "runner/iteration.h"
#include "runner/knob_cgroup.h"
#include "runner/knob_journal.h"
#include "runner/knobs.h"
#include "util/array.h"
#include "util/json_write.h"
#include "util/process.h"
#include "util/strbuf.h"
#include "util/utf8.h"
#include "util/xalloc.h"

#define JOURNAL_SCHEMA "schedperf-knobs/1"

static const char *path_in_rundir(char *buf, size_t len, const char *file)
{
	const char *dir = getenv(KNOB_TEST_RUNDIR_VARIABLE);

	snprintf(buf, len, "%s/%s", dir && *dir ? dir : "/run", file);
	return buf;
}

const char *knob_lock_path(void)
{
	static char path[PATH_MAX];

	return path_in_rundir(path, sizeof(path), "schedperf-knobs.lock");
}

const char *worker_lock_path(void)
{
	static char path[PATH_MAX];

	return path_in_rundir(path, sizeof(path), "schedperf-worker.lock");
}

const char *knob_journal_path(void)
{
	static char path[PATH_MAX];

	return path_in_rundir(path, sizeof(path), "schedperf-knobs.journal");
}

const char *knob_journal_new_path(void)
{
	static char path[PATH_MAX];

	return path_in_rundir(path, sizeof(path), "schedperf-knobs.journal.new");
}

void knob_files_each(void (*fn)(const char *path, const char *what))
{
	static const struct {
		const char *file, *what;
	} files[] = {
		{ "schedperf-knobs.journal", "this machine's knob journal" },
		{ "schedperf-knobs.journal.new", "this machine's knob journal, as it is written" },
		{ "schedperf-knobs.lock", "the lock of this machine's settings" },
		{ "schedperf-worker.lock", "the lock of this machine's worker" },
	};
	static char in_use[ARRAY_SIZE(files)][PATH_MAX], in_run[ARRAY_SIZE(files)][PATH_MAX];
	const char *dir = getenv(KNOB_TEST_RUNDIR_VARIABLE);

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		fn(path_in_rundir(in_use[i], PATH_MAX, files[i].file), files[i].what);
		if (!dir || !*dir)
			continue;
		snprintf(in_run[i], PATH_MAX, "/run/%s", files[i].file);
		fn(in_run[i], files[i].what);
	}
}

/* Readable by all (a command that measures only reads), whatever the umask. */
static void readable_by_all(int fd)
{
	struct stat sb;

	if (!fstat(fd, &sb) && sb.st_uid == geteuid() && (sb.st_mode & 0777) != 0644)
		(void)fchmod(fd, 0644);
}

/* How to fix a failed open of the journal or its lock: root is no fix for root. */
static const char *open_hint(int e)
{
	if (geteuid() && (e == EACCES || e == EPERM))
		return "run as root";
	if (e == EROFS)
		return "its file system is read-only: mount it read-write";
	if (e == ENOENT)
		return "its directory does not exist: create it";
	return "check the directory and its permissions";
}

static int open_lock(struct knob_lock *l, bool exclusive, struct error *err)
{
	const char *path = l->path();
	int create_errno = 0;

	if (l->fd >= 0)
		return 1;
	l->fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (l->fd >= 0) {
		readable_by_all(l->fd);
		return 1;
	}
	/* flock needs no write access: a user who may not make it may lock it. */
	if (errno == EACCES || errno == EROFS) {
		create_errno = errno;
		l->fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	if (l->fd >= 0)
		return 1;
	if (!exclusive && errno == ENOENT)
		return 0;
	/* None to open read-only: what kept it from being made is what to fix. */
	if (create_errno && errno == ENOENT)
		errno = create_errno;
	return error_set(err, EXIT_ENV, "cannot open the lock %s: %s (%s)", path,
			 strerror(errno), open_hint(errno));
}

int knob_lock_take(struct knob_lock *l, bool exclusive, bool wait, struct error *err)
{
	int op = exclusive ? LOCK_EX : LOCK_SH;
	int rc = open_lock(l, exclusive, err);

	if (rc <= 0)
		return rc < 0 ? -1 : 1;
	if (l->held == op)
		return 1;
	/*
	 * Polled, not a blocking flock(): a Ctrl-C that lands before the
	 * call (while the caller says it waits) would not interrupt it, and
	 * the command would wait until the lock is free, for ever if its
	 * holder never ends. A signal cuts the sleep short.
	 */
	while (flock(l->fd, op | LOCK_NB)) {
		static const struct timespec poll = { 0, 20 * 1000 * 1000 };

		if (errno != EWOULDBLOCK && errno != EINTR)
			return error_set(err, EXIT_ENV, "cannot lock %s: %s (its file system "
					 "must support flock(2))", l->path(), strerror(errno));
		/* A conversion that must wait has let go of the lock held. */
		l->held = 0;
		if (!wait)
			return 0;
		if (iteration_interrupted())
			return error_set(err, 128 + iteration_interrupted(), "interrupted while "
					 "waiting for the lock on this machine's settings (%s): "
					 "nothing was changed", knob_lock_path());
		nanosleep(&poll, NULL);
	}
	l->held = op;
	return 1;
}

void knob_lock_release(struct knob_lock *l)
{
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
	l->held = 0;
}

long worker_lock_holder(int fd)
{
	char buf[32], *end;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	long pid;

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	errno = 0;
	pid = strtol(buf, &end, 10);
	if (errno || end == buf || *end != '\n' || pid <= 0 || pid > INT_MAX)
		return 0;
	return kill((pid_t)pid, 0) && errno == ESRCH ? 0 : pid;
}

int worker_lock_held(long *pid)
{
	/*
	 * Not blocking: a FIFO in the lock's place would keep the open waiting
	 * for a writer, and the command with it, the knob lock held, forever.
	 */
	int fd = open(worker_lock_path(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	struct stat st;
	int held;

	*pid = 0;
	if (fd < 0)
		return 0;
	/* A worker's lock is a regular file (it makes one): anything else is none of its. */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return 0;
	}
	/*
	 * Taken shared for the moment of the look, then let go: a worker
	 * started in that moment finds it held shared only, no worker's, and
	 * waits the look out (worker_lock_looked_at()).
	 */
	held = flock(fd, LOCK_SH | LOCK_NB) && errno == EWOULDBLOCK;
	if (held)
		*pid = worker_lock_holder(fd);
	close(fd);
	return held;
}

bool worker_lock_looked_at(int fd)
{
	if (flock(fd, LOCK_SH | LOCK_NB))
		return false;
	flock(fd, LOCK_UN);
	return true;
}

static int unreadable(const char *why, struct error *err)
{
	return error_set(err, EXIT_ENV, "the knob journal %s cannot be read: %s (it holds the "
			 "originals of settings an ab changed on this machine: put them back by "
			 "hand, then remove it)", knob_journal_path(), why);
}

/* The value of hex digit @c, either case; -1 when it is none. */
static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * A text of an entry, KEY's, or else KEY_hex's bytes (put_text()):
 * malloc'd, NULL when it has neither, or hex that is not whole bytes or
 * holds a NUL.
 */
static char *text_of(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key)), *hex;
	char hex_key[32];
	size_t len;
	char *out;

	if (s)
		return xstrdup(s);
	snprintf(hex_key, sizeof(hex_key), "%s_hex", key);
	hex = json_string_value(json_object_get(o, hex_key));
	if (!hex || !*hex || (len = strlen(hex)) % 2)
		return NULL;
	out = xmalloc(len / 2 + 1);
	for (size_t i = 0; i < len / 2; i++) {
		int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);

		if (hi < 0 || lo < 0 || !(hi | lo)) {
			free(out);
			return NULL;
		}
		out[i] = (char)(hi << 4 | lo);
	}
	out[len / 2] = '\0';
	return out;
}

static int entry_from_json(json_t *o, struct knob_original *k)
{
	char *boot = text_of(o, "boot");
	json_t *pid = json_object_get(o, "pid"), *start = json_object_get(o, "start");

	k->kind = text_of(o, "kind");
	k->name = text_of(o, "name");
	k->value = text_of(o, "original");
	k->started = text_of(o, "started");
	k->command = text_of(o, "command");	/* absent before it was recorded */
	if (!k->kind || !k->name || !k->value || !k->started || !boot ||
	    !json_is_integer(pid) || !json_is_integer(start)) {
		free(boot);
		return -1;
	}
	snprintf(k->writer.boot, sizeof(k->writer.boot), "%s", boot);
	free(boot);
	k->writer.pid = json_integer_value(pid);
	k->writer.start = (uint64_t)json_integer_value(start);
	return 0;
}

/* jansson's allocator outside load_journal(), and whether it failed within. */
static json_malloc_t outer_malloc;
static bool load_out_of_memory;

static void *noting_malloc(size_t size)
{
	void *p = outer_malloc(size);

	if (!p)
		load_out_of_memory = true;
	return p;
}

/*
 * The journal parsed, as json_load_file() does, and in @no_memory whether
 * an allocation failed: jansson's lexer leaves a character out of a
 * string when its buffer cannot grow, and goes on, so that an original
 * would be read wrong in silence.
 */
static json_t *load_journal(json_error_t *jerr, bool *no_memory)
{
	json_free_t outer_free;
	json_t *doc;

	json_get_alloc_funcs(&outer_malloc, &outer_free);
	load_out_of_memory = false;
	json_set_alloc_funcs(noting_malloc, outer_free);
	doc = json_load_file(knob_journal_path(), 0, jerr);
	json_set_alloc_funcs(outer_malloc, outer_free);
	*no_memory = load_out_of_memory ||
		     (!doc && json_error_code(jerr) == json_error_out_of_memory);
	return doc;
}

int knob_journal_read(struct knob_original **out, size_t *n, struct error *err)
{
	json_error_t jerr;
	json_t *doc, *list;
	bool no_memory;
	int rc = 0;

	*out = NULL;
	*n = 0;
	doc = load_journal(&jerr, &no_memory);
	if (no_memory) {
		json_decref(doc);
		return error_set(err, EXIT_ENV, "cannot read the knob journal %s: out of memory "
				 "(free some memory, then try again)", knob_journal_path());
	}
	if (!doc) {
		if (access(knob_journal_path(), F_OK) && errno == ENOENT)
			return 0;
		return unreadable(jerr.text, err);
	}
	list = json_object_get(doc, "settings");
	if (strcmp(json_string_value(json_object_get(doc, "schema")) ?: "", JOURNAL_SCHEMA) ||
	    !json_is_array(list)) {
		json_decref(doc);
		return unreadable("not a " JOURNAL_SCHEMA " document", err);
	}
	*out = xcalloc(json_array_size(list) + 1, sizeof(**out));
	for (size_t i = 0; i < json_array_size(list) && !rc; i++) {
		rc = entry_from_json(json_array_get(list, i), &(*out)[i]);
		*n = i + 1;
	}
	json_decref(doc);
	if (!rc)
		return 0;
	store_journal_release(*out, *n);
	*out = NULL;
	*n = 0;
	return unreadable("a setting without its kind, name, original or writer", err);
}

/*
 * KEY and @s. JSON holds only UTF-8, and an original is whatever bytes
 * its file held (a domain name, a file under /sys): one that is not UTF-8
 * is KEY_hex, each byte as two hex digits, so that it is put back byte
 * for byte. A reader that knows only KEY finds none and refuses the
 * journal, where a text made UTF-8 would have it write a wrong value back.
 */
static void put_text(struct json_writer *w, const char *key, const char *s)
{
	struct strbuf hex = STRBUF_INIT;
	char hex_key[32];

	if (utf8_valid(s)) {
		jw_key(w, key);
		jw_string(w, s);
		return;
	}
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		strbuf_addf(&hex, "%02x", *p);
	snprintf(hex_key, sizeof(hex_key), "%s_hex", key);
	jw_key(w, hex_key);
	jw_string(w, hex.buf);
	strbuf_release(&hex);
}

/*
 * The journal to @out, as it is made: no tree of jansson's, whose
 * json_pack() and json_string() give NULL for a text not UTF-8 or when
 * memory runs out, and whose json_dumps() can leave a key out when it
 * does, each an entry lost in silence. 0, or -1 when a write failed.
 */
static int write_journal(FILE *out, const struct knob_original *k, size_t n)
{
	struct json_writer *w = json_writer_new(out, 1);

	jw_object(w);
	jw_key(w, "schema");
	jw_string(w, JOURNAL_SCHEMA);
	jw_key(w, "settings");
	jw_array(w);
	for (size_t i = 0; i < n; i++) {
		jw_object(w);
		put_text(w, "kind", k[i].kind);
		put_text(w, "name", k[i].name);
		put_text(w, "original", k[i].value);
		put_text(w, "boot", k[i].writer.boot);
		jw_key(w, "pid");
		jw_integer(w, (long long)k[i].writer.pid);
		jw_key(w, "start");
		jw_integer(w, (long long)k[i].writer.start);
		put_text(w, "started", k[i].started);
		if (k[i].command)
			put_text(w, "command", k[i].command);
		jw_close(w);
	}
	jw_close(w);
	jw_close(w);
	if (json_writer_end(w))
		return -1;
	return fputc('\n', out) == EOF ? -1 : 0;
}

int knob_journal_write(const struct knob_original *k, size_t n, struct error *err)
{
	const char *path = knob_journal_path(), *tmp = knob_journal_new_path();
	FILE *out;
	int fd, rc;

	if (!n) {
		if (unlink(path) && errno != ENOENT)
			return error_set(err, EXIT_ENV, "cannot empty the knob journal %s: %s "
					 "(check the permissions of its directory)", path,
					 strerror(errno));
		return 0;
	}
	/* One writer at a time (the exclusive lock): a leftover of a killed one is overwritten. */
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return error_set(err, EXIT_ENV, "cannot write the knob journal %s: %s (%s)", tmp,
				 strerror(errno), open_hint(errno));
	readable_by_all(fd);
	out = fdopen(fd, "w");
	if (!out)
		close(fd);
	rc = !out || write_journal(out, k, n);
	if ((out && fclose(out)) || rc || rename(tmp, path)) {
		int saved = errno;

		unlink(tmp);
		return error_set(err, EXIT_ENV, "cannot write the knob journal %s: %s (free "
				 "space on its file system)", path, strerror(saved));
	}
	return 0;
}

static void free_strings(struct knob_original *k)
{
	free(k->kind);
	free(k->name);
	free(k->value);
	free(k->started);
	free(k->command);
}

int knob_journal_add(const struct knob_original *k, size_t n, struct error *err)
{
	struct knob_original *all;
	size_t nr;
	int rc;

	if (knob_journal_read(&all, &nr, err))
		return -1;
	all = xreallocarray(all, nr + n + 1, sizeof(*all));
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < nr; j++)
			if (!strcmp(all[j].kind, k[i].kind) && !strcmp(all[j].name, k[i].name)) {
				rc = error_set(err, EXIT_ENV, "%s %s is journalled already by process "
					       "%lld (put it back first: schedperf ab --restore)",
					       k[i].kind, k[i].name, (long long)all[j].writer.pid);
				store_journal_release(all, nr);
				return rc;
			}
		all[nr + i] = k[i];
	}
	rc = knob_journal_write(all, nr + n, err);
	/* The entries added are the caller's: free only those read. */
	memset(all + nr, 0, n * sizeof(*all));
	store_journal_release(all, nr);
	return rc;
}

bool knob_journal_same(const struct knob_original *x, const struct knob_original *y)
{
	return !strcmp(x->kind, y->kind) && !strcmp(x->name, y->name) &&
	       x->writer.pid == y->writer.pid && x->writer.start == y->writer.start &&
	       !strcmp(x->writer.boot, y->writer.boot);
}

int knob_journal_forget(const char *kind, const char *name, const struct process_id *writer,
			struct error *err)
{
	struct knob_original *all, key = { .kind = (char *)kind, .name = (char *)name,
					    .writer = *writer };
	size_t nr, kept = 0;
	int rc;

	if (knob_journal_read(&all, &nr, err))
		return -1;
	for (size_t i = 0; i < nr; i++) {
		if (knob_journal_same(&all[i], &key)) {
			free_strings(&all[i]);
			continue;
		}
		all[kept++] = all[i];
	}
	rc = kept == nr ? 0 : knob_journal_write(all, kept, err);
	store_journal_release(all, kept);
	return rc;
}

bool knob_journal_of_old_boot(const struct knob_original *k)
{
	struct process_id self;

	return k->writer.boot[0] && !process_id_of(getpid(), &self) && self.boot[0] &&
	       strcmp(self.boot, k->writer.boot);
}

void knob_journal_mark(struct result_batch *batch)
{
	struct knob_original *k = NULL;
	struct error err = { 0 };
	size_t n = 0;

	/* An unreadable journal refused the command before it measured. */
	if (knob_journal_read(&k, &n, &err))
		return;
	for (size_t i = 0; i < n; i++) {
		struct strbuf key = STRBUF_INIT, value = STRBUF_INIT;
		char *now = NULL;

		/*
		 * A scratch cgroup changes only the tasks put in it, and their
		 * batch says so (knob.cgroup.*): its path would be noise here.
		 */
		if (knob_journal_of_old_boot(&k[i]) || !strcmp(k[i].kind, knob_scratch_cgroup.kind) ||
		    knob_read(k[i].kind, k[i].name, false, &now, &err) || !strcmp(now, k[i].value)) {
			free(now);
			continue;
		}
		strbuf_addf(&key, "knob.%s.%s", k[i].kind, k[i].name);
		strbuf_addf(&value, "%s (original %s)", now, k[i].value);
		result_batch_add_env(batch, key.buf, value.buf);
		strbuf_release(&key);
		strbuf_release(&value);
		free(now);
	}
	result_batch_sort_env(batch);
	store_journal_release(k, n);
}
