/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_UTIL_JSON_WRITE_H
#define SCHEDPERF_UTIL_JSON_WRITE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/*
 * Write @json (an object or an array) to @out as json_dumpf(json, out,
 * JSON_INDENT(@indent) | JSON_REAL_PRECISION(17)) does, byte for byte,
 * several times faster: 0, or -1 when it is neither or a write failed.
 */
int json_write(FILE *out, const json_t *json, int indent);

/*
 * The same text written as it is made, without a tree: for the largest
 * documents (an export, a history), whose trees cost more than their
 * writing and hold every value at once. A value is written as jansson
 * would have put it in its tree: a string that is NULL or not UTF-8 and
 * a real that is not finite are nothing (json_string() and json_real()
 * refuse them), and a member whose key or value is nothing is left out,
 * as json_object_set_new() leaves it.
 */
struct json_writer;

struct json_writer *json_writer_new(FILE *out, int indent);
/* Close what is open, flush and free: 0, or -1 when a write failed. */
int json_writer_end(struct json_writer *w);
/* The key of the next value, inside an object. */
void jw_key(struct json_writer *w, const char *key);
/* Open an object or an array (closed by jw_close()). */
void jw_object(struct json_writer *w);
void jw_array(struct json_writer *w);
void jw_close(struct json_writer *w);
void jw_string(struct json_writer *w, const char *s);
void jw_real(struct json_writer *w, double v);
void jw_integer(struct json_writer *w, long long v);
void jw_bool(struct json_writer *w, bool v);
void jw_null(struct json_writer *w);
/*
 * A number, or null where it is undefined (NaN, an infinity), as a member
 * of @key, or with NULL an element.
 */
void jw_number(struct json_writer *w, const char *key, double v);
/* A value of a jansson tree (NULL: nothing). */
void jw_json(struct json_writer *w, const json_t *json);
/* JSON @text (NULL or unparsable: an empty object), as a member of @key. */
void jw_json_text(struct json_writer *w, const char *key, const char *text);

#endif
