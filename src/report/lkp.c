// SPDX-License-Identifier: GPL-2.0
/*
 * The 0-day (LKP) comparison, as lkp-tests' Compare (lib/compare.rb with
 * lib/stats.rb, git bbbc29c, July 2026) prints a group of result roots:
 * a group per workload and parameter set (its axes: the parameters and
 * testcase=WORKLOAD), the runs as its "commit" axis, a stat per metric
 * named WORKLOAD.METRIC (SOURCE.METRIC for a monitor's), a matrix column
 * per sample. Per stat and run
 *
 *     219967 ±  4%     -51.5%     106583 ±  1%  hackbench.throughput
 *
 * the mean, the population stddev in percent of it (truncated, shown above
 * 2 %) and %change of the means (a plain relative difference: its sign is
 * up or down, not better or worse). A stat is shown only as LKP decides:
 * a side with 3 samples or more, the two distributions apart (new min >
 * base median and new median > base max, or the reverse, on samples
 * trimmed as lkp's StatSummary does, the median being the upper one), the
 * ratio of medians past 1 % for performance stats and 5 % for others, and
 * not on LKP's deny list. Stats LKP counts as failures (".fail", ".error",
 * ".warn" ... ".pass") are shown as fail:runs with %reproduction.
 *
 * What LKP knows by name is kept as it is for the names schedperf can
 * produce: its list of test programs whose stats are performance stats,
 * its performance prefixes and patterns, the deny list's monitor prefixes
 * with the report allow list, and the thresholds for vmstat's nr_ counters.
 * Its other per-name thresholds concern stats schedperf does not have.
 * schedperf's verdicts follow each group on "schedperf:" lines.
 */
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "stats/summary.h"
#include "util/xalloc.h"

#define LKP_MARGIN_SHIFT	5
#define LKP_MAX_RATIO		5.0

/*
 * LKP::Programs' tests with stats, less functional and other tests: their
 * stats are performance stats.
 */
static const char *const lkp_perf_tests[] = {
	"adrestia", "aim7", "aim9", "apachebench", "autonuma-benchmark", "blogbench",
	"cassandra", "chromeswap", "coremark", "cyclictest", "dbench", "dd", "default",
	"ebizzy", "exit-free", "ext4-frags", "filebench", "fio", "fsmark", "hackbench",
	"hpcc", "idle", "igt", "intel-ipsec-mb", "iozone", "iperf", "jitter", "kbuild",
	"kernbench", "ku-latency", "lib-micro", "linkbench", "linpack", "lmbench3",
	"lz4-test", "mcperf", "md-to-html-css", "memtier", "migratepages", "mutilate",
	"nepim", "netperf", "netpipe", "nuttcp", "oltp", "openssl-speed", "pbzip2",
	"perf-bench-futex", "perf-bench-mem", "perf-bench-numa-mem",
	"perf-bench-sched-messaging", "perf-bench-sched-pipe", "perf-bench-syscall",
	"perf-event-tests", "pft", "pgbench", "phpbench", "pigz", "pixz", "plzip",
	"pmbench", "postmark", "power-idle", "pts", "pxz", "pybench", "qat", "qperf",
	"rcurefscale", "rdma-pyverbs", "reaim", "redis", "rt-app", "schbench", "siege",
	"simd-stress", "simoop", "sleep", "sockperf", "stream", "stress-ng", "stutter",
	"swapin", "sysbench-cpu", "sysbench-fileio", "sysbench-memory", "sysbench-mutex",
	"sysbench-threads", "tbench", "tcrypt", "thrulay", "tinymembench", "tlbflush",
	"unixbench", "uperf", "vm-scalability", "will-it-scale", "ycsb", NULL,
};

