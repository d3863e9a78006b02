#!/usr/bin/env python3
# Every option that a command's --help lists is in that command's entry of
# doc/schedperf.1 (or, for the options every command takes, in its OPTIONS
# section), and every option the man page names is one that --help lists
# (outside WORKLOADS, which names the reference tools' flags); an option
# that follows another command's name in bold ("submit --kernel") is that
# command's.
# The names an option of choices takes ("[--format text|json|csv]" in a
# usage line, read from its registry; for a --format or --style the usage
# line leaves out, the names its error lists) are each in the command's
# entry too.
# run --resume's entry names what --resume keeps, and nothing else, in its
# sentence "The plan keeps ...": the options that --resume's line of run
# --help names, made from the table of what the stored plan keeps (a short
# option there stands for its long one).
# usage: man_options.py SCHEDPERF MANPAGE; prints each mismatch, exits 1 if any.
import functools
import re
import subprocess
import sys

sp, man_path = sys.argv[1], sys.argv[2]
LONG = re.compile(r"(?<![\w-])--([a-z][a-z0-9-]*)")
SHORT = re.compile(r"(?<![\w-])-([a-zA-Z])(?![\w-])")
OPTION_LINE = re.compile(r"^  (?:-([a-zA-Z]), |    )--([a-z][a-z0-9-]*)")


@functools.cache
def sp_help(*args):
    """The standard output of schedperf ARGS, which must succeed: each
    --help is read once, though several checks read it."""
    return subprocess.run([sp, *args], capture_output=True, text=True, check=True).stdout


def options_in(text):
    return {"--" + o for o in LONG.findall(text)} | {"-" + o for o in SHORT.findall(text)}


CHOICES = re.compile(r"\[--([a-z-]+) ([a-z0-9-]+(?:\|[a-z0-9-]+)+)\]")


REFUSED = re.compile(r"unknown \w+ '\?': give (.+?) \(see ")


def help_choices(cmd, options):
    """{option: [names]} of the usage lines' choices, and of each --format or
    --style the usage line does not list, the names its error gives."""
    out = sp_help(cmd, "--help")
    found = {"--" + o: names.split("|") for o, names in CHOICES.findall(out)}
    for o in ("--format", "--style"):
        if o in options and o not in found:
            err = subprocess.run([sp, cmd, o, "?"], capture_output=True, text=True).stderr
            m = REFUSED.search(err)
            found[o] = re.split(r", | or ", m.group(1)) if m else ["(no list in: %s)" % err]
    return found


def help_options(cmd):
    out = sp_help(cmd, "--help")
    found = set()
    for line in out.splitlines():
        m = OPTION_LINE.match(line)
        if m:
            found.add("--" + m.group(2))
            if m.group(1):
                found.add("-" + m.group(1))
    return found


def help_paragraphs(cmd):
    """{--option: its help text, its wrapped lines joined} of cmd --help,
    and {-x: --option} of its short options."""
    out = sp_help(cmd, "--help")
    paragraphs, longs, current = {}, {}, None
    for line in out.splitlines():
        m = OPTION_LINE.match(line)
        if m:
            current = "--" + m.group(2)
            paragraphs[current] = line[m.end():]
            if m.group(1):
                longs["-" + m.group(1)] = current
        elif current and line.startswith("      "):
            paragraphs[current] += " " + line.strip()
        else:
            current = None
    return paragraphs, longs


KEPT = re.compile(r"The plan keeps (.*?)\.(?:\s|\Z)", re.S)


