// SPDX-License-Identifier: GPL-2.0
/*
 * The knobs of a command's sides, from their check to their restore
 * (knob_session.h): what ab, run and bisect-step share.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner/cpulist.h"
#include "runner/iteration.h"
#include "runner/knob_guard.h"
#include "runner/knob_journal.h"
#include "runner/knob_session.h"
#include "util/process.h"
#include "util/strbuf.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

void knob_session_init(struct knob_session *ks, size_t nr_sides, const char *command)
{
	memset(ks, 0, sizeof(*ks));
	ks->nr_sides = nr_sides;
	ks->command = command;
	ks->reaper = -1;
}

/*
 * The setting of @kn's kind and name (its one spelling: knobs_parse()
 * normalised it), added if new. Its original is read later, under the
 * machine lock: until then a side that leaves it alone has NULL.
 */
static struct knob_machine *machine_of(struct knob_session *ks, const struct knob *kn)
{
	struct knob_machine *m;

	for (size_t i = 0; i < ks->nr_machine; i++)
		if (ks->machine[i].setting == kn->setting && !strcmp(ks->machine[i].name, kn->name))
			return &ks->machine[i];
	ks->machine = xreallocarray(ks->machine, ks->nr_machine + 1, sizeof(*ks->machine));
	m = &ks->machine[ks->nr_machine++];
	memset(m, 0, sizeof(*m));
	m->setting = kn->setting;
	m->name = xstrdup(kn->name);
	return m;
}

static struct knob_env *env_of(struct knob_session *ks, const char *name)
{
	const char *now = getenv(name);
	struct knob_env *e;

	for (size_t i = 0; i < ks->nr_env; i++)
		if (!strcmp(ks->env[i].name, name))
			return &ks->env[i];
	ks->env = xreallocarray(ks->env, ks->nr_env + 1, sizeof(*ks->env));
	e = &ks->env[ks->nr_env++];
	e->name = xstrdup(name);
	e->original = now ? xstrdup(now) : NULL;
	for (size_t i = 0; i < KNOB_SESSION_MAX_SIDES; i++)
		e->value[i] = e->original;
	return e;
}

/* The workload parameter @kn sets (cmd: is the command workload's cmd), else NULL. */
static const char *param_of(const struct knob *kn)
{
	if (kn->kind == KNOB_CMD)
		return "cmd";
	return kn->kind == KNOB_PARAM ? kn->name : NULL;
}

/*
 * The benchmark knob @kl gives before @k with another value (knobs_parse()
 * dropped repeats): cpus:, cmd: (or param:cmd=), or env:, param: or
 * cgroup: of the same name. NULL when none.
 */

static const struct knob *given_before(const struct knob_list *kl, size_t k)
{
	const struct knob *kn = &kl->knobs[k];

	if (kn->kind == KNOB_MACHINE || task_knob_kind(kn->kind))
		return NULL;
	for (size_t i = 0; i < k; i++) {
		const struct knob *before = &kl->knobs[i];
		const char *param = param_of(kn), *other = param_of(before);

		if ((before->kind == kn->kind && (!kn->name || !strcmp(before->name, kn->name))) ||
		    (param && other && !strcmp(param, other)))
			return before;
	}
	return NULL;
}

static const char *benchmark_kind(enum knob_kind kind)
{
	switch (kind) {
	case KNOB_CPUS:		return "cpus";
	case KNOB_PARAM:	return "param";
	case KNOB_ENV:		return "env";
	case KNOB_CMD:		return "cmd";
	case KNOB_CGROUP:	return "cgroup";
	default:		return "knob";
	}
}

/*
 * That @kn gives what @before gave: the one spelling twice, or the
 * command workload's cmd as cmd: and as param:cmd=, whose values would
 * otherwise meet as one parameter given twice, the side not named.
 */
static int given_twice(const struct knob *before, const struct knob *kn, const char *flag,
		       struct error *err)
{
	if (before->kind == kn->kind)
		return error_set(err, EXIT_USAGE, "%s gives %s:%s twice ('%.64s' and "
				 "'%.64s'): give it once", flag, benchmark_kind(kn->kind),
				 kn->name ? kn->name : "", before->value, kn->value);
	return error_set(err, EXIT_USAGE, "%s sets cmd twice ('%s%.64s' and '%s%.64s'): give it "
			 "once", flag, before->kind == KNOB_CMD ? "cmd:" : "param:cmd=",
			 before->value, kn->kind == KNOB_CMD ? "cmd:" : "param:cmd=", kn->value);
}

