// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for util/cgroup.c. Where a controller is found is checked on
 * hierarchies laid out in a scratch directory, with the mountinfo and
 * /proc/self/cgroup texts of machines this one is not: cgroup v2 with
 * controllers (handed down from the root or from a slice, a namespaced
 * mount root, an escaped mount point), v1 only, both, neither. Making,
 * setting, joining and removing a cgroup, and the reaper removing one
 * after its holder is killed, are checked on this machine's own cpu
 * controller where it has one and this process may use it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/cgroup.h"
#include "test_helpers.h"

static char root[PATH_MAX];

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void dir(const char *rel)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(mkdir(path, 0755), 0);
}

/* A mountinfo text with "R" replaced by the scratch root. */
static char *mountinfo(const char *lines)
{
	static char text[8192];
	size_t used = 0;

	for (const char *p = lines; *p && used + PATH_MAX < sizeof(text); p++) {
		if (*p == 'R') {
			used += (size_t)snprintf(text + used, sizeof(text) - used, "%s", root);
			continue;
		}
		text[used++] = *p;
	}
	text[used] = '\0';
	return text;
}

static void expect_place(const char *mounts, const char *self, const char *controller,
			 int version, const char *rel)
{
	struct cgroup_place place;
	struct error err = { 0 };
	char want[PATH_MAX];

	if (cgroup_place_find_in(mountinfo(mounts), self, controller, &place, &err))
		fail_msg("no place for %s: %s", controller, err.msg);
	snprintf(want, sizeof(want), "%s%s", root, rel);
	assert_int_equal(place.version, version);
	assert_string_equal(place.dir, want);
}

static void expect_none(const char *mounts, const char *self, const char *controller,
			const char *why)
{
	struct cgroup_place place;
	struct error err = { 0 };

	assert_int_equal(cgroup_place_find_in(mountinfo(mounts), self, controller, &place,
					      &err), -1);
	assert_int_equal(err.code, EXIT_ENV);
	if (!strstr(err.msg, why))
		fail_msg("'%s' not in: %s", why, err.msg);
}

/* This machine's layout: v1 controllers, a v2 hierarchy with none of them. */
static const char v1_and_empty_v2[] =
	"31 23 0:28 / R rw,relatime - tmpfs tmpfs rw,mode=755\n"
	"32 31 0:29 / R/cpu rw,relatime - cgroup cgroup rw,cpu\n"
	"34 31 0:31 / R/cpuset rw,relatime - cgroup cgroup rw,cpuset\n"
	"40 31 0:37 / R/systemd rw,relatime - cgroup cgroup rw,name=systemd\n"
	"41 31 0:38 / R/unified rw,relatime - cgroup2 cgroup2 rw\n";

static void test_v1(void **state)
{
	dir("cpu");
	dir("cpu/box");
	dir("cpuset");
	dir("unified");
	put("unified/cgroup.controllers", "hugetlb");
	expect_place(v1_and_empty_v2, "3:cpuset:/\n1:cpu:/box\n0::/\n", "cpu", CGROUP_V1,
		     "/cpu/box");
	expect_place(v1_and_empty_v2, "3:cpuset:/\n1:cpu:/box\n0::/\n", "cpuset", CGROUP_V1,
		     "/cpuset");
	expect_none(v1_and_empty_v2, "1:cpu:/\n0::/\n", "memory",
		    "no cgroup v1 hierarchy has it mounted");
	expect_none(v1_and_empty_v2, "1:cpu:/\n0::/\n", "memory", "does not offer it");
	/* Mounted, but this process's cgroup is not shown there. */
	expect_none(v1_and_empty_v2, "0::/\n", "cpu", "not this process's cgroup");
}

/* cgroup v2 with controllers, as systemd sets it up. */
static const char v2_only[] =
	"25 22 0:23 / R/v2 rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n";

static void test_v2(void **state)
{
	dir("v2");
	dir("v2/user.slice");
	dir("v2/user.slice/me.scope");
	put("v2/cgroup.controllers", "cpuset cpu io memory pids");
	put("v2/cgroup.subtree_control", "cpu memory pids");
	put("v2/user.slice/cgroup.subtree_control", "memory pids");
	put("v2/user.slice/me.scope/cgroup.subtree_control", "");
	/* cpu is handed down by the root only: scratch cgroups go there. */
	expect_place(v2_only, "0::/user.slice/me.scope\n", "cpu", CGROUP_V2, "/v2");
	/* Handed down by user.slice too: the nearest wins. */
	put("v2/user.slice/cgroup.subtree_control", "cpu memory pids");
	expect_place(v2_only, "0::/user.slice/me.scope\n", "cpu", CGROUP_V2, "/v2/user.slice");
	/* Offered but handed down nowhere: refused, saying how to enable it. */
	expect_none(v2_only, "0::/user.slice/me.scope\n", "cpuset",
		    "echo +cpuset > ");
	expect_none(v2_only, "0::/user.slice/me.scope\n", "rdma", "does not offer it");
}