def resume_problems(commands_section):
    """What run --resume's entry gets wrong of what --resume keeps."""
    paragraphs, longs = help_paragraphs("run")
    kept = options_in(paragraphs.get("--resume", ""))
    if not kept:
        return ["run --help: its --resume line names none of the options it keeps"]
    m = re.search(r"^\.TP\n\.B run --resume(.*?)(?=^\.TP\n|\Z)", commands_section, re.M | re.S)
    said = KEPT.search(m.group(1) if m else "")
    if not said:
        return ["run --resume: its man page entry has no sentence 'The plan keeps ...' "
                "naming what --resume keeps"]
    named = {longs.get(o, o) for o in options_in(said.group(1))}
    return ([f"run --resume: its man page entry does not name {o}, which run --help "
             f"says --resume keeps" for o in sorted(kept - named)] +
            [f"run --resume: its man page entry names {o} as kept, which run --help "
             f"does not say --resume keeps" for o in sorted(named - kept)])


def commands():
    out = sp_help("help")
    listed = out.split("Commands:\n", 1)[1].split("\n\n", 1)[0]
    return [line.split()[0] for line in listed.splitlines() if line.strip()]


# The man page as plain text, split by section and, under COMMANDS, by entry.
# (Its comments are not its text.)
man = open(man_path).read().replace("\\-", "-").replace("\\(en", "-")
man = re.sub(r"^\.\\\".*\n", "", man, flags=re.M)
# A command's name in bold before an option ("\fBsubmit --kernel") names
# that command's option: kept apart by a no-break space.
cmds = commands()
man = re.sub(r"\\fB(" + "|".join(re.escape(c) for c in cmds) + r") (?=-)", "\\1\u00a0", man)
man = re.sub(r"\\f[BIRP]", "", man)
# Options of other programs the page quotes ('ulimit -f', 'perf bench sched
# pipe -T') are not schedperf's: drop a quoted command that is not ours, and
# ulimit's flags wherever they stand.
man = re.sub(r"'(?!schedperf\b)[a-z][\w.+-]* [^'\n]*'", "''", man)
man = re.sub(r"\bulimit -[a-zA-Z]\b", "ulimit", man)
sections = dict(re.findall(r"^\.SH (\S+)\n(.*?)(?=^\.SH |\Z)", man, re.M | re.S))
entries = {}
for name, body in re.findall(r"^\.TP\n\.B (\S+)(.*?)(?=^\.TP\n\.B [a-z]+\b|\Z)",
                             sections["COMMANDS"], re.M | re.S):
    entries[name] = entries.get(name, "") + body
common = options_in(sections["OPTIONS"])
# WORKLOADS maps parameters to the reference tools' own flags (schbench -m).
everywhere = options_in("".join(body for name, body in sections.items() if name != "WORKLOADS"))

problems = []
main_help = sp_help("--help")
known = options_in(main_help)
helps = {cmd: help_options(cmd) for cmd in cmds}
for cmd in cmds:
    in_help = helps[cmd]
    known |= in_help
    if cmd not in entries:
        problems.append(f"{cmd}: no entry under COMMANDS in the man page")
        continue
    # "submit --kernel" in worker's entry is submit's option: held to
    # submit's --help, not to worker's.
    others = re.compile(r"(?<![\w-])(" + "|".join(re.escape(c) for c in cmds if c != cmd) +
                        r")\u00a0(--[a-z][a-z0-9-]*)")
    for other, o in others.findall(entries[cmd]):
        if o not in helps[other]:
            problems.append(f"{cmd}: its man page entry names {other} {o}, "
                            f"which is not in {other} --help")
    in_man = options_in(others.sub(" ", entries[cmd])) | common
    for o in sorted(in_help - in_man):
        problems.append(f"{cmd}: {o} is in --help but not in its man page entry")
    for o in sorted(in_man - in_help):
        problems.append(f"{cmd}: {o} is in its man page entry but not in --help")
    for o, names in sorted(help_choices(cmd, in_help).items()):
        for n in names:
            if not re.search(r"(?<![\w-])" + re.escape(n) + r"(?![\w-])", entries[cmd]):
                problems.append(f"{cmd}: {o} {n} is in --help but not in its man page entry")
problems += resume_problems(sections["COMMANDS"])
for o in sorted(everywhere - known):
    problems.append(f"the man page names {o}, which no --help lists")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
