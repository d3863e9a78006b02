// SPDX-License-Identifier: GPL-2.0
/*
 * The knobs of ab's sides: SPEC parsing, and the table of the kinds of
 * machine setting (each in its own file: knob_sysctl.c, knob_feature.c).
 * Everything that could refuse is asked before anything changes (a
 * kind's read with for_writing), so that bad input changes nothing.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glob.h>
#include <sys/stat.h>

#include "runner/cpulist.h"
#include "runner/knob_cgroup.h"
#include "runner/knobs.h"
#include "runner/task_knobs.h"
#include "util/array.h"
#include "util/hash.h"
#include "util/strbuf.h"
#include "util/sysfile.h"
#include "util/xalloc.h"

/* The kinds of machine setting: a new kind is its file and a row here. */
static const struct knob_setting *const knob_settings[] = {
	&knob_sysctl,
	&knob_sysfs,
	&knob_feature,
};

/* Other spellings of a kind: procfs:PATH=VALUE is a sysctl by its path. */
static const struct {
	const char *prefix;
	const struct knob_setting *setting;
	const char *syntax;
} aliases[] = {
	{ "procfs", &knob_sysctl, "procfs:PATH=VALUE" },
};

/* Kinds only a journal names: settings made by knobs, not given. */
static const struct knob_setting *const journal_settings[] = {
	&knob_scratch_cgroup,
};

static int check_task_knob(const struct knob *k, struct error *err)
{
	struct task_knobs t = { 0 };

	return task_knobs_add(&t, k, err);
}

/* Its form: the CPUs are the machine's that runs it to check (cpulist.h). */
static int check_cpus_form(const struct knob *k, struct error *err)
{
	cpu_set_t set;

	return cpulist_parse_form(k->value, NULL, &set, err);
}

/* The knobs of the benchmark itself, which the command applies to its sides. */
static const struct {
	const char *kind;
	enum knob_kind knob;
	bool needs_name;	/* NAME=VALUE */
	const char *syntax;
	const char *example;	/* for a message: one that works */
	int (*check)(const struct knob *k, struct error *err);	/* NULL: any value */
} benchmark_knobs[] = {
	{ "cpus", KNOB_CPUS, false, "cpus:LIST", "cpus:0-3,8", check_cpus_form },
	{ "param", KNOB_PARAM, true, "param:KEY=VALUE", "param:loops=1000", NULL },
	{ "env", KNOB_ENV, true, "env:VAR=VALUE", "env:OMP_NUM_THREADS=2", NULL },
	{ "cmd", KNOB_CMD, false, "cmd:PROGRAM ARGS", "cmd:/usr/bin/sleep 0.01", NULL },
	{ "policy", KNOB_POLICY, false, "policy:other|batch|idle|fifo:PRIO|rr:PRIO",
	  "policy:fifo:10", check_task_knob },
	{ "nice", KNOB_NICE, false, "nice:N", "nice:5", check_task_knob },
	{ "slice", KNOB_SLICE, false, "slice:USEC", "slice:3000", check_task_knob },
	{ "uclamp", KNOB_UCLAMP, false, "uclamp:MIN-MAX", "uclamp:0-512", check_task_knob },
	{ "cgroup", KNOB_CGROUP, true, "cgroup:CONTROLLER.FILE=VALUE", "cgroup:cpu.weight=100",
	  knob_cgroup_check },
};

#define GOVERNOR_SYNTAX "governor:NAME"

const struct knob_setting *knob_setting_find(const char *kind)
{
	for (size_t i = 0; i < ARRAY_SIZE(knob_settings); i++)
		if (!strcmp(knob_settings[i]->kind, kind))
			return knob_settings[i];
	for (size_t i = 0; i < ARRAY_SIZE(journal_settings); i++)
		if (!strcmp(journal_settings[i]->kind, kind))
			return journal_settings[i];
	return NULL;
}

bool knob_valid_name(const char *name, const char *extra)
{
	if (!*name)
		return false;
	for (const char *p = name; *p; p++)
		if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') &&
		    !(*p >= '0' && *p <= '9') && *p != '_' && !strchr(extra, *p))
			return false;
	return true;
}

