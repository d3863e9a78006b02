// SPDX-License-Identifier: GPL-2.0
/*
 * The job queue (jobs_formats[], report.h): one job a line, with the
 * verdict of an ab or bisect-step and what ab left changed on a machine,
 * or every column of every job as JSON.
 */
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "util/json_write.h"
#include "util/numfmt.h"
#include "util/strbuf.h"
#include "util/utf8.h"

static json_t *string_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

/*
 * One line of what an ab or bisect-step job decided: its verdict and, for
 * a difference, the direction and the size with its interval.
 */
static char *verdict_text(const char *result)
{
	json_t *r = result ? json_loads(result, 0, NULL) : NULL;
	const char *verdict = json_string_value(json_object_get(r, "verdict"));
	const char *direction = json_string_value(json_object_get(r, "direction"));
	json_t *est = json_object_get(r, "estimate_pct");
	json_t *ci = json_object_get(r, "ci_pct");
	json_t *ci_low = json_array_get(ci, 0), *ci_high = json_array_get(ci, 1);
	struct strbuf sb = STRBUF_INIT;
	char lo[32], hi[32], *text;

	if (!verdict) {
		json_decref(r);
		return NULL;
	}
	strbuf_addf(&sb, "%s", verdict);
	if (direction)
		strbuf_addf(&sb, " (b %s)", direction);
	if (json_is_number(est))
		strbuf_addf(&sb, " %s%%", format_change(lo, sizeof(lo), json_number_value(est), 2));
	if (json_is_number(ci_low) && json_is_number(ci_high))
		strbuf_addf(&sb, " [%s%%, %s%%]",
			    format_change(lo, sizeof(lo), json_number_value(ci_low), 2),
			    format_change(hi, sizeof(hi), json_number_value(ci_high), 2));
	json_decref(r);
	/* the verdict's text is the stored JSON's, decoded: escaped as every name */
	text = strbuf_detach(&sb);
	report_shown(&text);
	return text;
}

/* A column of JSON text as its value; null when absent or not JSON (never a missing key). */
static json_t *stored_json(const char *text)
{
	json_t *value = text ? json_loads(text, JSON_DECODE_ANY, NULL) : NULL;

	return value ? value : json_null();
}

static void jobs_json(FILE *out, const void *records, const void *how)
{
	const struct job_listing *l = records;
	json_t *list = json_array();

	for (size_t i = 0; i < l->nr; i++) {
		const struct store_job *j = &l->jobs[i];
		json_t *o = json_object();

		json_object_set_new(o, "id", json_integer(j->id));
		json_object_set_new(o, "state", json_string(j->state));
		json_object_set_new(o, "command", json_string(j->command));
		json_object_set_new(o, "machine", string_or_null(j->worker));
		json_object_set_new(o, "attempts", json_integer(j->attempts));
		json_object_set_new(o, "max_attempts", json_integer(j->max_attempts));
		json_object_set_new(o, "result_batch", j->result_batch ?
				    json_integer(j->result_batch) : json_null());
		json_object_set_new(o, "pattern", json_string(j->machine));
		json_object_set_new(o, "priority", json_integer(j->priority));
		json_object_set_new(o, "since", json_string(j->since));
		json_object_set_new(o, "reason", string_or_null(j->reason));
		json_object_set_new(o, "args", stored_json(j->args));
		json_object_set_new(o, "result", stored_json(j->result));
		json_object_set_new(o, "kernel", string_or_null(j->kernel));
		json_object_set_new(o, "boot_deadline", string_or_null(j->boot_deadline));
		json_array_append_new(list, o);
	}
	json_write(out, list, 2);
	fputc('\n', out);
	json_decref(list);
}

/*
 * The store's copy of each machine's knob journal: what an ab running
 * there changes now, or what one that was killed left changed until the
 * next command that measures there puts it back or refuses; each with
 * its mark, what the command found of it on this machine.
 */
static void print_changed(FILE *out, const struct knob_original *k, size_t nr,
			  const char *const *marks)
{
	if (nr)
		fputs("\nChanged by an ab and not put back yet:\n", out);
	for (size_t i = 0; i < nr; i++) {
		/*
		 * the original's bytes: '\' as "\\", so that a byte not UTF-8 or
		 * a control character, \xHH, is told from the text "\xHH"
		 */
		char *quoted = utf8_quoted(k[i].value), *value = utf8_escaped(quoted);

		fprintf(out, "machine %s: %s %s, original %s, since %s by process %lld%s\n",
			k[i].machine && *k[i].machine ? k[i].machine : "(any)", k[i].kind,
			k[i].name, value, k[i].started, (long long)k[i].writer.pid,
			marks ? marks[i] : "");
		free(value);
		free(quoted);
	}
}

static void jobs_text(FILE *out, const void *records, const void *how)
{
	const struct job_listing *l = records;

	fprintf(out, "%-6s %-9s %-20s %-24s %5s %8s  %s\n", "ID", "STATE", "MACHINE",
		"SINCE", "TRY", "PRIORITY", "COMMAND");
	for (size_t i = 0; i < l->nr; i++) {
		const struct store_job *j = &l->jobs[i];
		char result[64] = "", tries[32];
		char *verdict = verdict_text(j->result);
		bool booting = j->boot_deadline && !strcmp(j->state, "booting");

		if (j->result_batch)
			snprintf(result, sizeof(result), "batch %lld ", (long long)j->result_batch);
		snprintf(tries, sizeof(tries), "%d/%d", j->attempts, j->max_attempts);
		fprintf(out, "%-6lld %-9s %-20.64s %-24s %5s %8d  %s%s %s%s%s%s%s%s%s%s%s%s\n",
			(long long)j->id, j->state, j->worker ? j->worker : j->machine, j->since,
			tries, j->priority, result, j->command, j->args,
			j->kernel ? "  kernel " : "", j->kernel ? j->kernel : "",
			booting ? " by " : "", booting ? j->boot_deadline : "",
			verdict ? "  verdict: " : "", verdict ? verdict : "",
			j->reason ? "  failed: " : "", j->reason ? j->reason : "",
			j->lease_over ? "  lease over: its worker was lost" : "");
		free(verdict);
	}
	print_changed(out, l->changed, l->nr_changed, l->marks);
}

const struct output_format jobs_formats[] = {
	{ { "text", NULL }, jobs_text, false },
	{ { "json", NULL }, jobs_json, true },
	{ { NULL, NULL }, NULL, false },
};
