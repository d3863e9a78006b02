#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check that every #include in src/ keeps to the layers of doc/design.md.

The table under "## Layers" of doc/design.md says, for each directory of
src/ (and main.c), its layer and the directories it may include from
("libc only", "everything below", or names). A file may include from its
own directory and from those; each of those must be of a lower layer, and
a directory that includes anything must have its row. The table under
"## The store" names the drivers, every directory of src/store/ and no
other, and says which headers of src/store/ they may include (and only
they may include from them). Prints one line per fault and exits 1 when
there is any.

usage: check_layers.py [DESIGN.md [SRC]]   (default: doc/design.md, src)
"""
import os
import re
import sys

ROW = re.compile(r"^\| (\d+) \| `([a-z_.]+?)/?`[^|]*\| ([^|]*) \|\s*$", re.M)
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/', re.M)


def layers(design):
    """{directory: (layer, allowed directories)} from the table."""
    text = open(design, encoding="utf-8").read()
    rows = ROW.findall(text[text.index("## Layers"):])
    table = {name: int(layer) for layer, name, _ in rows}
    out = {}
    for layer, name, allowed in rows:
        allowed = re.sub(r"\(.*?\)", "", allowed)
        if "everything below" in allowed:
            names = {n for n, l in table.items() if l < int(layer) and n != "main.c"}
        else:
            names = set(re.findall(r"[a-z_]+", allowed)) & set(table)
        out[name] = (int(layer), names)
    return out


def store_drivers(design):
    """(driver directories, headers of src/store/ they may include)."""
    text = open(design, encoding="utf-8").read()
    at = text.index("## The store")
    row = re.search(r"^\| (`[a-z_]+/`(?:, `[a-z_]+/`)*)[^|]*\| ([^|]*) \|\s*$",
                    text[at:], re.M)
    if not row:
        return set(), set()
    dirs = set(re.findall(r"`([a-z_]+)/`", row.group(1)))
    return dirs, set(re.findall(r"`([a-z_]+\.h)`", row.group(2)))


def store_faults(design, src):
    """Includes of src/store/ that cross its drivers' boundary."""
    drivers, allowed = store_drivers(design)
    faults = [] if drivers else ["%s: no table of the store's drivers under '## The store'"
                                 % design]
    store = os.path.join(src, "store")
    # Each directory of src/store/ is a driver (the Makefile builds them
    # all): the table names every one of them, and no other.
    found = {d for d in os.listdir(store) if os.path.isdir(os.path.join(store, d))} \
        if os.path.isdir(store) else set()
    faults += ["%s/: a driver's directory that the drivers' row under '## The store' "
               "of %s does not name" % (os.path.join(store, d), design)
               for d in sorted(found - drivers)]
    faults += ["%s: its drivers' row under '## The store' names %s/, which %s lacks"
               % (design, d, store) for d in sorted(drivers - found)]
    for root, _, files in os.walk(store):
        part = os.path.relpath(root, store).split(os.sep)[0]
        for f in sorted(files):
            if not f.endswith((".c", ".h")):
                continue
            path = os.path.join(root, f)
            text = open(path, encoding="utf-8").read()
            for inc in sorted(set(re.findall(r'^\s*#\s*include\s+"store/([^"]+)"', text,
                                             re.M))):
                inner = inc.split("/")[0] if "/" in inc else None
                if part in drivers and inner != part and inc not in allowed:
                    faults.append("%s includes store/%s: a driver may include only %s "
                                  "of src/store/ (%s, \"The store\")"
                                  % (path, inc, ", ".join(sorted(allowed)), design))
                elif part not in drivers and inner in drivers:
                    faults.append("%s includes store/%s: only its driver includes that "
                                  "(%s, \"The store\")" % (path, inc, design))
    return faults


def main():
    design = sys.argv[1] if len(sys.argv) > 1 else "doc/design.md"
    src = sys.argv[2] if len(sys.argv) > 2 else "src"
    table = layers(design)
    faults = []
    if not table:
        faults.append("%s: no table of layers under '## Layers'" % design)
    for name, (layer, allowed) in sorted(table.items()):
        for other in sorted(allowed):
            if table[other][0] >= layer:
                faults.append("%s: %s (layer %d) may include %s, of layer %d: not below it"
                              % (design, name, layer, other, table[other][0]))
    for root, _, files in os.walk(src):
        for f in sorted(files):
            if not f.endswith((".c", ".h")):
                continue
            path = os.path.join(root, f)
            rel = os.path.relpath(path, src).split(os.sep)
            room = rel[0] if len(rel) > 1 else rel[0]
            for inc in sorted(set(INCLUDE.findall(open(path, encoding="utf-8").read()))):
                if inc == room:
                    continue
                if room not in table:
                    faults.append("%s includes %s/: %s has no row in the layers of %s"
                                  % (path, inc, room, design))
                elif inc not in table[room][1]:
                    faults.append("%s includes %s/: %s (layer %d) may include only %s "
                                  "(%s, \"Layers\")" % (path, inc, room, table[room][0],
                                  ", ".join(sorted(table[room][1])) or "libc", design))
    faults += store_faults(design, src)
    for fault in faults:
        print(fault)
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