/* "sysctl:NAME=VALUE, sysfs:PATH=VALUE, ... or cgroup:CONTROLLER.FILE=VALUE" */
static void all_syntaxes(struct strbuf *sb)
{
	size_t machine = ARRAY_SIZE(knob_settings), alias = ARRAY_SIZE(aliases);
	size_t n = machine + alias + 1 + ARRAY_SIZE(benchmark_knobs);

	for (size_t i = 0; i < n; i++)
		strbuf_addf(sb, "%s%s", i == 0 ? "" : i + 1 < n ? ", " : " or ",
			    i < machine ? knob_settings[i]->syntax :
			    i < machine + alias ? aliases[i - machine].syntax :
			    i == machine + alias ? GOVERNOR_SYNTAX :
			    benchmark_knobs[i - machine - alias - 1].syntax);
}

static int not_a_knob(const char *text, const char *side, struct error *err)
{
	struct strbuf sb = STRBUF_INIT;

	all_syntaxes(&sb);
	error_set(err, EXIT_USAGE, "%s '%.64s' is not a knob (give %s)", side, text, sb.buf);
	strbuf_release(&sb);
	return -1;
}

/* The length of "KIND:" when @text starts with a machine kind's or a benchmark knob's. */
static size_t prefix_of(const char *text, const struct knob_setting **setting, size_t *bench)
{
	*setting = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(knob_settings); i++) {
		size_t len = strlen(knob_settings[i]->kind);

		if (!strncmp(text, knob_settings[i]->kind, len) && text[len] == ':') {
			*setting = knob_settings[i];
			return len + 1;
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(aliases); i++) {
		size_t len = strlen(aliases[i].prefix);

		if (!strncmp(text, aliases[i].prefix, len) && text[len] == ':') {
			*setting = aliases[i].setting;
			return len + 1;
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(benchmark_knobs); i++) {
		size_t len = strlen(benchmark_knobs[i].kind);

		if (!strncmp(text, benchmark_knobs[i].kind, len) && text[len] == ':') {
			*bench = i;
			return len + 1;
		}
	}
	return 0;
}

/* @text is the item as given: its kind as spelt there (procfs:, not sysctl:), then @body. */
static int add_machine(struct knob *k, const struct knob_setting *s, const char *text,
		       const char *body, const char *side, struct error *err)
{
	struct error why = { 0 };

	k->kind = KNOB_MACHINE;
	k->setting = s;
	if (!s->parse(body, &k->name, &k->value, &why))
		return 0;
	return error_set(err, EXIT_USAGE, "%s %.*s%.64s: %s", side, (int)(body - text), text,
			 body, why.msg);
}

static int add_benchmark(struct knob *k, size_t i, const char *text, const char *body,
			 const char *side, struct error *err)
{
	const char *eq = strchr(body, '=');
	struct error why = { 0 };

	k->kind = benchmark_knobs[i].knob;
	if (benchmark_knobs[i].needs_name) {
		if (!eq || eq == body)
			return error_set(err, EXIT_USAGE, "%s '%.64s' needs NAME=VALUE (write "
					 "it as %s)", side, text, benchmark_knobs[i].syntax);
		k->name = xstrndup(body, (size_t)(eq - body));
		k->value = xstrdup(eq + 1);
	} else {
		k->value = xstrdup(body);
	}
	if (k->kind == KNOB_ENV && (!knob_valid_name(k->name, "") ||
				    isdigit((unsigned char)*k->name)))
		return error_set(err, EXIT_USAGE, "%s '%.64s': '%.64s' is not a variable's name "
				 "(give letters, digits and '_', not first a digit)", side, text,
				 k->name);
	if ((k->kind == KNOB_CPUS || k->kind == KNOB_CMD) && !*k->value)
		return error_set(err, EXIT_USAGE, "%s '%.64s' has no value (write it as %s, e.g. "
				 "%s)", side, text, benchmark_knobs[i].syntax,
				 benchmark_knobs[i].example);
	if (benchmark_knobs[i].check && benchmark_knobs[i].check(k, &why))
		return error_set(err, EXIT_USAGE, "%s %s: %s", side, text, why.msg);
	return 0;
}

static void append(struct knob_list *list, const struct knob *k)
{
	list->knobs = xreallocarray(list->knobs, list->nr + 1, sizeof(*k));
	list->knobs[list->nr++] = *k;
}

/*
 * governor:NAME: a sysfs: knob for the scaling_governor of each cpufreq
 * policy (CPUs that share one have one file, reached by each CPU's link).
 */
static int add_governor(struct knob_list *list, const char *name, const char *side,
			struct error *err)
{
	glob_t g;
	int rc = 0;

	if (!*name || !knob_valid_name(name, "-"))
		return error_set(err, EXIT_USAGE, "%s governor:%.64s: not a governor's name "
				 "(give one of scaling_available_governors)", side, name);
	if (glob("/sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor", 0, NULL, &g)) {
		globfree(&g);
		return error_set(err, EXIT_ENV, "%s governor:%s: no CPU here has a cpufreq "
				 "governor (no /sys/devices/system/cpu/cpu*/cpufreq: a virtual "
				 "machine or a kernel without cpufreq)", side, name);
	}
	for (size_t i = 0; i < g.gl_pathc && !rc; i++) {
		struct knob k = { .kind = KNOB_MACHINE, .setting = &knob_sysfs };
		char *text = xstrdup(g.gl_pathv[i]), *spec;
		bool seen = false;

		spec = xmalloc(strlen(text) + strlen(name) + 2);
		sprintf(spec, "%s=%s", text, name);
		rc = add_machine(&k, &knob_sysfs, spec, spec, side, err);
		for (size_t j = 0; !rc && j < list->nr; j++)
			seen |= list->knobs[j].setting == &knob_sysfs &&
				!strcmp(list->knobs[j].name, k.name);
		if (!rc && !seen) {
			append(list, &k);
		} else {
			free(k.name);
			free(k.value);
		}
		free(spec);
		free(text);
	}
	globfree(&g);
	return rc;
}

/* Whether @list has @k as it is: one knob given twice is the one knob. */
static bool already_given(const struct knob_list *list, const struct knob *k)
{
	for (size_t i = 0; i < list->nr; i++) {
		const struct knob *o = &list->knobs[i];

		if (o->kind == k->kind && o->setting == k->setting && !strcmp(o->value, k->value) &&
		    (o->name == k->name || (o->name && k->name && !strcmp(o->name, k->name))))
			return true;
	}
	return false;
}

static int add_item(struct knob_list *list, const char *text, const char *side,
		    struct error *err)
{
	const struct knob_setting *setting;
	struct knob k = { 0 };
	size_t bench = 0, len = prefix_of(text, &setting, &bench);
	int rc;

	if (!strncmp(text, "governor:", 9))
		return add_governor(list, text + 9, side, err);
	if (!len)
		return not_a_knob(text, side, err);
	if (setting)
		rc = add_machine(&k, setting, text, text + len, side, err);
	else
		rc = add_benchmark(&k, bench, text, text + len, side, err);
	if (rc || already_given(list, &k)) {
		free(k.name);
		free(k.value);
		return rc;
	}
	append(list, &k);
	return 0;
}

/* Whether @item (of @len) is a CPU number or range: what continues a cpus: list. */
static bool cpulist_part(const char *item, size_t len)
{
	size_t digits = strspn(item, "0123456789");

	if (!digits || digits > len)
		return false;
	if (digits == len)
		return true;
	if (item[digits] != '-')
		return false;
	return strspn(item + digits + 1, "0123456789") == len - digits - 1 && len > digits + 1;
}

/*
 * The length of the item at @p: a cmd: takes the rest, any other the
 * parts of a CPU list after it (cpus:0,2 or cgroup:cpuset.cpus=0,2).
 */
static size_t item_length(const char *p)
{
	size_t len;

	if (!strncmp(p, "cmd:", 4))
		return strlen(p);
	len = strcspn(p, ",");
	/* No knob is a bare number or range: one after a comma is the value's. */
	while (p[len] == ',' && cpulist_part(p + len + 1, strcspn(p + len + 1, ",")))
		len += 1 + strcspn(p + len + 1, ",");
	return len;
}

int knobs_parse(struct knob_list *list, const char *spec, const char *side, struct error *err)
{
	const char *p = spec;

	if (!*spec)
		return error_set(err, EXIT_USAGE, "%s is empty (give a knob, e.g. "
				 "sysctl:NAME=VALUE)", side);
	for (;;) {
		size_t len = item_length(p);
		char *item = xstrndup(p, len);
		int rc = add_item(list, item, side, err);

		free(item);
		if (rc)
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

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The SPEC's prefix of @k's kind ("sysctl", "env"): what names it in every version. */
static const char *knob_kind_name(const struct knob *k)
{
	if (k->setting)
		return k->setting->kind;
	for (size_t i = 0; i < ARRAY_SIZE(benchmark_knobs); i++)
		if (benchmark_knobs[i].knob == k->kind)
			return benchmark_knobs[i].kind;
	return "";
}

/*
 * A knob of the tasks' as its batch records it (nice:+0 and nice:00 are
 * nice=0, as ab compares them), else its value as given.
 */
static const char *task_knob_value(const struct knob *k, char *buf, size_t len)
{
	struct task_knobs t = { 0 };
	struct error err = { 0 };

	if (!task_knob_kind(k->kind) || task_knobs_add(&t, k, &err))
		return k->value ? k->value : "";
	task_knobs_describe(&t, buf, len);
	return buf;
}

const char *knobs_env(const struct knob_list *list, const char *var)
{
	for (size_t k = 0; k < list->nr; k++)
		if (list->knobs[k].kind == KNOB_ENV && !strcmp(list->knobs[k].name, var))
			return list->knobs[k].value;
	return NULL;
}

uint64_t knobs_hash(const struct knob_list *list, uint64_t h)
{
	char **lines = xcalloc(list->nr + 1, sizeof(char *));

	/* each knob a line of its kind, name and value; sorted, hashed */
	for (size_t i = 0; i < list->nr; i++) {
		const struct knob *k = &list->knobs[i];
		char value[128];

		lines[i] = xasprintf("%s\t%s\t%s", knob_kind_name(k), k->name ? k->name : "",
				     task_knob_value(k, value, sizeof(value)));
	}
	qsort(lines, list->nr, sizeof(char *), compare_strings);
	for (size_t i = 0; i < list->nr; i++) {
		h = fnv1a(h, lines[i], strlen(lines[i]) + 1);
		free(lines[i]);
	}
	free(lines);
	return h;
}

/*
 * The kind of a journalled setting, or NULL with @err. A file's name must
 * be the one its kind's parse gives (under /proc/sys, under /sys), so that
 * a journal changed by hand cannot have a file elsewhere read or written;
 * a kind no SPEC gives (a scratch cgroup) checks its names itself.
 */
static const struct knob_setting *journalled(const char *kind, const char *name,
					     struct error *err)
{
	const struct knob_setting *s = knob_setting_find(kind);
	char *text, *again = NULL, *value = NULL;
	bool same;

	if (!s) {
		error_set(err, EXIT_ENV, "a knob of kind '%.32s' is journalled, which this "
			  "schedperf does not know (restore it with the schedperf that changed "
			  "it)", kind);
		return NULL;
	}
	if (!s->path)
		return s;
	text = xasprintf("%s=x", name);
	same = !s->parse(text, &again, &value, NULL) && !strcmp(again, name);
	free(text);
	free(again);
	free(value);
	if (!same) {
		error_set(err, EXIT_ENV, "'%.64s' is not a name this schedperf journals as %s "
			  "(the journal was changed by hand: remove its entry)", name, kind);
		return NULL;
	}
	return s;
}

int knob_read(const char *kind, const char *name, bool for_writing, char **value,
	      struct error *err)
{
	const struct knob_setting *s = journalled(kind, name, err);

	return s ? s->read(name, for_writing, value, err) : -1;
}

int knob_write(const char *kind, const char *name, const char *value, struct error *err)
{
	const struct knob_setting *s = journalled(kind, name, err);

	return s ? s->write(name, value, err) : -1;
}

bool knob_gone(const char *kind, const char *name, char *path, size_t len)
{
	const struct knob_setting *s = knob_setting_find(kind);
	struct stat sb;

	if (!s || !s->path)
		return false;
	s->path(name, path, len);
	return stat(path, &sb) && (errno == ENOENT || errno == ENOTDIR);
}

int knob_file_read(const char *path, char **value)
{
	struct strbuf sb = STRBUF_INIT;

	if (sysfile_read(path, &sb)) {
		int saved = errno;

		strbuf_release(&sb);
		errno = saved;
		return -1;
	}
	while (sb.len && isspace((unsigned char)sb.buf[sb.len - 1]))
		sb.buf[--sb.len] = '\0';
	*value = strbuf_detach(&sb);
	return 0;
}