/* etc/perf-metrics-prefixes */
static const char *const lkp_perf_prefixes[] = {
	"boot-meminfo.DirectMap1G", "boot-meminfo.DirectMap2M", "boot-meminfo.DirectMap4k",
	"boot-meminfo.KernelStack", "boot-meminfo.MemFree", "boot-meminfo.MemTotal",
	"boot-meminfo.PageTables", "boot-meminfo.Slab", "boot-meminfo.VmallocUsed",
	"boot-memory.bootmem", "boot-memory.code", "boot-memory.init", "boot-slabinfo.",
	"boot-time.", "energy.", "interrupts.CAL:Function_call_interrupts", "iostat.",
	"perf-c2c.HITM.total", "perf-profile.children.cycles-pp.native_queued_spin_lock_slowpath",
	"perf-stat.", "pmeter.", "proc-vmstat.", "turbostat.%Busy", "turbostat.Bzy_MHz",
	"turbostat.C1%", "turbostat.C1E%", "turbostat.CorWatt", "turbostat.Pk%pc10",
	"turbostat.Pkg%pc2", "turbostat.Pkg%pc3", "turbostat.Pkg%pc6", "turbostat.Pkg%pc7",
	"turbostat.Pkg%pc8", "turbostat.Pkg%pc9", "turbostat.PkgTmp", "turbostat.PkgWatt",
	"turbostat.POLL%", "turbostat.RAMWatt", "turbostat.SYS%LPI", "vmstat.cpu.",
	"vmstat.io.", "vmstat.swap.", "vmstat.system.", NULL,
};

/* etc/perf-metrics-patterns, then etc/failure and etc/pass (anchored at the start) */
static const char *const lkp_perf_patterns[] = {
	"^(.*\\.)?time..*", "^lock_stat..*..contentions", NULL,
};
static const char *const lkp_failure_patterns[] = {
	"^.+killed_by.*", "^.+\\.(error|warn|fail)[^_]*$", "^dmesg.*",
	"^kmemleak\\..+unreferenced_object\\..+", "^kmsg.*", "^last_state.*",
	"^locktoture\\..+lock_hotplug", "^rcutoture\\..+rcu_hotplug", "^stderr.*",
	"^xfstests\\..+fail$", "^.+\\.pass$", NULL,
};

/* etc/stat-denylist's prefixes of monitors, less etc/report-allowlist's */
static const char *const lkp_denied[] = {
	"boot-meminfo.", "boot-slabinfo.", "boot-time.", "buddyinfo.", "cpuidle.", "diskstats.",
	"interrupts.", "iostat.", "lock_stat.", "max_iostat.", "meminfo.", "mpstat.",
	"numa-meminfo.", "numa-numastat.", "numa-vmstat.", "pagetypeinfo.", "perf-profile.",
	"perf-stat.", "proc-vmstat.", "sched_debug.", "slabinfo.", "softirqs.", "tcrypt.",
	"time.", "turbostat.", "uptime.", "vmstat.", "zoneinfo.", NULL,
};
static const char *const lkp_report_allowed[] = {
	"boot-meminfo.", "boot-slabinfo.", "boot-time.", "cpuidle.", "iostat.", "lock_stat.",
	"meminfo.", "mpstat.", "numa-meminfo.", "numa-numastat.", "numa-vmstat.",
	"perf-profile.", "perf-stat.", "proc-vmstat.", "sched_debug.", "time.", "turbostat.",
	"uptime.", "vmstat.", NULL,
};

static bool has_prefix(const char *s, const char *const *prefixes)
{
	for (; *prefixes; prefixes++)
		if (!strncmp(s, *prefixes, strlen(*prefixes)))
			return true;
	return false;
}

static bool matches(const char *s, const char *const *patterns)
{
	for (; *patterns; patterns++) {
		regex_t re;
		bool hit;

		if (regcomp(&re, *patterns, REG_EXTENDED | REG_NOSUB))
			continue;
		hit = !regexec(&re, s, 0, NULL, 0);
		regfree(&re);
		if (hit)
			return true;
	}
	return false;
}

/* The part of a stat before its first '.'. */
static bool base_is_perf_test(const char *key)
{
	size_t n = strcspn(key, ".");

	for (const char *const *t = lkp_perf_tests; *t; t++)
		if (strlen(*t) == n && !strncmp(key, *t, n))
			return true;
	return false;
}

static bool lkp_perf_metric(const char *key)
{
	return matches(key, lkp_perf_patterns) || has_prefix(key, lkp_perf_prefixes) ||
	       base_is_perf_test(key);
}