/* Side @which's cgroup:cpuset.cpus knob, or NULL. */
static const struct knob *cpuset_of(const struct knob_session *ks, size_t which)
{
	const struct knob_list *kl = ks->knobs[which];

	for (size_t k = 0; kl && k < kl->nr; k++)
		if (kl->knobs[k].kind == KNOB_CGROUP && !strcmp(kl->knobs[k].name, "cpuset.cpus"))
			return &kl->knobs[k];
	return NULL;
}

int knob_session_cpus(const struct knob_session *ks, size_t which, const char *cpus,
		      const char *what, struct error *err)
{
	const struct knob *cpuset = cpuset_of(ks, which);
	cpu_set_t given, within, inside;

	if (!cpuset)
		return 0;
	if (cpulist_parse_form(cpus, NULL, &given, err) ||
	    cpulist_parse_form(cpuset->value, NULL, &within, err))
		return -1;
	CPU_AND(&inside, &given, &within);
	if (CPU_EQUAL(&inside, &given))
		return 0;
	return error_set(err, EXIT_USAGE, "%s%.64s is not inside cgroup:cpuset.cpus=%.64s: "
			 "the cpuset would run the tasks on its own CPUs, not on these (give "
			 "CPUs within %.64s, or leave one of the two out)", what, cpus,
			 cpuset->value, cpuset->value);
}

int knob_session_side(struct knob_session *ks, size_t which, const struct knob_list *kl,
		      const char *label, const char *flag, struct error *err)
{
	ks->knobs[which] = kl;
	snprintf(ks->label[which], sizeof(ks->label[which]), "%s", label);
	for (size_t k = 0; k < kl->nr; k++) {
		const struct knob *kn = &kl->knobs[k], *before = given_before(kl, k);
		struct knob_machine *m;
		struct error why = { 0 };

		if (before)
			return given_twice(before, kn, flag, err);

		if (kn->kind == KNOB_ENV)
			env_of(ks, kn->name)->value[which] = kn->value;
		if (task_knob_kind(kn->kind) && task_knobs_add(&ks->task[which], kn, &why))
			return error_set(err, EXIT_USAGE, "%s: %s", flag, why.msg);
		if (kn->kind != KNOB_MACHINE)
			continue;
		m = machine_of(ks, kn);
		if (m->value[which] && strcmp(m->value[which], kn->value))
			return error_set(err, EXIT_USAGE, "%s sets %s %s twice (%s and %s): give "
					 "it once", flag, kn->setting->kind, kn->name,
					 m->value[which], kn->value);
		m->value[which] = kn->value;
	}
	for (size_t k = 0; k < kl->nr; k++) {
		char what[64];

		snprintf(what, sizeof(what), "%s cpus:", flag);
		if (kl->knobs[k].kind == KNOB_CPUS &&
		    knob_session_cpus(ks, which, kl->knobs[k].value, what, err))
			return -1;
	}
	return 0;
}

static bool same_text(const char *x, const char *y)
{
	return x == y || (x && y && !strcmp(x, y));
}

/* Whether sides @a and @b give their cgroups the same settings. */
static bool same_cgroups(const struct knob_session *ks, size_t a, size_t b)
{
	const struct knob_list *ka = ks->knobs[a], *kb = ks->knobs[b];
	size_t na = 0, nb = 0;

	for (size_t i = 0; i < ka->nr; i++) {
		bool found = false;

		if (ka->knobs[i].kind != KNOB_CGROUP)
			continue;
		na++;
		for (size_t j = 0; j < kb->nr && !found; j++)
			found = kb->knobs[j].kind == KNOB_CGROUP &&
				!strcmp(ka->knobs[i].name, kb->knobs[j].name) &&
				!strcmp(ka->knobs[i].value, kb->knobs[j].value);
		if (!found)
			return false;
	}
	for (size_t j = 0; j < kb->nr; j++)
		nb += kb->knobs[j].kind == KNOB_CGROUP;
	return na == nb;
}

