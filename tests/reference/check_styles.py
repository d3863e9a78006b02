#!/usr/bin/python3
"""Every number compare's text styles print, against NumPy and SciPy.

usage: check_styles.py RESULTS.json STYLE=OUTPUT...

RESULTS.json is the schedperf-results/1 document the store was given;
every statistic is computed here from its samples, independently of
schedperf: NumPy for summaries, SciPy for the harmonic mean, the binomial
orders of the median's interval and the Mann-Whitney p-value. Each printed
number must equal the reference to the digits printed (half a unit of the
last one). The formulas are the tools' as doc/schedperf.1 states them;
which rows a tool hides and how it marks them are checked against the
tools' own output (tests/reference/styles/, tests/cli/styles.bats). Each
OUTPUT is what compare --style STYLE printed; a style this script has no
check of is refused, so that a new style's numbers are checked too.
Prints the count of numbers checked.
"""
import json
import math
import re
import sys

import numpy as np
from scipy import stats

results = sys.argv[1]
runs = json.load(open(results))["runs"]
names = [r["name"] for r in runs]
ALPHA = 0.05

rows = []   # (workload, params, metric, better, {run: samples})
for b in runs[0]["benchmarks"]:
    for m in b["metrics"]:
        samples = {}
        for r in runs:
            for b2 in r["benchmarks"]:
                if b2["workload"] == b["workload"] and b2["params"] == b["params"]:
                    for m2 in b2["metrics"]:
                        if m2["name"] == m["name"]:
                            samples[r["name"]] = np.array(m2["samples"], dtype=float)
        rows.append((b["workload"], b["params"], m["name"], m["better"], samples))

checked = 0


def agrees(printed, reference, what):
    """printed (text) is reference to the digits it shows."""
    global checked
    text = printed.strip().rstrip("%")
    decimals = len(text.split(".")[1]) if "." in text else 0
    half = 0.5 * 10 ** -decimals
    value = float(text)
    # a value exactly halfway may round either way in binary: allow 1e-9
    if not abs(value - reference) <= half * (1 + 1e-9) + 1e-12 * abs(reference):
        sys.exit("%s: printed %s, reference %.10g" % (what, printed, reference))
    checked += 1


