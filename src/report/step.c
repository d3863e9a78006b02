// SPDX-License-Identifier: GPL-2.0
/* A bisect-step's verdict (step.h): its line and its JSON. */
#include <jansson.h>
#include <math.h>

#include "report/step.h"
#include "util/numfmt.h"

/* A bound of the interval: "-" when there is none. */
static const char *pct_text(double pct, char *buf, size_t len)
{
	return format_pct(buf, len, pct, 2, "-");
}

void report_step(FILE *out, const struct step_verdict *v)
{
	char bound[64] = "", lo[32], hi[32];

	if (v->decided && v->error_bound > v->alpha)
		snprintf(bound, sizeof(bound), ", wrong with chance <= %.2g", v->error_bound);
	fprintf(out, "bisect-step %s: %s (%s%s): %s against %s %s .. %s (+ is better), "
		"%zu samples%s%s\n", v->run, v->verdict, v->reason, bound, v->metric, v->good,
		pct_text(v->ci_low_pct, lo, sizeof(lo)), pct_text(v->ci_high_pct, hi, sizeof(hi)),
		v->samples, v->failed ? "; last failure: " : "", v->failed ? v->last_failure : "");
}

static json_t *number_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

char *step_verdict_json(const struct step_verdict *v)
{
	json_t *obj = json_object();
	char *text;

	json_object_set_new(obj, "verdict", json_string(v->verdict));
	json_object_set_new(obj, "reason", json_string(v->reason));
	json_object_set_new(obj, "error_bound", v->decided ? json_real(v->error_bound) :
			    json_null());
	json_object_set_new(obj, "ci_pct", json_pack("[oo]", number_or_null(v->ci_low_pct),
						       number_or_null(v->ci_high_pct)));
	json_object_set_new(obj, "samples", json_integer((json_int_t)v->samples));
	json_object_set_new(obj, "metric", json_string(v->metric));
	json_object_set_new(obj, "better", json_string(better_name(v->better)));
	json_object_set_new(obj, "good", json_string(v->good));
	json_object_set_new(obj, "bad", v->bad ? json_string(v->bad) : json_null());
	json_object_set_new(obj, "run", json_string(v->run));
	text = json_dumps(obj, JSON_REAL_PRECISION(6) | JSON_COMPACT);
	json_decref(obj);
	return text;
}
