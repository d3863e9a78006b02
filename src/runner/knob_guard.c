// SPDX-License-Identifier: GPL-2.0
/*
 * Before a command measures: the machine's knob lock, held until the
 * process exits, and the settings a killed ab left changed, put back for
 * a job or refused for a person (knob_guard.h). The machine's journal is
 * the one that counts; a store's copy is corrected to it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/job_env.h"
#include "runner/knob_guard.h"
#include "runner/knob_journal.h"
#include "runner/knobs.h"
#include "util/process.h"
#include "util/xalloc.h"

/* Held from the first take until the process exits: it measures until then. */
static struct knob_lock machine_lock = KNOB_LOCK_INIT;

static const struct knob_events *events;

void knob_events_set(const struct knob_events *ev)
{
	events = ev;
}

__attribute__((format(printf, 2, 0)))
static void say(void (*fn)(const char *), const char *fmt, va_list ap)
{
	char text[1024];

	if (!fn)
		return;
	vsnprintf(text, sizeof(text), fmt, ap);
	fn(text);
}

void knob_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(events ? events->note : NULL, fmt, ap);
	va_end(ap);
}

void knob_warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(events ? events->warning : NULL, fmt, ap);
	va_end(ap);
}

enum leftover_policy {
	REFUSE,			/* a person runs the command: say what to do */
	PUT_BACK_FOR_JOB,	/* a worker's job: put it back, say so on stderr */
	PUT_BACK_FOR_WORKER,	/* a worker before it claims a job: the same */
	PUT_BACK_ASKED,		/* ab --restore: put it back, say so on stdout */
};

static bool running_for_job(void)
{
	struct error err = { 0 };
	int64_t id;

	return job_env_id(&id, &err) > 0;
}

/* "ab", "run", "bisect-step": the command that journalled @k, as far as it said. */
static const char *command_of(const struct knob_original *k)
{
	return k->command && knob_valid_name(k->command, "-") ? k->command : "schedperf command";
}

/* Say who holds the lock, as far as the journal tells, before waiting for it. */
static void say_waiting(bool exclusive)
{
	struct knob_original *k = NULL;
	struct error err = { 0 };
	size_t n = 0, live = 0;

	if (!events || !events->note)
		return;
	if (!knob_journal_read(&k, &n, &err))
		while (live < n && !process_alive(&k[live].writer))
			live++;
	if (live < n)
		knob_note("waiting for %.32s process %lld to end: it changes %s %s on this "
			  "machine (%s)", command_of(&k[live]), (long long)k[live].writer.pid,
			  k[live].kind, k[live].name, knob_lock_path());
	else if (exclusive)
		knob_note("waiting until no other schedperf command measures or changes "
			  "settings on this machine (%s)", knob_lock_path());
	else
		knob_note("waiting for the ab that changes this machine's settings to end (%s)",
			  knob_lock_path());
	store_journal_release(k, n);
}

static int take(bool exclusive, struct error *err)
{
	int rc = knob_lock_take(&machine_lock, exclusive, false, err);

	if (rc)
		return rc < 0 ? -1 : 0;
	say_waiting(exclusive);
	return knob_lock_take(&machine_lock, exclusive, true, err) < 0 ? -1 : 0;
}

static const char *writer_text(const struct knob_original *k)
{
	static char buf[192];
	const char *command = command_of(k);

	snprintf(buf, sizeof(buf), "%s %.32s (process %lld, started %s)",
		 *command == 'a' ? "an" : "a", command, (long long)k->writer.pid, k->started);
	return buf;
}

/*
 * One entry of the journal, under the exclusive lock: 0 when it can go
 * (its boot ended, its setting is at its original, or it was put back),
 * 1 when it stays (this process's own), -1 with @err.
 */
static int settle_entry(const struct knob_original *k, enum leftover_policy policy,
			struct error *err)
{
	struct error why = { 0 };
	char *now = NULL, path[512];