/* A namespaced mount shows the hierarchy from below its root. */
static void test_v2_mount_root_and_escapes(void **state)
{
	dir("with space");
	dir("with space/me");
	put("with space/cgroup.controllers", "cpu");
	put("with space/cgroup.subtree_control", "cpu");
	put("with space/me/cgroup.subtree_control", "");
	expect_place("25 22 0:23 /ns R/with\\040space rw - cgroup2 cgroup2 rw\n",
		     "0::/ns/me\n", "cpu", CGROUP_V2, "/with space");
	/* Our cgroup outside the mounted part: not usable. */
	expect_none("25 22 0:23 /ns R/with\\040space rw - cgroup2 cgroup2 rw\n",
		    "0::/elsewhere\n", "cpu", "not under");
}

/* The names two processes pick never collide, nor two calls of one. */
static void test_scratch_names(void **state)
{
	char a[64], b[64], want[64];

	cgroup_scratch_name(a, sizeof(a), "x");
	cgroup_scratch_name(b, sizeof(b), "x");
	assert_string_not_equal(a, b);
	snprintf(want, sizeof(want), "schedperf-%d-", (int)getpid());
	assert_int_equal(strncmp(a, want, strlen(want)), 0);
}

/* This machine's cpu controller, when this process may make cgroups there. */
static bool real_place(struct cgroup_place *place)
{
	struct error err;

	return !cgroup_place_find("cpu", place, &err) && !access(place->dir, W_OK);
}

static void test_real_cgroup(void **state)
{
	struct cgroup_place place;
	struct cgroup cg;
	struct error err = { 0 };
	char name[128], value[64], procs[256];
	const char *weight;
	pid_t child;
	int status;

	if (!real_place(&place))
		skip();
	weight = place.version == CGROUP_V2 ? "cpu.weight" : "cpu.shares";
	cgroup_scratch_name(name, sizeof(name), "test");
	assert_int_equal(cgroup_create(&place, place.dir, name, false, &cg, &err), 0);
	assert_int_equal(cgroup_set(&cg, weight, "50", &err), 0);
	assert_int_equal(cgroup_get(&cg, weight, value, sizeof(value), &err), 0);
	assert_string_equal(value, "50");
	/* A value the kernel refuses is bad input; a file it lacks, a missing setting. */
	assert_int_equal(cgroup_set(&cg, weight, "-3", &err), -1);
	assert_int_equal(err.code, EXIT_USAGE);
	assert_int_equal(cgroup_set(&cg, "cpu.nosuchfile", "1", &err), -1);
	assert_int_equal(err.code, EXIT_ENV);

	child = fork();
	if (child == 0) {
		pause();
		_exit(0);
	}
	assert_int_equal(cgroup_attach(&cg, child, &err), 0);
	assert_int_equal(cgroup_get(&cg, "cgroup.procs", procs, sizeof(procs), &err), 0);
	assert_int_equal(atoi(procs), child);
	/* Removing kills what still runs there. */
	assert_int_equal(cgroup_remove(cg.dir, &err), 0);
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	assert_int_equal(access(cg.dir, F_OK), -1);
	assert_int_equal(cgroup_remove(cg.dir, &err), 0);
}

/* Wait until @path is gone; false after 10 s (a broken reaper). */
static bool gone(const char *path)
{
	struct timespec pause = { 0, 1000000 };

	for (int i = 0; i < 10000; i++) {
		if (access(path, F_OK))
			return true;
		nanosleep(&pause, NULL);
	}
	return false;
}

/* Its holders killed, the reaper removes the cgroups and what runs in them. */
static void test_reaper(void **state)
{
	struct cgroup_place place;
	struct cgroup parent, cg;
	struct error err = { 0 };
	char name[128], *dirs[2];
	pid_t holder;
	int hold, status, pipefd[2];

	if (!real_place(&place))
		skip();
	cgroup_scratch_name(name, sizeof(name), "reaper");
	assert_int_equal(cgroup_create(&place, place.dir, name, false, &parent, &err), 0);
	assert_int_equal(cgroup_create(&place, parent.dir, "g1", true, &cg, &err), 0);
	dirs[0] = cg.dir;
	dirs[1] = parent.dir;
	assert_int_equal(cgroup_reaper_start(dirs, 2, &hold, &err), 0);
	assert_int_equal(pipe(pipefd), 0);
	holder = fork();
	if (holder == 0) {
		/* Holds the fd, sits in the cgroup, and is killed like a workload. */
		close(pipefd[0]);
		if (cgroup_attach(&cg, 0, NULL) || write(pipefd[1], "x", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(pipefd[1]);
	close(hold);
	assert_int_equal(read(pipefd[0], name, 1), 1);
	close(pipefd[0]);
	/* Still held by the child: the cgroups stay. */
	assert_int_equal(access(cg.dir, F_OK), 0);
	kill(holder, SIGKILL);
	assert_int_equal(waitpid(holder, &status, 0), holder);
	assert_true(gone(cg.dir));
	assert_true(gone(parent.dir));
	assert_no_children();
}

static int setup(void **state)
{
	snprintf(root, sizeof(root), "%s/cgroup-test.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) ? -1 : 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v1),
		cmocka_unit_test(test_v2),
		cmocka_unit_test(test_v2_mount_root_and_escapes),
		cmocka_unit_test(test_scratch_names),
		cmocka_unit_test(test_real_cgroup),
		cmocka_unit_test(test_reaper),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
