// SPDX-License-Identifier: GPL-2.0
/*
 * The checks of schedperf-results/1's values that every part of a
 * document shares (fields.h): each names where the bad value is, and says
 * why, before anything reaches the store.
 */
#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "interchange/fields.h"

void where_child(struct where *child, const struct where *parent, const char *key,
		 long index)
{
	if (index >= 0)
		snprintf(child->path, sizeof(child->path), "%s%s%s[%ld]", parent->path,
			 parent->path[0] ? "." : "", key, index);
	else
		snprintf(child->path, sizeof(child->path), "%s%s%s", parent->path,
			 parent->path[0] ? "." : "", key);
}

int bad(struct error *err, const char *file, const struct where *w, const char *why)
{
	return error_set(err, EXIT_USAGE, "cannot import '%s': %s: %s (fix the file; "
			 "nothing was imported)", file, w->path[0] ? w->path : "document", why);
}

bool printable_text(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

/* A required non-empty string of printable characters, at most @max bytes. */
const char *get_text(json_t *obj, const char *key, size_t max, bool allow_empty,
		     const char *file, const struct where *parent, struct error *err)
{
	json_t *v = json_object_get(obj, key);
	struct where w;
	const char *s;

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
	if (strlen(s) != json_string_length(v) || !printable_text(s)) {
		bad(err, file, &w, "contains control characters");
		return NULL;
	}
	if ((!allow_empty && !*s) || strlen(s) > max) {
		bad(err, file, &w, allow_empty ? "too long" : "empty or too long");
		return NULL;
	}
	return s;
}

static int two_digits(const char *s)
{
	return (s[0] - '0') * 10 + (s[1] - '0');
}

bool iso8601(const char *s)
{
	/* YYYY-MM-DDTHH:MM:SS, then optional fraction and zone (Z or +HH:MM). */
	static const char pattern[] = "dddd-dd-ddTdd:dd:dd";
	size_t i;

	for (i = 0; pattern[i]; i++) {
		if (pattern[i] == 'd' ? !isdigit((unsigned char)s[i]) : s[i] != pattern[i])
			return false;
	}
	/* Fields in range, so that times sort and print as what they claim to be. */
	if (two_digits(s + 5) < 1 || two_digits(s + 5) > 12 ||
	    two_digits(s + 8) < 1 || two_digits(s + 8) > 31 ||
	    two_digits(s + 11) > 23 || two_digits(s + 14) > 59 || two_digits(s + 17) > 60)
		return false;
	s += i;
	if (*s == '.') {
		if (!isdigit((unsigned char)*++s))
			return false;
		while (isdigit((unsigned char)*s))
			s++;
	}
	if (*s == 'Z')
		return s[1] == '\0';
	if (*s == '+' || *s == '-')
		return isdigit((unsigned char)s[1]) && isdigit((unsigned char)s[2]) &&
		       s[3] == ':' && isdigit((unsigned char)s[4]) &&
		       isdigit((unsigned char)s[5]) && s[6] == '\0';
	return *s == '\0';
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
		    struct error *err, void (*add)(void *ctx, const char *k, const char *v),
		    void *ctx)
{
	const char *key;
	json_t *v;

	if (!json_is_object(obj))
		return bad(err, file, w, "not an object of strings");
	json_object_foreach(obj, key, v) {
		struct where kw;

		where_child(&kw, w, key, -1);
		if (!*key || strlen(key) > 128 || !printable_text(key))
			return bad(err, file, &kw, "key empty, too long or not printable");
		if (!json_is_string(v))
			return bad(err, file, &kw, "not a string");
		if (strlen(json_string_value(v)) != json_string_length(v) ||
		    json_string_length(v) > 65536)
			return bad(err, file, &kw, "contains NUL or is too long");
		add(ctx, key, json_string_value(v));
	}
	return 0;
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