	if (knob_journal_of_old_boot(k))
		return 0;
	if (process_is_self(&k->writer))
		return 1;
	if (process_alive(&k->writer))
		return error_set(err, EXIT_ENV, "process %lld is running %.32s and has changed %s "
				 "%s on this machine (wait for it to end)", (long long)k->writer.pid,
				 command_of(k), k->kind, k->name);
	/* Its file went with the setting: nothing is left to put back, or to block. */
	if (knob_gone(k->kind, k->name, path, sizeof(path))) {
		knob_warning("%s %s, which %s changed and never put back: %s is gone; nothing "
			     "to put back", k->kind, k->name, writer_text(k), path);
		return 0;
	}
	if (knob_read(k->kind, k->name, false, &now, &why))
		return error_set(err, why.code, "%s %s, which %s changed and never put back, "
				 "cannot be read: %s", k->kind, k->name, writer_text(k), why.msg);
	if (!strcmp(now, k->value)) {
		/* a restore asked for says what it did with each setting, this one too */
		if (policy == PUT_BACK_ASKED)
			knob_warning("%s %s, which %s changed, is at its original %.64s already: "
				     "nothing to put back", k->kind, k->name, writer_text(k), now);
		free(now);
		return 0;
	}
	if (policy == REFUSE) {
		error_set(err, EXIT_ENV, "%s %s is %.64s, not its original %.64s: %s changed it "
			  "and was killed before it put it back, and this command would measure "
			  "under it (run 'schedperf ab --restore' first)", k->kind, k->name, now,
			  k->value, writer_text(k));
		free(now);
		return -1;
	}
	if (knob_write(k->kind, k->name, k->value, &why)) {
		free(now);
		return error_set(err, why.code, "%s, which %s left changed: %s (it stays "
				 "journalled: run 'schedperf ab --restore' when it can be written)",
				 k->kind, writer_text(k), why.msg);
	}
	if (policy == PUT_BACK_ASKED && events && events->restored)
		events->restored(k);
	else if (policy != PUT_BACK_ASKED)
		knob_warning("put back %s %s = %s (it was %.64s): %s changed it and was killed "
			     "before it put it back, and %s", k->kind, k->name, k->value, now,
			     writer_text(k), policy == PUT_BACK_FOR_JOB ? "this job measures" :
			     "this worker's jobs measure");
	free(now);
	return 0;
}

/*
 * Settle every entry that is not this process's, under the exclusive
 * lock; *@dealt counts those that went, and the others are written back.
 * A person is refused at the first leftover, a restore tries every one;
 * the first error is the one @err keeps.
 */
static int settle_entries(enum leftover_policy policy, size_t *dealt, struct error *err)
{
	struct knob_original *k = NULL, *kept;
	struct error ignored = { 0 };
	size_t n = 0, nr_kept = 0;
	int rc = 0;

	*dealt = 0;
	if (knob_journal_read(&k, &n, err))
		return -1;
	kept = xcalloc(n + 1, sizeof(*kept));
	for (size_t i = 0; i < n; i++) {
		struct error e = { 0 };
		int r = rc && policy == REFUSE ? 1 : settle_entry(&k[i], policy, &e);

		if (r < 0 && !rc) {
			*err = e;
			rc = -1;
		}
		if (r)
			kept[nr_kept++] = k[i];
		else
			(*dealt)++;
	}
	/*
	 * What went is at its original now: a journal that cannot be written
	 * (this user may not) keeps it, and the next look drops it again.
	 */
	if (*dealt)
		knob_journal_write(kept, nr_kept, &ignored);
	free(kept);
	store_journal_release(k, n);
	return rc;
}

/* Whether the journal holds an entry another process made. */
static int others_journalled(bool *any, struct error *err)
{
	struct knob_original *k = NULL;
	size_t n = 0;

	*any = false;
	if (knob_journal_read(&k, &n, err))
		return -1;
	for (size_t i = 0; i < n && !*any; i++)
		*any = !process_is_self(&k[i].writer);
	store_journal_release(k, n);
	return 0;
}

