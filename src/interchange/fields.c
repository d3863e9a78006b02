// SPDX-License-Identifier: GPL-2.0
/*
 * The checks of schedperf-results/1's values that every part of a
 * document shares (fields.h): each names where the bad value is, and says
 * why, before anything reaches the store.
 */
#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interchange/fields.h"
#include "util/utf8.h"
#include "util/xalloc.h"

/*
 * A key is the file's own text (an environment key, an unknown key): its
 * controls and marks that reorder a line are escaped as every message
 * shows them (utf8.h), not printed raw nor made '?'.
 */
void where_child(struct where *child, const struct where *parent, const char *key,
		 long index)
{
	char shown[sizeof(child->path)];

	utf8_escape(shown, sizeof(shown), key);
	if (index >= 0)
		snprintf(child->path, sizeof(child->path), "%s%s%s[%ld]", parent->path,
			 parent->path[0] && shown[0] ? "." : "", shown, index);
	else
		snprintf(child->path, sizeof(child->path), "%s%s%s", parent->path,
			 parent->path[0] ? "." : "", shown);
}

int bad(struct error *err, const char *file, const struct where *w, const char *why)
{
	return error_set(err, EXIT_USAGE, "cannot import '%s': %s: %s (fix the file; "
			 "nothing was imported)", file, w->path[0] ? w->path : "document", why);
}

/* A required non-empty string of printable characters, at most @max bytes. */
const char *get_text(json_t *obj, const char *key, size_t max, bool allow_empty,
		     const char *file, const struct where *parent, struct error *err)
{
	json_t *v = json_object_get(obj, key);
	const char *s, *why;
	struct where w;

	where_child(&w, parent, key, -1);
	if (!v) {
		bad(err, file, &w, "missing");
		return NULL;
	}
	if (!json_is_string(v)) {
		bad(err, file, &w, "not a string");
		return NULL;
	}
	s = json_string_value(v);
	if ((why = text_refused(s, json_string_length(v), max, allow_empty))) {
		bad(err, file, &w, why);
		return NULL;
	}
	return s;
}

/* "@len bytes, over the limit of @max": until the next call. */
static const char *over_limit(const char *what, size_t len, size_t max)
{
	static char why[96];

	snprintf(why, sizeof(why), "%s%zu bytes, over the limit of %zu", what, len, max);
	return why;
}

const char *text_refused(const char *s, size_t len, size_t max, bool allow_empty)
{
	if (strlen(s) != len || !utf8_plain(s))
		return "contains control characters, or marks such as U+202E that reorder a line";
	if (!allow_empty && !*s)
		return "empty";
	if (len > max)
		return over_limit("", len, max);
	return NULL;
}

/* The end of the number at @p: its digits, sign, point and exponent. */
static const char *number_end(const char *p, const char *end)
{
	while (p < end && *p && (isdigit((unsigned char)*p) || strchr("-+.eE", *p)))
		p++;
	return p;
}

/* Whether the number of @len characters at @p has a digit not 0 before its exponent yet reads 0. */
static bool reads_as_zero(const char *p, size_t len)
{
	bool nonzero = false;
	char *num;
	double v;

	for (size_t i = 0; i < len && p[i] != 'e' && p[i] != 'E'; i++)
		nonzero |= p[i] >= '1' && p[i] <= '9';
	if (!nonzero)
		return false;
	num = xstrndup(p, len);
	v = strtod(num, NULL);
	free(num);
	return v == 0;
}

/* Where a scan of JSON text is: past strings, at numbers. */
struct json_scan {
	const char *p, *end, *bol;	/* next character, the end, its line's start */
	size_t line;			/* from 1 */
};

/* The next number of the text outside strings, *@q its end; NULL at the end. */
static const char *next_number(struct json_scan *s, const char **q)
{
	bool in_string = false;

	for (; s->p < s->end; s->p++) {
		const char *p = s->p;

		if (*p == '\n') {
			s->line++;
			s->bol = p + 1;
		} else if (in_string) {
			if (*p == '\\' && p + 1 < s->end)
				s->p++;
			else if (*p == '"')
				in_string = false;
		} else if (*p == '"') {
			in_string = true;
		} else if (*p == '-' || isdigit((unsigned char)*p)) {
			*q = number_end(p, s->end);
			s->p = *q;
			return p;
		}
	}
	return NULL;
}

/*
 * The first number of the JSON text @buf that strtod() takes to 0 though
 * a digit of it is not 0 (1e-400): NULL when there is none. Strings are
 * skipped; *@line and *@col (from 1) say where it starts.
 */
const char *json_underflow(const char *buf, size_t len, size_t *line, size_t *col)
{
	struct json_scan s = { buf, buf + len, buf, 1 };
	const char *p, *q;

	while ((p = next_number(&s, &q)))
		if (reads_as_zero(p, (size_t)(q - p))) {
			*line = s.line;
			*col = (size_t)(p - s.bol) + 1;
			return p;
		}
	return NULL;
}

/* Whether the number of @len characters at @p is whole and beyond 64 bits. */
static bool integer_too_big(const char *p, size_t len)
{
	char *num;
	bool big;

	if (memchr(p, '.', len) || memchr(p, 'e', len) || memchr(p, 'E', len))
		return false;
	num = xstrndup(p, len);
	errno = 0;
	strtoll(num, NULL, 10);
	big = errno == ERANGE;
	free(num);
	return big;
}

