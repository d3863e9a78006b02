// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs:PATH=VALUE, any writable file under /sys: a cpufreq governor,
 * transparent huge pages, a block queue's scheduler. A file has one name
 * however it is spelled: the path is taken apart, "." and empty parts
 * dropped, ".." refused, and where it exists its symbolic links resolved
 * (cpu0/cpufreq is policy0's), so that two spellings are never two
 * settings; whatever the spelling, it must name a file under /sys. A file
 * that shows its choices with the current one in brackets ("always
 * madvise [never]") has that one as its value, the word that writes it
 * back. governor:NAME is every CPU's scaling_governor (knobs.c expands it).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runner/knobs.h"
#include "util/strbuf.h"
#include "util/sysfile.h"
#include "util/xalloc.h"

#define SYS "/sys/"

/* @given as /sys/PARTS, its parts between single slashes; -1 with why. */
static int sysfs_normalise(const char *given, char **out, struct error *err)
{
	struct strbuf path = STRBUF_INIT;
	const char *p = given;
	char real[PATH_MAX];

	if (*p == '/') {
		if (strncmp(p, SYS, strlen(SYS)))
			return error_set(err, EXIT_USAGE, "a path outside " SYS " (give a file "
					 "there, /sys/... or its path below /sys)");
		p += strlen(SYS);
	}
	strbuf_addstr(&path, "/sys");
	while (*p) {
		size_t len = strcspn(p, "/");

		if (len == 2 && !strncmp(p, "..", 2)) {
			strbuf_release(&path);
			return error_set(err, EXIT_USAGE, "'..' in '%.64s' (give the path without "
					 "it: it must stay under /sys)", given);
		}
		if (len && !(len == 1 && *p == '.')) {
			strbuf_addch(&path, '/');
			strbuf_add(&path, p, len);
		}
		p += len + (p[len] == '/');
	}
	if (!strcmp(path.buf, "/sys")) {
		strbuf_release(&path);
		return error_set(err, EXIT_USAGE, "'%.64s' names no file under /sys (give a "
				 "file there)", given);
	}
	/* The links of sysfs lead within it; a path that leaves it is refused. */
	if (realpath(path.buf, real)) {
		if (strncmp(real, SYS, strlen(SYS))) {
			strbuf_release(&path);
			return error_set(err, EXIT_USAGE, "'%.64s' leads to %.64s, outside /sys "
					 "(give a file of /sys itself)", given, real);
		}
		strbuf_release(&path);
		*out = xstrdup(real);
		return 0;
	}
	*out = strbuf_detach(&path);
	return 0;
}

static int sysfs_parse(const char *text, char **name, char **value, struct error *err)
{
	const char *eq = strchr(text, '=');
	char *given;
	int rc;

	if (!eq || eq == text)
		return error_set(err, EXIT_USAGE, "needs PATH=VALUE (write it as "
				 "sysfs:PATH=VALUE)");
	if (!eq[1] || strchr(eq + 1, '\n'))
		return error_set(err, EXIT_USAGE, "the value is empty or has a newline (give "
				 "one line after '=')");
	given = xstrndup(text, (size_t)(eq - text));
	rc = sysfs_normalise(given, name, err);
	free(given);
	if (rc)
		return -1;
	*value = xstrdup(eq + 1);
	return 0;
}

/* "always madvise [never]" is "never"; any other text is itself. */
static char *current_choice(char *text)
{
	char *open = strchr(text, '['), *close = open ? strchr(open, ']') : NULL;

	if (!open || !close || strchr(close + 1, '[') || close - open < 2 ||
	    memchr(open, ' ', (size_t)(close - open)))
		return text;
	memmove(text, open + 1, (size_t)(close - open - 1));
	text[close - open - 1] = '\0';
	return text;
}

static int sysfs_read(const char *name, bool for_writing, char **value, struct error *err)
{
	struct stat sb;
	int fd;

	if (stat(name, &sb))
		return error_set(err, EXIT_ENV, "this machine has no %s: %s (give a file "
				 "this machine has)", name, strerror(errno));
	if (!S_ISREG(sb.st_mode))
		return error_set(err, EXIT_USAGE, "%s is not a file of settings (give a file "
				 "under it)", name);
	if (knob_file_read(name, value))
		return error_set(err, EXIT_ENV, "cannot read %s: %s (run as root)", name,
				 strerror(errno));
	current_choice(*value);
	if (for_writing && (fd = open(name, O_WRONLY | O_CLOEXEC)) < 0) {
		free(*value);
		*value = NULL;
		return error_set(err, EXIT_ENV, "cannot change %s: %s (%s)", name,
				 strerror(errno), errno == EROFS ? "/sys is read-only here, as "
				 "in a container" : "it is read-only, or run as root");
	}
	if (for_writing)
		close(fd);
	return 0;
}

/* Its name is its path. */
static void sysfs_path(const char *name, char *path, size_t len)
{
	snprintf(path, len, "%s", name);
}

static int sysfs_write(const char *name, const char *value, struct error *err)
{
	if (sysfile_write(name, value))
		return error_set(err, errno == EINVAL ? EXIT_USAGE : EXIT_ENV,
				 "cannot set %s to '%.64s': %s (%s)", name, value, strerror(errno),
				 errno == EINVAL ? "give a value the kernel accepts there" :
				 "run as root");
	return 0;
}

const struct knob_setting knob_sysfs = {
	.kind = "sysfs",
	.syntax = "sysfs:PATH=VALUE",
	.parse = sysfs_parse,
	.read = sysfs_read,
	.write = sysfs_write,
	.path = sysfs_path,
};
