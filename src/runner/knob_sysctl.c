// SPDX-License-Identifier: GPL-2.0
/*
 * sysctl:NAME=VALUE, a file under /proc/sys. A sysctl has one name here
 * however it is spelled, so that two spellings are never two settings
 * (one side's write undoing the other's): kernel.X, .kernel.X,
 * kernel/X, kernel/./X and /proc/sys/kernel/X are kernel.X.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runner/knobs.h"
#include "util/strbuf.h"
#include "util/sysfile.h"
#include "util/xalloc.h"

#define PROC_SYS "/proc/sys/"

/*
 * The parts of @given, split at slashes when it has any (then a part may
 * hold dots: an interface eth0.1), else at dots; empty and "." parts are
 * dropped, ".." refused. Written back with dots, as sysctl(8) prints
 * names, unless a part holds a dot: then with the slashes that tell the
 * parts apart. 0, or -1 with @err saying why.
 */
static int sysctl_normalise(const char *given, char **out, struct error *err)
{
	const char *p = given;
	char sep = strchr(given, '/') ? '/' : '.';
	struct strbuf parts = STRBUF_INIT;	/* the parts, each ended by '\0' */
	size_t nr = 0;
	bool dotted = true;

	if (*p == '/') {
		if (strncmp(p, PROC_SYS, strlen(PROC_SYS)))
			return error_set(err, EXIT_USAGE, "a path outside " PROC_SYS ", where "
					 "the sysctls are (give a file there, or a sysctl's name, "
					 "kernel.NAME)");
		p += strlen(PROC_SYS);
	}
	while (*p) {
		size_t len = strcspn(p, sep == '/' ? "/" : ".");
		char *part = xstrndup(p, len);
		bool skip = !len || !strcmp(part, ".");

		if (!strcmp(part, "..") || (!skip && !knob_valid_name(part, sep == '/' ? ".-" : "-"))) {
			free(part);
			strbuf_release(&parts);
			return error_set(err, EXIT_USAGE, "'%.64s' is not a sysctl's name (give its "
					 "parts, letters, digits, '_' and '-', between dots or "
					 "slashes)", given);
		}
		if (!skip) {
			dotted = dotted && !strchr(part, '.');
			strbuf_add(&parts, part, len + 1);
			nr++;
		}
		free(part);
		p += len + (p[len] != '\0');
	}
	if (!nr) {
		strbuf_release(&parts);
		return error_set(err, EXIT_USAGE, "'%.64s' names no sysctl (give one, e.g. "
				 "kernel.sched_autogroup_enabled)", given);
	}
	for (size_t i = 0; i + 1 < parts.len; i++)
		if (!parts.buf[i])
			parts.buf[i] = dotted ? '.' : '/';
	*out = strbuf_detach(&parts);
	return 0;
}

static int sysctl_parse(const char *text, char **name, char **value, struct error *err)
{
	const char *eq = strchr(text, '=');
	char *given;
	int rc;

	if (!eq || eq == text)
		return error_set(err, EXIT_USAGE, "needs NAME=VALUE (write it as "
				 "sysctl:NAME=VALUE)");
	if (!eq[1])
		return error_set(err, EXIT_USAGE, "the value is empty (give the value after '=')");
	given = xstrndup(text, (size_t)(eq - text));
	rc = sysctl_normalise(given, name, err);
	free(given);
	if (rc)
		return -1;
	*value = xstrdup(eq + 1);
	return 0;
}

/* The name's parts are the path's under /proc/sys. */
static void sysctl_path(const char *name, char *path, size_t len)
{
	size_t used = (size_t)snprintf(path, len, PROC_SYS);
	bool dotted = !strchr(name, '/');

	for (const char *p = name; *p && used + 1 < len; p++)
		path[used++] = dotted && *p == '.' ? '/' : *p;
	path[used] = '\0';
}

static int sysctl_read(const char *name, bool for_writing, char **value, struct error *err)
{
	struct stat sb;
	char path[512];
	int fd;

	sysctl_path(name, path, sizeof(path));
	/*
	 * parse refused a malformed name (exit 2); a well-formed one this
	 * kernel lacks is the machine's lack, exit 3, as a sysfs: file's.
	 */
	if (stat(path, &sb))
		return error_set(err, EXIT_ENV, "this machine has no sysctl %s: %s: %s (see "
				 "'sysctl -a' for the names it has)", name, path, strerror(errno));
	if (S_ISDIR(sb.st_mode))
		return error_set(err, EXIT_USAGE, "sysctl %s is a directory of sysctls, not one "
				 "(see 'sysctl -a %s' for the names in it)", name, name);
	if (knob_file_read(path, value))
		return error_set(err, EXIT_ENV, "cannot read sysctl %s: %s (run as root)",
				 name, strerror(errno));
	if (for_writing && (fd = open(path, O_WRONLY | O_CLOEXEC)) < 0) {
		free(*value);
		*value = NULL;
		return error_set(err, EXIT_ENV, "cannot change sysctl %s: %s (%s)", name,
				 strerror(errno), errno == EROFS ? "/proc/sys is read-only here, "
				 "as in a container" : "it is read-only, or run as root");
	}
	if (for_writing)
		close(fd);
	return 0;
}

static int sysctl_write(const char *name, const char *value, struct error *err)
{
	char path[512];

	sysctl_path(name, path, sizeof(path));
	if (sysfile_write(path, value))
		return error_set(err, errno == EINVAL ? EXIT_USAGE : EXIT_ENV,
				 "cannot set sysctl %s to '%.64s': %s (%s)", name, value,
				 strerror(errno), errno == EINVAL ? "give a value the kernel "
				 "accepts" : "run as root");
	return 0;
}

const struct knob_setting knob_sysctl = {
	.kind = "sysctl",
	.syntax = "sysctl:NAME=VALUE",
	.parse = sysctl_parse,
	.read = sysctl_read,
	.write = sysctl_write,
	.path = sysctl_path,
};
