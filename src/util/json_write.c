// SPDX-License-Identifier: GPL-2.0
/*
 * A jansson tree written as json_dumpf(JSON_INDENT(n) |
 * JSON_REAL_PRECISION(17)) writes it, byte for byte, in a fraction of its
 * time: jansson formats each real with snprintf("%.17g") and hands every
 * token to fwrite(), which were most of the time of an export or a
 * history of many values. Reals go through format_g17() here, tokens into
 * a buffer. What jansson does to a real after snprintf is done the same
 * way: ".0" added to one with neither '.' nor 'e', an exponent's '+' and
 * leading zeros taken away.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json_write.h"
#include "util/numfmt.h"
#include "util/xalloc.h"

struct json_out {
	FILE *out;
	int indent;
	int failed;
	size_t used;
	char buf[1 << 16];
};

static void flush(struct json_out *o)
{
	if (o->used && fwrite(o->buf, 1, o->used, o->out) != o->used)
		o->failed = 1;
	o->used = 0;
}

static void put(struct json_out *o, const char *s, size_t n)
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

static void put_char(struct json_out *o, char c)
{
	if (o->used == sizeof(o->buf))
		flush(o);
	o->buf[o->used++] = c;
}

/* A new line at @depth, or with no indent the space after a separator (@space). */
static void indent(struct json_out *o, int depth, int space)
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
static void put_string(struct json_out *o, const char *s, size_t len)
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
static void put_real(struct json_out *o, double v)
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

static void put_value(struct json_out *o, const json_t *json, int depth);

static void put_array(struct json_out *o, const json_t *json, int depth)
{
	size_t n = json_array_size(json);

	put_char(o, '[');
	if (n)
		indent(o, depth + 1, 0);
	for (size_t i = 0; i < n; i++) {
		put_value(o, json_array_get(json, i), depth + 1);
		if (i + 1 < n) {
			put_char(o, ',');
			indent(o, depth + 1, 1);
		} else {
			indent(o, depth, 0);
		}
	}
	put_char(o, ']');
}

static void put_object(struct json_out *o, const json_t *json, int depth)
{
	void *iter = json_object_iter((json_t *)json);

	put_char(o, '{');
	if (iter)
		indent(o, depth + 1, 0);
	while (iter) {
		void *next = json_object_iter_next((json_t *)json, iter);
		const char *key = json_object_iter_key(iter);

		put_string(o, key, json_object_iter_key_len(iter));
		put(o, ": ", 2);
		put_value(o, json_object_iter_value(iter), depth + 1);
		if (next) {
			put_char(o, ',');
			indent(o, depth + 1, 1);
		} else {
			indent(o, depth, 0);
		}
		iter = next;
	}
	put_char(o, '}');
}

static void put_value(struct json_out *o, const json_t *json, int depth)
{
	char buf[32];

	switch (json_typeof(json)) {
	case JSON_NULL:
		put(o, "null", 4);
		break;
	case JSON_TRUE:
		put(o, "true", 4);
		break;
	case JSON_FALSE:
		put(o, "false", 5);
		break;
	case JSON_INTEGER:
		put(o, buf, (size_t)snprintf(buf, sizeof(buf), "%" JSON_INTEGER_FORMAT,
					     json_integer_value(json)));
		break;
	case JSON_REAL:
		put_real(o, json_real_value(json));
		break;
	case JSON_STRING:
		put_string(o, json_string_value(json), json_string_length(json));
		break;
	case JSON_ARRAY:
		put_array(o, json, depth);
		break;
	case JSON_OBJECT:
		put_object(o, json, depth);
		break;
	}
}

int json_write(FILE *out, const json_t *json, int indent_by)
{
	struct json_out *o;
	int failed;

	if (!json_is_array(json) && !json_is_object(json))
		return -1;
	o = xmalloc(sizeof(*o));
	o->out = out;
	o->indent = indent_by;
	o->failed = 0;
	o->used = 0;
	put_value(o, json, 0);
	flush(o);
	failed = o->failed;
	free(o);
	return failed ? -1 : 0;
}
