// SPDX-License-Identifier: GPL-2.0
/*
 * program_found() (util/program.h) against what execvp() does: a name is
 * found where execvp() would run it and nowhere else. Each case is also
 * run through execvp() itself, in a child, with the same PATH, so that
 * the test holds the function to glibc, not to its own reading of it.
 */
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/program.h"

static char dir[PATH_MAX], old_cwd[PATH_MAX];

/* A file @name in the test's directory, of @mode; a script that exits 0. */
static void make_file(const char *name, mode_t mode)
{
	char path[PATH_MAX + 64];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "#!/bin/sh\nexit 0\n", 17), 17);
	close(fd);
	assert_int_equal(chmod(path, mode), 0);
}

static int setup(void **state)
{
	char path[PATH_MAX + 64];

	snprintf(dir, sizeof(dir), "/tmp/schedperf-program.XXXXXX");
	if (!mkdtemp(dir) || !getcwd(old_cwd, sizeof(old_cwd)))
		return -1;
	make_file("prog", 0755);
	make_file("noexec", 0644);
	snprintf(path, sizeof(path), "%s/dirprog", dir);
	if (mkdir(path, 0755))
		return -1;
	return chdir(dir);
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return chdir(old_cwd) || system(cmd) ? -1 : 0;
}

/* Whether execvp() runs @name with PATH @path (NULL: unset), in a child. */
static bool execvp_runs(const char *name, const char *path)
{
	int status;
	pid_t pid = fork();

	if (!pid) {
		char *argv[] = { (char *)name, NULL };
		int null = open("/dev/null", O_RDWR);

		/* sh, when found, reads its commands from here: none */
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		if (path)
			setenv("PATH", path, 1);
		else
			unsetenv("PATH");
		execvp(name, argv);
		_exit(127);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) && WEXITSTATUS(status) != 127 && WEXITSTATUS(status) != 126;
}

static void expect(const char *name, const char *path, bool found)
{
	if (program_found(name, path) != found || execvp_runs(name, path) != found)
		fail_msg("'%s' with PATH %s%s%s: program_found() says %d, execvp() %d, "
			 "expected %d", name, path ? "'" : "", path ? path : "unset",
			 path ? "'" : "", program_found(name, path), execvp_runs(name, path),
			 found);
}

static void test_found_as_execvp_finds(void **state)
{
	char in_dir[PATH_MAX + 32];

	snprintf(in_dir, sizeof(in_dir), "/nonexistent:%s", dir);
	expect("prog", in_dir, true);
	expect("prog", "/nonexistent", false);
	/* an empty component is the current directory: all of "", or at either end */
	expect("prog", "", true);
	expect("prog", "/nonexistent:", true);
	expect("prog", ":/nonexistent", true);
	expect("prog", "/nonexistent::/nowhere", true);
	/* no PATH: /bin:/usr/bin, not the current directory */
	expect("prog", NULL, false);
	expect("sh", NULL, true);
	/* a directory, or a file without its x bit, is not a program */
	expect("dirprog", in_dir, false);
	expect("noexec", in_dir, false);
	/* a name with a slash is that file, whatever the PATH */
	expect("./prog", "/nonexistent", true);
	expect("./dirprog", "", false);
	expect("/bin/sh", "", true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_found_as_execvp_finds, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
