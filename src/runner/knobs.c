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

#include "runner/knobs.h"
#include "util/array.h"
#include "util/strbuf.h"
#include "util/sysfile.h"
#include "util/xalloc.h"

/* The kinds of machine setting: a new kind is its file and a row here. */
static const struct knob_setting *const knob_settings[] = {
	&knob_sysctl,
	&knob_feature,
};

/* The knobs of the benchmark itself, which ab applies to its sides. */
static const struct {
	const char *kind;
	enum knob_kind knob;
	bool needs_name;	/* NAME=VALUE */
	const char *syntax;
} benchmark_knobs[] = {
	{ "cpus", KNOB_CPUS, false, "cpus:LIST" },
	{ "param", KNOB_PARAM, true, "param:KEY=VALUE" },
	{ "env", KNOB_ENV, true, "env:VAR=VALUE" },
	{ "cmd", KNOB_CMD, false, "cmd:PROGRAM ARGS" },
};

const struct knob_setting *knob_setting_find(const char *kind)
{
	for (size_t i = 0; i < ARRAY_SIZE(knob_settings); i++)
		if (!strcmp(knob_settings[i]->kind, kind))
			return knob_settings[i];
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

/* "sysctl:NAME=VALUE, feature:[NO_]NAME, ... or cmd:PROGRAM ARGS" */
static void all_syntaxes(struct strbuf *sb)
{
	size_t n = ARRAY_SIZE(knob_settings) + ARRAY_SIZE(benchmark_knobs);

	for (size_t i = 0; i < n; i++)
		strbuf_addf(sb, "%s%s", i == 0 ? "" : i + 1 < n ? ", " : " or ",
			    i < ARRAY_SIZE(knob_settings) ? knob_settings[i]->syntax :
			    benchmark_knobs[i - ARRAY_SIZE(knob_settings)].syntax);
}

static int not_a_knob(const char *text, const char *side, struct error *err)
{
	struct strbuf sb = STRBUF_INIT;

	all_syntaxes(&sb);
	error_set(err, EXIT_USAGE, "ab: %s '%.64s' is not a knob (give %s)", side, text, sb.buf);
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
	for (size_t i = 0; i < ARRAY_SIZE(benchmark_knobs); i++) {
		size_t len = strlen(benchmark_knobs[i].kind);

		if (!strncmp(text, benchmark_knobs[i].kind, len) && text[len] == ':') {
			*bench = i;
			return len + 1;
		}
	}
	return 0;
}

static int add_machine(struct knob *k, const struct knob_setting *s, const char *body,
		       const char *side, struct error *err)
{
	struct error why = { 0 };

	k->kind = KNOB_MACHINE;
	k->setting = s;
	if (!s->parse(body, &k->name, &k->value, &why))
		return 0;
	return error_set(err, EXIT_USAGE, "ab: %s %s:%.64s: %s", side, s->kind, body, why.msg);
}

static int add_benchmark(struct knob *k, size_t i, const char *text, const char *body,
			 const char *side, struct error *err)
{
	const char *eq = strchr(body, '=');

	k->kind = benchmark_knobs[i].knob;
	if (benchmark_knobs[i].needs_name) {
		if (!eq || eq == body)
			return error_set(err, EXIT_USAGE, "ab: %s '%.64s' needs NAME=VALUE (write "
					 "it as %s)", side, text, benchmark_knobs[i].syntax);
		k->name = xstrndup(body, (size_t)(eq - body));
		k->value = xstrdup(eq + 1);
	} else {
		k->value = xstrdup(body);
	}
	if ((k->kind == KNOB_ENV && (!knob_valid_name(k->name, "") ||
				     isdigit((unsigned char)*k->name))) ||
	    ((k->kind == KNOB_CPUS || k->kind == KNOB_CMD) && !*k->value))
		return error_set(err, EXIT_USAGE, "ab: %s '%.64s': bad %s: name or empty value "
				 "(give letters, digits and '_')", side, text,
				 benchmark_knobs[i].kind);
	return 0;
}

static int add_item(struct knob_list *list, const char *text, const char *side,
		    struct error *err)
{
	const struct knob_setting *setting;
	struct knob k = { 0 };
	size_t bench = 0, len = prefix_of(text, &setting, &bench);
	int rc;

	if (!len)
		return not_a_knob(text, side, err);
	if (setting)
		rc = add_machine(&k, setting, text + len, side, err);
	else
		rc = add_benchmark(&k, bench, text, text + len, side, err);
	if (rc) {
		free(k.name);
		free(k.value);
		return -1;
	}
	list->knobs = xreallocarray(list->knobs, list->nr + 1, sizeof(k));
	list->knobs[list->nr++] = k;
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

/* The length of the item at @p: a cmd: takes the rest, a cpus: its CPU list. */
static size_t item_length(const char *p)
{
	size_t len;

	if (!strncmp(p, "cmd:", 4))
		return strlen(p);
	len = strcspn(p, ",");
	if (strncmp(p, "cpus:", 5))
		return len;
	/* No knob is a bare number: what follows a cpus: and is one is its list's. */
	while (p[len] == ',' && cpulist_part(p + len + 1, strcspn(p + len + 1, ",")))
		len += 1 + strcspn(p + len + 1, ",");
	return len;
}

int knobs_parse(struct knob_list *list, const char *spec, const char *side, struct error *err)
{
	const char *p = spec;

	if (!*spec)
		return error_set(err, EXIT_USAGE, "ab: %s is empty (give a knob, e.g. "
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

int knob_read(const char *kind, const char *name, bool for_writing, char **value,
	      struct error *err)
{
	const struct knob_setting *s = knob_setting_find(kind);

	if (!s)
		return error_set(err, EXIT_ENV, "a knob of kind '%.32s' is journalled, which this "
				 "schedperf does not know (restore it with the schedperf that "
				 "changed it)", kind);
	return s->read(name, for_writing, value, err);
}

int knob_write(const char *kind, const char *name, const char *value, struct error *err)
{
	const struct knob_setting *s = knob_setting_find(kind);

	if (!s)
		return error_set(err, EXIT_ENV, "a knob of kind '%.32s' is journalled, which this "
				 "schedperf does not know (restore it with the schedperf that "
				 "changed it)", kind);
	return s->write(name, value, err);
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
