// SPDX-License-Identifier: GPL-2.0
/*
 * Scratch cgroups (see cgroup.h): where a controller is mounted, making and
 * setting a cgroup, moving tasks into it, removing it, and the reaper that
 * removes it when its creator was killed.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/cgroup.h"
#include "util/guardian.h"
#include "util/orphans.h"
#include "util/strbuf.h"
#include "util/sysfile.h"
#include "util/xalloc.h"

/* Read a small file whole into @buf, NUL-terminated, without its trailing newlines. */
static int read_text(const char *path, char *buf, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	size_t used;

	if (sysfile_read(path, &sb)) {
		int saved = errno;

		strbuf_release(&sb);
		errno = saved;
		return -1;
	}
	used = sb.len < len ? sb.len : len - 1;
	memcpy(buf, strbuf_str(&sb), used);
	buf[used] = '\0';
	strbuf_release(&sb);
	while (used && buf[used - 1] == '\n')
		buf[--used] = '\0';
	return 0;
}

static char *read_whole(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	if (sysfile_read(path, &sb)) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}

/* Is @word one of the items of @list, separated by any of @seps? */
static bool has_word(const char *list, const char *word, const char *seps)
{
	size_t len = strlen(word);

	for (const char *p = list; *p; ) {
		size_t n = strcspn(p, seps);

		if (n == len && !strncmp(p, word, len))
			return true;
		p += n;
		p += strspn(p, seps);
	}
	return false;
}

/* Undo mountinfo's octal escapes (\040 for a space) in place. */
static void unescape(char *s)
{
	char *out = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
			continue;
		}
		*out++ = *s;
	}
	*out = '\0';
}

/* One cgroup mount: where, its root in the hierarchy, its type and options. */
struct cg_mount {
	char root[PATH_MAX];
	char point[PATH_MAX];
	bool v2;
	char options[512];
};

/* Parse one mountinfo line; false when it is not a cgroup mount. */
static bool parse_mount(char *line, struct cg_mount *m)
{
	char *fields[6], *dash, *save = NULL, *fstype, *source, *superopts;
	int n = 0;

	dash = strstr(line, " - ");
	if (!dash)
		return false;
	*dash = '\0';
	for (char *f = strtok_r(line, " ", &save); f && n < 6; f = strtok_r(NULL, " ", &save))
		fields[n++] = f;
	if (n < 5)
		return false;
	save = NULL;
	fstype = strtok_r(dash + 3, " ", &save);
	source = fstype ? strtok_r(NULL, " ", &save) : NULL;
	superopts = source ? strtok_r(NULL, " ", &save) : NULL;
	if (!fstype || (strcmp(fstype, "cgroup") && strcmp(fstype, "cgroup2")))
		return false;
	m->v2 = !strcmp(fstype, "cgroup2");
	snprintf(m->root, sizeof(m->root), "%s", fields[3]);
	snprintf(m->point, sizeof(m->point), "%s", fields[4]);
	snprintf(m->options, sizeof(m->options), "%s", superopts ? superopts : "");
	unescape(m->root);
	unescape(m->point);
	return true;
}

/*
 * This process's cgroup in the v2 hierarchy (@controller NULL) or in the v1
 * hierarchy holding @controller, from /proc/self/cgroup's text.
 */
static bool own_cgroup(const char *text, const char *controller, char *path, size_t len)
{
	const char *line = text;

	while (*line) {
		size_t n = strcspn(line, "\n");
		char buf[PATH_MAX + 512], *first, *second;

		snprintf(buf, sizeof(buf), "%.*s", (int)n, line);
		line += n + (line[n] == '\n');
		first = strchr(buf, ':');
		second = first ? strchr(first + 1, ':') : NULL;
		if (!second)
			continue;
		*second = '\0';
		if (controller ? has_word(first + 1, controller, ",")
			       : !strncmp(buf, "0:", 2) && first[1] == '\0') {
			snprintf(path, len, "%s", second + 1);
			return true;
		}
	}
	return false;
}