static bool lkp_failure_stat(const char *key)
{
	if (strstr(key, ".time.") || strstr(key, ".timestamp:") || strstr(key, ".bootstage:"))
		return false;
	return matches(key, lkp_failure_patterns);
}

/* reasonable_perf_change? for the stats schedperf can name */
static bool lkp_reasonable(const char *key, double delta, double max)
{
	static const char *const vmstat_nr[] = { "^.*vmstat.*nr_.*$", NULL };

	if (matches(key, vmstat_nr))
		return !(max < 100) && !(delta < 50 && delta == floor(delta));
	if (!strncmp(key, "softirqs", 8) || !strncmp(key, "interrupts", 10))
		return max > 10000;
	if (!strncmp(key, "proc-vmstat", 11) || strstr(key, "meminfo"))
		return max > 1000;
	return true;
}

/* One stat of one run: its samples, and lkp's trimmed summary of them. */
struct lkp_side {
	double *sorted;	/* ascending, leading -1 ("no data") dropped, margins trimmed */
	size_t n;
	double min, mean, max;	/* mean: the upper median */
};

static int cmp_up(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* StatSummary.new(values padded with 0 to @cols, @max_margin) */
static void lkp_summary(struct lkp_side *s, const struct compare_cell *cell, size_t cols,
			size_t max_margin)
{
	size_t n = cols > cell->nr_samples ? cols : cell->nr_samples, skip = 0, margin;
	double *v = xcalloc(n ? n : 1, sizeof(double));

	if (cell->nr_samples)	/* a run without the row has no samples array */
		memcpy(v, cell->samples, cell->nr_samples * sizeof(double));
	qsort(v, n, sizeof(double), cmp_up);
	while (skip < n && v[skip] == -1)
		skip++;
	n -= skip;
	margin = n >> LKP_MARGIN_SHIFT;
	if (margin > max_margin)
		margin = max_margin;
	s->n = n > 2 * margin ? n - 2 * margin : 0;
	s->sorted = xmalloc((s->n ? s->n : 1) * sizeof(double));
	memcpy(s->sorted, v + skip + margin, s->n * sizeof(double));
	free(v);
	s->min = s->n ? s->sorted[0] : 0;
	s->mean = s->n ? s->sorted[s->n / 2] : 0;
	s->max = s->n ? s->sorted[s->n - 1] : 0;
}

/* The most samples of any stat of the group in run @r: LKP's matrix columns. */
static size_t lkp_cols(const struct compare_row *const *rows, size_t nr, size_t r)
{
	size_t cols = 0;

	for (size_t i = 0; i < nr; i++)
		if (rows[i]->cells[r].nr_samples > cols)
			cols = rows[i]->cells[r].nr_samples;
	return cols;
}

/* Is the stat of run @r changed against the baseline, by lib/stats.rb's rules? */
static bool lkp_changed(const struct compare_row *row, const char *key, bool failure,
			size_t cols_a, size_t cols_b, size_t r)
{
	struct lkp_side a, b;
	size_t margin = failure ? 0 : 3;
	bool changed;

	if (!failure && !row->cells[0].nr_samples)
		return false;	/* a stat the base lacks */
	lkp_summary(&b, &row->cells[0], cols_b, margin);
	if (cols_b <= 3 && margin > 1)
		margin = 1;
	lkp_summary(&a, &row->cells[r], cols_a, margin);
	if (!a.n || !b.n) {
		changed = false;
	} else if (failure) {
		changed = a.max != b.max;
	} else {
		changed = (b.min > a.mean && b.mean > a.max) || (a.min > b.mean && a.mean > b.max);
	}
	if (changed) {
		const struct lkp_side *high = a.mean > b.mean ? &a : &b;
		const struct lkp_side *low = a.mean > b.mean ? &b : &a;
		double ratio = low->mean > 0 ? high->mean / low->mean : LKP_MAX_RATIO;
		double max = fmax(a.max, b.max);

		if (ratio > LKP_MAX_RATIO)
			ratio = LKP_MAX_RATIO;
		changed = ratio > 1.01 && (ratio > 1.05 || lkp_perf_metric(key)) &&
			  lkp_reasonable(key, high->mean - low->mean, max);
	}
	free(a.sorted);
	free(b.sorted);
	return changed;
}

static char *lkp_key(const struct compare_row *row)
{
	const char *source = row->metric->source;
	const char *prefix = !source || !strcmp(source, "workload") ? row->workload : source;
	size_t len = strlen(prefix) + strlen(row->metric->name) + 2;
	char *key = xmalloc(len);

	snprintf(key, len, "%s.%s", prefix, row->metric->name);
	return key;
}

/* skip_stat? and skip_function_stat? for a stat of the group */
static bool lkp_skipped(const char *key, bool failure, const struct compare_row *const *rows,
			size_t nr, size_t cols_a, size_t cols_b)
{
	if (has_prefix(key, lkp_denied) && !has_prefix(key, lkp_report_allowed))
		return true;
	if (failure) {
		size_t base_len = strrchr(key, '.') ? (size_t)(strrchr(key, '.') - key) : strlen(key);
		regex_t re;
		bool ends_fail, ends_pass, found = false;

		if (!strncmp(key, "dmesg.", 6) || !strncmp(key, "kmsg.", 5) ||
		    !strncmp(key, "last_state.", 11) || !strncmp(key, "stderr.", 7))
			return false;
		regcomp(&re, "\\.(error|warn|fail)$", REG_EXTENDED | REG_NOSUB);
		ends_fail = !regexec(&re, key, 0, NULL, 0);
		ends_pass = strlen(key) > 5 && !strcmp(key + strlen(key) - 5, ".pass");
		for (size_t i = 0; i < nr && (ends_fail || ends_pass); i++) {
			char *other = lkp_key(rows[i]);

			if (rows[i]->cells[0].nr_samples && !strncmp(other, key, base_len) &&
			    other[base_len] == '.' &&
			    (ends_fail ? !strcmp(other + base_len, ".pass") :
			     !regexec(&re, other + base_len, 0, NULL, 0) &&
			     !strchr(other + base_len + 1, '.')))
				found = true;
			free(other);
		}
		regfree(&re);
		return (ends_fail || ends_pass) && !found;
	}
	return cols_a < 3 && cols_b < 3;
}

/* One shown stat: its key and what show_perf_change()/show_failure_change() print. */
struct lkp_stat {
	const struct compare_row *row;
	char *key;
	bool failure;
	long base_count;	/* sort_stats' first key */
	double *changes;
};

/* Ruby's Array#sum of Floats: Kahan-Babuska compensated. */
static double ruby_sum(const double *x, size_t n)
{
	double f = 0, c = 0;

	for (size_t i = 0; i < n; i++) {
		double t = f + x[i];

		if (fabs(f) >= fabs(x[i]))
			c += (f - t) + x[i];
		else
			c += (x[i] - t) + f;
		f = t;
	}
	return f + c;
}

/* Ruby's printf "%d" of a Float: truncated toward zero. */
static void ruby_int(FILE *out, int width, double v)
{
	fprintf(out, "%*.0f", width, trunc(v) == 0 ? 0.0 : trunc(v));
}

/*
 * Ruby's sums and squares, as LKP takes them, overflow for samples near the
 * largest double (where LKP itself fails) and its squares underflow near
 * the smallest: there the mean and the population stddev are those of
 * src/stats, computed on the samples scaled by a power of two.
 */
static double lkp_mean(const double *x, size_t n)
{
	double avg = ruby_sum(x, n) / (double)n;

	return isfinite(avg) ? avg : stats_mean(x, n);
}

static double lkp_stddev(const double *x, size_t n, double avg)
{
	double ss = 0;

	if (stats_scale_exponent(x, n))
		return stats_stddev(x, n) * sqrt((double)(n - 1) / (double)n);
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - avg) * (x[i] - avg);
	return sqrt(1 / (double)n * ss);
}

