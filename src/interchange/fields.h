/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_INTERCHANGE_FIELDS_H
#define SCHEDPERF_INTERCHANGE_FIELDS_H

/*
 * Inside the reading of schedperf-results/1 (read.c): a value's place in
 * the document, and the checks of values every part shares (fields.c).
 * Each check returns 0, or -1 with @err (EXIT_USAGE) naming the file
 * @file, the place and why; nothing was imported then.
 */

#include <jansson.h>
#include <stdbool.h>

#include "util/error.h"

struct where {
	char path[160];		/* e.g. runs[0].benchmarks[2] */
};

/* @child: @parent's @key, its element @index when that is 0 or more. */
void where_child(struct where *child, const struct where *parent, const char *key,
		 long index);
/* -1, @err saying that the value at @w is bad and @why. */
int bad(struct error *err, const char *file, const struct where *w, const char *why);
/*
 * The longest text of each field import takes (bytes), and the most values
 * of one metric one iteration may carry: export checks the same.
 */
#define FIELD_RUN_NAME		200
#define FIELD_STARTED		64
#define FIELD_WORKLOAD		128
#define FIELD_METRIC_NAME	128
#define FIELD_UNIT		64
#define FIELD_SOURCE		64
#define FIELD_FAILURE		1024
#define FIELD_KEY		128	/* of a parameter or the environment */
#define FIELD_VALUE		65536
#define MAX_REPETITIONS		1000000

/* A required string of printable characters, at most @max bytes; NULL with @err. */
const char *get_text(json_t *obj, const char *key, size_t max, bool allow_empty,
		     const char *file, const struct where *parent, struct error *err);
/*
 * Why import refuses text @s of @len bytes (a NUL before them included) in
 * a field that takes at most @max, NULL when it does not: get_text()'s check,
 * which export makes of what it writes (write.c). A text over @max says
 * its length and @max; that reason lasts until the next call of this or
 * pair_refused().
 */
const char *text_refused(const char *s, size_t len, size_t max, bool allow_empty);
/*
 * The first number of JSON text @buf that reads as 0 though it is not
 * (1e-400: below the smallest double), NULL when none; where it is in
 * *@line and *@col.
 */
const char *json_underflow(const char *buf, size_t len, size_t *line, size_t *col);
/*
 * JSON text @buf with ".0" after every whole number beyond 64 bits
 * (18446744073709551615, a counter of another tool), which jansson refuses
 * as integers but reads as the doubles they are once written as reals;
 * malloc()ed, its length in *@out_len. NULL when it has no such number.
 */
char *json_big_integers_as_reals(const char *buf, size_t len, size_t *out_len);
/*
 * @jerr, of the text json_big_integers_as_reals() made of @buf, placed in
 * @buf: its column less two for each ".0" added before it on its line.
 */
void json_big_integers_place(const char *buf, size_t len, json_error_t *jerr);
/* @obj an object whose keys are all among @allowed (NULL-terminated). */
int check_keys(json_t *obj, const char *const *allowed, const char *file,
	       const struct where *w, struct error *err);
/*
 * An object of strings, each pair handed to @add, which returns why the
 * pair is refused, or NULL.
 */
int read_string_map(json_t *obj, const char *file, const struct where *w,
		    struct error *err,
		    const char *(*add)(void *ctx, const char *k, const char *v), void *ctx);
/*
 * Why read_string_map() refuses the pair @key, @v before handing it on, or
 * NULL; a key or value over its limit says its length and the limit.
 */
const char *pair_refused(const char *key, json_t *v);
/* An optional number >= 0 at @key of @obj into *@out (NAN when absent). */
int read_seconds(json_t *obj, const char *key, double *out, const char *file,
		 const struct where *w, struct error *err);
/* An optional boolean at @key of @obj into *@out (false when absent). */
int read_flag(json_t *obj, const char *key, bool *out, const char *file,
	      const struct where *w, struct error *err);
/* A required whole number from @min to @max at @key of @obj. */
int get_count(json_t *obj, const char *key, json_int_t min, json_int_t max,
	      json_int_t *out, const char *file, const struct where *parent,
	      struct error *err);

#endif