static int settle(bool exclusive, enum leftover_policy policy, size_t *dealt,
		  struct error *err)
{
	*dealt = 0;
	for (;;) {
		size_t now = 0;
		bool any;

		if (take(exclusive, err) || others_journalled(&any, err))
			return -1;
		if (!any)
			return 0;
		/* Leftovers are put back or refused by one process at a time. */
		if (!exclusive && take(true, err))
			return -1;
		if (settle_entries(policy, &now, err))
			return -1;
		*dealt += now;
		if (exclusive)
			return 0;
		/* Back to shared; what another ab did in between is looked at again. */
	}
}

/*
 * A command run by hand beside this machine's worker, once the lock is
 * taken and before it measures: the worker's jobs and it measure at once,
 * each skewing the other. Said once a process (a bisection takes the lock
 * more than once), and never refused: who runs it may mean it. A worker's
 * own job is no stranger to it.
 */
static void warn_beside_worker(void)
{
	static bool told;
	char text[32] = "";
	long pid;

	if (told || running_for_job() || !worker_lock_held(&pid))
		return;
	told = true;
	if (pid)
		snprintf(text, sizeof(text), " (pid %ld)", pid);
	knob_warning("warning: a worker%s runs jobs on this machine (it holds %s): its jobs "
		     "and this measurement disturb each other (stop the worker first, or "
		     "submit this as a job)", text, worker_lock_path());
}

int knob_guard_take(bool exclusive, struct error *err)
{
	size_t dealt;

	if (settle(exclusive, running_for_job() ? PUT_BACK_FOR_JOB : REFUSE, &dealt, err))
		return -1;
	warn_beside_worker();
	return 0;
}

int knob_guard_put_back(struct error *err)
{
	struct knob_original *k = NULL;
	size_t n = 0, dealt = 0;
	bool left = false;
	int rc;

	if (knob_journal_read(&k, &n, err))
		return -1;
	for (size_t i = 0; i < n && !left; i++)
		left = !process_alive(&k[i].writer);
	store_journal_release(k, n);
	if (!left)
		return 0;
	rc = knob_lock_take(&machine_lock, true, false, err);
	if (rc <= 0)
		return rc;
	rc = settle_entries(PUT_BACK_FOR_WORKER, &dealt, err);
	knob_lock_release(&machine_lock);
	return rc;
}

int knob_guard_copy(struct store *st, struct error *err)
{
	struct knob_original *copy = NULL, *mine = NULL;
	size_t nr_copy = 0, nr_mine = 0;
	int rc = 0;

	if (store_journal_read(st, false, &copy, &nr_copy, err))
		return -1;
	if (nr_copy && knob_journal_read(&mine, &nr_mine, err)) {
		store_journal_release(copy, nr_copy);
		return -1;
	}
	for (size_t i = 0; i < nr_copy && !rc; i++) {
		bool held = !process_is_self(&copy[i].writer) && process_alive(&copy[i].writer);

		for (size_t j = 0; j < nr_mine && !held; j++)
			held = knob_journal_same(&copy[i], &mine[j]);
		if (!held)
			rc = store_journal_remove(st, copy[i].kind, copy[i].name, err);
	}
	store_journal_release(copy, nr_copy);
	store_journal_release(mine, nr_mine);
	return rc;
}

int knob_guard_measure(struct store *st, struct error *err)
{
	return knob_guard_take(false, err) || knob_guard_copy(st, err) ? -1 : 0;
}

int knob_guard_restore(size_t *dealt, struct error *err)
{
	return settle(true, PUT_BACK_ASKED, dealt, err);
}

int knob_guard_restore_store(const char *db, size_t *dealt, struct error *err)
{
	struct store *st = NULL;
	struct error serr = { 0 }, cerr = { 0 };
	int rc = 0;

	if (!store_open_existing(db, &st, &serr)) {
		store_close(st);
		st = NULL;
		store_open(db, &st, &serr);
	}
	/* No store there is nothing to correct; one that cannot be opened is said. */
	if (serr.code && serr.code != EXIT_USAGE)
		knob_note("warning: the store's copy of the journal is not corrected: %s",
			  serr.msg);
	if (knob_guard_restore(dealt, err))
		rc = -1;
	if (st && knob_guard_copy(st, &cerr) && !rc) {
		*err = cerr;
		rc = 1;
	}
	store_close(st);
	return rc;
}