def bmean(x, percent, higher):
    k = max(1, len(x) * percent // 100)
    s = np.sort(x)
    return stats.hmean(s[-k:]) if higher else np.mean(s[:k])


def pct_change(base, value, higher):
    ratio = value / base * 100
    return ratio - 100 if higher else 100 - ratio


def hstddev(x):
    """MMTests' harmonic spread: sqrt(sum((1/x - 1/H)^2) * H^4 / n)."""
    h = stats.hmean(x)
    return math.sqrt(np.sum((1 / x - 1 / h) ** 2) * h ** 4 / len(x))


def mmtests_values(x, higher, classic):
    """The lines of MMTests' table: v0.27 (classic) or the current one."""
    sd = np.std(x, ddof=1)
    if classic:
        head = ("Hmean", stats.hmean(x)) if higher else ("Amean", np.mean(x))
        values = [("Min", np.min(x)), head, ("Stddev", sd),
                  ("CoeffVar", sd / np.mean(x) * 100), ("Max", np.max(x))]
        prefix = "BHmean" if higher else "BAmean"
        return values + [("%s-%d" % (prefix, p), bmean(x, p, higher)) for p in (50, 95, 99)]
    if higher:
        h, hsd = stats.hmean(x), hstddev(x)
        values = [("Min", np.min(x)), ("Hmean", h), ("HStddev", hsd),
                  ("HCoeffVar", hsd / h * 100), ("Max", np.max(x))]
        return values + [("BHmean.95", bmean(x, 95, True))]
    values = [("Min", np.min(x)), ("Amean", np.mean(x)), ("Stddev", sd),
              ("CoeffVar", sd / np.mean(x) * 100), ("Max", np.max(x))]
    return values + [("BAmean.95", bmean(x, 95, False))]


def mmtests_table(text, workload, metric):
    """The lines of the table titled "WORKLOAD METRIC (...)"."""
    for i, line in enumerate(text):
        if line.startswith("%s %s (" % (workload, metric)):
            end = text.index("", i) if "" in text[i:] else len(text)
            return text[i + 1:end]
    sys.exit("mmtests: no table for %s %s" % (workload, metric))


def check_mmtests(path, classic):
    text = open(path).read().splitlines()
    for workload, params, metric, better, samples in rows:
        higher = better == "higher"
        table = mmtests_table(text, workload, metric)
        # the operation: the parameter set, or the metric without one
        op = ",".join("%s=%s" % kv for kv in sorted(params.items())) or metric
        per_run = {n: dict(mmtests_values(samples[n], higher, classic)) for n in names}
        for label in per_run[names[0]]:
            line = [l for l in table if re.match(r"%s +%s " % (re.escape(label), re.escape(op)), l)]
            if len(line) != 1:
                sys.exit("mmtests: no single line %s %s: %s" % (label, op, line))
            # value (pct%) or value *pct%*: one pair per run
            pairs = re.findall(r"(-?[0-9.]+) [(*] *(-?[0-9.]+)%[)*]", line[0])
            if len(pairs) != len(names):
                sys.exit("mmtests: %s: %s" % (label, line[0]))
            base = per_run[names[0]][label]
            for n, (value, pct) in zip(names, pairs):
                ref = per_run[n][label]
                what = "mmtests%s %s %s %s" % (" v0.27" if classic else "", label, metric, n)
                agrees(value, ref, what)
                # spreads: lower is better whatever the metric
                up = higher and "Stddev" not in label and "CoeffVar" not in label
                agrees(pct, pct_change(base, ref, up), what + " %")


def check_lkp(lkp_txt):
    """lkp's mean, %stddev (population, truncated, shown above 2 %) and
    %change of means, for each row it shows."""
    text = open(lkp_txt).read().splitlines()
    for workload, params, metric, better, samples in rows:
        line = [l for l in text if l.endswith("  %s.%s" % (workload, metric))]
        if not line:
            continue
        if len(line) != 1:
            sys.exit("lkp: several lines for %s.%s" % (workload, metric))
        cells = re.findall(r"(-?[0-9.]+)(?: ± +([0-9]+)%| {6})(?= )", line[0])
        changes = re.findall(r"([+-][0-9.]+)%", line[0])
        if len(cells) != len(names) or len(changes) != len(names) - 1:
            sys.exit("lkp: %s" % line[0])
        base = np.mean(samples[names[0]])
        for n, (mean, cv) in zip(names, cells):
            x = samples[n]
            ref_cv = np.std(x, ddof=0) / np.mean(x) * 100
            if abs(np.mean(x)) >= 1000:     # an integer, truncated
                if int(mean) != math.trunc(np.mean(x)):
                    sys.exit("lkp mean %s %s: %s" % (metric, n, mean))
            else:
                agrees(mean, np.mean(x), "lkp mean %s %s" % (metric, n))
            if (ref_cv > 2) != bool(cv) or (cv and int(cv) != math.trunc(ref_cv)):
                sys.exit("lkp %%stddev %s %s: %r, reference %g" % (metric, n, cv, ref_cv))
        for n, change in zip(names[1:], changes):
            agrees(change, (np.mean(samples[n]) - base) / base * 100,
                   "lkp %%change %s %s" % (metric, n))


def median_ci(x, level=0.95):
    s = np.sort(x)
    k = int(stats.binom.ppf((1 - level) / 2, len(s), 0.5))
    return s[k - 1], s[len(s) - k]


def check_benchstat(benchstat_txt):
    text = open(benchstat_txt).read().splitlines()
    for workload, params, metric, better, samples in rows:
        label = workload + "".join("/%s=%s" % kv for kv in sorted(params.items()))
        line = [l for l in text if l.startswith(label + " ")]
        if len(line) != 1:
            sys.exit("benchstat: no single line for %s: %s" % (label, line))
        cells = re.findall(r"([0-9.]+) ± +([0-9]+)%", line[0])
        deltas = re.findall(r"(?:([+-][0-9.]+)%|~) \(p=([0-9.]+) n=([0-9]+)\)", line[0])
        if len(cells) != len(names) or len(deltas) != len(names) - 1:
            sys.exit("benchstat: %s" % line[0])
        base = samples[names[0]]
        for n, (median, spread) in zip(names, cells):
            x = samples[n]
            m = np.median(x)
            lo, hi = median_ci(x)
            agrees(median, m, "benchstat median %s %s" % (metric, n))
            agrees(spread, max(hi - m, m - lo) / abs(m) * 100, "benchstat ± %s %s" % (metric, n))
        for n, (delta, p, count) in zip(names[1:], deltas):
            x = samples[n]
            ref_p = stats.mannwhitneyu(x, base, alternative="two-sided", method="exact").pvalue
            agrees(p, ref_p, "benchstat p %s %s" % (metric, n))
            # `~` when p > alpha, whatever schedperf's verdict
            if (ref_p <= ALPHA) != bool(delta):
                sys.exit("benchstat: %s %s: delta %r with p %g" % (metric, n, delta, ref_p))
            if delta:
                agrees(delta, (np.median(x) / np.median(base) - 1) * 100,
                       "benchstat delta %s %s" % (metric, n))
            if int(count) != len(x) or len(x) != len(base):
                sys.exit("benchstat: n=%s for %d and %d samples" % (count, len(base), len(x)))


CHECKS = {
    "mmtests": lambda path: check_mmtests(path, False),
    "mmtests-classic": lambda path: check_mmtests(path, True),
    "lkp": check_lkp,
    "benchstat": check_benchstat,
}
for arg in sys.argv[2:]:
    style, _, path = arg.partition("=")
    if style not in CHECKS:
        sys.exit("style %s: no check of its numbers here (add one to CHECKS)" % style)
    CHECKS[style](path)
print(checked)
