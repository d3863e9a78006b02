// SPDX-License-Identifier: GPL-2.0
/*
 * feature:NAME and feature:NO_NAME, a scheduler feature set or cleared
 * through debugfs. The setting is NAME, its value NAME or NO_NAME, as
 * the features file lists it and takes it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner/knobs.h"
#include "util/sysfile.h"
#include "util/xalloc.h"

/* Newer kernels (5.13+) first, then the older place. */
static const char *const feature_files[] = {
	"/sys/kernel/debug/sched/features",
	"/sys/kernel/debug/sched_features",
	NULL,
};

static const char *feature_file(void)
{
	for (const char *const *f = feature_files; *f; f++)
		if (!access(*f, F_OK))
			return *f;
	return NULL;
}

static int feature_parse(const char *text, char **name, char **value, struct error *err)
{
	const char *bare = strncmp(text, "NO_", 3) ? text : text + 3;

	if (!knob_valid_name(bare, ""))
		return error_set(err, EXIT_USAGE, "not a feature's name (give letters, digits "
				 "and '_', as the features file lists them)");
	*name = xstrdup(bare);
	*value = xstrdup(text);
	return 0;
}

static int feature_read(const char *name, bool for_writing, char **value, struct error *err)
{
	const char *path = feature_file();
	char *text, *save = NULL;
	int fd;

	if (!path)
		return error_set(err, EXIT_ENV, "cannot change scheduler feature %s: neither %s "
				 "nor %s exists (mount debugfs: mount -t debugfs none "
				 "/sys/kernel/debug; a container or lockdown may forbid it)",
				 name, feature_files[0], feature_files[1]);
	if (knob_file_read(path, &text))
		return error_set(err, EXIT_ENV, "cannot change scheduler feature %s: %s: %s "
				 "(run as root; lockdown forbids it)", name, path, strerror(errno));
	if (for_writing && (fd = open(path, O_WRONLY | O_CLOEXEC)) < 0) {
		free(text);
		return error_set(err, EXIT_ENV, "cannot change scheduler feature %s: %s: %s "
				 "(run as root; lockdown forbids it)", name, path, strerror(errno));
	}
	if (for_writing)
		close(fd);
	*value = NULL;
	for (char *tok = strtok_r(text, " \t\n", &save); tok && !*value;
	     tok = strtok_r(NULL, " \t\n", &save))
		if (!strcmp(tok, name) || (!strncmp(tok, "NO_", 3) && !strcmp(tok + 3, name)))
			*value = xstrdup(tok);
	free(text);
	if (!*value)
		return error_set(err, EXIT_ENV, "this kernel has no scheduler feature %s: not "
				 "in %s (see that file for the names it has)", name, path);
	return 0;
}

static int feature_write(const char *name, const char *value, struct error *err)
{
	const char *path = feature_file();

	if (!path)
		return error_set(err, EXIT_ENV, "cannot set scheduler feature %s: debugfs is "
				 "gone (mount it: mount -t debugfs none /sys/kernel/debug)", name);
	if (sysfile_write(path, value))
		return error_set(err, errno == EINVAL ? EXIT_USAGE : EXIT_ENV,
				 "cannot set feature %s to '%.64s': %s (%s)", name, value,
				 strerror(errno), errno == EINVAL ? "give a value the kernel "
				 "accepts" : "run as root");
	return 0;
}

const struct knob_setting knob_feature = {
	.kind = "feature",
	.syntax = "feature:[NO_]NAME",
	.parse = feature_parse,
	.read = feature_read,
	.write = feature_write,
};
