// SPDX-License-Identifier: GPL-2.0
/*
 * The knobs of ab's sides: SPEC parsing, and the machine's sysctls and
 * scheduler features read, checked and written through /proc/sys and
 * debugfs. Everything that could refuse is asked before anything changes
 * (knob_read with for_writing), so that bad input changes nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner/knobs.h"
#include "util/strbuf.h"
#include "util/sysfile.h"
#include "util/xalloc.h"

/* Newer kernels (5.13+) first, then the older place. */
static const char *const feature_files[] = {
	"/sys/kernel/debug/sched/features",
	"/sys/kernel/debug/sched_features",
	NULL,
};

static const struct {
	const char *prefix;
	enum knob_kind kind;
	bool needs_name;	/* NAME=VALUE */
} knob_syntax[] = {
	{ "sysctl:", KNOB_SYSCTL, true },
	{ "feature:", KNOB_FEATURE, false },
	{ "cpus:", KNOB_CPUS, false },
	{ "param:", KNOB_PARAM, true },
	{ "env:", KNOB_ENV, true },
	{ "cmd:", KNOB_CMD, false },
};

const char *knob_machine_kind(enum knob_kind kind)
{
	return kind == KNOB_SYSCTL ? "sysctl" : kind == KNOB_FEATURE ? "feature" : NULL;
}

static bool valid_name(const char *name, const char *extra)
{
	if (!*name || strstr(name, ".."))
		return false;
	for (const char *p = name; *p; p++)
		if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') &&
		    !(*p >= '0' && *p <= '9') && *p != '_' && !strchr(extra, *p))
			return false;
	return true;
}

/*
 * One spelling per sysctl, as sysctl(8) reads both: kernel/printk_ratelimit
 * is kernel.printk_ratelimit. A name whose parts hold dots (an interface
 * eth0.1) keeps the slashes that tell its parts apart.
 */
static void sysctl_canonical(char *name)
{
	if (!strchr(name, '/') || strchr(name, '.'))
		return;
	for (char *p = name; *p; p++)
		if (*p == '/')
			*p = '.';
}

static int add_item(struct knob_list *list, const char *item, size_t len, const char *side,
		    struct error *err)
{
	char *text = xmalloc(len + 1), *body, *eq;
	struct knob k = { 0 };
	size_t i;

	memcpy(text, item, len);
	text[len] = '\0';
	for (i = 0; i < sizeof(knob_syntax) / sizeof(knob_syntax[0]); i++)
		if (!strncmp(text, knob_syntax[i].prefix, strlen(knob_syntax[i].prefix)))
			break;
	if (i == sizeof(knob_syntax) / sizeof(knob_syntax[0])) {
		error_set(err, EXIT_USAGE, "ab: %s '%.64s' is not a knob (give sysctl:NAME=VALUE, "
			  "feature:[NO_]NAME, cpus:LIST, param:KEY=VALUE, env:VAR=VALUE or "
			  "cmd:PROGRAM ARGS)", side, text);
		free(text);
		return -1;
	}
	k.kind = knob_syntax[i].kind;
	body = text + strlen(knob_syntax[i].prefix);
	eq = strchr(body, '=');
	if (knob_syntax[i].needs_name && (!eq || eq == body)) {
		error_set(err, EXIT_USAGE, "ab: %s '%.64s' needs NAME=VALUE (write it as %sNAME=VALUE)",
			  side, text, knob_syntax[i].prefix);
		free(text);
		return -1;
	}
	if (knob_syntax[i].needs_name) {
		*eq = '\0';
		k.name = xstrdup(body);
		k.value = xstrdup(eq + 1);
		if (k.kind == KNOB_SYSCTL)
			sysctl_canonical(k.name);
	} else if (k.kind == KNOB_FEATURE) {
		k.name = xstrdup(strncmp(body, "NO_", 3) ? body : body + 3);
		k.value = xstrdup(body);
	} else {
		k.value = xstrdup(body);
	}
	free(text);
	if ((k.kind == KNOB_SYSCTL && (!valid_name(k.name, ".-/") || !*k.value)) ||
	    (k.kind == KNOB_FEATURE && !valid_name(k.name, "")) ||
	    (k.kind == KNOB_ENV && (!valid_name(k.name, "") || (*k.name >= '0' && *k.name <= '9'))) ||
	    ((k.kind == KNOB_CPUS || k.kind == KNOB_CMD) && !*k.value)) {
		error_set(err, EXIT_USAGE, "ab: %s '%.64s': bad %s name or empty value (give "
			  "letters, digits and '_'%s)", side, item, knob_syntax[i].prefix,
			  k.kind == KNOB_SYSCTL ? ", dots between the parts" : "");
		free(k.name);
		free(k.value);
		return -1;
	}
	list->knobs = xreallocarray(list->knobs, list->nr + 1, sizeof(k));
	list->knobs[list->nr++] = k;
	return 0;
}

