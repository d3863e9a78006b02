#!/usr/bin/python3
"""Every number compare's text styles print, against NumPy and SciPy.

usage: check_styles.py RESULTS.json COMPARE.json MMTESTS.txt LKP.txt BENCHSTAT.txt

RESULTS.json is the schedperf-results/1 document the store was given;
every statistic is computed here from its samples, independently of
schedperf: NumPy for summaries, SciPy for the harmonic mean, the binomial
orders of the median's interval and the Mann-Whitney p-value. Each printed
number must equal the reference to the digits printed (half a unit of the
last one). COMPARE.json (compare --format json) is read only for the
verdicts, which decide what a style marks; they are checked against R
elsewhere. Prints the count of numbers checked.
"""
import json
import math
import re
import sys

import numpy as np
from scipy import stats

results, compare, mmtests_txt, lkp_txt, benchstat_txt = sys.argv[1:6]
runs = json.load(open(results))["runs"]
names = [r["name"] for r in runs]
verdicts = {}
for row in json.load(open(compare))["rows"]:
    for cell in row["runs"]:
        verdicts[(row["workload"], row["metric"], cell["name"])] = cell.get("verdict")

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


def mmtests_values(x, higher):
    sd = np.std(x, ddof=1)
    head = ("Hmean", stats.hmean(x)) if higher else ("Amean", np.mean(x))
    values = [("Min", np.min(x)), head, ("Stddev", sd), ("CoeffVar", sd / np.mean(x) * 100),
              ("Max", np.max(x))]
    prefix = "BHmean" if higher else "BAmean"
    values += [("%s-%d" % (prefix, p), bmean(x, p, higher)) for p in (50, 95, 99)]
    return values


def check_mmtests():
    text = open(mmtests_txt).read().splitlines()
    for workload, params, metric, better, samples in rows:
        higher = better == "higher"
        per_run = {n: dict(mmtests_values(samples[n], higher)) for n in names}
        for label in per_run[names[0]]:
            line = [l for l in text if re.match(r"%s +%s " % (re.escape(label), metric), l)]
            if len(line) != 1:
                sys.exit("mmtests: no single line %s %s: %s" % (label, metric, line))
            # value (pct%) or value *pct%*: one pair per run
            pairs = re.findall(r"(-?[0-9.]+) [(*] *(-?[0-9.]+)%[)*]", line[0])
            if len(pairs) != len(names):
                sys.exit("mmtests: %s: %s" % (label, line[0]))
            base = per_run[names[0]][label]
            for n, (value, pct) in zip(names, pairs):
                ref = per_run[n][label]
                agrees(value, ref, "mmtests %s %s %s" % (label, metric, n))
                # Stddev and CoeffVar: lower is better whatever the metric
                up = higher and label not in ("Stddev", "CoeffVar")
                agrees(pct, pct_change(base, ref, up), "mmtests %s %s %s %%" % (label, metric, n))


def check_lkp():
    text = open(lkp_txt).read().splitlines()
    for workload, params, metric, better, samples in rows:
        line = [l for l in text if l.endswith("  %s.%s" % (workload, metric))]
        base = np.mean(samples[names[0]])
        moved = any(verdicts[(workload, metric, n)] in ("better", "worse") or
                    max(abs(np.mean(samples[n])), abs(base)) /
                    min(abs(np.mean(samples[n])), abs(base)) > 1.01 for n in names[1:])
        if not moved:
            if line:
                sys.exit("lkp: %s.%s shown, within 1 %%" % (workload, metric))
            continue
        if len(line) != 1:
            sys.exit("lkp: no line for %s.%s" % (workload, metric))
        cells = re.findall(r"(-?[0-9.]+) ± +([0-9]+)%", line[0])
        changes = re.findall(r"([+-][0-9.]+)%", line[0])
        if len(cells) != len(names) or len(changes) != len(names) - 1:
            sys.exit("lkp: %s" % line[0])
        for n, (mean, cv) in zip(names, cells):
            x = samples[n]
            agrees(mean, np.mean(x), "lkp mean %s %s" % (metric, n))
            agrees(cv, np.std(x, ddof=1) / np.mean(x) * 100, "lkp %%stddev %s %s" % (metric, n))
        for n, change in zip(names[1:], changes):
            agrees(change, (np.mean(samples[n]) - base) / abs(base) * 100,
                   "lkp %%change %s %s" % (metric, n))


def median_ci(x, level=0.95):
    s = np.sort(x)
    k = int(stats.binom.ppf((1 - level) / 2, len(s), 0.5))
    return s[k - 1], s[len(s) - k]


def check_benchstat():
    text = open(benchstat_txt).read().splitlines()
    for workload, params, metric, better, samples in rows:
        label = workload + "".join(" %s=%s" % kv for kv in sorted(params.items()))
        line = [l for l in text if l.startswith(label + " ")]
        if len(line) != 1:
            sys.exit("benchstat: no single line for %s: %s" % (label, line))
        cells = re.findall(r"([0-9.]+) ± ([0-9]+)%", line[0])
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
            changed = verdicts[(workload, metric, n)] in ("better", "worse")
            if changed != bool(delta):
                sys.exit("benchstat: %s %s: delta %r with verdict %s" %
                         (metric, n, delta, verdicts[(workload, metric, n)]))
            if delta:
                agrees(delta, (np.median(x) / np.median(base) - 1) * 100,
                       "benchstat delta %s %s" % (metric, n))
            ref_p = stats.mannwhitneyu(x, base, alternative="two-sided", method="exact").pvalue
            agrees(p, ref_p, "benchstat p %s %s" % (metric, n))
            if int(count) != len(x) or len(x) != len(base):
                sys.exit("benchstat: n=%s for %d and %d samples" % (count, len(base), len(x)))


check_mmtests()
check_lkp()
check_benchstat()
print(checked)