/* The directory of cgroup @path under mount @m, when the mount shows it. */
static bool cgroup_dir(const struct cg_mount *m, const char *path, char *dir, size_t len)
{
	size_t root_len = strlen(m->root);

	if (!strcmp(m->root, "/"))
		root_len = 0;
	else if (strncmp(path, m->root, root_len) || (path[root_len] && path[root_len] != '/'))
		return false;
	snprintf(dir, len, "%s%s", m->point, path + root_len);
	/* "/sys/fs/cgroup/cpu/" for the root: keep it without the slash. */
	len = strlen(dir);
	while (len > 1 && dir[len - 1] == '/')
		dir[--len] = '\0';
	return true;
}

/* Does the file @name in @dir list @controller (space-separated)? */
static bool lists(const char *dir, const char *name, const char *controller)
{
	char path[PATH_MAX + 64], text[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !read_text(path, text, sizeof(text)) && has_word(text, controller, " ");
}

/*
 * On v2: the nearest cgroup from @dir up to the mount point @top that
 * hands @controller down to its children.
 */
static bool v2_place(const char *top, const char *dir, const char *controller,
		     char *out, size_t len)
{
	char d[PATH_MAX];

	snprintf(d, sizeof(d), "%s", dir);
	for (;;) {
		char *slash;

		if (lists(d, "cgroup.subtree_control", controller)) {
			snprintf(out, len, "%s", d);
			return true;
		}
		if (strlen(d) <= strlen(top))
			return false;
		slash = strrchr(d, '/');
		if (!slash || slash == d)
			return false;
		*slash = '\0';
	}
}

static int find_v2(const struct cg_mount *m, const char *self, const char *controller,
		   struct cgroup_place *place, char *why, size_t why_len)
{
	char path[PATH_MAX], dir[PATH_MAX];

	if (!lists(m->point, "cgroup.controllers", controller)) {
		snprintf(why, why_len, "cgroup v2 (%s) does not offer it", m->point);
		return -1;
	}
	if (!own_cgroup(self, NULL, path, sizeof(path)) ||
	    !cgroup_dir(m, path, dir, sizeof(dir))) {
		snprintf(why, why_len, "this process's cgroup v2 is not under %s", m->point);
		return -1;
	}
	if (!v2_place(m->point, dir, controller, place->dir, sizeof(place->dir))) {
		snprintf(why, why_len, "cgroup v2 offers it, but no cgroup from %s up to %s "
			 "hands it down (echo +%s > %s/cgroup.subtree_control enables it)",
			 dir, m->point, controller, m->point);
		return -1;
	}
	place->version = CGROUP_V2;
	return 0;
}

static int find_v1(const struct cg_mount *m, const char *self, const char *controller,
		   struct cgroup_place *place)
{
	char path[PATH_MAX];
	struct stat st;

	if (!own_cgroup(self, controller, path, sizeof(path)) ||
	    !cgroup_dir(m, path, place->dir, sizeof(place->dir)) ||
	    stat(place->dir, &st) || !S_ISDIR(st.st_mode))
		return -1;
	place->version = CGROUP_V1;
	return 0;
}

int cgroup_place_find_in(const char *mountinfo, const char *self_cgroup,
			 const char *controller, struct cgroup_place *place,
			 struct error *err)
{
	char why[PATH_MAX + 256] = "";
	bool v1_mounted = false;
	const char *line = mountinfo;

	memset(place, 0, sizeof(*place));
	snprintf(place->controller, sizeof(place->controller), "%s", controller);
	/* v2 first: where a controller is offered there, it is not on v1. */
	for (int pass = 2; pass >= 1; pass--) {
		for (line = mountinfo; *line; ) {
			size_t n = strcspn(line, "\n");
			char *copy = xstrndup(line, n);
			struct cg_mount m;
			bool ok = parse_mount(copy, &m);

			free(copy);
			line += n + (line[n] == '\n');
			if (!ok || m.v2 != (pass == 2))
				continue;
			if (m.v2 && !find_v2(&m, self_cgroup, controller, place, why, sizeof(why)))
				return 0;
			if (!m.v2 && has_word(m.options, controller, ",")) {
				v1_mounted = true;
				if (!find_v1(&m, self_cgroup, controller, place))
					return 0;
			}
		}
	}
	return error_set(err, EXIT_ENV, "no cgroup hierarchy here offers the %s controller: %s%s"
			 "%s (mount it, on cgroup v2 or v1)", controller, why[0] ? why : "no cgroup v2",
			 "; ", v1_mounted ? "cgroup v1 has it mounted but not this process's cgroup"
					  : "no cgroup v1 hierarchy has it mounted");
}

int cgroup_place_find(const char *controller, struct cgroup_place *place, struct error *err)
{
	char *mountinfo = read_whole("/proc/self/mountinfo");
	char *self = read_whole("/proc/self/cgroup");
	int ret;

	if (!mountinfo || !self) {
		free(mountinfo);
		free(self);
		return error_set(err, EXIT_ENV, "cannot read /proc/self/mountinfo or "
				 "/proc/self/cgroup: %s (mount /proc)", strerror(errno));
	}
	ret = cgroup_place_find_in(mountinfo, self, controller, place, err);
	free(mountinfo);
	free(self);
	return ret;
}

void cgroup_scratch_name(char *buf, size_t len, const char *what)
{
	static unsigned int seq;

	snprintf(buf, len, "schedperf-%d-%u-%s", (int)getpid(), seq++, what);
}

/* Write @value to @dir/@file. */
static int write_file(const char *dir, const char *file, const char *value)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return sysfile_write(path, value);
}