int knobs_parse(struct knob_list *list, const char *spec, const char *side, struct error *err)
{
	const char *p = spec;

	if (!*spec)
		return error_set(err, EXIT_USAGE, "ab: %s is empty (give a knob, e.g. "
				 "sysctl:NAME=VALUE)", side);
	for (;;) {
		/* cmd: takes the rest: a command line may hold commas. */
		size_t len = strncmp(p, "cmd:", 4) ? strcspn(p, ",") : strlen(p);

		if (add_item(list, p, len, side, err))
			return -1;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

void knobs_release(struct knob_list *list)
{
	for (size_t i = 0; i < list->nr; i++) {
		free(list->knobs[i].name);
		free(list->knobs[i].value);
	}
	free(list->knobs);
	list->knobs = NULL;
	list->nr = 0;
}

/* A dotted name's parts are the path's; a name with slashes is the path. */
static void sysctl_path(const char *name, char *path, size_t len)
{
	size_t used = (size_t)snprintf(path, len, "/proc/sys/");
	bool dotted = !strchr(name, '/');

	for (const char *p = name; *p && used + 1 < len; p++)
		path[used++] = dotted && *p == '.' ? '/' : *p;
	path[used] = '\0';
}

static int sysctl_read(const char *name, bool for_writing, char **value, struct error *err)
{
	struct strbuf sb = STRBUF_INIT;
	char path[512];
	int fd;

	sysctl_path(name, path, sizeof(path));
	if (access(path, F_OK))
		return error_set(err, EXIT_USAGE, "sysctl %s does not exist: no %s (see "
				 "'sysctl -a' for the names)", name, path);
	if (sysfile_read(path, &sb)) {
		strbuf_release(&sb);
		return error_set(err, EXIT_ENV, "cannot read sysctl %s: %s (run as root)",
				 name, strerror(errno));
	}
	if (for_writing && (fd = open(path, O_WRONLY | O_CLOEXEC)) < 0) {
		strbuf_release(&sb);
		return error_set(err, EXIT_ENV, "cannot change sysctl %s: %s (%s)", name,
				 strerror(errno), errno == EROFS ? "/proc/sys is read-only here, "
				 "as in a container" : "it is read-only, or run as root");
	}
	if (for_writing)
		close(fd);
	while (sb.len && (sb.buf[sb.len - 1] == '\n' || sb.buf[sb.len - 1] == ' '))
		sb.buf[--sb.len] = '\0';
	*value = strbuf_detach(&sb);
	return 0;
}

static const char *feature_file(void)
{
	for (const char *const *f = feature_files; *f; f++)
		if (!access(*f, F_OK))
			return *f;
	return NULL;
}

static int feature_read(const char *name, bool for_writing, char **value, struct error *err)
{
	const char *path = feature_file();
	struct strbuf sb = STRBUF_INIT;
	char *save = NULL;
	int fd;

	if (!path)
		return error_set(err, EXIT_ENV, "cannot change scheduler feature %s: neither %s "
				 "nor %s exists (mount debugfs: mount -t debugfs none "
				 "/sys/kernel/debug; a container or lockdown may forbid it)",
				 name, feature_files[0], feature_files[1]);
	if (sysfile_read(path, &sb) ||
	    (for_writing && (fd = open(path, O_WRONLY | O_CLOEXEC)) < 0)) {
		strbuf_release(&sb);
		return error_set(err, EXIT_ENV, "cannot change scheduler feature %s: %s: %s "
				 "(run as root; lockdown forbids it)", name, path, strerror(errno));
	}
	if (for_writing)
		close(fd);
	*value = NULL;
	for (char *tok = strtok_r(sb.buf, " \t\n", &save); tok && !*value;
	     tok = strtok_r(NULL, " \t\n", &save))
		if (!strcmp(tok, name) || (!strncmp(tok, "NO_", 3) && !strcmp(tok + 3, name)))
			*value = xstrdup(tok);
	strbuf_release(&sb);
	if (!*value)
		return error_set(err, EXIT_USAGE, "no scheduler feature %s in %s (see that file "
				 "for the names)", name, path);
	return 0;
}

int knob_read(const char *kind, const char *name, bool for_writing, char **value,
	      struct error *err)
{
	if (!strcmp(kind, "sysctl"))
		return sysctl_read(name, for_writing, value, err);
	if (!strcmp(kind, "feature"))
		return feature_read(name, for_writing, value, err);
	return error_set(err, EXIT_INTERNAL, "unknown knob kind '%s'", kind);
}

int knob_write(const char *kind, const char *name, const char *value, struct error *err)
{
	char path[512];

	if (!strcmp(kind, "sysctl"))
		sysctl_path(name, path, sizeof(path));
	else if (feature_file())
		snprintf(path, sizeof(path), "%s", feature_file());
	else
		return error_set(err, EXIT_ENV, "cannot set scheduler feature %s: debugfs is "
				 "gone", name);
	if (sysfile_write(path, value))
		return error_set(err, errno == EINVAL ? EXIT_USAGE : EXIT_ENV,
				 "cannot set %s %s to '%.64s': %s (%s)", kind, name, value,
				 strerror(errno), errno == EINVAL ? "give a value the kernel "
				 "accepts" : "run as root");
	return 0;
}
