// SPDX-License-Identifier: GPL-2.0
/*
 * ab's sides (ab.h): each side's SPECs made its knobs and its benchmark,
 * the settings the two change checked, journalled, set before each sample
 * of a side (ab.c) and put back (runner/knob_session.h), and the sides'
 * runs begun and finished in the store.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment/ab.h"
#include "monitor/monitor.h"
#include "runner/cpulist.h"
#include "runner/iteration.h"
#include "runner/job_env.h"
#include "runner/knob_guard.h"
#include "runner/lock_wait.h"
#include "results/metric_key.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

const char *const ab_side_names[2] = { "a", "b" };

void ab_experiment_init(struct ab_experiment *x)
{
	knob_session_init(&x->ks, 2, "ab");
}

void ab_experiment_release(struct ab_experiment *x)
{
	for (int i = 0; i < 2; i++) {
		knobs_release(&x->side[i].knobs);
		side_release(&x->side[i].sample);
		free(x->side[i].specs);
	}
	knob_session_release(&x->ks);
	free(x->so.params);
}

void ab_add_spec(struct ab_experiment *x, int which, const char *spec)
{
	struct ab_side *s = &x->side[which];

	s->specs = xreallocarray(s->specs, s->nr_specs + 1, sizeof(char *));
	s->specs[s->nr_specs++] = spec;
}

/* The common -p, less the keys this side sets, then the side's own. */
static char **side_assignments(const struct ab_experiment *x, const struct ab_side *s,
			       size_t *nr)
{
	char **out = xcalloc(x->so.nr_params + s->knobs.nr + 1, sizeof(char *));
	struct strbuf sb = STRBUF_INIT;

	*nr = 0;
	for (size_t i = 0; i < x->so.nr_params; i++) {
		const char *p = x->so.params[i];
		size_t key = strcspn(p, "=");
		bool overridden = false;

		for (size_t k = 0; k < s->knobs.nr; k++) {
			const struct knob *kn = &s->knobs.knobs[k];
			const char *name = kn->kind == KNOB_CMD ? "cmd" : kn->name;

			if ((kn->kind == KNOB_PARAM || kn->kind == KNOB_CMD) &&
			    strlen(name) == key && !strncmp(p, name, key))
				overridden = true;
		}
		if (!overridden)
			out[(*nr)++] = xstrdup(p);
	}
	for (size_t k = 0; k < s->knobs.nr; k++) {
		const struct knob *kn = &s->knobs.knobs[k];

		if (kn->kind != KNOB_PARAM && kn->kind != KNOB_CMD)
			continue;
		strbuf_addf(&sb, "%s=%s", kn->kind == KNOB_CMD ? "cmd" : kn->name, kn->value);
		out[(*nr)++] = strbuf_detach(&sb);
	}
	return out;
}

static void free_assignments(char **a, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(a[i]);
	free(a);
}

/* The benchmark's own knobs of side @which: cmd: only for the command workload, cpus:. */
static int side_own_knobs(struct ab_side *s, int which, const struct workload *w,
			  const char *flag, struct error *err)
{
	for (size_t k = 0; k < s->knobs.nr; k++) {
		const struct knob *kn = &s->knobs.knobs[k];

		if (kn->kind == KNOB_CMD && strcmp(w->name, "command"))
			return error_set(err, EXIT_USAGE, "%s cmd: runs a program, which only "
					 "the command workload does (give 'schedperf ab command')",
					 flag);
		if (kn->kind == KNOB_CPUS) {
			char what[32];

			snprintf(what, sizeof(what), "the cpus: knob of --%s", ab_side_names[which]);
			if (cpulist_parse(kn->value, what, &s->sample.cpus, err))
				return -1;
			s->has_cpus = true;
			s->cpus = kn->value;
			s->sample.opt.cpus = &s->sample.cpus;
		}
	}
	return 0;
}

static int prepare_side(struct ab_experiment *x, int which, const struct workload *w,
			struct error *err)
{
	struct ab_side *s = &x->side[which];
	char flag[16], whose[16];
	char **assignments;
	size_t nr;
	int rc;

	snprintf(flag, sizeof(flag), "ab: --%s", ab_side_names[which]);
	for (size_t i = 0; i < s->nr_specs; i++)
		if (knobs_parse(&s->knobs, s->specs[i], flag, err))
			return -1;
	if (side_own_knobs(s, which, w, flag, err) ||
	    knob_session_side(&x->ks, (size_t)which, &s->knobs, ab_side_names[which], flag, err))
		return -1;
	assignments = side_assignments(x, s, &nr);
	/* the plan's checks count the CPUs of the side's cpus: (pipe's cpus=cross) */
	workload_pin_cpus(s->has_cpus ? &s->sample.cpus : NULL);
	/* and the command workload's looks its program up in the side's PATH */
	snprintf(whose, sizeof(whose), "ab --%s", ab_side_names[which]);
	workload_search_path(knobs_env(&s->knobs, "PATH"), whose);
	rc = side_prepare(&s->sample, w, assignments, nr, x->so.metric, err);
	workload_pin_cpus(NULL);
	workload_search_path(NULL, NULL);
	free_assignments(assignments, nr);
	/* The session's: its cgroups are filled in when they are made. */
	s->sample.opt.task = knob_session_task(&x->ks, (size_t)which);
	s->sample.opt.knob_env = knob_session_describe(&x->ks, (size_t)which);
	return rc;
}