bool knob_session_same(const struct knob_session *ks, size_t a, size_t b)
{
	for (size_t i = 0; i < ks->nr_machine; i++)
		if (!same_text(ks->machine[i].value[a], ks->machine[i].value[b]))
			return false;
	for (size_t i = 0; i < ks->nr_env; i++)
		if (!same_text(ks->env[i].value[a], ks->env[i].value[b]))
			return false;
	return task_knobs_same(&ks->task[a], &ks->task[b]) && same_cgroups(ks, a, b);
}

static bool has_cgroups(const struct knob_session *ks)
{
	for (size_t s = 0; s < ks->nr_sides; s++)
		for (size_t k = 0; k < ks->knobs[s]->nr; k++)
			if (ks->knobs[s]->knobs[k].kind == KNOB_CGROUP)
				return true;
	return false;
}

bool knob_session_changes_machine(const struct knob_session *ks)
{
	return ks->nr_machine > 0 || has_cgroups(ks);
}

int knob_session_check(struct knob_session *ks, struct error *err)
{
	for (size_t i = 0; i < ks->nr_machine; i++) {
		struct knob_machine *m = &ks->machine[i];

		if (m->setting->read(m->name, true, &m->original, err))
			return -1;
		for (size_t s = 0; s < ks->nr_sides; s++)
			if (!m->value[s])
				m->value[s] = m->original;
	}
	for (size_t s = 0; s < ks->nr_sides; s++)
		if (knob_cgroups_plan(&ks->cgroups[s], ks->knobs[s], ks->label[s], err) ||
		    task_knobs_check(&ks->task[s], err))
			return -1;
	return 0;
}

static void journal_entry(struct knob_session *ks, const char *kind, const char *name,
			  const char *value, const struct process_id *self, const char *started)
{
	struct knob_original *k = &ks->journal[ks->nr_journal++];

	k->command = xstrdup(ks->command);
	k->kind = xstrdup(kind);
	k->name = xstrdup(name);
	k->value = xstrdup(value);
	k->writer = *self;
	k->started = xstrdup(started);
}

/* The machine settings' originals and the cgroups to be, whose original is absence. */
static int journal_originals(struct knob_session *ks, struct error *err)
{
	struct process_id self;
	char started[64];
	size_t n = ks->nr_machine;

	for (size_t s = 0; s < ks->nr_sides; s++)
		n += ks->cgroups[s].nr;
	if (!n)
		return 0;
	time_iso8601(started, sizeof(started));
	if (process_id_of(getpid(), &self))
		memset(&self, 0, sizeof(self));
	ks->journal = xcalloc(n, sizeof(*ks->journal));
	for (size_t i = 0; i < ks->nr_machine; i++)
		journal_entry(ks, ks->machine[i].setting->kind,
			      ks->machine[i].name, ks->machine[i].original, &self, started);
	for (size_t s = 0; s < ks->nr_sides; s++)
		for (size_t c = 0; c < ks->cgroups[s].nr; c++)
			journal_entry(ks, knob_scratch_cgroup.kind,
				      ks->cgroups[s].cgroup[c].dir, "absent", &self, started);
	if (knob_journal_add(ks->journal, ks->nr_journal, err))
		return -1;
	ks->journalled = true;
	return 0;
}

/* Before any cgroup exists: a kill at any point leaves none behind. */
static int start_reaper(struct knob_session *ks, struct error *err)
{
	char *dirs[KNOB_SESSION_MAX_SIDES * TASK_KNOBS_MAX_CGROUPS];
	size_t n = 0;

	for (size_t s = 0; s < ks->nr_sides; s++)
		for (size_t c = 0; c < ks->cgroups[s].nr; c++)
			dirs[n++] = ks->cgroups[s].cgroup[c].dir;
	if (!n)
		return 0;
	return cgroup_reaper_start(dirs, n, &ks->reaper, err);
}

static int make_cgroups(struct knob_session *ks, struct error *err)
{
	for (size_t s = 0; s < ks->nr_sides; s++) {
		struct knob_cgroups *kc = &ks->cgroups[s];

		if (knob_cgroups_make(kc, err))
			return -1;
		ks->task[s].nr_cgroups = kc->nr;
		for (size_t c = 0; c < kc->nr; c++)
			snprintf(ks->task[s].cgroups[c], sizeof(ks->task[s].cgroups[c]), "%s",
				 kc->cgroup[c].dir);
	}
	return 0;
}

