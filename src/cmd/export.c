// SPDX-License-Identifier: GPL-2.0
/* schedperf export: runs as schedperf-results/1 JSON. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "store/interchange.h"
#include "store/store.h"

static const struct cmd_usage export_usage = {
	"usage: schedperf export RUN... [-o FILE]\n"
	"\n"
	"Write every batch of each RUN as schedperf-results/1 JSON, to standard\n"
	"output or to FILE (written whole or not at all). 'schedperf import' reads\n"
	"it back; export -> import -> export is byte-identical.\n",
	NULL,
};

/*
 * Write to something that is not a plain file (a device such as /dev/stdout,
 * a fifo, a symbolic link) in place: renaming over it would replace the
 * device node or the link itself, and we run as root.
 */
static int write_in_place(const char *path, const struct result_set *set,
			  struct error *err)
{
	FILE *f = fopen(path, "we");

	if (!f)
		return error_set(err, EXIT_ENV, "cannot write '%s': %s (check the path and "
				 "its permissions)", path, strerror(errno));
	if (interchange_write(f, set, err)) {
		fclose(f);
		return -1;
	}
	if (fclose(f))
		return error_set(err, EXIT_ENV, "cannot write '%s': %s (check free space)",
				 path, strerror(errno));
	return 0;
}

/* Write to FILE.tmp and rename, so a failed export never leaves half a file. */
static int write_file(const char *path, const struct result_set *set, struct error *err)
{
	char tmp[4096];
	struct stat sb;
	FILE *f;

	if (!lstat(path, &sb) && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode))
		return write_in_place(path, set, err);
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid()) >= sizeof(tmp))
		return error_set(err, EXIT_USAGE, "output path too long");
	f = fopen(tmp, "we");
	if (!f)
		return error_set(err, EXIT_ENV, "cannot write '%s': cannot create '%s' beside "
				 "it: %s (check the directory and its permissions)", path, tmp,
				 strerror(errno));
	if (interchange_write(f, set, err)) {
		fclose(f);
		unlink(tmp);
		return -1;
	}
	if (fclose(f)) {
		int saved = errno;

		unlink(tmp);
		return error_set(err, EXIT_ENV, "cannot write '%s': %s (check free space)",
				 path, strerror(saved));
	}
	if (rename(tmp, path)) {
		int saved = errno;

		unlink(tmp);
		return error_set(err, EXIT_ENV, "cannot write '%s': %s (give -o the name of a "
				 "file, not a directory)", path, strerror(saved));
	}
	return 0;
}

int cmd_export(int argc, char **argv)
{
	struct result_set set = { NULL, 0 };
	struct store *st = NULL;
	struct error err = { 0 };
	const char *output = NULL;
	const struct cmd_option options[] = {
		OPT_STRING('o', "output", &output, "FILE",
			   "write to FILE instead of standard output"),
		OPT_END(),
	};
	int code = EXIT_OK;

	if (parse_options(argc, argv, options, &export_usage, &code))
		return code;
	if (optind >= argc)
		return command_usage_error("export", "give the name of at least one run "
					   "(see 'schedperf runs')");
	if (output && !*output)
		return command_usage_error("export", "-o needs a file name");
	if (store_open_existing(global.db, &st, &err))
		goto fail;
	for (int i = optind; i < argc; i++)
		if (store_load(st, argv[i], true, &set, &err))
			goto fail;
	if (output ? write_file(output, &set, &err) : interchange_write(stdout, &set, &err))
		goto fail;
	goto out;
fail:
	code = error_report(&err);
out:
	result_set_release(&set);
	store_close(st);
	return code;
}
