// SPDX-License-Identifier: GPL-2.0
/*
 * Whole-or-nothing output files (see output_file.h). The signal handler
 * may only use async-signal-safe calls, so its message and the name to
 * remove are prepared before any signal can need them.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/array.h"
#include "util/output_file.h"
#include "util/path.h"
#include "util/signals.h"
#include "util/sqlite_file.h"

/* The machine's files an output never replaces (output_file_protect()). */
static struct protected_file {
	const char *path, *what;
} protected_files[8];
static size_t nr_protected;

void output_file_protect(const char *path, const char *what)
{
	if (nr_protected < ARRAY_SIZE(protected_files))
		protected_files[nr_protected++] = (struct protected_file){ path, what };
}

static int refuse_protected(const char *path, struct error *err)
{
	for (size_t i = 0; i < nr_protected; i++)
		if (path_same_file(path, protected_files[i].path))
			return error_set(err, EXIT_USAGE, "cannot write '%s': it is %s (%s), which "
					 "an output never replaces (give -o another file name)",
					 path, protected_files[i].what, protected_files[i].path);
	return 0;
}

/* What a terminating signal must clean up: one output file at a time. */
static char pending_tmp[PATH_MAX];
static char pending_msg[PATH_MAX + 128];
static volatile sig_atomic_t pending_named;

static void on_terminating_signal(void)
{
	if (pending_named)
		unlink(pending_tmp);
	/* nothing is left to report a failed write with */
	(void)!write(STDERR_FILENO, pending_msg, strlen(pending_msg));
}

const char *output_file_hint(int errnum)
{
	switch (errnum) {
	case ENOSPC:
	case EDQUOT:
		return "free space on its file system";
	case EFBIG:
		return "the file-size limit is too small for it: raise 'ulimit -f'";
	default:
		return "check the path and its permissions";
	}
}

static int write_error(const char *path, int errnum, struct error *err)
{
	return error_set(err, EXIT_ENV, "cannot write '%s': %s (%s)", path,
			 strerror(errnum), output_file_hint(errnum));
}

/* An unnamed file in @path's directory, or -1 where there are none. */
static int open_unnamed(const char *path)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s", path);
	return open(dirname(dir), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
}

/* One of SQLite's files beside a database: FILE-wal, FILE-shm, FILE-journal. */
static int refuse_beside_database(const char *path, struct error *err)
{
	char base[PATH_MAX];
	enum sqlite_file kind;
	const char *suffix = sqlite_file_beside_database(path, base, sizeof(base), &kind);

	if (!suffix)
		return 0;
	return error_set(err, EXIT_USAGE, "cannot write '%s': it is the %s file of '%s', %s, "
			 "which an output never replaces (give -o another file name)", path,
			 suffix, base, sqlite_file_describe(kind));
}

/*
 * Whether @path can only name a directory: it ends in '/' ("f.html/",
 * which the temporary "f.html/.tmp.PID" beside it would fail on, with
 * ENOTDIR, only once everything was written), or its last part is "."
 * or "..".
 */
static bool names_directory(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *last = slash ? slash + 1 : path;

	return !*last || !strcmp(last, ".") || !strcmp(last, "..");
}

/*
 * Refuse what an output must never replace, and say whether the rest is
 * written in place. Checked before anything is written, through every
 * symbolic link and whatever the file's name: a store (or its hard link),
 * any SQLite database and the files SQLite keeps beside one, the
 * machine's files told to output_file_protect(), a directory,
 * a block device or socket, and a file without write permission.
 */
static int check_target(struct output_file *of, struct error *err)
{
	const char *path = of->path;
	enum sqlite_file kind;
	struct stat sb, lsb;

	if (names_directory(path))
		return error_set(err, EXIT_USAGE, "cannot write '%s': a name ending in '/', "
				 "'.' or '..' names a directory (give -o the name of a file)",
				 path);
	if (refuse_beside_database(path, err) || refuse_protected(path, err))
		return -1;
	if (lstat(path, &lsb))
		return 0;	/* a new file, or opening it says why not */
	if (S_ISLNK(lsb.st_mode))
		of->in_place = true;
	if (stat(path, &sb))
		return 0;	/* a dangling link: written in place, as a new file */
	if (S_ISDIR(sb.st_mode))
		return error_set(err, EXIT_USAGE, "cannot write '%s': it is a directory (give "
				 "-o the name of a file)", path);
	if (S_ISBLK(sb.st_mode) || S_ISSOCK(sb.st_mode))
		return error_set(err, EXIT_USAGE, "cannot write '%s': it is a %s (give -o the "
				 "name of a file)", path, S_ISBLK(sb.st_mode) ? "block device" :
				 "socket");
	if (!S_ISREG(sb.st_mode)) {
		of->in_place = true;	/* a FIFO, a character device */
		return 0;
	}
	if ((kind = sqlite_file_kind_at(path)) != SQLITE_FILE_NONE)
		return error_set(err, EXIT_USAGE, "cannot write '%s': it is %s, which an "
				 "output never replaces (give -o another file name)", path,
				 sqlite_file_describe(kind));
	/* root may write anything: a file its owner made read-only is still kept */
	if (faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) || !(sb.st_mode & 0222))
		return error_set(err, EXIT_ENV, "cannot write '%s': it is read-only (make it "
				 "writable, or give -o another file name)", path);
	of->replaces = true;
	of->mode = sb.st_mode & 07777;
	return 0;
}