static bool sides_identical(const struct ab_experiment *x)
{
	const struct sample_side *a = &x->side[0].sample, *b = &x->side[1].sample;
	const struct plan_item *pa = &a->plan.items[0], *pb = &b->plan.items[0];

	if ((strcmp(pa->params_json, pb->params_json) &&
	     !(pa->workload->same_params && pa->workload->same_params(pa->values, pb->values))) ||
	    x->side[0].has_cpus != x->side[1].has_cpus ||
	    (x->side[0].has_cpus && !CPU_EQUAL(&a->cpus, &b->cpus)))
		return false;
	return knob_session_same(&x->ks, 0, 1);
}

/* Whether @key of @obj is absent from @other or holds another value there. */
static bool param_differs(json_t *obj, json_t *other, const char *key)
{
	json_t *a = json_object_get(obj, key), *b = json_object_get(other, key);

	return !b || !json_equal(a, b);
}

void ab_params_differ(const struct ab_experiment *x, char *buf, size_t len)
{
	json_t *p[2];
	size_t at = 0;

	buf[0] = '\0';
	for (int i = 0; i < 2; i++)
		p[i] = json_loads(x->side[i].sample.plan.items[0].params_json, 0, NULL);
	for (int i = 0; i < 2 && p[0] && p[1]; i++) {
		const char *key;
		json_t *value;

		json_object_foreach(p[i], key, value) {
			/* b's keys that a has too were said with a's */
			if ((i && json_object_get(p[0], key)) || !param_differs(p[i], p[!i], key))
				continue;
			at += (size_t)snprintf(buf + at, at < len ? len - at : 0, "%s%s",
					       at ? "," : "", key);
		}
	}
	if (at >= len && len)
		buf[0] = '\0';	/* cut short, it would be wrong: none said */
	json_decref(p[0]);
	json_decref(p[1]);
}

static int sides_differ(const struct ab_experiment *x, struct error *err)
{
	if (!sides_identical(x))
		return 0;
	return error_set(err, EXIT_USAGE, "ab: --a and --b are the same configuration (give "
			 "two that differ; for an A/A check, a variable nothing reads: --a "
			 "env:AB=a --b env:AB=b)");
}

static const char *unit_said(const char *unit)
{
	return unit && *unit ? unit : "no unit";
}

/*
 * Unless the sides measure the same metric (its name, unit and direction
 * alike), the error that says which of the three differs: another name
 * is another metric, whatever its unit; one name may differ in unit, in
 * direction or in both.
 */
static int same_metric(const struct sample_side *a, const struct sample_side *b,
		       struct error *err)
{
	struct metric_key ka = { a->metric_name, a->metric_unit, a->better };
	struct metric_key kb = { b->metric_name, b->metric_unit, b->better };
	unsigned int differ = metric_key_differences(&ka, &kb);
	struct strbuf what = STRBUF_INIT;
	int rc;

	if (!differ)
		return 0;
	if (differ & METRIC_KEY_NAME)
		strbuf_addf(&what, "different metrics first (%s on A, %s on B)",
			    a->metric_name, b->metric_name);
	else if (differ == METRIC_KEY_UNIT)
		strbuf_addf(&what, "%s in different units (%s on A, %s on B)", a->metric_name,
			    unit_said(a->metric_unit), unit_said(b->metric_unit));
	else if (differ == METRIC_KEY_BETTER)
		strbuf_addf(&what, "%s in opposite directions (%s is better on A, %s on B)",
			    a->metric_name, better_name(a->better), better_name(b->better));
	else
		strbuf_addf(&what, "%s in different units and directions (%s, %s is better, "
			    "on A; %s, %s is better, on B)", a->metric_name,
			    unit_said(a->metric_unit), better_name(a->better),
			    unit_said(b->metric_unit), better_name(b->better));
	rc = error_set(err, EXIT_USAGE, "ab: the sides measure %s: give --metric, or "
		       "parameters that measure it alike", what.buf);
	strbuf_release(&what);
	return rc;
}

int ab_prepare(struct ab_experiment *x, struct error *err)
{
	const struct workload *w = workload_find(x->workload);
	const struct sample_side *a = &x->side[0].sample, *b = &x->side[1].sample;

	if (!w)
		return error_set(err, EXIT_USAGE, "unknown workload '%.64s': not one of "
				 "schedperf's workloads (see 'schedperf list')", x->workload);
	if (prepare_side(x, 0, w, err) || prepare_side(x, 1, w, err))
		return -1;
	if (same_metric(a, b, err))
		return -1;
	return sides_differ(x, err);
}