/* Side @which's settings once written, as the kernel took them. */
static int read_taken(struct knob_session *ks, size_t which, struct error *err)
{
	for (size_t i = 0; i < ks->nr_machine; i++) {
		struct knob_machine *m = &ks->machine[i];

		free(m->taken[which]);
		m->taken[which] = NULL;
		if (m->setting->read(m->name, false, &m->taken[which], err))
			return -1;
	}
	return 0;
}

/* Side @which's cgroup knob of @file: NULL when it has none. */
static const char *cgroup_value(const struct knob_session *ks, size_t which, const char *file,
				bool taken)
{
	const struct knob_cgroups *kc = &ks->cgroups[which];

	for (size_t k = 0; k < kc->nr_knobs; k++)
		if (!strcmp(kc->knob[k]->name, file))
			return taken ? kc->taken[k] : kc->knob[k]->value;
	return NULL;
}


/* Whether the sides' cgroups have the same files, with the same values as taken. */
static bool cgroups_taken_alike(const struct knob_session *ks)
{
	const struct knob_cgroups *a = &ks->cgroups[0];

	if (a->nr_knobs != ks->cgroups[1].nr_knobs)
		return false;
	for (size_t k = 0; k < a->nr_knobs; k++) {
		const char *other = cgroup_value(ks, 1, a->knob[k]->name, true);

		if (!other || strcmp(a->taken[k], other))
			return false;
	}
	return true;
}

/*
 * Whether the two sides, given apart, are alike as the kernel took them;
 * then @what names a setting given apart and its one value.
 */
static bool taken_alike(const struct knob_session *ks, char *what, size_t len)
{
	const struct knob_cgroups *a = &ks->cgroups[0];

	if (knob_session_same(ks, 0, 1) || !cgroups_taken_alike(ks) ||
	    !task_knobs_same(&ks->task[0], &ks->task[1]))
		return false;
	for (size_t i = 0; i < ks->nr_machine; i++)
		if (strcmp(ks->machine[i].taken[0], ks->machine[i].taken[1]))
			return false;
	for (size_t i = 0; i < ks->nr_env; i++)
		if (!same_text(ks->env[i].value[0], ks->env[i].value[1]))
			return false;
	*what = '\0';
	for (size_t i = 0; i < ks->nr_machine && !*what; i++)
		if (!same_text(ks->machine[i].value[0], ks->machine[i].value[1]))
			snprintf(what, len, "%s %s is %s", ks->machine[i].setting->kind,
				 ks->machine[i].name, ks->machine[i].taken[0]);
	for (size_t k = 0; k < a->nr_knobs && !*what; k++)
		if (strcmp(a->knob[k]->value, cgroup_value(ks, 1, a->knob[k]->name, false)))
			snprintf(what, len, "cgroup %s is %s", a->knob[k]->name, a->taken[k]);
	return true;
}

/*
 * A machine setting given apart that the kernel took, changed, as the value
 * of the other side (a value it refuses quietly and resets): the sides do
 * not differ in it, whatever their labels say. A side that gives the value
 * the other keeps, as it is, says what runs.
 */
static int refuse_taken_as_other(const struct knob_session *ks, struct error *err)
{
	static const char side_name[] = "ab";

	for (size_t i = 0; i < ks->nr_machine; i++) {
		const struct knob_machine *m = &ks->machine[i];
		size_t given = m->value[0] != m->original ? 0 : 1;

		if (same_text(m->value[0], m->value[1]) || strcmp(m->taken[0], m->taken[1]) ||
		    !strcmp(m->taken[given], m->value[given]))
			continue;
		return error_set(err, EXIT_USAGE, "%s %s: the kernel took side %c's value '%s' as "
				 "'%s', the value of side %c: the sides do not differ in it (give "
				 "a value it keeps)", m->setting->kind, m->name, side_name[given],
				 m->value[given], m->taken[given], side_name[1 - given]);
	}
	return 0;
}