static int file_error(struct error *err, const char *dir, const char *file,
		      const char *value, int e)
{
	/* Its cgroup exists: a file it lacks is a setting this machine's controller has not. */
	if (e == ENOENT) {
		const char *slash = strrchr(dir, '/');
		int parent = slash && slash != dir ? (int)(slash - dir) : (int)strlen(dir);

		return error_set(err, EXIT_ENV, "cgroup file %s/%s does not exist: this "
				 "machine's cgroup hierarchy has no such setting (see the files "
				 "there with ls %.*s)", dir, file, parent, dir);
	}
	/* E2BIG: longer than the kernel takes in one write */
	if (e == EINVAL || e == ERANGE || e == E2BIG)
		return error_set(err, EXIT_USAGE, "cgroup file %s/%s refused '%s': %s (give a "
				 "value the kernel takes there)", dir, file, value, strerror(e));
	return error_set(err, EXIT_ENV, "cannot write '%s' to cgroup file %s/%s: %s (run as "
			 "root, or on a cgroup delegated to you)", value, dir, file, strerror(e));
}

/* A v1 cpuset takes no task until it has CPUs and memory nodes: its parent's. */
static int inherit_cpuset(const char *parent, struct cgroup *cg, struct error *err)
{
	static const char *const files[] = { "cpuset.cpus", "cpuset.mems" };

	for (size_t i = 0; i < 2; i++) {
		char path[PATH_MAX + 64], value[4096];

		snprintf(path, sizeof(path), "%s/%s", parent, files[i]);
		if (read_text(path, value, sizeof(value)))
			return error_set(err, EXIT_ENV, "cannot read %s: %s (check that the "
				 "cgroup file system is mounted and readable)", path,
				 strerror(errno));
		if (cgroup_set(cg, files[i], value, err))
			return -1;
	}
	return 0;
}

