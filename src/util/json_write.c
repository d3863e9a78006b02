// SPDX-License-Identifier: GPL-2.0
/*
 * JSON as json_dumpf(JSON_INDENT(n) | JSON_REAL_PRECISION(17)) writes it,
 * byte for byte, in a fraction of its time, from a jansson tree or as it
 * is made (json_write.h): jansson formats each real with snprintf("%.17g")
 * and hands every token to fwrite(), which were most of the time of an
 * export or a history of many values, and their trees most of the rest.
 * Reals go through format_g17() here, tokens into a buffer. What jansson
 * does to a real after snprintf is done the same way: ".0" added to one
 * with neither '.' nor 'e', an exponent's '+' and leading zeros taken
 * away.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json_write.h"
#include "util/numfmt.h"
#include "util/utf8.h"
#include "util/xalloc.h"

/* Containers open at once: far more than any document of ours nests. */
#define JSON_MAX_DEPTH 64

struct json_writer {
	FILE *out;
	int indent;
	int failed;
	int depth;			/* containers open */
	bool has_members[JSON_MAX_DEPTH];	/* of each open one */
	char closer[JSON_MAX_DEPTH];	/* ']' or '}' */
	bool key_given;			/* jw_key() before the next value */
	const char *key;		/* its key, when valid */
	int skipped;			/* containers open inside a member left out */
	size_t used;
	char buf[1 << 16];
};

static void flush(struct json_writer *o)
{
	if (o->used && fwrite(o->buf, 1, o->used, o->out) != o->used)
		o->failed = 1;
	o->used = 0;
}

static void put(struct json_writer *o, const char *s, size_t n)
{
	if (n > sizeof(o->buf) - o->used) {
		flush(o);
		if (n > sizeof(o->buf)) {
			if (fwrite(s, 1, n, o->out) != n)
				o->failed = 1;
			return;
		}
	}
	memcpy(o->buf + o->used, s, n);
	o->used += n;
}

static void put_char(struct json_writer *o, char c)
{
	if (o->used == sizeof(o->buf))
		flush(o);
	o->buf[o->used++] = c;
}

/* A new line at @depth, or with no indent the space after a separator (@space). */
static void indent(struct json_writer *o, int depth, int space)
{
	static const char spaces[] = "                                ";
	size_t n = (size_t)depth * (size_t)o->indent;

	if (!o->indent) {
		if (space)
			put_char(o, ' ');
		return;
	}
	put_char(o, '\n');
	for (; n > sizeof(spaces) - 1; n -= sizeof(spaces) - 1)
		put(o, spaces, sizeof(spaces) - 1);
	put(o, spaces, n);
}

/* A string, with what JSON must escape escaped as jansson does. */
static void put_string(struct json_writer *o, const char *s, size_t len)
{
	const char *run = s, *end = s + len;

	put_char(o, '"');
	for (; s < end; s++) {
		unsigned char c = (unsigned char)*s;
		char seq[8];

		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		put(o, run, (size_t)(s - run));
		run = s + 1;
		switch (c) {
		case '"': put(o, "\\\"", 2); break;
		case '\\': put(o, "\\\\", 2); break;
		case '\b': put(o, "\\b", 2); break;
		case '\f': put(o, "\\f", 2); break;
		case '\n': put(o, "\\n", 2); break;
		case '\r': put(o, "\\r", 2); break;
		case '\t': put(o, "\\t", 2); break;
		default:
			snprintf(seq, sizeof(seq), "\\u%04X", c);
			put(o, seq, 6);
		}
	}
	put(o, run, (size_t)(end - run));
	put_char(o, '"');
}

/* A real as jansson writes it at precision 17. */
static void put_real(struct json_writer *o, double v)
{
	char buf[40], *e;
	int n = format_g17(buf, v);

	e = memchr(buf, 'e', (size_t)n);
	if (!e && !memchr(buf, '.', (size_t)n)) {
		memcpy(buf + n, ".0", 3);
		n += 2;
	} else if (e) {
		char *digits = e + 1 + (e[1] == '-'), *from = e + 2;

		while (*from == '0')
			from++;
		memmove(digits, from, strlen(from) + 1);
		n = (int)strlen(buf);
	}
	put(o, buf, (size_t)n);
}

/*
 * Whether the next value is written: not when the member it would make is
 * left out (its key not UTF-8). Writes the separator and key before it.
 */