/* 100 * a / b, where 100 * a is beyond a double */
static double lkp_percent(double a, double b)
{
	return isfinite(100 * a) ? 100 * a / b : a / b * 100;
}

/*
 * A performance stat of one run as show_perf_change() has it: the mean of
 * the samples (0 without any) and their population stddev in percent of
 * it, which lkp shows only above 2 (and -1 where there is none). The text
 * table and the markdown row both take their figures from here.
 */
static void lkp_perf_figures(const struct compare_cell *cell, double *avg, double *sd)
{
	size_t n = cell->nr_samples;

	*avg = 0;
	*sd = -1;
	if (n) {
		*avg = lkp_mean(cell->samples, n);
		if (n > 1)
			*sd = lkp_stddev(cell->samples, n, *avg);
	}
	if (*avg != 0)
		*sd = lkp_percent(*sd, *avg);
}

/* %change of the means of run @r against the baseline's: up or down, not better or worse. */
static double lkp_perf_change(const struct compare_row *row, size_t r)
{
	double base, avg, sd;

	lkp_perf_figures(&row->cells[0], &base, &sd);
	lkp_perf_figures(&row->cells[r], &avg, &sd);
	if (base == 0)
		base = 1e-100;
	return lkp_percent(avg - base, base);
}

static void lkp_perf_line(FILE *out, const struct comparison *cmp, const struct lkp_stat *s)
{
	for (size_t r = 0; r < cmp->nr_runs; r++) {
		double avg, sd;

		lkp_perf_figures(&s->row->cells[r], &avg, &sd);
		if (r) {
			double p = s->changes[r - 1];

			fprintf(out, fabs(p) < 100000 ? "%+10.1f%% " : "%+10.2g%% ", p);
		}
		if (fabs(avg) < 1000)
			fprintf(out, "%10.2f", avg);
		else if (fabs(avg) > 100000000)
			fprintf(out, "%10.4g", avg);
		else
			ruby_int(out, 10, avg);
		if (sd > 2) {
			fputs(" ±", out);
			ruby_int(out, 3, sd);
			fputc('%', out);
		} else {
			fputs("      ", out);
		}
	}
	fprintf(out, "  %s\n", s->key);
}