int ab_check_machine(struct ab_experiment *x, struct error *err)
{
	iteration_install_signal_handlers();
	if (knob_guard_take(knob_session_changes_machine(&x->ks), err) ||
	    knob_session_check(&x->ks, err))
		return -1;
	return sides_differ(x, err);
}

/*
 * Both sides' batches finished in one transaction, complete when the
 * verdict was reached: the job this ab runs for (if any) is done with
 * them and keeps the verdict. An ab that measured no sample on either
 * side (a side failed at once, a signal or a cap came first) leaves
 * nothing, verdict or not: its batches and runs go, and its name is free
 * for the ab run again; with a verdict (the cap) its job is done all the
 * same, keeping it, as an ab alone ends with it. The first error is the
 * one @err keeps.
 */
static void finish_sides(struct ab_experiment *x, struct store *st, const char *name,
			 const struct ab_run_hooks *hooks, const struct ab_outcome *out,
			 int *rc, struct error *err)
{
	bool complete = !*rc && !iteration_interrupted();
	char *result = NULL;
	struct lock_wait w = LOCK_WAIT(st, x->side[0].sample.opt.events, "the end of its batches");
	struct error ferr = { 0 };
	int64_t ids[2];
	size_t nr = 0;
	bool measured = false;
	int frc;

	for (int i = 0; i < 2; i++) {
		if (x->side[i].sample.result.batch_id)
			ids[nr++] = x->side[i].sample.result.batch_id;
		measured = measured || x->side[i].sample.result.iterations_measured;
	}
	if (!nr)
		return;
	/* the verdict's runs are those the ab keeps: none when they go */
	for (int i = 0; i < 2 && !measured; i++)
		x->side[i].sample.result.batch_id = 0;
	if (complete)
		result = hooks->result(hooks->ctx, out, name);
	while ((frc = measured ? store_batches_finish(st, ids, nr, complete, true, result, &ferr) :
		      store_batches_discard(st, ids, nr, result, &ferr)) && lock_wait_again(&w))
		;
	if (frc && !*rc) {
		*err = ferr;
		*rc = -1;
	}
	free(result);
}

/*
 * Open both runs, each side's batch made under its settings (its
 * environment records them) and both begun at once: refused when a run
 * of the name holds a batch already (another ab's, or a run's), so that
 * of two ab started together under one name exactly one proceeds. A job's
 * earlier, lost attempt is its own (its batches go now). Then sample
 * until the verdict. Returns 0 or -1 with @err.
 */
static int run_sides(struct ab_experiment *x, struct store *st, const char *db,
		     const char *name, const struct ab_run_hooks *hooks, struct ab_outcome *out,
		     struct error *err)
{
	struct ab_measurement m = { { &x->side[0].sample, &x->side[1].sample }, &x->ks,
				    &x->so, x->seed, x->cap_reason, hooks->events, db };
	struct result_set set = { NULL, 0 };
	struct monitor_set *ms = NULL;
	char run[512];
	int rc = -1;

	if (monitors_open(MONITORS_DEFAULT, NULL, &ms, err))
		return -1;
	for (int i = 0; i < 2; i++) {
		snprintf(run, sizeof(run), "%s-%s", name, ab_side_names[i]);
		if (knob_session_apply(&x->ks, (size_t)i, err) ||
		    side_batch(m.sides[i], run, &x->so, hooks->events, &set, err))
			goto out;
	}
	if (sides_open(m.sides, st, &set, ms, err))
		goto out;
	rc = ab_measure(&m, out, err);
out:
	result_set_release(&set);
	finish_sides(x, st, name, hooks, out, &rc, err);
	monitors_close(ms);
	return rc;
}

int ab_run(struct ab_experiment *x, const char *db, const char *name,
	   const struct ab_run_hooks *hooks, struct ab_outcome *out, struct error *err)
{
	struct store *st = NULL;
	struct error rerr = { 0 };
	bool made = false;
	int rc = knob_session_journal(&x->ks, err);

	/*
	 * The originals in this machine's journal, then in the store's copy,
	 * and only then the first change: a SIGKILL at any point leaves no
	 * changed setting that `jobs` does not show. A value the kernel
	 * refuses is found after the store is open, then; a store made for an
	 * ab that measured nothing goes all the same, with its runs.
	 */
	if (!rc)
		rc = store_open_made(db, &st, &made, err) || job_env_attach(st, err) ||
		     knob_session_copy(&x->ks, st, err) ? -1 : 0;
	if (!rc)
		rc = knob_session_begin(&x->ks, err);
	if (!rc)
		rc = run_sides(x, st, db, name, hooks, out, err);
	if (knob_session_end(&x->ks, st, &rerr) && !rc) {
		*err = rerr;
		rc = -1;
	}
	store_close_made(st, made);
	return rc;
}