int output_file_open(struct output_file *of, const char *path, const char *what,
		     struct error *err)
{
	int fd;

	*of = (struct output_file){ .path = path };
	if (!*path)
		return error_set(err, EXIT_USAGE, "%s: -o needs a file name (see 'schedperf "
				 "%s --help')", what, what);
	if (!strcmp(path, "-")) {
		of->f = stdout;
		of->to_stdout = true;
		return 0;
	}
	if (check_target(of, err))
		return -1;
	if (of->in_place) {
		of->f = fopen(path, "we");
		if (!of->f)
			return error_set(err, EXIT_ENV, "cannot write '%s': %s (check the path "
					 "and its permissions)", path, strerror(errno));
		return 0;
	}
	if ((size_t)snprintf(of->tmp, sizeof(of->tmp), "%s.tmp.%d", path, (int)getpid()) >=
	    sizeof(of->tmp))
		return error_set(err, EXIT_USAGE, "output path too long: '%.64s...' (give a "
				 "shorter one)", path);
	snprintf(pending_tmp, sizeof(pending_tmp), "%s", of->tmp);
	snprintf(pending_msg, sizeof(pending_msg), "schedperf: %s: interrupted by a signal: "
		 "'%s' was not written\n", what, path);
	signals_hold_cleanup(on_terminating_signal);

	fd = open_unnamed(path);
	if (fd < 0) {
		/* named from the start: the handler must know it first */
		pending_named = 1;
		of->named = true;
		fd = open(of->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			  of->replaces ? 0600 : 0666);
	}
	/*
	 * The file replaced keeps its mode (not the umask's 644), set before
	 * a byte is written: what a user closed to others stays closed.
	 */
	if (fd >= 0 && of->replaces && fchmod(fd, (mode_t)of->mode)) {
		int saved = errno;

		close(fd);
		fd = -1;
		errno = saved;
	}
	if (fd < 0 || !(of->f = fdopen(fd, "w"))) {
		int saved = errno;

		if (fd >= 0)
			close(fd);
		output_file_abort(of);
		return error_set(err, EXIT_ENV, "cannot write '%s': cannot create '%s' beside "
				 "it: %s (check the directory and its permissions)", path,
				 of->tmp, strerror(saved));
	}
	return 0;
}

/* Give the finished unnamed file its temporary name. */
static int link_unnamed(struct output_file *of)
{
	char proc[64];
	int fd = fileno(of->f);

	pending_named = 1;
	of->named = true;
	if (!linkat(fd, "", AT_FDCWD, of->tmp, AT_EMPTY_PATH))
		return 0;
	/* without CAP_DAC_READ_SEARCH, through /proc */
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (!linkat(AT_FDCWD, proc, AT_FDCWD, of->tmp, AT_SYMLINK_FOLLOW))
		return 0;
	pending_named = 0;
	of->named = false;
	return -1;
}

int output_file_commit(struct output_file *of, struct error *err)
{
	int saved;

	if (of->to_stdout) {
		of->f = NULL;
		if (fflush(stdout) || ferror(stdout))
			return write_error("standard output", errno ? errno : EIO, err);
		return 0;
	}
	if (of->in_place) {
		saved = fclose(of->f) ? errno : 0;
		of->f = NULL;
		return saved ? write_error(of->path, saved, err) : 0;
	}
	if (fflush(of->f) || ferror(of->f) || fsync(fileno(of->f))) {
		saved = errno ? errno : EIO;
		output_file_abort(of);
		return write_error(of->path, saved, err);
	}
	if (!of->named && link_unnamed(of)) {
		saved = errno;
		output_file_abort(of);
		return error_set(err, EXIT_ENV, "cannot write '%s': cannot name '%s': %s "
				 "(check the directory and its permissions)", of->path, of->tmp,
				 strerror(saved));
	}
	if (rename(of->tmp, of->path)) {
		saved = errno;
		output_file_abort(of);
		return error_set(err, EXIT_ENV, "cannot write '%s': %s (give -o the name of a "
				 "file, not a directory)", of->path, strerror(saved));
	}
	pending_named = 0;
	of->named = false;
	saved = fclose(of->f) ? errno : 0;
	of->f = NULL;
	signals_drop_cleanup(on_terminating_signal);
	return saved ? write_error(of->path, saved, err) : 0;
}

void output_file_abort(struct output_file *of)
{
	if (of->to_stdout) {
		of->f = NULL;
		return;
	}
	if (of->f)
		fclose(of->f);
	of->f = NULL;
	if (of->named)
		unlink(of->tmp);
	pending_named = 0;
	of->named = false;
	if (!of->in_place)
		signals_drop_cleanup(on_terminating_signal);
}