static void lkp_failure_line(FILE *out, const struct comparison *cmp, const struct lkp_stat *s,
			     const size_t *runs)
{
	for (size_t r = 0; r < cmp->nr_runs; r++) {
		const struct compare_cell *cell = &s->row->cells[r];
		double f = ruby_sum(cell->samples, cell->nr_samples);

		if (r)
			fprintf(out, "%10.0f%% ", s->changes[r - 1]);
		if (f == 0)
			fprintf(out, "%11s", " ");
		else
			ruby_int(out, 11, f);
		fprintf(out, ":%-4zu", runs[r]);
	}
	fprintf(out, "  %s\n", s->key);
}

static int cmp_stats(const void *x, const void *y)
{
	const struct lkp_stat *a = x, *b = y;
	int c;

	if (a->base_count != b->base_count)
		return a->base_count < b->base_count ? -1 : 1;
	c = strcmp(a->key, b->key);
	return c;
}

/* The group's header: its axes, its runs, their names over the columns. */
static void lkp_group_header(FILE *out, const struct comparison *cmp, const struct compare_row *row)
{
	char *params = params_label(row->params, '/'), *save = NULL;
	char *keys = xcalloc(strlen(params) + strlen("testcase") + 2, 1);
	char *vals = xcalloc(strlen(params) + strlen(row->workload) + 2, 1);
	bool testcase_done = false;

	/* the axes sorted by name, testcase among them */
	for (char *kv = strtok_r(params, "/", &save);; kv = strtok_r(NULL, "/", &save)) {
		char *eq = kv ? strchr(kv, '=') : NULL;

		if (!testcase_done && (!kv || (eq && strncmp(kv, "testcase", (size_t)(eq - kv)) > 0))) {
			strcat(keys, *keys ? "/testcase" : "testcase");
			strcat(vals, *vals ? "/" : "");
			strcat(vals, row->workload);
			testcase_done = true;
		}
		if (!kv)
			break;
		if (!eq)
			continue;
		strcat(keys, *keys ? "/" : "");
		strncat(keys, kv, (size_t)(eq - kv));
		strcat(vals, *vals ? "/" : "");
		strcat(vals, eq + 1);
	}
	fprintf(out, "============================================="
		"============================================\n");
	fprintf(out, "%s:\n  %s\n\ncommit: \n", keys, vals);
	for (size_t r = 0; r < cmp->nr_runs; r++)
		fprintf(out, "  %s\n", cmp->runs[r].name);
	fprintf(out, "\n%16.16s ", cmp->runs[0].name);
	for (size_t r = 1; r < cmp->nr_runs; r++)
		fprintf(out, "%27.27s ", cmp->runs[r].name);
	fprintf(out, "\n---------------- ");
	for (size_t r = 1; r < cmp->nr_runs; r++)
		fprintf(out, "--------------------------- ");
	fputc('\n', out);
	free(params);
	free(keys);
	free(vals);
}

