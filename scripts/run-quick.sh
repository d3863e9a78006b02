#!/bin/sh
# `make run`: the quick suite on the running kernel into the embedded store,
# then, when the store holds an earlier run under another name (the kernel
# booted before this one, say), both side by side.
# usage: scripts/run-quick.sh SCHEDPERF_BINARY
set -eu
sp=$1
name=$(uname -r)

"$sp" run --suite quick --name "$name"
previous=$("$sp" runs --format json | python3 -c '
import json, sys
name = sys.argv[1]
runs = [r for r in json.load(sys.stdin) if r["name"] != name]
# the run whose latest batch started last: the kernel tested before this one
runs.sort(key=lambda r: max(b["started"] for b in r["batches"]))
print(runs[-1]["name"] if runs else "")
' "$name")
if [ -n "$previous" ]; then
	echo
	echo "compared with the previous run in the store, '$previous':"
	"$sp" compare "$previous" "$name"
fi
