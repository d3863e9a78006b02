#!/usr/bin/env python3
# The names of each registry are read from it (the command line says them:
# `schedperf list`, the error of an unknown monitor or suite, compare's
# usage line), and each name is in every text that lists them by hand
# (HACKING.md, "Adding a piece"): a workload's entry under WORKLOADS of
# doc/schedperf.1 and its name in README.md's list of workloads; a
# monitor's in run --help's --monitors line, in run's entry of the man
# page and in README.md's "Per iteration" and "Profiles"; a style's in the
# paragraph of compare --help that says which version of each tool it
# follows and in README.md's list of styles; a built-in suite's in
# README.md's list (options.bats holds the man pages to it).
# usage: registry_names.py SCHEDPERF MANPAGE README; prints each name
# missing, exits 1 if any.
import re
import subprocess
import sys

sp, man_path, readme_path = sys.argv[1:4]


def out(*args):
    p = subprocess.run([sp, *args], capture_output=True, text=True)
    return p.stdout + p.stderr


def listed(text):
    """The names of "a, b, c or d" (or "(a, b)"), in order."""
    return [n for n in re.split(r", | or ", text.strip("() ")) if n]


def has(text, name):
    return re.search(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", text) is not None


def readme_item(title):
    """README.md's item "- **TITLE...", up to the next item."""
    m = re.search(r"^- \*\*" + re.escape(title) + r".*?(?=^- \*\*|^#|\Z)", readme,
                  re.M | re.S)
    return m.group(0) if m else ""


man = open(man_path).read().replace("\\-", "-")
man = re.sub(r"^\.\\\".*\n", "", man, flags=re.M)
man = re.sub(r"\\f[BIRP]", "", man)
readme = open(readme_path).read()
sections = dict(re.findall(r"^\.SH (\S+)\n(.*?)(?=^\.SH |\Z)", man, re.M | re.S))
problems = []


def need(names, what, where, text):
    if not names:
        problems.append(f"{what}: no names read from the registry")
    for name in names:
        if not has(text, name):
            problems.append(f"{what} {name}: not named in {where}")


# Workloads: `schedperf list` names each at the start of a line.
workloads = re.findall(r"^([a-z][a-z0-9-]*)$", out("list"), re.M)
entries = " ".join(re.findall(r"^\.B (.*)$", sections.get("WORKLOADS", ""), re.M))
need(workloads, "workload", "an entry under WORKLOADS of the man page", entries)
need(workloads, "workload", "README.md's **Workloads**", readme_item("Workloads"))

# Monitors: the error of an unknown one lists them all, then all and none.
m = re.search(r"\(give a comma list of (.*), or all or none alone\)",
              out("run", "--monitors", "?"))
monitors = [n for n in listed(m.group(1) if m else "") if n not in ("all", "none")]
run_help = out("run", "--help")
m = re.search(r"^      --monitors LIST(.*?)(?=^  (?:-\w, |    )--)", run_help, re.M | re.S)
need(monitors, "monitor", "run --help's --monitors line", m.group(1) if m else "")
m = re.search(r"^\.TP\n\.B run (.*?)(?=^\.TP\n\.B [a-z]+ |\Z)", sections.get("COMMANDS", ""),
              re.M | re.S)
need(monitors, "monitor", "run's entry in the man page", m.group(1) if m else "")
need(monitors, "monitor", "README.md's **Per iteration** and **Profiles**",
     readme_item("Per iteration") + readme_item("Profiles"))

# Styles: compare's usage line reads compare_styles[].
compare_help = out("compare", "--help")
m = re.search(r"\[--style ([a-z0-9|-]+)\]", compare_help)
styles = m.group(1).split("|") if m else []
m = re.search(r"^Styles reproduce (.*?)(?=\n\n)", compare_help, re.M | re.S)
need(styles, "style", "compare --help's paragraph of the tools' versions",
     m.group(1) if m else "")
need(styles, "style", "README.md's **The tables people already read**",
     readme_item("The tables people already read"))

# Built-in suites: the error of an unknown one lists them.
m = re.search(r"not a built-in suite (\([^)]*\))", out("run", "--suite", "?"))
suites = listed(m.group(1) if m else "")
m = re.search(r"Built-in suites:(.*?)\.(?:\s|\Z)", readme_item("Workloads"), re.S)
need(suites, "suite", "README.md's list of built-in suites", m.group(1) if m else "")

for p in problems:
    print(p)
sys.exit(1 if problems else 0)