/* show_perf_header() and show_failure_header(): two lines, a part per run. */
static void lkp_columns_header(FILE *out, size_t nr_runs, const char *first, const char *each,
			       const char *first2, const char *each2)
{
	fputs(first, out);
	for (size_t r = 1; r < nr_runs; r++)
		fputs(each, out);
	fprintf(out, "\n%s", first2);
	for (size_t r = 1; r < nr_runs; r++)
		fputs(each2, out);
	fputc('\n', out);
}

static void lkp_show_group(FILE *out, const struct comparison *cmp, struct lkp_stat *stats,
			   size_t nr, const size_t *runs)
{
	bool any_failure = false, any_perf = false;

	qsort(stats, nr, sizeof(*stats), cmp_stats);
	for (size_t i = 0; i < nr; i++) {
		any_failure |= stats[i].failure;
		any_perf |= !stats[i].failure;
	}
	lkp_group_header(out, cmp, stats[0].row);
	if (any_failure) {
		lkp_columns_header(out, cmp->nr_runs, "       fail:runs",
				   "  %reproduction    fail:runs", "           |    ",
				   "         |             |    ");
		for (size_t i = 0; i < nr; i++)
			if (stats[i].failure)
				lkp_failure_line(out, cmp, &stats[i], runs);
	}
	if (any_perf) {
		lkp_columns_header(out, cmp->nr_runs, "         %stddev",
				   "     %change         %stddev", "             \\  ",
				   "        |                \\  ");
		for (size_t i = 0; i < nr; i++)
			if (!stats[i].failure)
				lkp_perf_line(out, cmp, &stats[i]);
	}
	fputc('\n', out);
}

/* Per-run sums of a failure stat's values, or means of a performance stat's. */
static void lkp_changes(struct lkp_stat *s, const struct comparison *cmp, const size_t *runs)
{
	double first = 0;

	s->changes = xcalloc(cmp->nr_runs, sizeof(double));
	if (!s->failure) {
		for (size_t r = 1; r < cmp->nr_runs; r++)
			s->changes[r - 1] = lkp_perf_change(s->row, r);
		return;
	}
	for (size_t r = 0; r < cmp->nr_runs; r++) {
		const struct compare_cell *cell = &s->row->cells[r];
		double v = ruby_sum(cell->samples, cell->nr_samples);

		if (!r) {
			first = v / (double)runs[0];
			continue;
		}
		/* lkp divides run r's failures by the runs of column r - 1 */
		s->changes[r - 1] = 100 * (v / (double)runs[r - 1] - first);
	}
}

/*
 * schedperf's own verdicts on the group's stats, shown or not. Under no
 * header (no stat of the group shown) a stat's name is not enough: two
 * groups of one workload have the same names, so their axes follow it.
 */
static void lkp_verdicts(FILE *out, const struct comparison *cmp,
			 const struct compare_row *const *rows, size_t nr, bool header,
			 const struct compare_render *how)
{
	for (size_t i = 0; i < nr; i++) {
		char *key = lkp_key(rows[i]), *axes = params_label(rows[i]->params, '/');

		if (!header && *axes) {
			char *named = xasprintf("%s (%s)", key, axes);

			free(key);
			key = named;
		}
		print_verdict_line(out, cmp, rows[i], key, how);
		free(axes);
		free(key);
	}
}