char *json_big_integers_as_reals(const char *buf, size_t len, size_t *out_len)
{
	struct json_scan s = { buf, buf + len, buf, 1 };
	const char *p, *q, *from = buf;
	char *out = NULL;
	size_t n = 0;

	while ((p = next_number(&s, &q))) {
		if (!integer_too_big(p, (size_t)(q - p)))
			continue;
		/* room for ".0" after every such number, each of 19 digits or more */
		if (!out)
			out = xmalloc(len + 2 * (len / 19 + 1) + 1);
		memcpy(out + n, from, (size_t)(q - from));
		n += (size_t)(q - from);
		memcpy(out + n, ".0", 2);
		n += 2;
		from = q;
	}
	if (!out)
		return NULL;
	memcpy(out + n, from, (size_t)(buf + len - from));
	n += (size_t)(buf + len - from);
	out[n] = 0;
	*out_len = n;
	return out;
}

void json_big_integers_place(const char *buf, size_t len, json_error_t *jerr)
{
	struct json_scan s = { buf, buf + len, buf, 1 };
	const char *p, *q;
	size_t added = 0;

	if (jerr->position <= 0)
		return;
	while ((p = next_number(&s, &q))) {
		if (!integer_too_big(p, (size_t)(q - p)))
			continue;
		/* this number's ".0" was at q + added in the text read: after the error? */
		if ((size_t)(q - buf) + added >= (size_t)jerr->position)
			break;
		added += 2;
		if (s.line == (size_t)jerr->line)
			jerr->column -= 2;
	}
	jerr->position -= (int)added;
}

int check_keys(json_t *obj, const char *const *allowed, const char *file,
	       const struct where *w, struct error *err)
{
	const char *key;
	json_t *v;

	json_object_foreach(obj, key, v) {
		const char *const *a;

		for (a = allowed; *a && strcmp(*a, key); a++)
			;
		if (!*a) {
			struct where k;
			char why[160];

			where_child(&k, w, key, -1);
			snprintf(why, sizeof(why), "unknown key");
			return bad(err, file, &k, why);
		}
	}
	return 0;
}

int read_string_map(json_t *obj, const char *file, const struct where *w,
		    struct error *err,
		    const char *(*add)(void *ctx, const char *k, const char *v), void *ctx)
{
	const char *key, *why;
	json_t *v;

	if (!json_is_object(obj))
		return bad(err, file, w, "not an object of strings");
	json_object_foreach(obj, key, v) {
		struct where kw;

		where_child(&kw, w, key, -1);
		if ((why = pair_refused(key, v)) || (why = add(ctx, key, json_string_value(v))))
			return bad(err, file, &kw, why);
	}
	return 0;
}

const char *pair_refused(const char *key, json_t *v)
{
	if (!*key)
		return "key empty";
	if (strlen(key) > FIELD_KEY)
		return over_limit("key of ", strlen(key), FIELD_KEY);
	if (!utf8_plain(key))
		return "key not printable (control characters, or marks such as U+202E "
		       "that reorder a line)";
	if (!json_is_string(v))
		return "not a string";
	if (strlen(json_string_value(v)) != json_string_length(v))
		return "contains NUL";
	if (json_string_length(v) > FIELD_VALUE)
		return over_limit("", json_string_length(v), FIELD_VALUE);
	return NULL;
}

/* An optional number >= 0 at @key of @obj into *@out (NAN when absent). */
int read_seconds(json_t *obj, const char *key, double *out, const char *file,
		 const struct where *w, struct error *err)
{
	json_t *v = json_object_get(obj, key);
	struct where kw;

	*out = NAN;
	if (!v)
		return 0;
	where_child(&kw, w, key, -1);
	if (!json_is_number(v) || !isfinite(json_number_value(v)) || json_number_value(v) < 0)
		return bad(err, file, &kw, "not a number of seconds, 0 or more");
	*out = json_number_value(v);
	return 0;
}

int read_flag(json_t *obj, const char *key, bool *out, const char *file,
	      const struct where *w, struct error *err)
{
	json_t *v = json_object_get(obj, key);
	struct where kw;

	*out = false;
	if (!v)
		return 0;
	where_child(&kw, w, key, -1);
	if (!json_is_boolean(v))
		return bad(err, file, &kw, "not true or false");
	*out = json_is_true(v);
	return 0;
}

/* A required whole number from @min to @max at @key of @obj. */
int get_count(json_t *obj, const char *key, json_int_t min, json_int_t max,
	      json_int_t *out, const char *file, const struct where *parent,
	      struct error *err)
{
	json_t *v = json_object_get(obj, key);
	struct where w;
	char why[96];

	where_child(&w, parent, key, -1);
	if (!v)
		return bad(err, file, &w, "missing");
	if (!json_is_integer(v) || json_integer_value(v) < min || json_integer_value(v) > max) {
		snprintf(why, sizeof(why), "not a whole number from %lld to %lld",
			 (long long)min, (long long)max);
		return bad(err, file, &w, why);
	}
	*out = json_integer_value(v);
	return 0;
}