static bool value_starts(struct json_writer *o, bool valid)
{
	bool keyed = o->key_given;
	const char *key = o->key;

	o->key_given = false;
	o->key = NULL;
	if (o->skipped || !valid || (keyed && !key))
		return false;
	if (o->depth) {
		if (o->has_members[o->depth - 1])
			put_char(o, ',');
		indent(o, o->depth, o->has_members[o->depth - 1]);
		o->has_members[o->depth - 1] = true;
	}
	if (keyed) {
		put_string(o, key, strlen(key));
		put(o, ": ", 2);
	}
	return true;
}

void jw_key(struct json_writer *w, const char *key)
{
	w->key_given = true;
	w->key = key && utf8_valid(key) ? key : NULL;
}

static void open_container(struct json_writer *w, char opener, char closer)
{
	if (!value_starts(w, true) || w->depth == JSON_MAX_DEPTH) {
		w->skipped++;
		return;
	}
	put_char(w, opener);
	w->closer[w->depth] = closer;
	w->has_members[w->depth++] = false;
}

void jw_object(struct json_writer *w)
{
	open_container(w, '{', '}');
}

void jw_array(struct json_writer *w)
{
	open_container(w, '[', ']');
}

void jw_close(struct json_writer *w)
{
	if (w->skipped) {
		w->skipped--;
		return;
	}
	if (!w->depth)
		return;
	w->depth--;
	if (w->has_members[w->depth])
		indent(w, w->depth, 0);
	put_char(w, w->closer[w->depth]);
}

void jw_string(struct json_writer *w, const char *s)
{
	if (value_starts(w, s && utf8_valid(s)))
		put_string(w, s, strlen(s));
}

void jw_real(struct json_writer *w, double v)
{
	if (value_starts(w, isfinite(v)))
		put_real(w, v);
}

void jw_integer(struct json_writer *w, long long v)
{
	char buf[32];

	if (value_starts(w, true))
		put(w, buf, (size_t)snprintf(buf, sizeof(buf), "%lld", v));
}

void jw_bool(struct json_writer *w, bool v)
{
	if (value_starts(w, true))
		put(w, v ? "true" : "false", v ? 4 : 5);
}

void jw_null(struct json_writer *w)
{
	if (value_starts(w, true))
		put(w, "null", 4);
}

void jw_number(struct json_writer *w, const char *key, double v)
{
	if (key)
		jw_key(w, key);
	if (isfinite(v))
		jw_real(w, v);
	else
		jw_null(w);
}

/* A jansson tree holds only what it could take: every key and value is written. */
void jw_json(struct json_writer *w, const json_t *json)
{
	void *iter;

	if (!json) {
		value_starts(w, false);
		return;
	}
	switch (json_typeof(json)) {
	case JSON_NULL:
		jw_null(w);
		break;
	case JSON_TRUE:
	case JSON_FALSE:
		jw_bool(w, json_is_true(json));
		break;
	case JSON_INTEGER:
		jw_integer(w, json_integer_value(json));
		break;
	case JSON_REAL:
		jw_real(w, json_real_value(json));
		break;
	case JSON_STRING:
		if (value_starts(w, true))
			put_string(w, json_string_value(json), json_string_length(json));
		break;
	case JSON_ARRAY:
		jw_array(w);
		for (size_t i = 0; i < json_array_size(json); i++)
			jw_json(w, json_array_get(json, i));
		jw_close(w);
		break;
	case JSON_OBJECT:
		jw_object(w);
		for (iter = json_object_iter((json_t *)json); iter;
		     iter = json_object_iter_next((json_t *)json, iter)) {
			w->key_given = true;
			w->key = json_object_iter_key(iter);
			jw_json(w, json_object_iter_value(iter));
		}
		jw_close(w);
		break;
	}
}

struct json_writer *json_writer_new(FILE *out, int indent_by)
{
	struct json_writer *w = xmalloc(sizeof(*w));

	w->out = out;
	w->indent = indent_by;
	w->failed = 0;
	w->depth = 0;
	w->key_given = false;
	w->key = NULL;
	w->skipped = 0;
	w->used = 0;
	return w;
}

int json_writer_end(struct json_writer *w)
{
	int failed;

	while (w->skipped || w->depth)
		jw_close(w);
	flush(w);
	failed = w->failed;
	free(w);
	return failed ? -1 : 0;
}

int json_write(FILE *out, const json_t *json, int indent_by)
{
	struct json_writer *w;

	if (!json_is_array(json) && !json_is_object(json))
		return -1;
	w = json_writer_new(out, indent_by);
	jw_json(w, json);
	return json_writer_end(w);
}

void jw_json_text(struct json_writer *w, const char *key, const char *text)
{
	json_t *json = json_loads(text ? text : "{}", 0, NULL);

	jw_key(w, key);
	if (json) {
		jw_json(w, json);
		json_decref(json);
	} else {
		jw_object(w);
		jw_close(w);
	}
}