static void describe(struct knob_session *ks, size_t which)
{
	const struct knob_list *kl = ks->knobs[which];
	const struct knob_cgroups *kc = &ks->cgroups[which];
	struct strbuf sb = STRBUF_INIT;
	char tasks[256];

	task_knobs_describe(&ks->task[which], tasks, sizeof(tasks));
	strbuf_addstr(&sb, tasks);
	for (size_t k = 0; kl && k < kl->nr; k++) {
		const struct knob *kn = &kl->knobs[k];

		/* A line each: a newline in the value is spelt \n, a tab \t. */
		if (kn->kind == KNOB_ENV) {
			strbuf_addf(&sb, "env.%s=", kn->name);
			strbuf_add_one_line(&sb, kn->value);
			strbuf_addch(&sb, '\n');
		}
	}
	for (size_t k = 0; k < kc->nr_knobs; k++)
		strbuf_addf(&sb, "cgroup.%s=%s\n", kc->knob[k]->name, kc->taken[k]);
	/* Whole lines only: a value cut short would be recorded as if set. */
	while (sb.len >= sizeof(ks->described[which])) {
		char *end = memrchr(sb.buf, '\n', sb.len - 1);

		sb.len = end ? (size_t)(end - sb.buf) + 1 : 0;
	}
	if (sb.len)
		memcpy(ks->described[which], sb.buf, sb.len);
	ks->described[which][sb.len] = '\0';
	strbuf_release(&sb);
}

int knob_session_journal(struct knob_session *ks, struct error *err)
{
	return ks->journalled ? 0 : journal_originals(ks, err);
}

int knob_session_begin(struct knob_session *ks, struct error *err)
{
	char what[256];

	if (knob_session_journal(ks, err) || start_reaper(ks, err) || make_cgroups(ks, err))
		return -1;
	for (size_t s = 0; s < ks->nr_sides; s++)
		if (knob_session_apply(ks, s, err) || read_taken(ks, s, err))
			return -1;
	if (ks->nr_sides == 2 && taken_alike(ks, what, sizeof(what)))
		return error_set(err, EXIT_USAGE, "the kernel took the two sides' values alike "
				 "(%s on both): give values it keeps apart", what);
	if (ks->nr_sides == 2 && refuse_taken_as_other(ks, err))
		return -1;
	for (size_t s = 0; s < ks->nr_sides; s++)
		describe(ks, s);
	return 0;
}

int knob_session_copy(struct knob_session *ks, struct store *st, struct error *err)
{
	if (knob_guard_copy(st, err))
		return -1;
	if (!ks->journalled)
		return 0;
	if (store_journal_write(st, ks->journal, ks->nr_journal, err))
		return -1;
	ks->copied = true;
	return 0;
}

int knob_session_apply(struct knob_session *ks, size_t which, struct error *err)
{
	for (size_t i = 0; i < ks->nr_machine; i++)
		if (ks->machine[i].setting->write(ks->machine[i].name,
						  ks->machine[i].value[which], err))
			return -1;
	for (size_t i = 0; i < ks->nr_env; i++) {
		const char *v = ks->env[i].value[which];

		if (v ? setenv(ks->env[i].name, v, 1) : unsetenv(ks->env[i].name))
			return error_set(err, EXIT_ENV, "cannot set %s: %s (free some "
					 "memory, then try again)", ks->env[i].name, strerror(errno));
	}
	return 0;
}

const struct task_knobs *knob_session_task(const struct knob_session *ks, size_t which)
{
	return &ks->task[which];
}

const char *knob_session_describe(const struct knob_session *ks, size_t which)
{
	return ks->described[which];
}

/*
 * Forget the originals put back (@back): the store's copy first, so that
 * a copy never outlives the machine's entry; a copy the store cannot
 * remove now (its server is gone) the next command that measures with it
 * here removes (knob_guard_copy()), since the machine's journal no longer
 * holds it. A setting that could not be put back stays in both.
 */
