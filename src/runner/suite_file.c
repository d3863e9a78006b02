// SPDX-License-Identifier: GPL-2.0
/*
 * YAML suite files (schedperf-suite(5)), read with libyaml's document
 * loader: the tree keeps every node's line, so each validation error can
 * point at the line to fix. Sweeps and percent values are expanded here,
 * once, for the machine the suite is planned for; the runner only ever
 * sees "KEY=V1,V2" assignments, exactly as from the command line.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "runner/suite_file.h"
#include "runner/sweep.h"
#include "runner/timeout.h"
#include "util/input_file.h"
#include "util/parse.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Suites are a page of text; anything larger is the wrong file. */
#define SUITE_MAX_BYTES (1 << 20)

#define KNOWN_KEYS "workload, params, sweep, iterations, warmup, timeout"

struct parser {
	const char *name;
	yaml_document_t *doc;
	const struct topology *topo;
	struct error *err;
};

static int line_of(const yaml_node_t *node)
{
	return (int)node->start_mark.line + 1;
}

__attribute__((format(printf, 3, 4)))
static int fail(struct parser *p, const yaml_node_t *node, const char *fmt, ...)
{
	char what[sizeof(p->err->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return error_set(p->err, EXIT_USAGE, "%s:%d: %s", p->name, line_of(node), what);
}

static const char *scalar(const yaml_node_t *node)
{
	if (!node || node->type != YAML_SCALAR_NODE)
		return NULL;
	return (const char *)node->data.scalar.value;
}

static yaml_node_t *node_at(struct parser *p, int index)
{
	return yaml_document_get_node(p->doc, index);
}

/* @assignment, written at @key_node's line: a plan's error about it is said there. */
static void entry_add_assignment(struct suite_entry *e, char *assignment,
				 const yaml_node_t *key_node)
{
	e->assignments = xreallocarray(e->assignments, e->nr_assignments + 1, sizeof(char *));
	e->lines = xreallocarray(e->lines, e->nr_assignments + 1, sizeof(int));
	e->lines[e->nr_assignments] = line_of(key_node);
	e->assignments[e->nr_assignments++] = assignment;
}

/* Is @key already assigned in @e (by params or by sweep)? */
static int entry_has_key(const struct suite_entry *e, const char *key)
{
	size_t len = strlen(key);

	for (size_t i = 0; i < e->nr_assignments; i++)
		if (!strncmp(e->assignments[i], key, len) && e->assignments[i][len] == '=')
			return 1;
	return 0;
}

static int check_new_key(struct parser *p, struct suite_entry *e, const yaml_node_t *key_node,
			 const char *section)
{
	const char *key = scalar(key_node);

	if (!key || !*key || strchr(key, '=') || strchr(key, ','))
		return fail(p, key_node, "bad %s key: expected a parameter name such as threads",
			    section);
	if (entry_has_key(e, key))
		return fail(p, key_node, "parameter '%.64s' given twice (give it once, in params "
			    "or in sweep; a list sweeps values)", key);
	return 0;
}

/* A scalar value for a parameter: non-empty text. */
static int add_value(struct parser *p, struct strbuf *sb, const yaml_node_t *node,
		     const char *key)
{
	const char *v = scalar(node);

	if (!v || !*v)
		return fail(p, node, "params: '%.64s' must be a value or a list of values, "
			    "such as %s: 4 or %s: [1, 2, 4]", key, key, key);
	if (sb->len && sb->buf[sb->len - 1] != '=')
		strbuf_addch(sb, ',');
	strbuf_addstr(sb, v);
	return 0;
}

/* params: {KEY: VALUE | [VALUE, ...]} -> "KEY=V1,V2" with percents resolved. */
static int parse_param(struct parser *p, struct suite_entry *e, const yaml_node_t *key_node,
		       const yaml_node_t *value)
{
	const char *key = scalar(key_node);
	struct strbuf sb = STRBUF_INIT;
	char *resolved;
	int rc = 0;

	if (check_new_key(p, e, key_node, "params"))
		return -1;
	strbuf_addf(&sb, "%s=", key);
	if (value->type == YAML_SEQUENCE_NODE) {
		yaml_node_item_t *item = value->data.sequence.items.start;

		if (item == value->data.sequence.items.top)
			rc = fail(p, value, "params: '%.64s' has an empty list (give at least "
				  "one value)", key);
		for (; !rc && item < value->data.sequence.items.top; item++)
			rc = add_value(p, &sb, node_at(p, *item), key);
	} else {
		rc = add_value(p, &sb, value, key);
	}
	if (rc) {
		strbuf_release(&sb);
		return -1;
	}
	resolved = sweep_resolve_assignment(strbuf_str(&sb), p->topo->cpus, p->err);
	strbuf_release(&sb);
	if (!resolved)
		return fail(p, value, "params: %s", p->err->msg);
	entry_add_assignment(e, resolved, key_node);
	return 0;
}

/* sweep: {KEY: "GEN:MIN..MAX"} -> "KEY=v1,v2,..." on this topology. */
static int parse_sweep(struct parser *p, struct suite_entry *e, const yaml_node_t *key_node,
		       const yaml_node_t *value)
{
	const char *key = scalar(key_node), *gen = scalar(value);
	struct strbuf spec = STRBUF_INIT;
	char *points;

	if (check_new_key(p, e, key_node, "sweep"))
		return -1;
	if (!gen || !*gen)
		return fail(p, value, "sweep: '%.64s' must be a generator such as "
			    "\"stride:2..4x\" (pow2, stride, topology, or 200%%)", key);
	strbuf_addf(&spec, "%s=%s", key, gen);
	points = sweep_expand(strbuf_str(&spec), p->topo, p->err);
	strbuf_release(&spec);
	if (!points)
		return fail(p, value, "%s", p->err->msg);
	entry_add_assignment(e, points, key_node);
	return 0;
}

static int parse_mapping(struct parser *p, struct suite_entry *e, const yaml_node_t *node,
			 const char *section,
			 int (*fn)(struct parser *p, struct suite_entry *e,
				   const yaml_node_t *key, const yaml_node_t *value))
{
	if (node->type != YAML_MAPPING_NODE)
		return fail(p, node, "'%s' must be a mapping of parameter names to %s", section,
			    fn == parse_sweep ? "generators" : "values");
	for (yaml_node_pair_t *pair = node->data.mapping.pairs.start;
	     pair < node->data.mapping.pairs.top; pair++)
		if (fn(p, e, node_at(p, pair->key), node_at(p, pair->value)))
			return -1;
	return 0;
}

static int parse_count(struct parser *p, const yaml_node_t *node, const char *key, long min,
		       int *out)
{
	const char *v = scalar(node);
	long n;

	if (!v || parse_long(v, &n) || n < min || n > 1000000)
		return fail(p, node, "'%s' must be a whole number from %ld, not '%.32s'",
			    key, min, v ? v : "(a list or mapping)");
	*out = (int)n;
	return 0;
}

static int parse_timeout(struct parser *p, const yaml_node_t *node, double *out)
{
	const char *v = scalar(node);
	double t;

	if (!v || parse_double(v, &t) || !iteration_timeout_valid(t))
		return fail(p, node, "'timeout' must be " ITERATION_TIMEOUT_RANGE ", not '%.32s'",
			    v ? v : "(a list or mapping)");
	*out = t;
	return 0;
}

static int parse_workload(struct parser *p, struct suite_entry *e, const yaml_node_t *node)
{
	const char *v = scalar(node);

	if (!v || !*v)
		return fail(p, node, "'workload' must be a workload name such as pipe "
			    "(see 'schedperf list')");
	e->workload = xstrdup(v);
	return 0;
}

static int parse_key(struct parser *p, struct suite_entry *e, const char *key,
		     const yaml_node_t *value)
{
	if (!strcmp(key, "workload"))
		return parse_workload(p, e, value);
	if (!strcmp(key, "params"))
		return parse_mapping(p, e, value, "params", parse_param);
	if (!strcmp(key, "sweep"))
		return parse_mapping(p, e, value, "sweep", parse_sweep);
	if (!strcmp(key, "iterations"))
		return parse_count(p, value, key, 1, &e->iterations);
	if (!strcmp(key, "warmup"))
		return parse_count(p, value, key, 0, &e->warmup);
	return parse_timeout(p, value, &e->timeout);
}

static int known_key(const char *key)
{
	static const char *const known[] = {
		"workload", "params", "sweep", "iterations", "warmup", "timeout", NULL
	};

	for (const char *const *k = known; *k; k++)
		if (!strcmp(*k, key))
			return 1;
	return 0;
}

/* Has a key equal to that of @pair appeared before it in the mapping? */
static int seen_before(struct parser *p, const yaml_node_t *map, const yaml_node_pair_t *pair)
{
	const char *key = scalar(node_at(p, pair->key));

	for (yaml_node_pair_t *q = map->data.mapping.pairs.start; q < pair; q++)
		if (!strcmp(scalar(node_at(p, q->key)), key))
			return 1;
	return 0;
}

/*
 * Each key of @node's sweep mapping, once its workload is known (it may
 * come after the sweep): one that takes no count is said at its line.
 */
static int check_sweep_keys(struct parser *p, const struct suite_entry *e,
			    const yaml_node_t *node)
{
	const struct workload *w = workload_find(e->workload);

	for (yaml_node_pair_t *pair = node->data.mapping.pairs.start;
	     w && pair < node->data.mapping.pairs.top; pair++) {
		yaml_node_t *sweep = node_at(p, pair->value);

		if (strcmp(scalar(node_at(p, pair->key)), "sweep") ||
		    sweep->type != YAML_MAPPING_NODE)
			continue;
		for (yaml_node_pair_t *q = sweep->data.mapping.pairs.start;
		     q < sweep->data.mapping.pairs.top; q++) {
			yaml_node_t *key = node_at(p, q->key);
			char spec[160];

			snprintf(spec, sizeof(spec), "%s=%s", scalar(key),
				 scalar(node_at(p, q->value)));
			if (sweep_check_key(w, spec, p->err))
				return fail(p, key, "%s", p->err->msg);
		}
	}
	return 0;
}

static int parse_entry(struct parser *p, struct suite_entry *e, const yaml_node_t *node)
{
	e->line = line_of(node);
	e->iterations = e->warmup = -1;
	e->timeout = -1;
	if (node->type != YAML_MAPPING_NODE)
		return fail(p, node, "a benchmark must be a mapping with a 'workload' "
			    "(known keys: " KNOWN_KEYS ")");
	for (yaml_node_pair_t *pair = node->data.mapping.pairs.start;
	     pair < node->data.mapping.pairs.top; pair++) {
		yaml_node_t *key_node = node_at(p, pair->key);
		const char *key = scalar(key_node);

		if (!key || !known_key(key))
			return fail(p, key_node, "unknown key '%.64s' (known: " KNOWN_KEYS ")",
				    key ? key : "(not a word)");
		if (seen_before(p, node, pair))
			return fail(p, key_node, "'%s' given twice in one benchmark", key);
		if (parse_key(p, e, key, node_at(p, pair->value)))
			return -1;
	}
	if (!e->workload)
		return fail(p, node, "benchmark without a 'workload' (add workload: NAME; "
			    "see 'schedperf list')");
	return check_sweep_keys(p, e, node);
}

static int parse_root(struct parser *p, struct suite *suite)
{
	yaml_node_t *root = yaml_document_get_root_node(p->doc);

	if (!root || (root->type == YAML_SCALAR_NODE && !*scalar(root)))
		return error_set(p->err, EXIT_USAGE, "%s:1: the suite is empty (a suite is a "
				 "list of benchmarks; see 'man 5 schedperf-suite')", p->name);
	if (root->type != YAML_SEQUENCE_NODE)
		return fail(p, root, "a suite is a list of benchmarks, each starting with "
			    "'- workload: NAME' (see 'man 5 schedperf-suite')");
	if (root->data.sequence.items.start == root->data.sequence.items.top)
		return fail(p, root, "the suite is empty (give at least one benchmark)");
	for (yaml_node_item_t *item = root->data.sequence.items.start;
	     item < root->data.sequence.items.top; item++) {
		struct suite_entry *e;

		suite->entries = xreallocarray(suite->entries, suite->nr_entries + 1,
					       sizeof(*suite->entries));
		e = &suite->entries[suite->nr_entries++];
		memset(e, 0, sizeof(*e));
		if (parse_entry(p, e, node_at(p, *item)))
			return -1;
	}
	return 0;
}

static int syntax_error(const yaml_parser_t *parser, const char *name, struct error *err)
{
	return error_set(err, EXIT_USAGE, "%s:%d: YAML syntax error: %s%s%s (see "
			 "'man 5 schedperf-suite' for the format)", name,
			 (int)parser->problem_mark.line + 1,
			 parser->problem ? parser->problem : "unreadable",
			 parser->context ? " " : "", parser->context ? parser->context : "");
}

/*
 * A suite is one YAML document at most four levels deep (list, benchmark,
 * params, values). libyaml's scanner takes time quadratic in the nesting
 * depth, so a file of a million '[' would hang yaml_parser_load(); walk the
 * events first and stop at the first node nested deeper than any suite
 * can be. yaml_parser_load() reads only the first document, so a second
 * one, which would be silently ignored, is refused here too, and so is a
 * scalar with a NUL in it, which C strings would cut short.
 */
#define SUITE_MAX_DEPTH 16

static int check_shape(const char *name, const char *text, size_t len, struct error *err)
{
	yaml_parser_t parser;
	yaml_event_t event;
	int depth = 0, documents = 0, rc = 0;
	bool done = false;

	if (!yaml_parser_initialize(&parser))
		return error_set(err, EXIT_INTERNAL, "cannot start the YAML parser");
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	while (!done && !rc) {
		if (!yaml_parser_parse(&parser, &event)) {
			rc = syntax_error(&parser, name, err);
			break;
		}
		switch (event.type) {
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (++depth > SUITE_MAX_DEPTH)
				rc = error_set(err, EXIT_USAGE, "%s:%d: nested more than %d levels "
					       "deep (a suite is a list of benchmarks; see "
					       "'man 5 schedperf-suite')", name,
					       (int)event.start_mark.line + 1, SUITE_MAX_DEPTH);
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			depth--;
			break;
		case YAML_SCALAR_EVENT:
			/* "\0" would cut a name or value short without a word */
			if (strlen((const char *)event.data.scalar.value) !=
			    event.data.scalar.length)
				rc = error_set(err, EXIT_USAGE, "%s:%d: a value holds a NUL "
					       "character (remove the \\0)", name,
					       (int)event.start_mark.line + 1);
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (++documents > 1)
				rc = error_set(err, EXIT_USAGE, "%s:%d: a second YAML document "
					       "(a suite is one document: one list of "
					       "benchmarks; see 'man 5 schedperf-suite')", name,
					       (int)event.start_mark.line + 1);
			break;
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		default:
			break;
		}
		yaml_event_delete(&event);
	}
	yaml_parser_delete(&parser);
	return rc;
}

int suite_parse(struct suite *suite, const char *name, const char *text, size_t len,
		const struct topology *topo, struct error *err)
{
	struct error scratch;
	struct parser p = { name, NULL, topo, err ? err : &scratch };
	yaml_parser_t parser;
	yaml_document_t doc;
	int rc;

	memset(suite, 0, sizeof(*suite));
	suite->name = xstrdup(name);
	if (check_shape(name, text, len, p.err))
		return -1;
	if (!yaml_parser_initialize(&parser))
		return error_set(err, EXIT_INTERNAL, "cannot start the YAML parser");
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &doc)) {
		rc = syntax_error(&parser, name, p.err);
		yaml_parser_delete(&parser);
		goto out;
	}
	p.doc = &doc;
	rc = parse_root(&p, suite);
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
out:
	if (rc) {
		char *kept = suite->name;

		suite->name = NULL;
		suite_release(suite);
		suite->name = kept;
	}
	return rc;
}

