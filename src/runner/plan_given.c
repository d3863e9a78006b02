// SPDX-License-Identifier: GPL-2.0
/*
 * What a planned parameter was typed as. `-p calls=50%` is planned as the
 * count it resolves to on this machine (runner/sweep.c), and that count is
 * what a workload checks and names when it refuses it: "1 call cannot be
 * split over 2 threads", a 1 nobody typed. So a benchmark that fails its
 * checks is refused in words that also say what each such parameter the
 * workload's reason names was typed as, before the reason's "(how to fix)":
 * "...; -p calls=50% is calls=1 on 2 CPUs (give calls >= threads)".
 */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "runner/plan_given.h"
#include "util/strbuf.h"

/* Whether @msg names the KEY of "KEY=VALUE" @assignment, as a word. */
static bool names_key(const char *msg, const char *assignment)
{
	char key[64];
	size_t len = strcspn(assignment, "=");

	if (!len || len >= sizeof(key))
		return false;
	memcpy(key, assignment, len);
	key[len] = '\0';
	for (const char *at = msg; (at = strstr(at, key)); at += len) {
		bool starts = at == msg || !(isalnum((unsigned char)at[-1]) || at[-1] == '_');
		bool ends = !(isalnum((unsigned char)at[len]) || at[len] == '_');

		if (starts && ends)
			return true;
	}
	return false;
}

/* Where the " (how to fix)" that ends @msg starts; its end if it ends with none. */
static size_t fix_start(const char *msg)
{
	size_t end = strlen(msg), at = end;
	int depth = 0;

	while (end && msg[end - 1] == ')' && at--) {
		depth += (msg[at] == ')') - (msg[at] == '(');
		if (!depth || !at)
			break;
	}
	if (!end || msg[end - 1] != ')' || depth || at < 1 || msg[at - 1] != ' ')
		return end;
	return at - 1;
}

int plan_given_error(const struct plan_given *given, char *const *assignments,
		     const struct error *why, struct error *err)
{
	struct strbuf said = STRBUF_INIT;
	size_t at;

	for (size_t i = 0; i < given->nr; i++)
		if (strcmp(given->text[i], assignments[i]) && names_key(why->msg, given->text[i]))
			strbuf_addf(&said, "%s-p %.64s is %.64s", said.len ? ", " : "",
				    given->text[i], assignments[i]);
	if (!said.len) {
		*err = *why;
		return -1;
	}
	at = fix_start(why->msg);
	error_set(err, why->code, "%.*s; %s on %d CPU%s%s", (int)at, why->msg, said.buf,
		  given->cpus, given->cpus == 1 ? "" : "s", why->msg + at);
	strbuf_release(&said);
	return -1;
}