int cgroup_create(const struct cgroup_place *place, const char *parent, const char *name,
		  bool enable_in_parent, struct cgroup *cg, struct error *err)
{
	char plus[40];

	cg->version = place->version;
	if (snprintf(cg->dir, sizeof(cg->dir), "%s/%s", parent, name) >= (int)sizeof(cg->dir))
		return error_set(err, EXIT_USAGE, "cgroup path %s/%s is too long (run it "
				 "from a cgroup nested less deeply)", parent, name);
	snprintf(plus, sizeof(plus), "+%s", place->controller);
	if (place->version == CGROUP_V2 && enable_in_parent &&
	    write_file(parent, "cgroup.subtree_control", plus))
		return error_set(err, EXIT_ENV, "cannot hand the %s controller down from %s: %s "
				 "(run as root)", place->controller, parent, strerror(errno));
	if (mkdir(cg->dir, 0755))
		return error_set(err, EXIT_ENV, "cannot create cgroup %s: %s (run as root, or "
				 "on a cgroup delegated to you)", cg->dir, strerror(errno));
	if (place->version == CGROUP_V1 && !strcmp(place->controller, "cpuset") &&
	    inherit_cpuset(parent, cg, err)) {
		rmdir(cg->dir);
		return -1;
	}
	return 0;
}

int cgroup_set(const struct cgroup *cg, const char *file, const char *value,
	       struct error *err)
{
	if (write_file(cg->dir, file, value))
		return file_error(err, cg->dir, file, value, errno);
	return 0;
}

int cgroup_get(const struct cgroup *cg, const char *file, char *buf, size_t len,
	       struct error *err)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", cg->dir, file);
	if (read_text(path, buf, len))
		return file_error(err, cg->dir, file, "", errno);
	return 0;
}

int cgroup_attach(const struct cgroup *cg, pid_t pid, struct error *err)
{
	char value[32];

	snprintf(value, sizeof(value), "%d", (int)(pid ? pid : getpid()));
	return cgroup_set(cg, "cgroup.procs", value, err);
}

/* SIGKILL every process still in the cgroup at @dir. */
static void kill_members(const char *dir)
{
	char path[PATH_MAX + 64];
	char *text;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	text = read_whole(path);
	if (!text)
		return;
	for (char *p = text; *p; ) {
		long pid = strtol(p, &p, 10);

		if (pid > 0)
			kill((pid_t)pid, SIGKILL);
		p += strspn(p, "\n ");
		if (*p && (*p < '0' || *p > '9'))
			break;
	}
	free(text);
}

int cgroup_remove(const char *dir, struct error *err)
{
	struct timespec pause = { 0, 1000000 };

	/* Dying tasks leave a cgroup busy for a moment: up to 10 s. */
	for (int i = 0; i < 10000; i++) {
		if (!rmdir(dir) || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			break;
		kill_members(dir);
		nanosleep(&pause, NULL);
	}
	return error_set(err, EXIT_ENV, "cannot remove cgroup %s: %s (remove it with rmdir "
			 "once its tasks have ended)", dir, strerror(errno));
}

static void __attribute__((noreturn)) reap(int fd, char *const *dirs, size_t n)
{
	guardian_wait_orphaned(fd);
	for (size_t i = 0; i < n; i++)
		cgroup_remove(dirs[i], NULL);
	_exit(0);
}

int cgroup_reaper_start(char *const *dirs, size_t n, int *hold, struct error *err)
{
	int fds[2], status;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return error_set(err, EXIT_ENV, "cannot create a pipe for a cgroup reaper: %s "
				 "(raise 'ulimit -n')", strerror(errno));
	pid = fork();
	if (pid == 0) {
		pid_t reaper;

		/* A session of its own: killing the caller's group spares it. */
		close(fds[1]);
		setsid();
		/*
		 * A killed iteration's holder (util/holder.h) ends what it
		 * left, but must let the reaper go on: named before the fork,
		 * the reaper is spared from its first instant.
		 */
		orphans_spare();
		reaper = fork();
		if (reaper == 0)
			reap(fds[0], dirs, n);
		_exit(reaper < 0 ? 1 : 0);
	}
	close(fds[0]);
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		close(fds[1]);
		return error_set(err, EXIT_ENV, "cannot fork a cgroup reaper: %s (raise "
				 "'ulimit -u')", pid < 0 ? strerror(errno) : "the fork failed");
	}
	*hold = fds[1];
	return 0;
}
