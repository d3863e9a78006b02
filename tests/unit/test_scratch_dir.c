// SPDX-License-Identifier: GPL-2.0
/*
 * Scratch directories (util/scratch_dir.h): a removal takes what the
 * directory holds, subdirectories too, but never leaves its mount: a
 * directory bind-mounted inside it (as root; skipped otherwise) keeps its
 * files, and the removal fails. A path that names another directory than
 * the one made is left alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/error.h"
#include "util/scratch_dir.h"
#include "util/xalloc.h"

static void touch(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);

	assert_true(fd >= 0);
	close(fd);
	free(path);
}

static int exists(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	int rc = !access(path, F_OK);

	free(path);
	return rc;
}

static char *make(void)
{
	struct error err = { 0 };
	char *dir = scratch_dir_make("unit", &err);

	assert_non_null(dir);
	return dir;
}

static void removes_everything(void **state)
{
	char *dir = make(), *sub = xasprintf("%s/a", dir);

	(void)state;
	assert_int_equal(mkdir(sub, 0700), 0);
	touch(dir, "f");
	touch(sub, "g");
	assert_int_equal(scratch_dir_remove(dir), 0);
	assert_int_equal(access(dir, F_OK), -1);
	free(sub);
	free(dir);
}

/* A directory of the same file system bind-mounted inside: its files stay. */
static void keeps_a_bind_mount(void **state)
{
	char *dir, *outside, *mnt;
	int rc, kept;

	(void)state;
	if (geteuid())
		skip();
	dir = make();
	outside = make();
	mnt = xasprintf("%s/mnt", dir);
	touch(outside, "precious");
	touch(dir, "mine");
	assert_int_equal(mkdir(mnt, 0700), 0);
	if (mount(outside, mnt, NULL, MS_BIND, NULL)) {
		fprintf(stderr, "cannot bind-mount: %s\n", strerror(errno));
		rmdir(mnt);
		scratch_dir_remove(dir);
		scratch_dir_remove(outside);
		skip();
	}
	rc = scratch_dir_remove(dir);
	kept = exists(outside, "precious");
	/* unmounted before any check fails, so that a failure leaves no mount */
	assert_int_equal(umount2(mnt, MNT_DETACH), 0);
	assert_int_equal(rc, -1);
	assert_true(kept);
	assert_false(exists(dir, "mine"));
	assert_int_equal(scratch_dir_remove(dir), 0);
	assert_true(exists(outside, "precious"));
	assert_int_equal(scratch_dir_remove(outside), 0);
	free(mnt);
	free(outside);
	free(dir);
}

/* Another directory at the path of the one made: not removed. */
static void checks_the_identity(void **state)
{
	char *dir = make(), *other = make(), *away = xasprintf("%s.away", dir);
	struct scratch_dir_id id;

	(void)state;
	assert_int_equal(scratch_dir_id(dir, &id), 0);
	/* moved, not removed and made again: that may reuse the inode */
	assert_int_equal(rename(dir, away), 0);
	assert_int_equal(rename(other, dir), 0);
	touch(dir, "other");
	assert_int_equal(scratch_dir_remove_id(dir, &id), -1);
	assert_int_equal(errno, ESTALE);
	assert_true(exists(dir, "other"));
	assert_int_equal(scratch_dir_id(dir, &id), 0);
	assert_int_equal(scratch_dir_remove_id(dir, &id), 0);
	assert_int_equal(access(dir, F_OK), -1);
	assert_int_equal(scratch_dir_remove(away), 0);
	free(away);
	free(other);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(removes_everything),
		cmocka_unit_test(keeps_a_bind_mount),
		cmocka_unit_test(checks_the_identity),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