static char *read_file(const char *path, size_t *len, struct error *err)
{
	const char *why;
	FILE *f = input_file_open(path, &why);
	char *buf;

	if (!f) {
		error_set(err, EXIT_USAGE, "cannot read suite file '%.200s': %s (give a built-in "
			  "suite name or the path of a YAML file)", path, why);
		return NULL;
	}
	buf = xmalloc(SUITE_MAX_BYTES + 1);
	*len = fread(buf, 1, SUITE_MAX_BYTES + 1, f);
	if (ferror(f) || *len > SUITE_MAX_BYTES) {
		error_set(err, EXIT_USAGE, "cannot read suite file '%.200s': %s", path,
			  ferror(f) ? strerror(errno) : "larger than 1 MiB (is it a suite?)");
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* Parse the file at @path. */
static int suite_load_file(struct suite *suite, const char *path,
			   const struct topology *topo, struct error *err)
{
	size_t len;
	char *text;
	int rc;

	memset(suite, 0, sizeof(*suite));
	text = read_file(path, &len, err);
	if (!text)
		return -1;
	rc = suite_parse(suite, path, text, len, topo, err);
	free(text);
	return rc;
}

int suite_load(struct suite *suite, const char *name_or_path, const struct topology *topo,
	       struct error *err)
{
	const char *text = suite_builtin_text(name_or_path);
	struct strbuf sb = STRBUF_INIT;
	int rc;

	if (text) {
		strbuf_addf(&sb, "builtin/%s.yaml", name_or_path);
		rc = suite_parse(suite, strbuf_str(&sb), text, strlen(text), topo, err);
		strbuf_release(&sb);
		return rc;
	}
	memset(suite, 0, sizeof(*suite));
	if ((strchr(name_or_path, '/') || strchr(name_or_path, '.')) &&
	    workload_checking_for_job() && name_or_path[0] != '/')
		return error_set(err, EXIT_USAGE, "suite file '%.64s' is relative to this "
				 "directory, and a worker runs the job in its own (give its "
				 "absolute path, on a file the workers' machines have)",
				 name_or_path);
	if (strchr(name_or_path, '/') || strchr(name_or_path, '.'))
		return suite_load_file(suite, name_or_path, topo, err);
	if (!*name_or_path)
		return error_set(err, EXIT_USAGE, "--suite '' names no suite (give a built-in "
				 "suite: %s; or the path of a YAML file)", suite_names());
	return error_set(err, EXIT_USAGE, "unknown suite '%.64s': not a built-in suite (%s) "
			 "nor a file (give a path such as ./%.64s.yaml)", name_or_path,
			 suite_names(), name_or_path);
}

void suite_release(struct suite *suite)
{
	for (size_t i = 0; i < suite->nr_entries; i++) {
		struct suite_entry *e = &suite->entries[i];

		for (size_t j = 0; j < e->nr_assignments; j++)
			free(e->assignments[j]);
		free(e->assignments);
		free(e->lines);
		free(e->workload);
	}
	free(suite->entries);
	free(suite->name);
	memset(suite, 0, sizeof(*suite));
}

/*
 * Does @msg name the key of "KEY=VALUE" @assignment: quoted as 'KEY' when
 * @quoted, else as a word?
 */
static bool names_key(const char *msg, const char *assignment, bool quoted)
{
	size_t len = strcspn(assignment, "=");
	struct strbuf key = STRBUF_INIT;
	bool found = false;

	strbuf_addf(&key, quoted ? "'%.*s'" : "%.*s", (int)len, assignment);
	len = key.len;
	for (const char *at = msg; !found && (at = strstr(at, key.buf)); at += len) {
		bool starts = at == msg || !(isalnum((unsigned char)at[-1]) || at[-1] == '_');
		bool ends = !(isalnum((unsigned char)at[len]) || at[len] == '_');

		found = quoted || (starts && ends);
	}
	strbuf_release(&key);
	return found;
}

/*
 * The line to fix for plan error @msg of @entry: that of the one parameter
 * it names ('KEY' quoted before a bare word, as "unknown parameter 'lops'
 * ... it takes loops, ..." lists the others bare), else the entry's, as
 * for "give calls >= threads" which names two.
 */
static int error_line(const struct suite_entry *entry, const char *msg)
{
	for (int quoted = 1; quoted >= 0; quoted--) {
		int line = 0, named = 0;

		for (size_t i = 0; i < entry->nr_assignments; i++)
			if (names_key(msg, entry->assignments[i], quoted)) {
				line = entry->lines[i];
				named++;
			}
		if (named == 1)
			return line;
		if (named > 1)
			break;
	}
	return entry->line;
}

int suite_entry_plan(const struct suite *suite, const struct suite_entry *entry,
		     struct plan *plan, struct error *err)
{
	const struct workload *w = workload_find(entry->workload);
	size_t first = plan->nr_items;

	if (!w)
		return error_set(err, EXIT_USAGE, "%s:%d: workload '%.64s' is not in this build "
				 "of schedperf (see 'schedperf list')", suite->name, entry->line,
				 entry->workload);
	if (plan_add(plan, w, entry->assignments, entry->nr_assignments, err)) {
		char why[sizeof(err->msg)];

		if (err) {
			snprintf(why, sizeof(why), "%s", err->msg);
			error_set(err, err->code, "%s:%d: %s", suite->name,
				  error_line(entry, why), why);
		}
		return -1;
	}
	plan_set_overrides(plan, first, entry->iterations, entry->warmup, entry->timeout);
	return 0;
}