static void lkp_group(FILE *out, const struct comparison *cmp,
		      const struct compare_row *const *rows, size_t nr,
		      const struct compare_render *how)
{
	size_t *runs = xcalloc(cmp->nr_runs, sizeof(size_t));
	struct lkp_stat *stats = xcalloc(nr, sizeof(*stats));
	size_t shown = 0;

	for (size_t r = 0; r < cmp->nr_runs; r++)
		runs[r] = lkp_cols(rows, nr, r);
	for (size_t i = 0; i < nr; i++) {
		char *key = lkp_key(rows[i]);
		bool failure = lkp_failure_stat(key), changed = false;

		for (size_t r = 1; r < cmp->nr_runs && !changed; r++)
			changed = !lkp_skipped(key, failure, rows, nr, runs[r], runs[0]) &&
				  lkp_changed(rows[i], key, failure, runs[r], runs[0], r);
		if (!changed) {
			free(key);
			continue;
		}
		stats[shown] = (struct lkp_stat){ rows[i], key, failure, 0, NULL };
		lkp_changes(&stats[shown], cmp, runs);
		shown++;
	}
	/*
	 * sort_stats: a base's count of stats (from -10000 when its first stat
	 * is a failure), 0 for a test's own; then the stat's name
	 */
	for (size_t i = 0; i < shown; i++) {
		size_t n = strcspn(stats[i].key, "."), first = shown;
		long count = 0;

		for (size_t j = 0; j < shown; j++)
			if (strcspn(stats[j].key, ".") == n && !strncmp(stats[i].key, stats[j].key, n)) {
				count++;
				if (first == shown)
					first = j;
			}
		if (stats[first].failure)
			count -= 10000;
		if (base_is_perf_test(stats[i].key) && count > 0)
			count = 0;
		stats[i].base_count = count;
	}
	if (shown)
		lkp_show_group(out, cmp, stats, shown, runs);
	lkp_verdicts(out, cmp, rows, nr, shown, how);
	for (size_t i = 0; i < shown; i++) {
		free(stats[i].key);
		free(stats[i].changes);
	}
	free(stats);
	free(runs);
}

void report_compare_lkp(FILE *out, const struct comparison *cmp,
			const struct compare_render *how)
{
	bool *done = xcalloc(cmp->nr_rows + 1, sizeof(bool));
	const struct compare_row **rows = xcalloc(cmp->nr_rows + 1, sizeof(*rows));

	for (size_t i = 0; i < cmp->nr_rows; i++) {
		size_t nr = 0;

		if (done[i])
			continue;
		for (size_t j = i; j < cmp->nr_rows; j++)
			if (!done[j] && !strcmp(cmp->rows[i].workload, cmp->rows[j].workload) &&
			    !strcmp(cmp->rows[i].params, cmp->rows[j].params)) {
				rows[nr++] = &cmp->rows[j];
				done[j] = true;
			}
		lkp_group(out, cmp, rows, nr, how);
	}
	free(rows);
	free(done);
}

/*
 * Markdown's value and change: a performance stat's, as lkp's table has
 * them (its failure stats' sums need the group's runs, which a row of its
 * own has not); "-" for a run without samples.
 */
void lkp_md_value(FILE *out, const struct comparison *cmp, const struct compare_row *row,
		  size_t r)
{
	double avg, sd;

	(void)cmp;
	if (!row->cells[r].nr_samples) {
		md_number(out, NAN, MD_G6);
		return;
	}
	lkp_perf_figures(&row->cells[r], &avg, &sd);
	md_number(out, avg, MD_G6);
	if (sd > 2)
		fprintf(out, " ± %.0f%%", trunc(sd));
}

void lkp_md_change(FILE *out, const struct comparison *cmp, const struct compare_row *row,
		   size_t r)
{
	(void)cmp;
	md_number(out, row->cells[0].nr_samples && row->cells[r].nr_samples ?
		  lkp_perf_change(row, r) : NAN, MD_CHANGE);
}