static void forget_restored(struct knob_session *ks, struct store *st, const bool *back)
{
	struct error cerr = { 0 }, jerr = { 0 };

	for (size_t i = 0; i < ks->nr_journal; i++) {
		const struct knob_original *k = &ks->journal[i];

		if (!back[i])
			continue;
		if (ks->copied && st && !cerr.code)
			store_journal_remove(st, k->kind, k->name, &cerr);
		if (!jerr.code)
			knob_journal_forget(k->kind, k->name, &k->writer, &jerr);
	}
	ks->copied = ks->journalled = false;
	if (cerr.code)
		knob_note("warning: the settings are restored; the store's copy of the journal "
			  "lists them until the next command that measures with this store on this "
			  "machine");
	if (jerr.code)
		knob_warning("warning: the settings are restored; this machine's journal lists "
			     "them until the next command that measures here: %s", jerr.msg);
}

static bool gone(const struct knob_original *k)
{
	char path[512];

	if (!knob_gone(k->kind, k->name, path, sizeof(path)))
		return false;
	knob_warning("%s %s: %s is gone; nothing to put back", k->kind, k->name, path);
	return true;
}

int knob_session_end(struct knob_session *ks, struct store *st, struct error *err)
{
	bool *back = xcalloc(ks->nr_journal + 1, sizeof(bool));
	int rc = 0;

	for (size_t i = 0; i < ks->nr_env; i++) {
		if (ks->env[i].original)
			setenv(ks->env[i].name, ks->env[i].original, 1);
		else
			unsetenv(ks->env[i].name);
	}
	for (size_t s = 0; s < ks->nr_sides; s++)
		knob_cgroups_remove(&ks->cgroups[s]);
	if (ks->reaper >= 0)
		close(ks->reaper);
	ks->reaper = -1;
	for (size_t i = 0; i < ks->nr_journal && ks->journalled; i++) {
		const struct knob_original *k = &ks->journal[i];
		struct error werr = { 0 };

		/*
		 * A cgroup is back when it is gone; a setting when its original
		 * is written, or when its file went while it ran (knob_gone()).
		 */
		back[i] = !knob_write(k->kind, k->name, k->value, &werr) || gone(k);
		if (!back[i] && !rc) {
			rc = -1;
			*err = werr;
		}
	}
	if (ks->journalled)
		forget_restored(ks, st, back);
	free(back);
	if (rc)
		snprintf(err->msg + strlen(err->msg), sizeof(err->msg) - strlen(err->msg),
			 "; the original stays journalled: run 'schedperf ab --restore'");
	return rc;
}

void knob_session_release(struct knob_session *ks)
{
	for (size_t i = 0; i < ks->nr_machine; i++) {
		free(ks->machine[i].name);
		free(ks->machine[i].original);
	}
	for (size_t i = 0; i < ks->nr_env; i++) {
		free(ks->env[i].name);
		free(ks->env[i].original);
	}
	for (size_t i = 0; i < ks->nr_machine; i++)
		for (size_t s = 0; s < KNOB_SESSION_MAX_SIDES; s++)
			free(ks->machine[i].taken[s]);
	store_journal_release(ks->journal, ks->nr_journal);
	free(ks->machine);
	free(ks->env);
	if (ks->reaper >= 0)
		close(ks->reaper);
	ks->machine = NULL;
	ks->env = NULL;
	ks->journal = NULL;
	ks->nr_machine = ks->nr_env = ks->nr_journal = 0;
}

int knob_session_parse(struct knob_session *ks, struct knob_list *kl, char *const *specs,
		       size_t n, const char *who, struct error *err)
{
	for (size_t i = 0; i < n; i++)
		if (knobs_parse(kl, specs[i], who, err))
			return -1;
	for (size_t k = 0; k < kl->nr; k++) {
		enum knob_kind kind = kl->knobs[k].kind;

		if (kind == KNOB_CPUS || kind == KNOB_PARAM || kind == KNOB_CMD)
			return error_set(err, EXIT_USAGE, "%s %s: is this command's own option "
					 "(give --cpus for cpus:, -p for param: and cmd:)", who,
					 kind == KNOB_CPUS ? "cpus" : kind == KNOB_PARAM ? "param" :
					 "cmd");
	}
	return knob_session_side(ks, 0, kl, "k", who, err);
}

int knob_session_start(struct knob_session *ks, struct error *err)
{
	iteration_install_signal_handlers();
	if (knob_guard_take(knob_session_changes_machine(ks), err) ||
	    knob_session_check(ks, err))
		return -1;
	return knob_session_begin(ks, err);
}
